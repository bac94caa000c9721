/**
 * Parser for the Codex `apply_patch` envelope:
 *
 * ```
 * *** Begin Patch
 * *** Add File: path        (then `+` lines)
 * *** Delete File: path
 * *** Update File: path
 * *** Move to: new/path     (optional)
 * @@ optional context line  (one or more `@@` lines narrow the search, class → method)
 *  context line
 * -removed line
 * +added line
 * *** End of File           (optional: the hunk ends at the end of the file)
 * *** End Patch
 * ```
 *
 * Marker lines tolerate surrounding whitespace, and a heredoc wrapper (`apply_patch <<'EOF'`,
 * `applypatch <<'EOF'`, `<<EOF`, `<<"EOF"` … `EOF`) is accepted. A line inside an update hunk
 * whose trimmed text starts with `*** Add File: `, `*** Delete File: `, `*** Update File: ` or is
 * `*** End Patch` / `*** End of File` is read as a marker, never as file content.
 *
 * A unified diff (`git diff` output) is read by `unified.ts` into the same operations.
 *
 * @module
 */
import type { ParsedPatch, PatchChunk, PatchOperation } from "./operations.js";
import { isUnifiedDiff, parseUnifiedDiff } from "./unified.js";

const BEGIN_PATCH = "*** Begin Patch";
const END_PATCH = "*** End Patch";
const ADD_FILE = "*** Add File: ";
const DELETE_FILE = "*** Delete File: ";
const UPDATE_FILE = "*** Update File: ";
const MOVE_TO = "*** Move to: ";
const END_OF_FILE = "*** End of File";

export type { ParsedPatch, PatchChunk, PatchOperation } from "./operations.js";

/** `apply_patch <<'EOF'`, `applypatch <<EOF` (the reference accepts both names), or a bare `<<EOF`. */
const HEREDOC_OPEN = /^(?:(?:apply_patch|applypatch)\s*)?<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1\s*$/;

/**
 * Strip an `apply_patch <<'EOF'` (or `applypatch <<'EOF'`) … `EOF` heredoc wrapper; returns the
 * lines unchanged without one.
 */
function unwrapHeredoc(lines: readonly string[]): readonly string[] {
  const first = lines[0]?.trim() ?? "";
  const open = HEREDOC_OPEN.exec(first);
  if (open === null || lines.length < 4) return lines;
  const delimiter = open[2] ?? "EOF";
  const last = lines[lines.length - 1]?.trim() ?? "";
  if (!last.endsWith(delimiter)) return lines;
  return lines.slice(1, -1);
}

function isFileHeader(line: string): boolean {
  const trimmed = line.trim();
  return (
    trimmed.startsWith(ADD_FILE) ||
    trimmed.startsWith(DELETE_FILE) ||
    trimmed.startsWith(UPDATE_FILE) ||
    trimmed === END_PATCH
  );
}

/** `@@ -12,7 +12,8 @@ def f():` (unified-diff style) → `def f():`; anything else unchanged. */
const UNIFIED_RANGE = /^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$/;

/**
 * Parse the text of a patch into file operations, without touching any file: the envelope
 * above, or a unified diff (`diff --git`, `--- a/` `+++ b/` `@@`; see `unified.ts`).
 *
 * @param text - the whole patch, optionally wrapped in a heredoc; CRLF or LF line breaks.
 * @returns `{ ok: true, operations }`, or `{ ok: false, message, line }` naming the 1-based
 *   patch line at fault (messages follow the reference tool's wording; a patch wrapped in a
 *   Markdown code fence is refused saying to send it without the fence lines).
 * @example
 * ```ts
 * parsePatch("*** Begin Patch\n*** Delete File: a.txt\n*** End Patch");
 * // { ok: true, operations: [{ type: "delete", path: "a.txt", line: 2 }] }
 * ```
 */
export function parsePatch(text: string): ParsedPatch {
  const all = unwrapHeredoc(text.trim().split(/\r?\n/));
  if (isUnifiedDiff(all)) return parseUnifiedDiff(all);
  const first = all[0]?.trim();
  if (first?.startsWith("```") === true || first?.startsWith("~~~") === true) {
    return {
      ok: false,
      message: `Invalid patch: it is wrapped in a Markdown code fence ('${first.length > 40 ? `${first.slice(0, 40)}…` : first}' on line 1); send the patch text alone, without the fence lines, starting with '*** Begin Patch' (or, for a unified diff, 'diff --git a/<path> b/<path>' or '--- a/<path>')`,
      line: 1,
    };
  }
  const last = all[all.length - 1]?.trim();
  if (first !== BEGIN_PATCH) {
    return {
      ok: false,
      message:
        "Invalid patch: the first line of the patch must be '*** Begin Patch' (or, for a unified diff, 'diff --git a/<path> b/<path>' or '--- a/<path>')",
      line: 1,
    };
  }
  if (all.length < 2 || last !== END_PATCH) {
    return {
      ok: false,
      message: "Invalid patch: the last line of the patch must be '*** End Patch'",
      line: all.length,
    };
  }
  const lines = all.slice(1, -1);
  const operations: PatchOperation[] = [];
  let index = 0;
  const lineOf = (i: number): number => i + 2;
  const fail = (message: string, i: number): ParsedPatch => ({
    ok: false,
    message: `Invalid patch hunk on line ${lineOf(i)}: ${message}`,
    line: lineOf(i),
  });

  while (index < lines.length) {
    const raw = lines[index] ?? "";
    const header = raw.trim();
    if (header === "") {
      index += 1;
      continue;
    }
    if (header.startsWith(ADD_FILE)) {
      const path = header.slice(ADD_FILE.length).trim();
      const start = index;
      index += 1;
      let contents = "";
      while (index < lines.length && (lines[index] ?? "").startsWith("+")) {
        contents += `${(lines[index] ?? "").slice(1)}\n`;
        index += 1;
      }
      if (path === "") return fail("'*** Add File:' needs a path", start);
      operations.push({ type: "add", path, contents, line: lineOf(start) });
      continue;
    }
    if (header.startsWith(DELETE_FILE)) {
      const path = header.slice(DELETE_FILE.length).trim();
      if (path === "") return fail("'*** Delete File:' needs a path", index);
      operations.push({ type: "delete", path, line: lineOf(index) });
      index += 1;
      continue;
    }
    if (header.startsWith(UPDATE_FILE)) {
      const path = header.slice(UPDATE_FILE.length).trim();
      const start = index;
      if (path === "") return fail("'*** Update File:' needs a path", start);
      index += 1;
      let moveTo: string | undefined;
      const moveLine = (lines[index] ?? "").trim();
      if (moveLine.startsWith(MOVE_TO)) {
        moveTo = moveLine.slice(MOVE_TO.length).trim();
        if (moveTo === "") return fail("'*** Move to:' needs a path", index);
        index += 1;
      }
      const chunks: PatchChunk[] = [];
      while (index < lines.length) {
        const line = lines[index] ?? "";
        if (line.trim() === "") {
          index += 1;
          continue;
        }
        if (isFileHeader(line) || line.startsWith("***")) break;
        const parsed = parseChunk(lines, index, chunks.length === 0);
        if ("message" in parsed) return fail(parsed.message, parsed.index);
        chunks.push({ ...parsed.chunk, line: lineOf(index) });
        index = parsed.next;
      }
      if (chunks.length === 0) return fail(`Update file hunk for path '${path}' is empty`, start);
      operations.push(
        moveTo === undefined
          ? { type: "update", path, chunks, line: lineOf(start) }
          : { type: "update", path, moveTo, chunks, line: lineOf(start) },
      );
      continue;
    }
    return fail(
      `'${header}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'`,
      index,
    );
  }
  if (operations.length === 0) {
    return { ok: false, message: "Invalid patch: the patch has no file operations (no files were modified)", line: 1 };
  }
  return { ok: true, operations };
}

type ChunkParse =
  | { readonly chunk: Omit<PatchChunk, "line">; readonly next: number }
  | { readonly message: string; readonly index: number };

function parseChunk(lines: readonly string[], start: number, allowMissingContext: boolean): ChunkParse {
  const contexts: string[] = [];
  let index = start;
  let sawMarker = false;
  while (index < lines.length) {
    const line = (lines[index] ?? "").trimEnd();
    if (line === "@@") {
      sawMarker = true;
      index += 1;
    } else if (line.startsWith("@@ ")) {
      sawMarker = true;
      let context = (lines[index] ?? "").slice(3);
      const unified = UNIFIED_RANGE.exec(context);
      if (unified !== null) context = unified[1] ?? "";
      if (context.trim() !== "") contexts.push(context);
      index += 1;
    } else {
      break;
    }
  }
  if (!sawMarker && !allowMissingContext) {
    return {
      message: `Expected update hunk to start with a @@ context marker, got: '${lines[start] ?? ""}'`,
      index: start,
    };
  }
  const oldLines: string[] = [];
  const newLines: string[] = [];
  const sources: number[] = [];
  let endOfFile = false;
  let parsed = 0;
  for (; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (line.trim() === END_OF_FILE && !line.startsWith(" ")) {
      if (parsed === 0) return { message: "Update hunk does not contain any lines", index };
      endOfFile = true;
      index += 1;
      break;
    }
    if (isFileHeader(line)) break;
    const marker = line[0];
    if (marker === undefined || marker === " ") {
      sources.push(oldLines.length);
      oldLines.push(line.slice(1));
      newLines.push(line.slice(1));
    } else if (marker === "+") {
      sources.push(-1);
      newLines.push(line.slice(1));
    } else if (marker === "-") {
      oldLines.push(line.slice(1));
    } else {
      if (parsed === 0) {
        return {
          message: `Unexpected line found in update hunk: '${line}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)`,
          index,
        };
      }
      break;
    }
    parsed += 1;
  }
  if (parsed === 0) return { message: "Update hunk does not contain any lines", index };
  return { chunk: { contexts, oldLines, newLines, sources, endOfFile }, next: index };
}

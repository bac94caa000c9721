/**
 * Parser for unified diffs, as `git diff` and `diff -u` print them and models often write them,
 * into the same file operations as the `*** Begin Patch` envelope (so they apply with the same
 * all-or-nothing guarantee):
 *
 * ```
 * diff --git a/src/a.ts b/src/a.ts        (optional; git's extended headers follow)
 * index 3b18e51..a9c2f4e 100644
 * --- a/src/a.ts                          (--- /dev/null: a new file)
 * +++ b/src/a.ts                          (+++ /dev/null: a deleted file)
 * @@ -12,7 +12,8 @@ function f() {
 *  context line
 * -removed line
 * +added line
 * \ No newline at end of file
 * ```
 *
 * Read from git's extended headers: `new file mode`, `deleted file mode`, `rename from` and
 * `rename to` (a rename, with or without hunks); `index`, `similarity index`, `old mode` and
 * `new mode` are skipped. Paths drop git's `a/` and `b/` prefixes, a `diff -u` timestamp after a
 * tab, and C-style quotes. Without a `diff --git` line, the file changed is the one `+++` names
 * (`diff -u a.txt.orig a.txt` changes `a.txt`): only git's headers move a file. A hunk is placed by its lines, as an envelope hunk is (the line numbers
 * of its `@@` header are not trusted: models get them wrong); its counts say where it ends, and a
 * hunk whose counts are off is read to the next header. The header's old start breaks ties only
 * (lines found in several places, as `-U0` hunks often are) and places a hunk that removes and
 * keeps nothing (`@@ -3,0 +4,2 @@`: after line 3). `\ No newline at end of file` after the
 * last new line makes the file end without a line break (after an old line only: with one);
 * without it, the file's end stays as it was.
 * Binary diffs and copies are refused. A new file (`--- /dev/null`) must not exist yet: unlike the
 * envelope's Add File, it is refused (`EEXIST`) over an existing file, as `git apply` refuses it.
 *
 * @module
 */
import type { ParsedPatch, PatchChunk, PatchOperation } from "./operations.js";

/**
 * The most blank context lines a hunk at the very end of a patch may have lost to the trimming of
 * the patch text (3: the context `diff` and `git diff` write). A hunk whose header counts more
 * lines than it has is padded with blank lines only up to this many; beyond that the counts are
 * wrong (models get them wrong), and the hunk is taken as written.
 */
const MAX_TRIMMED_CONTEXT_LINES = 3;

/** `@@ -12,7 +12,8 @@ heading`: old start and count, new start and count (a count defaults to 1). */
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

const NO_NEWLINE = "\\";

/** Extended header lines of `git diff` that change nothing this tool writes. */
const SKIPPED_HEADERS = ["index ", "similarity index ", "dissimilarity index ", "old mode ", "new mode "];

/**
 * Whether a patch text (split into lines) is a unified diff: its first non-blank line starts
 * with `diff --git ` or `--- `.
 *
 * @param lines - the patch's lines.
 * @returns true for a unified diff.
 * @example
 * ```ts
 * isUnifiedDiff(["diff --git a/x b/x", "--- a/x", "+++ b/x"]); // true
 * isUnifiedDiff(["*** Begin Patch"]); // false
 * ```
 */
export function isUnifiedDiff(lines: readonly string[]): boolean {
  const first = lines.find((line) => line.trim() !== "") ?? "";
  return first.startsWith("diff --git ") || first.startsWith("--- ");
}

/** A path as a header names it: quotes and a tab-separated timestamp removed, then the prefix. */
function headerPath(raw: string, prefix: "a/" | "b/"): string {
  let path = raw;
  if (path.startsWith('"')) {
    const end = path.lastIndexOf('"');
    path = unquote(path.slice(1, end > 0 ? end : undefined));
  } else {
    const tab = path.indexOf("\t");
    if (tab >= 0) path = path.slice(0, tab);
    path = path.trimEnd();
  }
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** Git's C-style quoting: `\"`, `\\`, `\t`, `\n` and octal bytes (UTF-8) undone. */
function unquote(quoted: string): string {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  const SIMPLE: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, "\\": 92, a: 7, b: 8, f: 12, v: 11 };
  for (let index = 0; index < quoted.length; index++) {
    const char = quoted[index] as string;
    if (char !== "\\") {
      bytes.push(...encoder.encode(char));
      continue;
    }
    const next = quoted[index + 1] ?? "";
    const octal = /^[0-7]{3}/.exec(quoted.slice(index + 1));
    if (octal !== null) {
      bytes.push(Number.parseInt(octal[0], 8));
      index += 3;
    } else {
      bytes.push(SIMPLE[next] ?? next.charCodeAt(0));
      index += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The path of `diff --git a/P b/P` when both sides name one path (else undefined). */
function gitHeaderPath(line: string): string | undefined {
  const rest = line.slice("diff --git ".length);
  if (!rest.startsWith("a/")) return undefined;
  const length = (rest.length - "a/ b/".length) / 2;
  if (!Number.isInteger(length) || length <= 0) return undefined;
  const old = rest.slice(2, 2 + length);
  return rest.slice(2 + length) === ` b/${old}` ? old : undefined;
}

/** One parsed hunk, before it becomes a {@link PatchChunk} or a new file's contents. */
interface Hunk {
  readonly chunk: PatchChunk;
  /** Whether the hunk has context or `-` lines (a new file's may not). */
  readonly removesOrKeeps: boolean;
}

/**
 * Parse a unified diff into file operations, without touching any file.
 *
 * @param lines - the diff's lines (line breaks removed; a CRLF file's `"\r"` already gone).
 * @returns `{ ok: true, operations }`, or `{ ok: false, message, line }` naming the 1-based line
 *   at fault and what was expected there.
 * @example
 * ```ts
 * parseUnifiedDiff(["--- a/x.txt", "+++ b/x.txt", "@@ -1 +1 @@", "-a", "+b"]);
 * // { ok: true, operations: [{ type: "update", path: "x.txt", chunks: [...], line: 1 }] }
 * ```
 */
export function parseUnifiedDiff(lines: readonly string[]): ParsedPatch {
  const operations: PatchOperation[] = [];
  let index = 0;
  const fail = (message: string, at: number): ParsedPatch => ({
    ok: false,
    message: `Invalid unified diff on line ${at + 1}: ${message}`,
    line: at + 1,
  });
  const isPair = (at: number): boolean =>
    (lines[at] ?? "").startsWith("--- ") && (lines[at + 1] ?? "").startsWith("+++ ");

  while (index < lines.length) {
    const first = lines[index] ?? "";
    if (first.trim() === "") {
      index++;
      continue;
    }
    const start = index;
    let isNew = false;
    let isDeleted = false;
    let renameFrom: string | undefined;
    let renameTo: string | undefined;
    let gitPath: string | undefined;
    if (first.startsWith("diff --git ")) {
      gitPath = gitHeaderPath(first);
      index++;
      for (; index < lines.length; index++) {
        const line = lines[index] ?? "";
        if (line.startsWith("--- ") || line.startsWith("@@") || line.startsWith("diff --git ")) break;
        if (line.startsWith("new file mode ")) isNew = true;
        else if (line.startsWith("deleted file mode ")) isDeleted = true;
        else if (line.startsWith("rename from ")) renameFrom = headerPath(line.slice("rename from ".length), "a/");
        else if (line.startsWith("rename to ")) renameTo = headerPath(line.slice("rename to ".length), "b/");
        else if (line.startsWith("Binary files ") || line === "GIT binary patch") {
          return fail("binary diffs cannot be applied; write the file with the write tool instead", index);
        } else if (line.startsWith("copy from ") || line.startsWith("copy to ")) {
          return fail("copies cannot be applied; add the new file with its whole contents instead", index);
        } else if (!SKIPPED_HEADERS.some((header) => line.startsWith(header)) && line.trim() !== "") {
          return fail(
            `expected a git header line ('index', 'new file mode', 'deleted file mode', 'rename from', 'rename to'), '--- a/<path>' or '@@ -<line>,<count> +<line>,<count> @@', got '${line}'`,
            index,
          );
        }
      }
    } else if (!first.startsWith("--- ")) {
      return fail(
        `expected 'diff --git a/<path> b/<path>' or '--- a/<path>' to start a file's changes, got '${first}'`,
        index,
      );
    }
    let oldPath: string | undefined;
    let newPath: string | undefined;
    if ((lines[index] ?? "").startsWith("--- ")) {
      if (!(lines[index + 1] ?? "").startsWith("+++ ")) {
        return fail(`expected '+++ b/<path>' after '${lines[index]}', got '${lines[index + 1] ?? ""}'`, index + 1);
      }
      oldPath = headerPath((lines[index] ?? "").slice(4), "a/");
      newPath = headerPath((lines[index + 1] ?? "").slice(4), "b/");
      index += 2;
    }
    if (oldPath === "/dev/null") isNew = true;
    if (newPath === "/dev/null") isDeleted = true;
    // Only git's headers say "rename": a plain `diff -u a.txt.orig a.txt` changes a.txt.
    const git = first.startsWith("diff --git ");
    const path = isNew
      ? (newPath ?? renameTo ?? gitPath)
      : (renameFrom ?? (git || isDeleted ? oldPath : newPath) ?? gitPath);
    const target = renameTo ?? (isNew || isDeleted || !git ? undefined : newPath);
    if (path === undefined || path === "" || path === "/dev/null") {
      return fail("expected '--- a/<path>' and '+++ b/<path>' lines naming the file", start);
    }

    const hunks: Hunk[] = [];
    while (index < lines.length && (lines[index] ?? "").startsWith("@@")) {
      const parsed = parseHunk(lines, index, isPair);
      if ("message" in parsed) return fail(parsed.message, parsed.index);
      hunks.push(parsed.hunk);
      index = parsed.next;
    }
    const next = lines[index];
    if (next !== undefined && next.trim() !== "" && !next.startsWith("diff --git ") && !isPair(index)) {
      return fail(
        `expected a hunk header '@@ -<line>,<count> +<line>,<count> @@', the next file's 'diff --git a/<path> b/<path>' or '--- a/<path>', or the end, got '${next}'`,
        index,
      );
    }
    if (isNew && isDeleted) return fail("a file's diff cannot both create it and delete it", start);
    if (isNew) {
      const keeps = hunks.findIndex((hunk) => hunk.removesOrKeeps);
      if (keeps >= 0) {
        return fail(
          `a new file's hunk can only add lines ('+'), as it starts from nothing (--- /dev/null)`,
          (hunks[keeps]?.chunk.line ?? 1) - 1,
        );
      }
      const added = hunks.flatMap((hunk) => hunk.chunk.newLines);
      const last = hunks[hunks.length - 1]?.chunk;
      const contents = added.length === 0 ? "" : `${added.join("\n")}${last?.finalNewline === false ? "" : "\n"}`;
      operations.push({ type: "add", path, contents, line: start + 1, createOnly: true });
    } else if (isDeleted) {
      operations.push({ type: "delete", path, line: start + 1 });
    } else {
      const chunks = hunks.map((hunk) => hunk.chunk);
      const moveTo = target !== undefined && target !== path ? target : undefined;
      // A mode change alone changes nothing this tool writes.
      if (chunks.length === 0 && moveTo === undefined) continue;
      operations.push(
        moveTo === undefined
          ? { type: "update", path, chunks, line: start + 1 }
          : { type: "update", path, moveTo, chunks, line: start + 1 },
      );
    }
  }
  if (operations.length === 0) {
    return {
      ok: false,
      message:
        "Invalid unified diff: it changes no file (expected '--- a/<path>', '+++ b/<path>' and '@@ -<line>,<count> +<line>,<count> @@' hunks)",
      line: 1,
    };
  }
  return { ok: true, operations };
}

type HunkParse = { readonly hunk: Hunk; readonly next: number } | { readonly message: string; readonly index: number };

function parseHunk(lines: readonly string[], start: number, isPair: (at: number) => boolean): HunkParse {
  const header = lines[start] ?? "";
  const counts = HUNK_HEADER.exec(header);
  if (counts === null) {
    return {
      message: `expected a hunk header like '@@ -12,7 +12,8 @@' (old start,count then new start,count), got '${header}'`,
      index: start,
    };
  }
  let oldLeft = counts[2] === undefined ? 1 : Number(counts[2]);
  let newLeft = counts[4] === undefined ? 1 : Number(counts[4]);
  const oldLines: string[] = [];
  const newLines: string[] = [];
  const sources: number[] = [];
  let removesOrKeeps = false;
  let oldEndsBare = false;
  let newEndsBare = false;
  let previous = "";
  let index = start + 1;
  for (; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const marker = line[0] ?? "";
    if (marker === NO_NEWLINE) {
      if (previous === NO_NEWLINE || previous === "") {
        return {
          message: `'${line}' ${previous === "" ? "opens the hunk" : "repeats the line before it"}: '\\ No newline at end of file' comes once, right after the line it is about (the file's last old line, its last new line, or each)`,
          index,
        };
      }
      if (previous === "-" || previous === " ") oldEndsBare = true;
      if (previous === "+" || previous === " ") newEndsBare = true;
      previous = NO_NEWLINE;
      continue;
    }
    const done = oldLeft <= 0 && newLeft <= 0;
    // Counts used up: the hunk ends unless the next line is plainly more of it (counts are often off).
    if (done && !(marker === " " || marker === "+" || marker === "-")) break;
    if (line.startsWith("@@") || line.startsWith("diff --git ")) break;
    if (done && isPair(index)) break;
    if ((oldEndsBare && (marker === " " || marker === "-")) || (newEndsBare && (marker === " " || marker === "+"))) {
      return {
        message: `'${line}' follows '\\ No newline at end of file', which may only come after the file's last ${oldEndsBare && newEndsBare ? "" : oldEndsBare ? "old " : "new "}line: move the marker after the last line, or leave it out`,
        index,
      };
    }
    if (marker === " " || line === "") {
      sources.push(oldLines.length);
      oldLines.push(line.slice(1));
      newLines.push(line.slice(1));
      oldLeft--;
      newLeft--;
      removesOrKeeps = true;
    } else if (marker === "-") {
      oldLines.push(line.slice(1));
      oldLeft--;
      removesOrKeeps = true;
    } else if (marker === "+") {
      sources.push(-1);
      newLines.push(line.slice(1));
      newLeft--;
    } else {
      return {
        message: `expected a hunk line starting with ' ' (context), '-' (removed), '+' (added) or '\\' (no newline at end of file), with ${Math.max(oldLeft, 0)} old and ${Math.max(newLeft, 0)} new lines of '${header}' left, got '${line}'`,
        index,
      };
    }
    previous = marker === "" ? " " : marker;
  }
  // Blank context lines at the very end of the text were trimmed with it (at most a diff's
  // context, MAX_TRIMMED_CONTEXT_LINES: a larger count left over is a wrong header, not trimming).
  if (index >= lines.length && oldLeft > 0 && oldLeft === newLeft && oldLeft <= MAX_TRIMMED_CONTEXT_LINES) {
    for (; oldLeft > 0; oldLeft--) {
      sources.push(oldLines.length);
      oldLines.push("");
      newLines.push("");
    }
  }
  if (oldLines.length === 0 && newLines.length === 0) {
    return { message: `the hunk '${header}' has no lines`, index: start };
  }
  const endsFile = oldEndsBare || newEndsBare;
  const chunk: PatchChunk = {
    contexts: [],
    oldLines,
    newLines,
    sources,
    endOfFile: endsFile && oldLines.length > 0,
    line: start + 1,
    finalNewline: endsFile ? !newEndsBare : "keep",
    oldStart: Number(counts[1]),
  };
  return { hunk: { chunk, removesOrKeeps }, next: index };
}

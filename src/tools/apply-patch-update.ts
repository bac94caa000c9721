/**
 * Computing a file's new text from the hunks of an `*** Update File:` section, in memory.
 * Line endings are kept per line: untouched lines keep their own terminator, new lines take the
 * file's dominant one (CRLF stays CRLF). A BOM is kept. Like the reference tool, the result
 * always ends with a line break.
 *
 * @module
 */
import type { PatchChunk } from "./apply-patch-parser.js";
import { MAX_REPORTED_CANDIDATES, seekLines } from "./apply-patch-matcher.js";

/** A text split into lines, each with its own terminator (`\n`, `\r\n` or `""` for a last unterminated line). */
interface SplitText {
  readonly bom: string;
  readonly lines: string[];
  readonly endings: string[];
  /** The dominant terminator: `\r\n` when most line breaks are CRLF, else `\n`. */
  readonly eol: "\n" | "\r\n";
}

function splitText(text: string): SplitText {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = bom === "" ? text : text.slice(1);
  const lines: string[] = [];
  const endings: string[] = [];
  let crlf = 0;
  let lf = 0;
  let from = 0;
  for (;;) {
    const at = body.indexOf("\n", from);
    if (at === -1) break;
    if (at > from && body.charCodeAt(at - 1) === 13) {
      lines.push(body.slice(from, at - 1));
      endings.push("\r\n");
      crlf += 1;
    } else {
      lines.push(body.slice(from, at));
      endings.push("\n");
      lf += 1;
    }
    from = at + 1;
  }
  if (from < body.length) {
    lines.push(body.slice(from));
    endings.push("");
  }
  return { bom, lines, endings, eol: crlf > lf ? "\r\n" : "\n" };
}

/** Why a hunk could not be placed. */
export interface HunkFailure {
  readonly code: "ENOMATCH" | "EAMBIGUOUS";
  /** 1-based hunk number within the file's section. */
  readonly hunk: number;
  /** Line of the hunk in the patch text. */
  readonly patchLine: number;
  readonly message: string;
}

function quoteLines(lines: readonly string[]): string {
  return lines.map((line) => `    ${line}`).join("\n");
}

function describeHunk(chunk: PatchChunk, hunk: number): string {
  const context = chunk.contexts.length === 0 ? "" : ` (@@ ${chunk.contexts.join(" @@ ")})`;
  return `hunk ${hunk}${context}, patch line ${chunk.line}`;
}

function ambiguity(indexes: readonly number[]): string {
  const shown = indexes.slice(0, MAX_REPORTED_CANDIDATES).map((i) => String(i + 1));
  const more = indexes.length > shown.length ? ` and ${indexes.length - shown.length} more` : "";
  return `${indexes.length} places (file lines ${shown.join(", ")}${more})`;
}

/**
 * Apply the hunks of one update section to a file's text.
 *
 * Hunks are placed in order, each searched forward from the end of the previous one. `@@`
 * context lines are found first, one after another; the hunk's old lines must then follow.
 * A hunk with no old lines (pure addition) goes right after its last `@@` context line, or at
 * the end of the file when it has none.
 *
 * @param text - the file's current text (decoded, BOM included if present).
 * @param chunks - the section's hunks, in patch order.
 * @param displayPath - the file's path as the model knows it, for messages.
 * @returns the new text, or a {@link HunkFailure} naming the hunk and the lines it looked for.
 */
export function applyChunks(
  text: string,
  chunks: readonly PatchChunk[],
  displayPath: string,
): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly failure: HunkFailure } {
  const { bom, lines, endings, eol } = splitText(text);
  const replacements: Array<{ start: number; length: number; lines: readonly string[] }> = [];
  let cursor = 0;
  for (const [i, chunk] of chunks.entries()) {
    const hunk = i + 1;
    const where = `${displayPath}, ${describeHunk(chunk, hunk)}`;
    for (const context of chunk.contexts) {
      const seek = seekLines(lines, [context], cursor, false);
      if (seek.kind === "missing") {
        return {
          ok: false,
          failure: {
            code: "ENOMATCH",
            hunk,
            patchLine: chunk.line,
            message: `Could not find the @@ context line in ${where}${cursor > 0 ? ` (searching after file line ${cursor})` : ""}:\n${quoteLines([context])}`,
          },
        };
      }
      if (seek.kind === "ambiguous") {
        return {
          ok: false,
          failure: {
            code: "EAMBIGUOUS",
            hunk,
            patchLine: chunk.line,
            message: `The @@ context line matches ${ambiguity(seek.indexes)} in ${where}:\n${quoteLines([context])}\nUse a more specific @@ line (add an enclosing class or function as an earlier @@ line).`,
          },
        };
      }
      cursor = seek.index + 1;
    }
    if (chunk.oldLines.length === 0) {
      const at = chunk.contexts.length > 0 ? cursor : lines.length;
      replacements.push({ start: at, length: 0, lines: chunk.newLines });
      cursor = at;
      continue;
    }
    let pattern = chunk.oldLines;
    let replacement = chunk.newLines;
    let seek = seekLines(lines, pattern, cursor, chunk.endOfFile);
    if (seek.kind === "missing" && pattern[pattern.length - 1] === "") {
      // A trailing blank pattern line often stands for the file's final line break.
      pattern = pattern.slice(0, -1);
      if (replacement[replacement.length - 1] === "") replacement = replacement.slice(0, -1);
      seek = seekLines(lines, pattern, cursor, chunk.endOfFile);
    }
    if (seek.kind === "missing") {
      const after = cursor > 0 ? ` after file line ${cursor}` : "";
      const end = chunk.endOfFile ? " at the end of the file" : "";
      return {
        ok: false,
        failure: {
          code: "ENOMATCH",
          hunk,
          patchLine: chunk.line,
          message: `Could not find the expected lines${end}${after} in ${where}:\n${quoteLines(chunk.oldLines)}\nRead the file again and copy the context and '-' lines exactly.`,
        },
      };
    }
    if (seek.kind === "ambiguous") {
      return {
        ok: false,
        failure: {
          code: "EAMBIGUOUS",
          hunk,
          patchLine: chunk.line,
          message: `The expected lines match ${ambiguity(seek.indexes)} in ${where}:\n${quoteLines(chunk.oldLines)}\nAdd more context lines, or an @@ line naming the enclosing function or class, so the hunk matches once.`,
        },
      };
    }
    replacements.push({ start: seek.index, length: pattern.length, lines: replacement });
    cursor = seek.index + pattern.length;
  }

  // Apply from the last replacement back so earlier indexes stay valid.
  const outLines = lines.slice();
  const outEndings = endings.slice();
  const ordered = replacements
    .map((replacement, order) => ({ ...replacement, order }))
    .sort((a, b) => a.start - b.start || a.order - b.order);
  for (let r = ordered.length - 1; r >= 0; r -= 1) {
    const { start, length, lines: added } = ordered[r] ?? { start: 0, length: 0, lines: [] };
    outLines.splice(start, length, ...added);
    outEndings.splice(start, length, ...added.map(() => eol));
  }
  let result = bom;
  for (let i = 0; i < outLines.length; i += 1) {
    const ending = outEndings[i] ?? eol;
    result += (outLines[i] ?? "") + (ending === "" ? eol : ending);
  }
  return { ok: true, text: result };
}

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

/** A text split into lines (without terminators), with where each line starts in the body. */
interface SplitText {
  readonly bom: string;
  /** The text after the BOM. */
  readonly body: string;
  readonly lines: string[];
  /** `starts[i]` is the offset of line `i` in `body`; `starts[lines.length]` is `body.length`. */
  readonly starts: number[];
  /** False when the last line has no terminator. */
  readonly terminated: boolean;
  /** The dominant terminator: `\r\n` when most line breaks are CRLF, else `\n`. */
  readonly eol: "\n" | "\r\n";
}

function splitText(text: string): SplitText {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = bom === "" ? text : text.slice(1);
  const parts = body.split("\n");
  const lines: string[] = [];
  const starts: number[] = [];
  let crlf = 0;
  let offset = 0;
  for (let i = 0; i < parts.length - 1; i += 1) {
    const part = parts[i] as string;
    starts.push(offset);
    if (part.endsWith("\r")) {
      lines.push(part.slice(0, -1));
      crlf += 1;
    } else {
      lines.push(part);
    }
    offset += part.length + 1;
  }
  const tail = parts[parts.length - 1] as string;
  const terminated = tail === "";
  if (!terminated) {
    starts.push(offset);
    lines.push(tail);
  }
  starts.push(body.length);
  return { bom, body, lines, starts, terminated, eol: crlf * 2 > parts.length - 1 ? "\r\n" : "\n" };
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
  const { bom, body, lines, starts, terminated, eol } = splitText(text);
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

  // Copy the untouched stretches of the original as they are (their own line endings); new lines
  // take the file's dominant ending.
  const ordered = replacements
    .map((replacement, order) => ({ ...replacement, order }))
    .sort((a, b) => a.start - b.start || a.order - b.order);
  let result = bom;
  let position = 0;
  for (const { start, length, lines: added } of ordered) {
    if (start > position) result += body.slice(starts[position], starts[start]);
    // Inserting after the last line, which had no terminator: end it first.
    if (added.length > 0 && !terminated && result.length > bom.length && !result.endsWith("\n")) result += eol;
    for (const line of added) result += line + eol;
    position = Math.max(position, start + length);
  }
  result += body.slice(starts[position], starts[lines.length]);
  if (result.length > bom.length && !result.endsWith("\n")) result += eol;
  return { ok: true, text: result };
}

/**
 * Computing a file's new text from the hunks of an `*** Update File:` section, in memory.
 * Line endings are kept per line: untouched lines keep their own terminator, new lines take the
 * file's dominant one (CRLF stays CRLF). A BOM is kept. Like the reference tool, the result
 * always ends with a line break.
 *
 * @module
 */
import type { PatchChunk } from "./parser.js";
import { MAX_REPORTED_CANDIDATES, seekLines, type SeekOutcome } from "./matcher.js";

/** A text split into lines (without terminators), with where each line starts in the body. */
interface SplitText {
  readonly bom: string;
  /** The text after the BOM. */
  readonly body: string;
  /** How many lines (a final line break ends the last line; it does not start an empty one). */
  readonly count: number;
  /** The lines, without terminators (split on first use: the native search needs none). */
  lines(): readonly string[];
  /** `starts[i]` is the offset of line `i` in `body`; `starts[count]` is `body.length`. */
  readonly starts: readonly number[];
  /** False when the last line has no terminator. */
  readonly terminated: boolean;
  /** The dominant terminator: `\r\n` when most line breaks are CRLF, else `\n`. */
  readonly eol: "\n" | "\r\n";
  /** True when the body holds a CR anywhere (then a line's text is not its span of the body). */
  readonly hasCr: boolean;
}

function splitText(text: string): SplitText {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = bom === "" ? text : text.slice(1);
  const starts: number[] = [0];
  let crlf = 0;
  for (let at = body.indexOf("\n"); at !== -1; at = body.indexOf("\n", at + 1)) {
    if (at > 0 && body.charCodeAt(at - 1) === 13) crlf += 1;
    starts.push(at + 1);
  }
  const breaks = starts.length - 1;
  const terminated = starts[breaks] === body.length;
  if (!terminated) starts.push(body.length);
  const count = starts.length - 1;
  let lines: string[] | undefined;
  return {
    bom,
    body,
    count,
    starts,
    terminated,
    eol: crlf * 2 > breaks ? "\r\n" : "\n",
    hasCr: crlf > 0 || body.includes("\r"),
    lines() {
      if (lines === undefined) {
        const parts = body.split("\n");
        if (terminated) parts.pop();
        // Only a line followed by a line break loses its CR (an unterminated last line keeps it).
        const last = terminated ? parts.length : parts.length - 1;
        for (let i = 0; i < last && crlf > 0; i += 1) {
          const line = parts[i] as string;
          if (line.endsWith("\r")) parts[i] = line.slice(0, -1);
        }
        lines = parts;
      }
      return lines;
    },
  };
}

/**
 * The exact pass of {@link seekLines} through the native string search: for a text without CR
 * the lines `pattern` matches at line `i` are the pattern joined with `\n`, found at the start of
 * line `i` and followed by a line break or the end of the text. Returns `undefined` where it does
 * not apply or finds nothing (then {@link seekLines} runs every pass).
 */
function seekExact(split: SplitText, pattern: readonly string[], start: number): SeekOutcome | undefined {
  if (split.hasCr || pattern.length === 0 || start > split.count) return undefined;
  const needle = pattern.join("\n");
  if (needle === "") return undefined;
  const { body, starts, count } = split;
  const found: number[] = [];
  for (let at = body.indexOf(needle, starts[start]); at !== -1; at = body.indexOf(needle, at + 1)) {
    if (at > 0 && body.charCodeAt(at - 1) !== 10) continue;
    const end = at + needle.length;
    if (end < body.length && body.charCodeAt(end) !== 10) continue;
    const line = lineAt(starts, at);
    if (line + pattern.length <= count) found.push(line);
  }
  if (found.length === 1) return { kind: "found", index: found[0] as number, pass: "exact" };
  if (found.length > 1) return { kind: "ambiguous", indexes: found, pass: "exact" };
  return undefined;
}

/** The line starting at `offset` (a line start), by binary search in `starts`. */
function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** {@link seekLines}, with the exact pass done by the native string search where it applies. */
function seek(split: SplitText, pattern: readonly string[], start: number, endOfFile: boolean): SeekOutcome {
  return (
    (endOfFile ? undefined : seekExact(split, pattern, start)) ?? seekLines(split.lines(), pattern, start, endOfFile)
  );
}

/** Why a hunk could not be placed. */
export interface HunkFailure {
  readonly code: "ENOMATCH" | "EAMBIGUOUS";
  /** 1-based hunk number within the file's section. */
  readonly hunk: number;
  /** Line of the hunk in the patch text. */
  readonly patchLine: number;
  readonly message: string;
  /** `EAMBIGUOUS`: how many places the lines match. */
  readonly occurrences?: number;
  /** `EAMBIGUOUS`: the 1-based file lines of the first places (as many as the message lists). */
  readonly lines?: readonly number[];
}

/** The fields of an ambiguity: how many places, and the first ones' 1-based lines. */
function ambiguityFields(indexes: readonly number[]): { occurrences: number; lines: readonly number[] } {
  return { occurrences: indexes.length, lines: indexes.slice(0, MAX_REPORTED_CANDIDATES).map((i) => i + 1) };
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
):
  | { readonly ok: true; readonly text: string; readonly firstLine: number | undefined }
  | { readonly ok: false; readonly failure: HunkFailure } {
  const split = splitText(text);
  const { bom, body, count, starts, terminated, eol } = split;
  const replacements: Array<{ start: number; length: number; lines: readonly string[] }> = [];
  let cursor = 0;
  for (const [i, chunk] of chunks.entries()) {
    const hunk = i + 1;
    const where = (): string => `${displayPath}, ${describeHunk(chunk, hunk)}`;
    for (const context of chunk.contexts) {
      const found = seek(split, [context], cursor, false);
      if (found.kind === "missing") {
        return {
          ok: false,
          failure: {
            code: "ENOMATCH",
            hunk,
            patchLine: chunk.line,
            message: `Could not find the @@ context line in ${where()}${cursor > 0 ? ` (searching after file line ${cursor})` : ""}:\n${quoteLines([context])}`,
          },
        };
      }
      if (found.kind === "ambiguous") {
        return {
          ok: false,
          failure: {
            code: "EAMBIGUOUS",
            ...ambiguityFields(found.indexes),
            hunk,
            patchLine: chunk.line,
            message: `The @@ context line matches ${ambiguity(found.indexes)} in ${where()}:\n${quoteLines([context])}\nUse a more specific @@ line (add an enclosing class or function as an earlier @@ line).`,
          },
        };
      }
      cursor = found.index + 1;
    }
    if (chunk.oldLines.length === 0) {
      const at = chunk.contexts.length > 0 ? cursor : count;
      replacements.push({ start: at, length: 0, lines: chunk.newLines });
      cursor = at;
      continue;
    }
    let pattern = chunk.oldLines;
    let replacement = chunk.newLines;
    let found = seek(split, pattern, cursor, chunk.endOfFile);
    if (found.kind === "missing" && pattern[pattern.length - 1] === "") {
      // A trailing blank pattern line often stands for the file's final line break.
      pattern = pattern.slice(0, -1);
      if (replacement[replacement.length - 1] === "") replacement = replacement.slice(0, -1);
      found = seek(split, pattern, cursor, chunk.endOfFile);
    }
    if (found.kind === "missing") {
      const after = cursor > 0 ? ` after file line ${cursor}` : "";
      const end = chunk.endOfFile ? " at the end of the file" : "";
      return {
        ok: false,
        failure: {
          code: "ENOMATCH",
          hunk,
          patchLine: chunk.line,
          message: `Could not find the expected lines${end}${after} in ${where()}:\n${quoteLines(chunk.oldLines)}\nRead the file again and copy the context and '-' lines exactly.`,
        },
      };
    }
    if (found.kind === "ambiguous") {
      return {
        ok: false,
        failure: {
          code: "EAMBIGUOUS",
          ...ambiguityFields(found.indexes),
          hunk,
          patchLine: chunk.line,
          message: `The expected lines match ${ambiguity(found.indexes)} in ${where()}:\n${quoteLines(chunk.oldLines)}\nAdd more context lines, or an @@ line naming the enclosing function or class, so the hunk matches once.`,
        },
      };
    }
    replacements.push({ start: found.index, length: pattern.length, lines: replacement });
    cursor = found.index + pattern.length;
  }

  // Copy the untouched stretches of the original as they are (their own line endings); new lines
  // take the file's dominant ending.
  const ordered = replacements
    .map((replacement, order) => ({ ...replacement, order }))
    .sort((a, b) => a.start - b.start || a.order - b.order);
  // Pieces joined once at the end; `open`: text was written and its last character is not a line break.
  const pieces: string[] = [bom];
  let open = false;
  const append = (piece: string): void => {
    if (piece === "") return;
    pieces.push(piece);
    open = piece.charCodeAt(piece.length - 1) !== 10;
  };
  let position = 0;
  for (const { start, length, lines: added } of ordered) {
    if (start > position) append(body.slice(starts[position], starts[start]));
    // Inserting after the last line, which had no terminator: end it first.
    if (added.length > 0 && !terminated && open) append(eol);
    for (const line of added) append(line + eol);
    position = Math.max(position, start + length);
  }
  append(body.slice(starts[position], starts[count]));
  if (open) append(eol);
  // The lines before the first replacement are untouched: its start is the first changed line.
  const firstLine = ordered[0] === undefined ? undefined : ordered[0].start + 1;
  return { ok: true, text: pieces.join(""), firstLine };
}

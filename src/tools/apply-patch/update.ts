/**
 * Computing a file's new text from the hunks of an `*** Update File:` section, in memory.
 * The file's own text is kept wherever the patch changes nothing: untouched lines and the hunks'
 * context lines keep their bytes and their own terminator (`\r\n`, `\n`, or a lone `\r`, each of
 * which ends a line), even when the match folded whitespace or punctuation; only added lines take
 * the patch's text and the file's dominant terminator (CRLF stays CRLF). A BOM is kept. Like the
 * reference tool, a changed result always ends with a line break; an update that changes no
 * line's text is reported (`changed: false`) with the text as it was.
 *
 * @module
 */
import type { PatchChunk } from "./parser.js";
import { MAX_REPORTED_CANDIDATES, seekLines, type SeekOutcome } from "./matcher.js";

/** A text split into lines (without terminators), with where each line starts and ends in the body. */
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
  /** `ends[i]` is the offset where line `i`'s terminator begins (`starts[i + 1]` when it has none). */
  readonly ends: readonly number[];
  /** False when the last line has no terminator. */
  readonly terminated: boolean;
  /**
   * The dominant terminator: the most frequent of `\n`, `\r\n` and a lone `\r`; on a tie, the one
   * of the tied that ends a line first (as the reference tool does: a file with as many CRLF as LF
   * lines whose first line ends in CRLF takes CRLF).
   */
  readonly eol: "\n" | "\r\n" | "\r";
  /** True when the body holds a CR anywhere (then lines are not split on `\n` alone). */
  readonly hasCr: boolean;
}

/** Split on `\r\n`, `\n` and a lone `\r` (classic Mac OS); each line keeps its own terminator in the body. */
function splitText(text: string): SplitText {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = bom === "" ? text : text.slice(1);
  const hasCr = body.includes("\r");
  const starts: number[] = [0];
  const ends: number[] = [];
  let lf = 0;
  let crlf = 0;
  let cr = 0;
  // The line index where each kind first ends a line (Infinity: never), to break ties.
  let firstLf = Infinity;
  let firstCrlf = Infinity;
  let firstCr = Infinity;
  if (!hasCr) {
    for (let at = body.indexOf("\n"); at !== -1; at = body.indexOf("\n", at + 1)) {
      ends.push(at);
      starts.push(at + 1);
    }
    lf = ends.length;
    if (lf > 0) firstLf = 0;
  } else {
    for (let at = 0; at < body.length; at += 1) {
      const char = body.charCodeAt(at);
      if (char !== 10 && char !== 13) continue;
      const line = ends.length;
      ends.push(at);
      if (char === 10) {
        lf += 1;
        if (firstLf === Infinity) firstLf = line;
      } else if (body.charCodeAt(at + 1) === 10) {
        crlf += 1;
        if (firstCrlf === Infinity) firstCrlf = line;
        at += 1;
      } else {
        cr += 1;
        if (firstCr === Infinity) firstCr = line;
      }
      starts.push(at + 1);
    }
  }
  const terminated = starts[starts.length - 1] === body.length;
  if (!terminated) {
    ends.push(body.length);
    starts.push(body.length);
  }
  const count = starts.length - 1;
  const most = Math.max(lf, crlf, cr);
  const tied: { readonly eol: SplitText["eol"]; readonly first: number }[] = [];
  if (lf === most) tied.push({ eol: "\n", first: firstLf });
  if (crlf === most) tied.push({ eol: "\r\n", first: firstCrlf });
  if (cr === most) tied.push({ eol: "\r", first: firstCr });
  let eol: SplitText["eol"] = "\n";
  let earliest = Infinity;
  for (const candidate of tied) {
    if (candidate.first < earliest) {
      earliest = candidate.first;
      eol = candidate.eol;
    }
  }
  let lines: string[] | undefined;
  return {
    bom,
    body,
    count,
    starts,
    ends,
    terminated,
    eol,
    hasCr,
    lines() {
      if (lines === undefined) {
        lines = new Array<string>(count);
        for (let i = 0; i < count; i += 1) lines[i] = body.slice(starts[i], ends[i]);
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

/** One placed hunk: `length` file lines from `start` give way to `lines`. */
interface Replacement {
  readonly start: number;
  readonly length: number;
  readonly lines: readonly string[];
  /** Per line of `lines`: the index (from `start`) of the file line it keeps, or -1 for a new line. */
  readonly sources: readonly number[];
}

/** The outcome of {@link applyChunks}. */
export type AppliedChunks =
  | {
      readonly ok: true;
      readonly text: string;
      /** 1-based first line of the first hunk (the lines before it are untouched). */
      readonly firstLine: number | undefined;
      /** False when every hunk leaves its lines' text as it was (then `text` is the input, unchanged). */
      readonly changed: boolean;
    }
  | { readonly ok: false; readonly failure: HunkFailure };

/**
 * Apply the hunks of one update section to a file's text.
 *
 * Hunks are placed in order, each searched forward from the end of the previous one, never
 * before it. `@@` context lines are found first, one after another; the hunk's old lines must
 * then follow. A hunk with no old lines (pure addition) goes right after its last `@@` context
 * line, or at the end of the file when it has none; the search position stays where it was.
 *
 * The file's own text is kept wherever the patch does not change it: untouched lines and the
 * hunks' context lines keep their bytes and their own line terminators (also when they were
 * matched with whitespace or punctuation folded); only added lines take the patch's text and the
 * file's dominant terminator (the most frequent; on a tie, the one that ends a line first). `\r\n`, `\n` and a lone `\r` all end a line. When anything
 * changed, the result ends with a line break (as the reference tool's does).
 *
 * @param text - the file's current text (decoded, BOM included if present).
 * @param chunks - the section's hunks, in patch order.
 * @param displayPath - the file's path as the model knows it, for messages.
 * @returns the new text (with `changed: false` and the text as given when no hunk changes any
 *   line's text), or a {@link HunkFailure} naming the hunk and the lines it looked for.
 * @example
 * ```ts
 * // The hunk " a" / "-b" / "+B": the context line keeps its CRLF, the added line takes LF.
 * const chunk = { contexts: [], oldLines: ["a", "b"], newLines: ["a", "B"], sources: [0, -1], endOfFile: false, line: 3 };
 * applyChunks("a\r\nb\nc\n", [chunk], "f.txt");
 * // { ok: true, text: "a\r\nB\nc\n", firstLine: 1, changed: true }
 * ```
 */
export function applyChunks(text: string, chunks: readonly PatchChunk[], displayPath: string): AppliedChunks {
  const split = splitText(text);
  const { bom, body, count, starts, ends, eol } = split;
  const replacements: Replacement[] = [];
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
      // Without @@ context the lines are appended; the next hunk still searches from the cursor.
      // A unified diff's insertion goes after its header's old line (never before the cursor).
      const at =
        chunk.contexts.length > 0
          ? cursor
          : chunk.oldStart !== undefined
            ? Math.min(Math.max(chunk.oldStart, cursor), count)
            : count;
      replacements.push({ start: at, length: 0, lines: chunk.newLines, sources: chunk.sources });
      continue;
    }
    let pattern = chunk.oldLines;
    let replacement = chunk.newLines;
    let sources = chunk.sources;
    let found = seek(split, pattern, cursor, chunk.endOfFile);
    if (found.kind === "missing" && pattern[pattern.length - 1] === "") {
      // A trailing blank pattern line often stands for the file's final line break.
      pattern = pattern.slice(0, -1);
      if (replacement[replacement.length - 1] === "") {
        replacement = replacement.slice(0, -1);
        sources = sources.slice(0, -1);
      }
      const kept = pattern.length;
      sources = sources.map((source) => (source < kept ? source : -1));
      found = seek(split, pattern, cursor, chunk.endOfFile);
    }
    if (found.kind === "ambiguous" && chunk.oldStart !== undefined && found.indexes.includes(chunk.oldStart - 1)) {
      // A tie broken by the unified diff's header: it names one of the places the lines are.
      found = { kind: "found", index: chunk.oldStart - 1, pass: found.pass };
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
    replacements.push({ start: found.index, length: pattern.length, lines: replacement, sources });
    cursor = found.index + pattern.length;
  }

  const ordered = replacements
    .map((replacement, order) => ({ ...replacement, order }))
    .sort((a, b) => a.start - b.start || a.order - b.order);
  const firstLine = ordered[0] === undefined ? undefined : ordered[0].start + 1;
  const lineText = (line: number): string => body.slice(starts[line], ends[line]);
  const changed = ordered.some(
    ({ start, length, lines, sources }) =>
      lines.length !== length || lines.some((line, j) => sources[j] !== j && line !== lineText(start + j)),
  );
  const given = chunks[chunks.length - 1]?.finalNewline;
  const finalNewline = given === "keep" ? split.terminated : given;
  if (!changed) {
    if (finalNewline === undefined) return { ok: true, text, firstLine, changed };
    const ended = withFinalNewline(text, finalNewline, eol);
    return { ok: true, text: ended, firstLine, changed: ended !== text };
  }

  // Copy the file's own bytes for untouched stretches and kept context lines (their own line
  // endings); new lines take the file's dominant ending. Pieces are joined once at the end.
  const pieces: string[] = [bom];
  // Text was written and its last character ends no line (only the file's unterminated last line).
  let open = false;
  // The last character written is a CR (a lone CR line end).
  let cr = false;
  const append = (piece: string): void => {
    if (piece === "") return;
    if (open) pieces.push(eol);
    // A lone CR followed by an LF would read as one CRLF (two lines become one): the LF, which
    // ends an empty line, is written as a CR instead.
    const written = cr && piece.charCodeAt(0) === 10 ? `\r${piece.slice(1)}` : piece;
    pieces.push(written);
    const last = written.charCodeAt(written.length - 1);
    open = last !== 10 && last !== 13;
    cr = last === 13;
  };
  let position = 0;
  for (const { start, length, lines, sources } of ordered) {
    if (start > position) append(body.slice(starts[position], starts[start]));
    for (const [j, line] of lines.entries()) {
      const source = sources[j] ?? -1;
      append(source >= 0 ? body.slice(starts[start + source], starts[start + source + 1]) : line + eol);
    }
    position = Math.max(position, start + length);
  }
  append(body.slice(starts[position], starts[count]));
  if (open) pieces.push(eol);
  const joined = pieces.join("");
  return {
    ok: true,
    text: finalNewline === undefined ? joined : withFinalNewline(joined, finalNewline, eol),
    firstLine,
    changed,
  };
}

/** `text` ending with a line break (`eol` added when missing) or without one (its last removed). */
function withFinalNewline(text: string, finalNewline: boolean, eol: string): string {
  const last = /(?:\r\n|\n|\r)$/.exec(text);
  if (finalNewline) return last === null && text !== "" && text !== "\uFEFF" ? text + eol : text;
  return last === null ? text : text.slice(0, last.index);
}

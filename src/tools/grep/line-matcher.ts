/**
 * How grep finds the lines of a decoded text that match its expression. The reference is simple:
 * split the text at `"\r\n"`, `"\n"` and a lone `"\r"` (a trailing line end ends the last line,
 * it does not start another), and test each line alone. Two things make it faster
 * without changing the answer:
 *
 * - A leading `.*` (or `.*?`) and a trailing `.*` (or `.*?`) are dropped: `.*X` matches a line
 *   exactly when `X` does, and so does `X.*`, but the engine would try every split of the line
 *   between the wildcard and the rest (`.*a.*b` is cubic in the line length, `a.*b` quadratic).
 *   The line shown is cut around the same place as with the wildcard (see
 *   {@link LineMatcher.shownAt}).
 * - The whole text is scanned once with the `gm` flags, and only lines where the scan finds a
 *   match are tested alone. This finds every matching line as long as the expression, read at a
 *   line's position in the whole text, can do whatever it does in the line alone: its characters
 *   are the same, `^` and `$` under `m` hold at every line start and end (before a `"\r"` too),
 *   and `\b` sees a line terminator as it sees the end of a string (not a word character). A
 *   lookaround breaks that: `(?<!\s)foo` sees the `"\n"` before a line, `abc(?!\s)` the `"\r"`
 *   of a CRLF ending. An expression with a lookaround is therefore tested line by line only, and
 *   so is one with a part that may match a `"\n"` ({@link mayMatchNewline}): in the whole text
 *   a repeat of it could run across lines, quadratic in the file's size.
 *
 * Lines end where `read` ends them: at `"\n"`, `"\r\n"` or a lone `"\r"` (an old Mac line
 * ending), so line numbers agree with read's and no `"\r"` is shown (`"a\rb\nc"`: `c` is on
 * line 3). A text with a lone `"\r"` is searched with each one turned into `"\n"` (one copy of
 * the text, only for such files).
 *
 * @module
 */
import { cutIndexByChars } from "../kit/text.js";

/** An expression prepared for {@link findMatchingLines}; see {@link createLineMatcher}. */
export interface LineMatcher {
  /** The expression each line is tested with: the pattern without a leading or trailing `.*`. */
  readonly line: RegExp;
  /** {@link LineMatcher.line} with the `g` and `m` flags, for the whole-text scan; undefined when the pattern has a lookaround or a part that may match `"\n"` (then every line is tested alone). */
  readonly scan: RegExp | undefined;
  /**
   * Where the pattern as given matches in `line`, from where {@link LineMatcher.line} matched
   * (`at`): the same place, or after a leading `.*` was dropped, the start of the run of
   * characters `.` matches that holds `at` (the line's start unless a lone `"\r"`, U+2028 or
   * U+2029 comes before `at`).
   */
  shownAt(line: string, at: number): number;
  /**
   * Where a line matches, or -1: set for a pattern run by the linear-time engine (see
   * `linear-engine.ts`), which then tests every line alone instead of {@link LineMatcher.line}
   * (and {@link LineMatcher.scan} is undefined). Undefined for a pattern run by the JavaScript engine.
   */
  readonly find?: (line: string) => number;
  /**
   * With {@link LineMatcher.find}: whether the pattern can match anywhere in a whole text, `^`
   * and `$` holding at every `"\n"` (false: no line of a text without `"\r"` matches, and none
   * is tested).
   */
  readonly anywhere?: (text: string) => boolean;
}

/** The lines of a text that match, 1-based, with the text shown for each; see {@link findMatchingLines}. */
export interface MatchingLines {
  /** Line numbers (1-based, ascending) of the lines that match. */
  readonly lines: number[];
  /** For each line in {@link MatchingLines.lines}: the line, or a window of it around the match. */
  readonly texts: string[];
  /** Lines over the scan limit, skipped without being tested. */
  readonly longLines: number;
}

/** Limits of {@link findMatchingLines}, in characters. */
export interface LineLimits {
  /** Longest line shown whole; a longer one shows this many characters around the match, with `…` where cut. */
  readonly maxLineLength: number;
  /** Longest line tested (its trailing `"\r"` not counted); longer lines are skipped and counted. */
  readonly maxScanLineLength: number;
}

/**
 * The pattern without a leading `.*` or `.*?` and without a trailing `.*` or `.*?` (a `.` not
 * escaped), which change no line's answer.
 *
 * @param source - a regular expression's source.
 * @returns the source left, and whether a leading wildcard was taken off.
 * @example
 * ```ts
 * trimOuterWildcards(".*foo.*bar.*"); // { source: "foo.*bar", leading: true }
 * trimOuterWildcards("foo\\.*"); // { source: "foo\\.*", leading: false } (an escaped dot)
 * ```
 */
export function trimOuterWildcards(source: string): { source: string; leading: boolean } {
  let rest = source;
  let leading = false;
  if (rest.startsWith(".*?")) {
    rest = rest.slice(3);
    leading = true;
  } else if (rest.startsWith(".*")) {
    rest = rest.slice(2);
    leading = true;
  }
  const lazy = rest.endsWith(".*?") ? 3 : 0;
  const end = rest.length - (lazy || 2);
  if ((lazy > 0 || rest.endsWith(".*")) && end >= 0 && rest[end] === ".") {
    // The dot is a wildcard unless an odd number of backslashes escapes it.
    let backslashes = 0;
    while (end - backslashes - 1 >= 0 && rest[end - backslashes - 1] === "\\") backslashes++;
    if (backslashes % 2 === 0) rest = rest.slice(0, end);
  }
  return { source: rest, leading };
}

/**
 * Whether a regular expression's source has a lookahead or lookbehind (`(?=`, `(?!`, `(?<=`,
 * `(?<!`) outside character classes.
 *
 * @param source - a regular expression's source.
 * @returns true when it has one.
 * @example
 * ```ts
 * hasLookaround("(?<!\\s)foo"); // true
 * hasLookaround("[(?=]x"); // false
 * ```
 */
export function hasLookaround(source: string): boolean {
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === "\\") index++;
    else if (char === "[") {
      // The first unescaped `]` closes a class, even right after `[` or `[^`.
      for (index++; index < source.length && source[index] !== "]"; index++) if (source[index] === "\\") index++;
    } else if (char === "(" && source[index + 1] === "?") {
      const kind = source[index + 2] === "<" ? source[index + 3] : source[index + 2];
      if (kind === "=" || kind === "!") return true;
    }
  }
  return false;
}

/** Escapes that can stand for a `"\n"` in or out of a class: `\s`, `\W`, `\D`, `\p{…}`, `\P{…}`, `\n`, `\x0a`, `\u000a`, `\cJ`. */
const NEWLINE_ESCAPES = new Set(["s", "W", "D", "p", "P", "n", "x", "u", "c"]);
/** Escapes inside a class that, as the low end of a range, can reach `"\n"` (`[\t-\r]`, `[\0-z]`, `[\b-z]`). */
const LOW_RANGE_ESCAPES = new Set(["t", "0", "b"]);

/**
 * Whether a part of the expression may match a `"\n"` (conservative: true for anything that
 * might): the `s` flag, a negated class, an escape that can stand for one (`\s`, `\W`, `\D`,
 * `\p{…}`, `\P{…}`, `\n`, `\x`, `\u`, `\c`), a class range from a control character, or a
 * raw line break. Such an expression is not scanned across the whole text: a repeat of it could
 * run on over many lines from every start (`[^x]*y` over a 100 KB file without `x` or `y`: about
 * 7 s, quadratic in the file's size rather than a line's), so every line is tested alone.
 *
 * @param expression - the compiled expression (its `source` and `flags` are read).
 * @returns true when some part may match `"\n"`.
 * @example
 * ```ts
 * mayMatchNewline(/[^"]*secret/u); // true
 * mayMatchNewline(/function \w+\(/u); // false
 * ```
 */
export function mayMatchNewline(expression: RegExp): boolean {
  if (expression.dotAll) return true;
  const source = expression.source;
  for (let index = 0; index < source.length; index++) {
    const char = source[index] as string;
    if (char === "\n" || char === "\r" || char === "\u2028" || char === "\u2029") return true;
    if (char === "\\") {
      if (NEWLINE_ESCAPES.has(source[index + 1] ?? "")) return true;
      index++;
    } else if (char === "[") {
      index++;
      if (source[index] === "^") return true;
      // The first unescaped `]` closes a class, even right after `[`.
      for (; index < source.length && source[index] !== "]"; index++) {
        const inner = source[index] as string;
        if (inner.charCodeAt(0) <= 10 && source[index + 1] === "-") return true;
        if (inner === "\\") {
          const escape = source[index + 1] ?? "";
          if (NEWLINE_ESCAPES.has(escape)) return true;
          if (LOW_RANGE_ESCAPES.has(escape) && source[index + 2] === "-") return true;
          index++;
        }
      }
    }
  }
  return false;
}

/**
 * Prepare a grep expression for {@link findMatchingLines}: drop a leading and a trailing `.*`, and
 * decide whether the whole-text scan is exact for it (no lookaround).
 *
 * @param expression - the per-line expression (flags other than `g`, `y` and `m` are kept).
 * @returns the {@link LineMatcher}.
 * @example
 * ```ts
 * const matcher = createLineMatcher(/.*a.*b/u);
 * matcher.line.source; // "a.*b"
 * createLineMatcher(/(?<!\s)foo/u).scan; // undefined
 * ```
 */
export function createLineMatcher(expression: RegExp): LineMatcher {
  const flags = expression.flags.replace(/[gmy]/g, "");
  const trimmed = trimOuterWildcards(expression.source);
  let line = new RegExp(expression.source, flags);
  let leading = false;
  if (trimmed.source !== expression.source) {
    try {
      line = new RegExp(trimmed.source, flags);
      leading = trimmed.leading;
    } catch {
      // Not valid alone (it always is for a valid source; this keeps the pattern as given).
    }
  }
  const dotAll = expression.dotAll;
  return {
    line,
    scan: hasLookaround(line.source) || mayMatchNewline(line) ? undefined : new RegExp(line.source, `${flags}gm`),
    shownAt: (text, at) => (leading && !dotAll ? dotRunStart(text, at) : leading ? 0 : at),
  };
}

/** A `"\r"` not followed by `"\n"`: a line end of its own (as `read` counts it). */
const LONE_CR = /\r(?!\n)/;
const LONE_CR_ALL = /\r(?!\n)/g;

/** Start of the run of characters `.` matches (anything but "\r", U+2028, U+2029 in a line) that holds `at`. */
function dotRunStart(line: string, at: number): number {
  for (let index = at - 1; index >= 0; index--) {
    const code = line.charCodeAt(index);
    if (code === 13 || code === 0x2028 || code === 0x2029) return index + 1;
  }
  return 0;
}

/**
 * Number of lines of `given` longer than `max` characters, lines ending at `"\r\n"`, `"\n"` or a
 * lone `"\r"` (the same lines {@link findMatchingLines} skips).
 *
 * @param given - the decoded text.
 * @param max - the longest line allowed, in characters.
 * @returns the number of longer lines.
 */
export function countLongLines(given: string, max: number): number {
  if (given.length <= max) return 0;
  const text = LONE_CR.test(given) ? given.replace(LONE_CR_ALL, "\n") : given;
  let count = 0;
  let start = 0;
  for (let end = text.indexOf("\n"); ; end = text.indexOf("\n", start)) {
    const stop = end < 0 ? text.length : end;
    const bodyEnd = stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
    if (bodyEnd - start > max) count++;
    if (end < 0) return count;
    start = end + 1;
  }
}

/**
 * The lines of `given` that match: the same as testing each line alone (split on `"\r\n"`,
 * `"\n"` or a lone `"\r"` as `read` splits, a trailing newline starting no line) with the pattern the matcher
 * was made from. A text with no line over `maxScanLineLength` and an expression without a
 * lookaround is scanned whole first, and only lines around the scan's hits are tested; else every
 * line up to `maxScanLineLength` is tested alone.
 *
 * @param given - the decoded text.
 * @param matcher - from {@link createLineMatcher}.
 * @param limits - see {@link LineLimits}.
 * @returns the matching lines, their texts as shown, and the number of lines skipped as too long.
 * @example
 * ```ts
 * findMatchingLines("x\nfoo\n", createLineMatcher(/(?<!\s)foo/u), { maxLineLength: 500, maxScanLineLength: 20_000 });
 * // { lines: [2], texts: ["foo"], longLines: 0 }
 * ```
 */
export function findMatchingLines(given: string, matcher: LineMatcher, limits: LineLimits): MatchingLines {
  // A lone CR ends a line, as in read: made a "\n" so the rest sees only "\n" and "\r\n".
  const text = LONE_CR.test(given) ? given.replace(LONE_CR_ALL, "\n") : given;
  const longLines = countLongLines(text, limits.maxScanLineLength);
  const found = { lines: [] as number[], texts: [] as string[], longLines };
  const keep = (lineNumber: number, line: string, at: number): void => {
    found.lines.push(lineNumber);
    const shownAt = matcher.shownAt(line, at);
    found.texts.push(line.length > limits.maxLineLength ? windowAround(line, shownAt, limits.maxLineLength) : line);
  };
  // Whole text first: a line that matches alone matches there too (the line breaks around it
  // hold `^` and `$`, and `\b` sees them as it sees a line's ends), unless a "\r" ends it.
  if (matcher.anywhere !== undefined && !text.includes("\r") && !matcher.anywhere(text)) return found;
  if (longLines === 0 && matcher.scan !== undefined && matcher.find === undefined)
    scanWhole(text, matcher.scan, matcher.line, keep);
  else testEachLine(text, matcher.find ?? execIndex(matcher.line), limits.maxScanLineLength, keep);
  return found;
}

/**
 * `scan` (global, multiline) finds candidate positions in the whole text; each candidate's line
 * is then tested with `line` alone, so results are exactly the lines that match.
 */
function scanWhole(
  text: string,
  scan: RegExp,
  line: RegExp,
  keep: (lineNumber: number, line: string, at: number) => void,
): void {
  scan.lastIndex = 0;
  let match = scan.exec(text);
  let lineNumber = 1;
  let counted = 0;
  while (match !== null) {
    const at = match.index;
    // A trailing newline ends the last line; it does not start another (`^$` on "a\n" is no match).
    if (at >= text.length && (text.length === 0 || text.charCodeAt(text.length - 1) === 10)) break;
    const lineStart = at === 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
    let lineEnd = text.indexOf("\n", at);
    if (lineEnd < 0) lineEnd = text.length;
    for (let nl = text.indexOf("\n", counted); nl >= 0 && nl < lineStart; nl = text.indexOf("\n", nl + 1)) lineNumber++;
    counted = lineStart;
    const bodyEnd = lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
    const body = text.slice(lineStart, bodyEnd);
    const inLine = line.exec(body);
    if (inLine !== null) keep(lineNumber, body, inLine.index);
    if (lineEnd >= text.length) break;
    scan.lastIndex = lineEnd + 1;
    match = scan.exec(text);
  }
}

/** Where `line` (no `g` or `y` flag) matches in a line, or -1. */
function execIndex(line: RegExp): (body: string) => number {
  return (body) => line.exec(body)?.index ?? -1;
}

/** Every line tested alone with `find`, skipping lines over `maxScan` characters. */
function testEachLine(
  text: string,
  find: (line: string) => number,
  maxScan: number,
  keep: (lineNumber: number, line: string, at: number) => void,
): void {
  let lineNumber = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    lineNumber++;
    const bodyEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (bodyEnd - start <= maxScan) {
      const body = text.slice(start, bodyEnd);
      const at = find(body);
      if (at >= 0) keep(lineNumber, body, at);
    }
    start = end + 1;
  }
}

/**
 * At most `maxLength` characters of `line` around `at`, with `…` where it was cut.
 *
 * @param line - the whole line.
 * @param at - where the match starts (UTF-16 index).
 * @param maxLength - the most characters shown (code points; `…` not counted).
 * @returns the window.
 */
export function windowAround(line: string, at: number, maxLength: number): string {
  let start = Math.max(0, Math.min(at - Math.floor(maxLength / 4), line.length - maxLength));
  const code = line.charCodeAt(start);
  if (start > 0 && code >= 0xdc00 && code <= 0xdfff) start++;
  const end = start + cutIndexByChars(line.slice(start), maxLength);
  return `${start > 0 ? "…" : ""}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
}

/**
 * Finding a hunk's lines in a file: forward-only, with the reference tool's fallbacks (exact,
 * then trailing whitespace ignored, then surrounding whitespace ignored, then common Unicode
 * punctuation normalised), except that a pass matching more than one place is an ambiguity,
 * not a silent first pick.
 *
 * @module
 */

/** How strictly the lines matched, strictest first. */
export type MatchPass = "exact" | "trailing-whitespace" | "whitespace" | "punctuation";

/** What {@link seekLines} found. Indexes are 0-based line indexes into the file. */
export type SeekOutcome =
  | { readonly kind: "found"; readonly index: number; readonly pass: MatchPass }
  | { readonly kind: "ambiguous"; readonly indexes: readonly number[]; readonly pass: MatchPass }
  | { readonly kind: "missing" };

const PUNCTUATION: Readonly<Record<string, string>> = {
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u201F": '"',
  "\u00A0": " ",
  "\u2002": " ",
  "\u2003": " ",
  "\u2004": " ",
  "\u2005": " ",
  "\u2006": " ",
  "\u2007": " ",
  "\u2008": " ",
  "\u2009": " ",
  "\u200A": " ",
  "\u202F": " ",
  "\u205F": " ",
  "\u3000": " ",
};
const PUNCTUATION_PATTERN = /[\u2010-\u2015\u2212\u2018-\u201F\u00A0\u2002-\u200A\u202F\u205F\u3000]/g;

/** Trim, then map typographic dashes, quotes and spaces to their ASCII forms. */
export function normalisePunctuation(line: string): string {
  return line.trim().replace(PUNCTUATION_PATTERN, (char) => PUNCTUATION[char] ?? char);
}

const PASSES: ReadonlyArray<readonly [MatchPass, (line: string) => string]> = [
  ["exact", (line) => line],
  ["trailing-whitespace", (line) => line.trimEnd()],
  ["whitespace", (line) => line.trim()],
  ["punctuation", normalisePunctuation],
];

/** At most this many candidate places are reported for an ambiguous match. */
export const MAX_REPORTED_CANDIDATES = 5;

/**
 * Find `pattern` in `lines` at or after `start` (forward only).
 *
 * Each pass compares every candidate position; the first pass with any match decides: one
 * match is `found`, several are `ambiguous`. With `endOfFile`, only the position that ends the
 * file is tried, and only when it is at or after `start` (the search never goes back). An empty
 * pattern is found at `start`.
 *
 * @param lines - the file's lines, without line terminators.
 * @param pattern - the lines to find.
 * @param start - 0-based first line index where a match may begin.
 * @param endOfFile - the match must end at the last line.
 * @returns where the lines are, every place they are (ambiguous), or `missing`.
 * @example
 * ```ts
 * seekLines(["a", "b  ", "c"], ["b"], 0, false); // { kind: "found", index: 1, pass: "trailing-whitespace" }
 * ```
 */
export function seekLines(
  lines: readonly string[],
  pattern: readonly string[],
  start: number,
  endOfFile: boolean,
): SeekOutcome {
  if (pattern.length === 0) return { kind: "found", index: start, pass: "exact" };
  if (pattern.length > lines.length) return { kind: "missing" };
  const last = lines.length - pattern.length;
  // Never before `start`, also with `endOfFile`: lines an earlier hunk consumed are not matched again.
  if (start > last) return { kind: "missing" };
  const from = endOfFile ? last : start;
  for (const [pass, map] of PASSES) {
    const wanted = pass === "exact" ? pattern : pattern.map(map);
    const mapped: readonly string[] = pass === "exact" ? lines : lines.map(map);
    const first = wanted[0] as string;
    const found: number[] = [];
    // Candidate starts come from the native indexOf on the first line; the rest is compared here.
    for (let i = mapped.indexOf(first, from); i !== -1 && i <= last; i = mapped.indexOf(first, i + 1)) {
      let ok = true;
      for (let p = 1; p < wanted.length; p += 1) {
        if (mapped[i + p] !== wanted[p]) {
          ok = false;
          break;
        }
      }
      if (ok) found.push(i);
    }
    if (found.length === 1) return { kind: "found", index: found[0] ?? from, pass };
    if (found.length > 1) return { kind: "ambiguous", indexes: found, pass };
  }
  return { kind: "missing" };
}

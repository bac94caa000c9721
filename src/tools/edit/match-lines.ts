/**
 * How the edit messages list the lines of several matches (`line 3`, `lines 2, 5, 9`, `... and
 * N more`), shared by `edit` and the presets that restate its `EAMBIGUOUS` error from its fields.
 *
 * @module
 */
import { formatCount } from "../kit/text.js";

/**
 * The list of match lines as the edit messages show it: `2, 5, 9`, or the first few and
 * `and N more` when `lineCount` is larger than `lines` holds.
 *
 * @param lines - the first distinct 1-based lines (at most 10).
 * @param lineCount - how many distinct lines in all.
 * @returns `2, 5, 9` or `1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 1,234 more`.
 * @example
 * ```ts
 * listMatchLines([2, 5, 9], 3); // "2, 5, 9"
 * ```
 */
export function listMatchLines(lines: readonly number[], lineCount: number): string {
  const shown = lines.join(", ");
  return lineCount > lines.length ? `${shown} and ${formatCount(lineCount - lines.length)} more` : shown;
}

/**
 * Where the matches are, as the edit messages say it: `line 3`, or `lines 2, 5, 9`.
 *
 * @param lines - the first distinct 1-based lines (at most 10).
 * @param lineCount - how many distinct lines in all.
 * @returns `line 3` for one line, else `lines ` and {@link listMatchLines}.
 * @example
 * ```ts
 * matchLinesText([3], 1); // "line 3"
 * ```
 */
export function matchLinesText(lines: readonly number[], lineCount: number): string {
  return lineCount === 1 ? `line ${lines[0]}` : `lines ${listMatchLines(lines, lineCount)}`;
}

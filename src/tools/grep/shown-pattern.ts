/**
 * How grep's messages show the model's pattern and the engine's complaint about it: a long
 * pattern is cut (a 100,000-character pattern is not sent back whole), and an inline flag group
 * such as `(?i)`, which JavaScript lacks, is explained.
 *
 * @module
 */
import { formatCount } from "../kit/text.js";

/** Most characters of a pattern quoted in a message: 200. */
export const MAX_SHOWN_PATTERN_CHARS = 200;

/**
 * The pattern as a message quotes it: JSON-quoted, cut after {@link MAX_SHOWN_PATTERN_CHARS}
 * characters with its length in all.
 *
 * @param pattern - the model's pattern.
 * @returns `"TODO"`, or `"aaaa…"… (100,000 characters)` for a long one.
 * @example
 * ```ts
 * shownPattern("a".repeat(100_000)); // '"aaa…a"… (100,000 characters)' (200 a's quoted)
 * ```
 */
export function shownPattern(pattern: string): string {
  if (pattern.length <= MAX_SHOWN_PATTERN_CHARS) return JSON.stringify(pattern);
  return `${JSON.stringify(pattern.slice(0, MAX_SHOWN_PATTERN_CHARS))}… (${formatCount(pattern.length)} characters)`;
}

/**
 * The reason a pattern does not compile, without the engine's copy of the pattern
 * (`Invalid regular expression: /(/: Unterminated group` → `Unterminated group`), and with a hint
 * when the pattern holds an inline flag group (`(?i)`, `(?s)`, `(?m)`, `(?x)`), which JavaScript
 * lacks.
 *
 * @param message - the `SyntaxError`'s message.
 * @param pattern - the pattern compiled.
 * @returns the reason, followed by the hint where it applies.
 * @example
 * ```ts
 * syntaxReason("Invalid regular expression: /(?i)/: Invalid group", "(?i)");
 * // 'Invalid group. JavaScript regular expressions have no inline flags such as (?i): for a case-insensitive search set the ignoreCase option (a (?i) that starts a longer pattern is read as that); for (?s), (?m) or (?x), write the pattern without them'
 * ```
 */
export function syntaxReason(message: string, pattern: string): string {
  let reason = message;
  for (const flags of ["u", "", "i", "iu"]) {
    const echoed = `Invalid regular expression: /${pattern}/${flags}: `;
    if (message.startsWith(echoed)) {
      reason = message.slice(echoed.length);
      break;
    }
  }
  if (/\(\?[imsx-]+\)/.test(pattern)) {
    reason +=
      ". JavaScript regular expressions have no inline flags such as (?i): for a case-insensitive search set the " +
      "ignoreCase option (a (?i) that starts a longer pattern is read as that); for (?s), (?m) or (?x), write the pattern without them";
  }
  return reason;
}

/**
 * The static check that refuses grep patterns whose backtracking can hold the host for a long
 * time. JavaScript regular expressions run synchronously, so no timeout can stop one once it
 * started; the only defence is not running it.
 *
 * Three shapes are refused, found on the parse of `ret`:
 * - nested repetition, such as `(a+)+` (star height above 1, by `safe-regex2`);
 * - a repeated choice whose alternatives can start with the same character (for two literal
 *   words: one is a prefix of the other), such as `(a|a)*` or `(a|aa)+` (exponential: each run of characters splits between the alternatives many ways);
 * - adjacent unbounded repeats over characters they share, such as `a*a*` or `.*.*` (polynomial
 *   of a high degree in the line length: each repeat can give characters to the next).
 *
 * grep drops a leading and a trailing `.*` before this check (they change no line's answer), so
 * `.*a*a*b.*` is refused as `a*a*b`, and `.*.*` runs as an empty pattern.
 *
 * @module
 */
import ret from "ret";
import safeRegex from "safe-regex2";

/** `ret`'s parser: CommonJS whose `module.exports` is the tokenizer function (its types name it `default`). */
const parseRegex: (pattern: string) => unknown =
  typeof ret === "function"
    ? (ret as unknown as (pattern: string) => unknown)
    : (ret as unknown as { default: (pattern: string) => unknown }).default;
const safeRegexCheck: (pattern: string, options: { limit: number }) => boolean =
  typeof safeRegex === "function"
    ? safeRegex
    : (safeRegex as unknown as { default: (pattern: string, options: { limit: number }) => boolean }).default;

/**
 * A repeat allows "many" when its upper bound is above this (or absent): `{1,30}` is bounded
 * enough, `*`, `+` and `{2,}` are not.
 */
const MANY = 100;

/** A choice repeated more than this many times is refused when its alternatives overlap (2^10 ways at most below). */
const MANY_CHOICES = 10;

// `ret`'s token types (its `types` enum).
const ROOT = 0;
const GROUP = 1;
const POSITION = 2;
const SET = 3;
const RANGE = 4;
const REPETITION = 5;
const REFERENCE = 6;
const CHAR = 7;

/** A `ret` token, as far as this check reads it. */
interface Token {
  readonly type: number;
  readonly stack?: readonly Token[];
  readonly options?: readonly (readonly Token[])[];
  readonly followedBy?: boolean;
  readonly notFollowedBy?: boolean;
  readonly min?: number;
  readonly max?: number | null;
  readonly value?: number | string | Token;
  readonly set?: readonly Token[];
  readonly not?: boolean;
  readonly from?: number;
  readonly to?: number;
}

/** A set of characters: a union of `ret` CHAR/SET/RANGE tokens, or every character. */
type Chars = readonly Token[] | "any";

const ANY = "any";

function isLookaround(token: Token): boolean {
  return token.type === GROUP && (token.followedBy === true || token.notFollowedBy === true);
}

function alternativesOf(group: Token): readonly (readonly Token[])[] {
  return group.options ?? [group.stack ?? []];
}

function union(a: Chars, b: Chars): Chars {
  return a === ANY || b === ANY ? ANY : [...a, ...b];
}

/** True when `token` (CHAR, RANGE or SET) matches the character `code`. */
function tokenHas(token: Token, code: number): boolean {
  if (token.type === CHAR) return token.value === code;
  if (token.type === RANGE) return code >= (token.from ?? 0) && code <= (token.to ?? -1);
  if (token.type === SET) return (token.set ?? []).some((inner) => tokenHas(inner, code)) !== (token.not === true);
  return false;
}

/** Every code where membership in `token` can change (range starts and ends + 1), plus neighbours of single chars. */
function breakpoints(token: Token, into: number[]): void {
  if (token.type === CHAR && typeof token.value === "number") into.push(token.value, token.value + 1);
  else if (token.type === RANGE) into.push(token.from ?? 0, (token.to ?? 0) + 1);
  else if (token.type === SET) for (const inner of token.set ?? []) breakpoints(inner, into);
}

function caseVariants(code: number): number[] {
  const char = String.fromCodePoint(code);
  return [code, char.toLowerCase().codePointAt(0) ?? code, char.toUpperCase().codePointAt(0) ?? code];
}

/**
 * True when one character is in both sets. Membership is constant between breakpoints, so
 * testing every breakpoint (and 0) of both sets is exact; with `ignoreCase` their case variants
 * are tested too.
 */
function overlaps(a: Chars, b: Chars, ignoreCase: boolean): boolean {
  if (a === ANY || b === ANY) return (a === ANY || a.length > 0) && (b === ANY || b.length > 0);
  if (a.length === 0 || b.length === 0) return false;
  const points = [0];
  for (const token of [...a, ...b]) breakpoints(token, points);
  const has = (chars: readonly Token[], code: number): boolean =>
    (ignoreCase ? caseVariants(code) : [code]).some((variant) => chars.some((token) => tokenHas(token, variant)));
  return points.some((code) => code >= 0 && code <= 0x10ffff && has(a, code) && has(b, code));
}

/** Whether `token` can match the empty string. */
function nullable(token: Token): boolean {
  if (token.type === POSITION || token.type === REFERENCE || isLookaround(token)) return true;
  if (token.type === REPETITION) return token.min === 0 || nullable(token.value as Token);
  if (token.type === GROUP) return alternativesOf(token).some((alternative) => alternative.every(nullable));
  return false;
}

/** The characters a match of `sequence` can start with. */
function firstChars(sequence: readonly Token[]): Chars {
  let chars: Chars = [];
  for (const token of sequence) {
    chars = union(chars, firstCharsOf(token));
    if (!nullable(token)) break;
  }
  return chars;
}

function firstCharsOf(token: Token): Chars {
  if (token.type === CHAR || token.type === SET) return [token];
  if (token.type === REFERENCE) return ANY;
  if (token.type === REPETITION) return firstCharsOf(token.value as Token);
  if (token.type === GROUP && !isLookaround(token)) {
    return alternativesOf(token).reduce<Chars>((chars, alternative) => union(chars, firstChars(alternative)), []);
  }
  return [];
}

/** Every character `token` can consume. */
function charsOf(token: Token): Chars {
  if (token.type === CHAR || token.type === SET) return [token];
  if (token.type === REFERENCE) return ANY;
  if (token.type === REPETITION) return charsOf(token.value as Token);
  if (token.type === GROUP && !isLookaround(token)) {
    let chars: Chars = [];
    for (const alternative of alternativesOf(token))
      for (const inner of alternative) chars = union(chars, charsOf(inner));
    return chars;
  }
  return [];
}

/**
 * Whether two alternatives of a choice can overlap: for two literal words, when one is a prefix
 * of the other (`a|aa`, not `foo|for`); else when they can start with the same character.
 */
function overlapAlternatives(a: readonly Token[], b: readonly Token[], ignoreCase: boolean): boolean {
  const word = (tokens: readonly Token[]): string | undefined =>
    tokens.every((token) => token.type === CHAR)
      ? String.fromCodePoint(...tokens.map((token) => token.value as number))
      : undefined;
  const wordA = word(a);
  const wordB = word(b);
  if (wordA === undefined || wordB === undefined) return overlaps(firstChars(a), firstChars(b), ignoreCase);
  const [x, y] = ignoreCase ? [wordA.toLowerCase(), wordB.toLowerCase()] : [wordA, wordB];
  return x.length > 0 && y.length > 0 && (x.startsWith(y) || y.startsWith(x));
}

/** A repetition's upper bound, through the `{0,1}` wrapper `ret` puts around a lazy `*?`. */
function upperBound(token: Token): number {
  const max = token.max ?? Number.POSITIVE_INFINITY;
  const inner = token.value as Token;
  return inner.type === REPETITION ? max * upperBound(inner) : max;
}

/** The tokens of `sequence` with plain groups spread out and zero-width tokens dropped, in order. */
function spread(sequence: readonly Token[], into: Token[]): Token[] {
  for (const token of sequence) {
    if (token.type === POSITION || isLookaround(token)) continue;
    if (token.type === GROUP && token.options === undefined) spread(token.stack ?? [], into);
    else into.push(token);
  }
  return into;
}

type Risk = "choice" | "adjacent";

/** The first risky shape in `sequence` and everything under it. */
function findRisk(sequence: readonly Token[], ignoreCase: boolean): Risk | undefined {
  const flat = spread(sequence, []);
  for (let i = 0; i + 1 < flat.length; i++) {
    const a = flat[i] as Token;
    const b = flat[i + 1] as Token;
    if (
      a.type === REPETITION &&
      b.type === REPETITION &&
      upperBound(a) > MANY &&
      upperBound(b) > MANY &&
      overlaps(charsOf(a), charsOf(b), ignoreCase)
    ) {
      return "adjacent";
    }
  }
  for (const token of sequence) {
    const risk = tokenRisk(token, ignoreCase);
    if (risk !== undefined) return risk;
  }
  return undefined;
}

function tokenRisk(token: Token, ignoreCase: boolean): Risk | undefined {
  if (token.type === REPETITION) {
    let body = token.value as Token;
    while (body.type === GROUP && body.options === undefined && body.stack?.length === 1) body = body.stack[0] as Token;
    if (body.type === GROUP && body.options !== undefined && upperBound(token) > MANY_CHOICES) {
      const options = body.options;
      for (let i = 0; i < options.length; i++) {
        for (let j = i + 1; j < options.length; j++) {
          if (overlapAlternatives(options[i] as Token[], options[j] as Token[], ignoreCase)) return "choice";
        }
      }
    }
    return tokenRisk(token.value as Token, ignoreCase);
  }
  if (token.type === GROUP || token.type === ROOT) {
    for (const alternative of alternativesOf(token)) {
      const risk = findRisk(alternative, ignoreCase);
      if (risk !== undefined) return risk;
    }
  }
  return undefined;
}

/**
 * Why a grep pattern is refused before it runs, or undefined when it may run. Refused: nested
 * repetition (`(a+)+`, `(\w*)*`); a choice repeated more than 10 times whose alternatives can
 * start with the same character (`(a|a)*`, `(a|aa)+`, `(\w|\d)+`; of two literal words, one a
 * prefix of the other, so `(foo|for)+` passes); two adjacent repeats with no
 * upper bound (or one above 100) over characters they share (`a*a*`, `.*.*`, `\w+\d+`). Common
 * patterns such as `foo.*bar`, `(get|set)Value`, `\w+\s*=` and `a{1,30}b` pass. A pattern `ret`
 * cannot parse (lookbehind, say) is not refused.
 *
 * @param pattern - the regular expression source that will run (no slashes, no flags).
 * @param ignoreCase - whether it runs case-insensitively (then `a*A*` overlaps). Default false.
 * @param shown - the pattern named in the message, when the model sent another form of it (grep
 *   checks its pattern without a leading and trailing `.*`). Default `pattern`.
 * @returns undefined for a pattern that may run, else the message for the model, naming the shape
 *   and how to rewrite it.
 * @example
 * ```ts
 * riskyPatternReason("foo.*bar"); // undefined
 * riskyPatternReason(".*.*=x"); // 'grep input pattern ".*.*=x" was refused: it puts ...'
 * ```
 */
export function riskyPatternReason(pattern: string, ignoreCase = false, shown = pattern): string | undefined {
  let root: Token;
  try {
    root = parseRegex(pattern) as Token;
  } catch {
    return undefined;
  }
  const refused = `grep input pattern ${JSON.stringify(shown)} was refused: `;
  if (!safeRegexCheck(pattern, { limit: Number.POSITIVE_INFINITY })) {
    return (
      `${refused}it nests repetition (a quantified group containing a quantifier, like \`(a+)+\` or \`(.*x)*\`), ` +
      "which can backtrack for exponential time on a line that nearly matches. Simplify it: drop the outer quantifier " +
      "(`a+` instead of `(a+)+`), or search for a fixed part of the text."
    );
  }
  const risk = tokenRisk(root, ignoreCase);
  if (risk === "choice") {
    return (
      `${refused}it repeats a choice whose alternatives can start with the same character (like \`(a|aa)+\` or \`(\\w|\\d)*\`), ` +
      "which can backtrack for exponential time on a line that nearly matches. Make the alternatives exclusive " +
      "(`a+` instead of `(a|aa)+`, `\\w*` instead of `(\\w|\\d)*`), or search for a fixed part of the text."
    );
  }
  if (risk === "adjacent") {
    return (
      `${refused}it puts unbounded repeats over the same characters next to each other (like \`.*.*\` or \`\\w+\\d*\`), ` +
      "which can backtrack for a very long time on a long line. Merge them into one (`.*` instead of `.*.*`), " +
      "put a fixed character between them, or make their characters differ (`\\w+\\s*`)."
    );
  }
  return undefined;
}

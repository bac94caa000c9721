/**
 * The static check of grep patterns whose backtracking can hold the host for a long time.
 * JavaScript regular expressions run synchronously, so no timeout can stop one once it started;
 * the defences are not running it on the JavaScript engine, or running it only on short lines.
 *
 * grep uses this check to choose the engine: a pattern with none of the shapes below runs on the
 * JavaScript engine (the fast one); a pattern with any of them runs on the linear-time engine
 * (`linear-engine.ts`, re2js), unless it has a lookaround or a backreference, which that engine
 * lacks: then the first four shapes are refused (with {@link riskyPatternReason}'s message) and
 * `"separated"` runs on the JavaScript engine on lines up to 1,000 characters. A false positive
 * therefore costs speed only (the pattern runs on re2js, 1.5 to 3 times slower over a tree),
 * not a refusal, so the check need not grow finer; a false negative would let the JavaScript
 * engine backtrack, so it must stay sound.
 *
 * Shapes found on the parse of `ret` (see {@link patternRisk}):
 * - nested repetition, such as `(a+)+` (star height above 1, by `safe-regex2`);
 * - a repeated choice whose alternatives can start with the same character (for two literal
 *   words: one is a prefix of the other), such as `(a|a)*` or `(a|aa)+` (exponential: each run of characters splits between the alternatives many ways);
 * - adjacent unbounded repeats over characters they share, such as `a*a*` or `.*.*` (polynomial
 *   of a high degree in the line length: each repeat can give characters to the next);
 * - three or more unbounded repeats over characters they share, each reaching the next over
 *   text it can match itself, such as `a.*b.*c.*d` (the fourth power of the line length or more:
 *   `a.*a.*a.*b` took 1.8 s on a line of 400 `a`s, Node 22, load 5);
 * - two such repeats, the second not ending the pattern, such as `import.*from.*\d` or
 *   `\w+_\w+$` (cubic in the line length: for each start, the first repeat stops at every
 *   copy of the text between them, and from each the second runs to the end of the line). grep
 *   runs these, on lines up to `CUBIC_PATTERN_SCAN_LINE_LENGTH` characters (see grep.ts for the
 *   measures behind it): models send such patterns all the time.
 *
 * Pieces that can match the empty string (`x?`, `\s?`, `x*`, `(?:x|y)?`, `.{0,3}`, lookarounds)
 * do not separate two repeats: `a*x?a*b` and `\w+\s?\w+\(` are two repeats reaching each other
 * over nothing. They cost what the separated shape costs, not more, so they are separated (run
 * on lines up to 1,000 characters), and three of them (`a*x?a*x?a*b`) are chained. Measured on
 * `"a"` × 999 + `"!"`, side by side (Node 22, load 3 to 7): `a.*a.*b` 225 ms, `a*a*b` 219 ms,
 * `a*x?a*b` 213 ms, `\w+\s?\w+\(` 215 ms, `a*(?:x|y)?a*b` 216 ms, `a+.{0,3}a+b` 857 ms (its
 * `.{0,3}` tries 4 lengths at each split), `a*x?a*x?a*b` 58 s; at 2,000 characters 1.3 s,
 * 1.6 s, 1.6 s, 1.7 s, 2.1 s and 6.8 s (at the default 20,000: about 30 minutes for `a*x?a*b`).
 * A bounded repeat over characters the first repeat shares with a bound above 3 (`.{0,10}`,
 * `.{1,100}`) counts as one more repeat of the chain: it multiplies the cost by its bound; so do
 * small bounded repeats that can match nothing whose ways multiply to more than 4
 * (`\w+.{0,3}\w+x?\(`: 4 × 2). `x{0}`
 * matches nothing and is dropped (`a*x{0}a*b` is adjacent, like `a*a*b`).
 *
 * grep drops a leading and a trailing `.*` before this check (they change no line's answer),
 * so `.*foo.*bar.*` runs as `foo.*bar` and is none of these.
 *
 * @module
 */
import ret from "ret";
import safeRegex from "safe-regex2";
import { shownPattern } from "./shown-pattern.js";

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

/**
 * A bounded repeat between two unbounded ones (or after one) whose upper bound is above this
 * counts as one more repeat of their chain: `a+.{0,3}a+b` is separated, `a+.{0,10}a+b` chained.
 */
const MANY_WAYS = 3;

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
    if (token.type === POSITION || isLookaround(token) || (token.type === REPETITION && token.max === 0)) continue;
    if (token.type === GROUP && token.options === undefined) spread(token.stack ?? [], into);
    else into.push(token);
  }
  return into;
}

function isUnbounded(token: Token): boolean {
  return token.type === REPETITION && upperBound(token) > MANY;
}

function isChoice(token: Token): boolean {
  return token.type === GROUP && token.options !== undefined && !isLookaround(token);
}

/** The token a sequence ends with, looking into plain groups (a `$` or a lookaround counts). */
function lastToken(sequence: readonly Token[]): Token | undefined {
  const last = sequence[sequence.length - 1];
  if (last?.type === GROUP && last.options === undefined && !isLookaround(last)) return lastToken(last.stack ?? []);
  return last;
}

/**
 * Lengths of the longest chains of unbounded repeats in one sequence, where each repeat of a
 * chain can reach the next over text it can match itself (`a.*b.*c`: `.*` reaches the second
 * `.*` over `b`). A chain of one repeat costs at most the square of the line length, of two the
 * cube, of three the fourth power: each repeat stops at every place the next can start.
 */
class Chains {
  /** By flattened sequence (one per sequence, see {@link Chains.flat}, so one `last` each), then start index. */
  private readonly memo = new Map<readonly Token[], Map<number, number>>();
  private readonly weights = new Map<Token, number>();
  private readonly flats = new Map<readonly Token[], readonly Token[]>();

  constructor(private readonly ignoreCase: boolean) {}

  /** `sequence` spread (see {@link spread}), the same array each time. */
  flat(sequence: readonly Token[]): readonly Token[] {
    let flat = this.flats.get(sequence);
    if (flat === undefined) this.flats.set(sequence, (flat = spread(sequence, [])));
    return flat;
  }

  /**
   * The longest chain starting at `flat[i]`. `last`: a repeat that ends the whole pattern (not
   * even `$` after it), which stops at its first character and so adds no factor.
   */
  at(flat: readonly Token[], i: number, last: Token | undefined): number {
    let row = this.memo.get(flat);
    if (row === undefined) this.memo.set(flat, (row = new Map()));
    const known = row.get(i);
    if (known !== undefined) return known;
    const first = flat[i] as Token;
    const own = isUnbounded(first) ? (first === last ? 0 : 1) : isChoice(first) ? this.weight(first) : 0;
    let rest = 0;
    if (own > 0) {
      const chars = charsOf(first);
      // Bounded repeats passed over that the first overlaps, each adding a factor of its bound.
      let links = 0;
      // Walk on while the first can also match what lies between, or it can be empty.
      for (let j = i + 1; j < flat.length; j++) {
        const next = flat[j] as Token;
        const shared = overlaps(chars, charsOf(next), this.ignoreCase);
        if (shared) {
          // A repeat right after the first is the "adjacent" shape, found on its own.
          if (isUnbounded(next) && j > i + 1 && next !== last) rest = Math.max(rest, links + this.at(flat, j, last));
          else if (isChoice(next) && this.entry(next, chars) > 0) rest = Math.max(rest, links + this.at(flat, j, last));
          else if (next.type === REPETITION && !isUnbounded(next) && upperBound(next) > MANY_WAYS) {
            links++;
            rest = Math.max(rest, links);
          }
        }
        if (!nullable(next) && !shared) break;
      }
    }
    row.set(i, own + rest);
    return own + rest;
  }

  /**
   * The longest chain in `sequence` (`atEnd`: nothing follows it in the pattern), one longer when
   * the small bounded repeats around it multiply to more than `MANY_WAYS + 1` ways (see
   * {@link smallWays}).
   */
  longest(sequence: readonly Token[], atEnd: boolean): number {
    const flat = this.flat(sequence);
    const last = atEnd ? lastToken(sequence) : undefined;
    let best = 0;
    for (let i = 0; i < flat.length; i++) best = Math.max(best, this.at(flat, i, last));
    return best > 0 && smallWays(flat) > MANY_WAYS + 1 ? best + 1 : best;
  }

  /** The longest chain inside any alternative of a choice. */
  private weight(choice: Token): number {
    let weight = this.weights.get(choice);
    if (weight === undefined) {
      weight = 0;
      for (const alternative of alternativesOf(choice)) weight = Math.max(weight, this.longest(alternative, false));
      this.weights.set(choice, weight);
    }
    return weight;
  }

  /** The longest chain a repeat over `chars` reaches inside `choice` (over text it can match). */
  private entry(choice: Token, chars: Chars): number {
    let best = 0;
    for (const alternative of alternativesOf(choice)) {
      const flat = this.flat(alternative);
      for (let k = 0; k < flat.length; k++) {
        const token = flat[k] as Token;
        if ((isUnbounded(token) || isChoice(token)) && overlaps(chars, charsOf(token), this.ignoreCase))
          best = Math.max(best, this.at(flat, k, undefined));
        if (!nullable(token) && !overlaps(chars, charsOf(token), this.ignoreCase)) break;
      }
    }
    return best;
  }
}

/**
 * The product of the ways of the small bounded repeats of a sequence that can match nothing
 * (`x?`: 2, `.{0,3}`: 4): wherever they stand, each tries its lengths at every step of a chain's
 * backtracking, multiplying its cost. `a+.{0,3}a+b` has 4 and stays separated; `\w+.{0,3}\w+x?\(`
 * and `.{0,3}a*.{0,3}a*\(` have 8 and 16 and count as chained, as one bounded repeat with a
 * bound above {@link MANY_WAYS} does. One that must match something (`\d{1,3}`) anchors where it
 * stands and is left out: `\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}.*GET.*404` stays separated.
 */
function smallWays(flat: readonly Token[]): number {
  let ways = 1;
  for (const token of flat) {
    if (token.type !== REPETITION || isUnbounded(token) || (token.min ?? 0) > 0) continue;
    const upper = upperBound(token);
    if (upper <= MANY_WAYS) ways *= upper + 1;
  }
  return ways;
}

/**
 * What {@link patternRisk} finds, from the worst: `"nested"`, `"choice"`, `"adjacent"`,
 * `"chained"` (three or more repeats in a chain) and `"separated"` (two). grep runs any of them
 * on the linear-time engine; with a lookaround or a backreference it refuses the first four and
 * runs `"separated"` with a lower line limit.
 */
export type PatternRisk = "nested" | "choice" | "adjacent" | "chained" | "separated";

type Risk = Exclude<PatternRisk, "nested">;

/** The worse of two risks: any refused shape before `"separated"`. */
function worse(a: Risk | undefined, b: Risk | undefined): Risk | undefined {
  return a === undefined || a === "separated" ? (b ?? a) : a;
}

/** The worst risky shape in `sequence` and everything under it; `atEnd`: nothing follows `sequence`. */
function findRisk(sequence: readonly Token[], ignoreCase: boolean, atEnd: boolean, chains: Chains): Risk | undefined {
  const flat = spread(sequence, []);
  for (let i = 0; i + 1 < flat.length; i++) {
    const a = flat[i] as Token;
    const b = flat[i + 1] as Token;
    if (isUnbounded(a) && isUnbounded(b) && overlaps(charsOf(a), charsOf(b), ignoreCase)) return "adjacent";
  }
  const chain = chains.longest(sequence, atEnd);
  let found: Risk | undefined = chain >= 3 ? "chained" : chain === 2 ? "separated" : undefined;
  for (const token of sequence) {
    if (found !== undefined && found !== "separated") return found;
    found = worse(found, tokenRisk(token, ignoreCase, chains));
  }
  return found;
}

function tokenRisk(token: Token, ignoreCase: boolean, chains: Chains): Risk | undefined {
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
    return tokenRisk(token.value as Token, ignoreCase, chains);
  }
  let found: Risk | undefined;
  if (token.type === GROUP || token.type === ROOT) {
    for (const alternative of alternativesOf(token)) {
      found = worse(found, findRisk(alternative, ignoreCase, token.type === ROOT, chains));
      if (found !== undefined && found !== "separated") return found;
    }
  }
  return found;
}

/**
 * The backtracking shape of a grep pattern, found on its parse, or undefined for one whose cost
 * grows at most with the square of the line length:
 * - `"nested"`: nested repetition (`(a+)+`, `(\w*)*`);
 * - `"choice"`: a choice repeated more than 10 times whose alternatives can start with the same
 *   character (`(a|a)*`, `(a|aa)+`, `(\w|\d)+`; of two literal words, one a prefix of the
 *   other, so `(foo|for)+` passes);
 * - `"adjacent"`: two adjacent repeats with no upper bound (or one above 100) over characters
 *   they share (`a*a*`, `.*.*`, `\w+\d+`);
 * - `"chained"`: three or more such repeats, each reaching the next over text it can match
 *   itself (`a.*b.*c.*d`, `\w+_\w+_\w+$`): the fourth power of the line length or more;
 * - `"separated"`: two of them (`a.*b.*c`, `import.*from.*\d`, `function.*\(.*\)`,
 *   `\w+_\w+$`): the cube of the line length. A last repeat with nothing at all after it (not
 *   even `$`) stops at its first character and is not counted, so `a.*b.*` and `\w+_\w+` are
 *   undefined, as is `[^(]*\(.*x` (the first repeat cannot cross the `(`). Pieces that can match
 *   the empty string do not separate repeats: `a*x?a*b`, `\w+\s?\w+\(` and `a+.{0,3}a+b` are
 *   separated, `a*x?a*x?a*b` chained; a bounded repeat sharing characters with a bound above 3
 *   counts as a repeat (`a+.{0,10}a+b` is chained, `a+.{0,100}b` separated).
 *
 * A pattern `ret` cannot parse (lookbehind, say) gives undefined.
 *
 * @param pattern - the regular expression source that will run (no slashes, no flags).
 * @param ignoreCase - whether it runs case-insensitively (then `a*A*` overlaps). Default false.
 * @returns the worst shape found (a refused one before `"separated"`), or undefined.
 * @example
 * ```ts
 * patternRisk("foo.*bar"); // undefined
 * patternRisk("import.*from.*\\d"); // "separated"
 * patternRisk("(a|aa)+"); // "choice"
 * ```
 */
export function patternRisk(pattern: string, ignoreCase = false): PatternRisk | undefined {
  let root: Token;
  try {
    root = parseRegex(pattern) as Token;
  } catch {
    return undefined;
  }
  if (!safeRegexCheck(pattern, { limit: Number.POSITIVE_INFINITY })) return "nested";
  return tokenRisk(root, ignoreCase, new Chains(ignoreCase));
}

/**
 * Why a pattern may not run on the JavaScript engine, or undefined when it may: the message for
 * the shapes {@link patternRisk} finds that would be refused there (`"nested"`, `"choice"`,
 * `"adjacent"`, `"chained"`). grep refuses with it only a pattern the linear-time engine cannot
 * run either (one with a lookaround or a backreference). Common patterns such as `foo.*bar`, `import.*from`, `(get|set)Value`, `\w+\s*=`
 * and `a{1,30}b` pass, and so do those with two unbounded repeats and text between them
 * (`a.*b.*c`, `"separated"`), which grep runs with a lower line limit. A pattern `ret` cannot
 * parse (lookbehind, say) is not refused.
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
 * riskyPatternReason("a.*b.*c"); // undefined (runs with a lower line limit)
 * riskyPatternReason(".*.*=x"); // 'grep input pattern ".*.*=x" was refused: it puts ...'
 * ```
 */
export function riskyPatternReason(pattern: string, ignoreCase = false, shown = pattern): string | undefined {
  const risk = patternRisk(pattern, ignoreCase);
  const refused = `grep input pattern ${shownPattern(shown)} was refused: `;
  switch (risk) {
    case "nested":
      return (
        `${refused}it nests repetition (a quantified group containing a quantifier, like \`(a+)+\` or \`(.*x)*\`), ` +
        "which can backtrack for exponential time on a line that nearly matches. Simplify it: drop the outer quantifier " +
        "(`a+` instead of `(a+)+`), or search for a fixed part of the text."
      );
    case "choice":
      return (
        `${refused}it repeats a choice whose alternatives can start with the same character (like \`(a|aa)+\` or \`(\\w|\\d)*\`), ` +
        "which can backtrack for exponential time on a line that nearly matches. Make the alternatives exclusive " +
        "(`a+` instead of `(a|aa)+`, `\\w*` instead of `(\\w|\\d)*`), or search for a fixed part of the text."
      );
    case "adjacent":
      return (
        `${refused}it puts unbounded repeats over the same characters next to each other (like \`.*.*\` or \`\\w+\\d*\`), ` +
        "which can backtrack for a very long time on a long line. Merge them into one (`.*` instead of `.*.*`), " +
        "put a fixed character between them, or make their characters differ (`\\w+\\s*`)."
      );
    case "chained":
      return (
        `${refused}it chains three or more unbounded repeats over the same characters with only text they can match between them ` +
        "(like `a.*b.*c.*d`), which can backtrack for a very long time even on a line of a few hundred characters. " +
        "Keep at most two of them (`a.*b.*c`), bound the others (`.{0,100}` instead of `.*`), or put after a repeat " +
        "a character it cannot match (`[^(]*\\(`)."
      );
    default:
      return undefined;
  }
}

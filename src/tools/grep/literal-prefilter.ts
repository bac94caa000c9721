/**
 * grep's byte prefilter. Most files of a tree hold no match, and for them decoding the bytes to
 * text and running the expression is the whole cost of a search. A pattern usually names some
 * text that every match must contain (`createRequire`, `function \w+\(` → `function `); a file
 * whose bytes are ASCII and do not contain it cannot match, so it is neither decoded nor
 * searched. The test is one pass over the bytes, four at a time.
 *
 * A file that is not all ASCII is ruled out too once it is known to be valid UTF-8 (grep still
 * names a file that is not), except under `ignoreCase` for a literal with a `k` or an `s`:
 * `/k/iu` matches U+212A KELVIN SIGN and `/s/iu` U+017F LONG S, the only non-ASCII characters
 * that match ASCII ones.
 *
 * @module
 */

/** Shortest required literal worth looking for first, in characters: 3 (1 when it holds punctuation, like the `(` of `\w+\(`). */
export const MIN_PREFILTER_LITERAL_LENGTH = 3;

/**
 * What {@link BytePrefilter.scan} found in a file's bytes:
 * - `maybe`: the literal is there (or the file is not ASCII and, under `ignoreCase`, the literal
 *   has a `k` or an `s`, which U+212A KELVIN SIGN and U+017F LONG S match): decode and search;
 * - `none`: all ASCII, without the literal: no line can match;
 * - `none-if-utf8`: not all ASCII, without the literal: no line can match if the bytes are valid
 *   UTF-8 (ASCII bytes never occur inside a multi-byte character); a file that is not still has
 *   to be named as such.
 */
export type PrefilterVerdict = "maybe" | "none" | "none-if-utf8";

/** A quick test of a file's bytes against a pattern; see {@link createBytePrefilter}. */
export interface BytePrefilter {
  /** The literal every match contains (lower-cased under `ignoreCase`). */
  readonly literal: string;
  /** One pass over `bytes`, four at a time: see {@link PrefilterVerdict}. */
  scan(bytes: Uint8Array): PrefilterVerdict;
}

/** ASCII punctuation an escape turns into itself (`\.`, `\(`, `\/`, `\-` ...). */
function isPunctuation(char: string): boolean {
  const code = char.charCodeAt(0);
  return code >= 0x21 && code <= 0x7e && !/[0-9A-Za-z_]/.test(char);
}

/** Index just past the escape that starts at `at` (a backslash followed by a letter or digit). */
function skipEscape(pattern: string, at: number): number {
  const kind = pattern[at + 1];
  let next = at + 2;
  const through = (close: string): number => {
    const end = pattern.indexOf(close, next);
    return end < 0 ? pattern.length : end + 1;
  };
  switch (kind) {
    case "p":
    case "P":
      return pattern[next] === "{" ? through("}") : next;
    case "u":
      return pattern[next] === "{" ? through("}") : next + 4;
    case "x":
      return next + 2;
    case "c":
      return next + 1;
    case "k":
      return pattern[next] === "<" ? through(">") : next;
    default:
      while (next < pattern.length && /[0-9]/.test(pattern[next] as string)) next++;
      return next;
  }
}

/**
 * Index just past the character class that starts at `at` (`[...]`, escapes inside it skipped).
 * As in every JavaScript expression, the first unescaped `]` closes it, even right after `[` or
 * `[^`: `[]` matches nothing and `[^]` any character.
 */
function skipClass(pattern: string, at: number): number {
  let index = at + 1;
  if (pattern[index] === "^") index++;
  while (index < pattern.length && pattern[index] !== "]") index += pattern[index] === "\\" ? 2 : 1;
  return index + 1;
}

/**
 * The longest run of ASCII text that every match of `expression` contains, read from its source:
 * plain characters and escaped punctuation outside groups and classes, not followed by a
 * quantifier. Anything else ends a run; a `|` outside groups means there is none.
 *
 * Only an expression compiled with the `u` flag is read. Without it, JavaScript's
 * legacy syntax makes `\x`, `\u`, `\c`, `\p` and `\k` identity or partial escapes and
 * `{`, `}` and `]` plain characters, so a span skipped as one escape may hide a `|` or a `(`
 * (`\x|abcd` matches a line holding `x`): such an expression has no required literal here.
 *
 * @param expression - the compiled expression (its `source` and `flags` are read).
 * @returns the literal, or undefined when none of at least {@link MIN_PREFILTER_LITERAL_LENGTH}
 *   characters (or a shorter one with punctuation, `(` for `\w+\(`) is required, or the
 *   expression lacks the `u` flag.
 * @example
 * ```ts
 * requiredLiteral(/function \w+\(/u); // "function "
 * requiredLiteral(/\w+\(/u); // "("
 * requiredLiteral(/foo|bar/u); // undefined
 * requiredLiteral(/abcd\-/); // undefined (not compiled with `u`)
 * ```
 */
export function requiredLiteral(expression: RegExp): string | undefined {
  if (!expression.unicode) return undefined;
  const pattern = expression.source;
  let best = "";
  let run = "";
  let depth = 0;
  const endRun = (): void => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (let index = 0; index < pattern.length;) {
    const char = pattern[index] as string;
    if (char === "\\") {
      const next = pattern[index + 1];
      if (next === undefined) return undefined;
      if (isPunctuation(next)) {
        if (depth === 0) run += next;
        index += 2;
      } else {
        endRun();
        index = skipEscape(pattern, index);
      }
      continue;
    }
    switch (char) {
      case "[":
        endRun();
        index = skipClass(pattern, index);
        continue;
      case "(":
        endRun();
        depth++;
        break;
      case ")":
        endRun();
        depth = Math.max(0, depth - 1);
        break;
      case "|":
        if (depth === 0) return undefined;
        break;
      case "?":
      case "*":
      case "+":
      case "{":
        // The character before a quantifier may be absent or repeated: not part of a run.
        run = run.slice(0, -1);
        endRun();
        if (char === "{") {
          const close = pattern.indexOf("}", index);
          if (close > index && /^\{\d+(,\d*)?\}$/.test(pattern.slice(index, close + 1))) index = close;
        }
        break;
      default: {
        const code = char.charCodeAt(0);
        if (depth > 0) break;
        if (code < 0x20 || code >= 0x7f || char === "^" || char === "$" || char === "." || char === "}" || char === "]")
          endRun();
        else run += char;
      }
    }
    index++;
  }
  endRun();
  // A shorter run is kept when it holds punctuation (`\w+\(` needs a `(`): rarer than letters,
  // and the patterns around it (`\w+`) are the ones V8 is slowest on where it is missing.
  return best.length >= MIN_PREFILTER_LITERAL_LENGTH || (best !== "" && /[^0-9A-Za-z_ ]/.test(best)) ? best : undefined;
}

const LOWERCASE_BIT = 0x20;

function isUpper(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}

function isLower(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

/**
 * How common a byte is in source code and prose, roughly (lower is rarer): the prefilter scans
 * for the literal's rarest byte and checks the literal around each hit.
 */
function commonness(code: number): number {
  if (code === 0x20) return 9;
  if ("etaoinsr".includes(String.fromCharCode(code))) return 8;
  if ("(){};.,=/\"'-_:".includes(String.fromCharCode(code))) return 7;
  if (isLower(code)) return "qzjxkvw".includes(String.fromCharCode(code)) ? 3 : 6;
  if (code >= 0x30 && code <= 0x39) return 5;
  if (isUpper(code)) return "QZJXKVWY".includes(String.fromCharCode(code)) ? 1 : 4;
  return 2;
}

/**
 * Build the prefilter for a grep expression.
 *
 * @param expression - the expression as grep compiles it (see `compileGrepPattern`); its `i`
 *   flag means letters match without case, and without the `u` flag there is no prefilter (see
 *   {@link requiredLiteral}).
 * @returns a {@link BytePrefilter}, or undefined when the expression requires no literal of at
 *   least {@link MIN_PREFILTER_LITERAL_LENGTH} characters (every file then takes the general way).
 * @example
 * ```ts
 * const prefilter = createBytePrefilter(/createRequire/u)!;
 * prefilter.scan(new TextEncoder().encode("import x from 'y';\n")); // "none"
 * ```
 */
export function createBytePrefilter(expression: RegExp): BytePrefilter | undefined {
  const found = requiredLiteral(expression);
  if (found === undefined) return undefined;
  const ignoreCase = expression.ignoreCase;
  const literal = ignoreCase ? found.toLowerCase() : found;
  const needle = Uint8Array.from(literal, (char) => char.charCodeAt(0));
  let anchorAt = 0;
  for (let index = 1; index < needle.length; index++) {
    if (commonness(needle[index] as number) < commonness(needle[anchorAt] as number)) anchorAt = index;
  }
  const anchor = needle[anchorAt] as number;
  // Under ignoreCase a letter anchor is looked for with the lower-case bit set on every byte.
  const foldAnchor = ignoreCase && isLower(anchor);
  const anchorWord = Math.imul(anchor, 0x01010101);
  const foldWord = foldAnchor ? Math.imul(LOWERCASE_BIT, 0x01010101) : 0;

  const literalAt = (bytes: Uint8Array, start: number): boolean => {
    if (start < 0 || start + needle.length > bytes.length) return false;
    for (let index = 0; index < needle.length; index++) {
      let code = bytes[start + index] as number;
      if (ignoreCase && isUpper(code)) code |= LOWERCASE_BIT;
      if (code !== needle[index]) return false;
    }
    return true;
  };
  const anchorHere = (code: number): boolean => (foldAnchor ? code | LOWERCASE_BIT : code) === anchor;
  const otherScripts: PrefilterVerdict = ignoreCase && /[ks]/.test(literal) ? "maybe" : "none-if-utf8";

  return {
    literal,
    scan(bytes) {
      const length = bytes.length;
      let high = 0;
      let index = 0;
      const head = Math.min(length, (4 - (bytes.byteOffset & 3)) & 3);
      for (; index < head; index++) {
        const code = bytes[index] as number;
        high |= code;
        if (anchorHere(code) && literalAt(bytes, index - anchorAt)) return "maybe";
      }
      const words = (length - index) >> 2;
      if (words > 0) {
        const view = new Int32Array(bytes.buffer, bytes.byteOffset + index, words);
        for (let word = 0; word < words; word++) {
          const value = view[word] as number;
          high |= value;
          // A zero byte in (value ^ anchor in every byte) is the anchor somewhere in this word.
          const x = (value | foldWord) ^ anchorWord;
          if (((x - 0x01010101) & ~x & 0x80808080) !== 0) {
            const at = index + (word << 2);
            for (let k = at; k < at + 4; k++) {
              if (anchorHere(bytes[k] as number) && literalAt(bytes, k - anchorAt)) return "maybe";
            }
          }
        }
        index += words << 2;
      }
      for (; index < length; index++) {
        const code = bytes[index] as number;
        high |= code;
        if (anchorHere(code) && literalAt(bytes, index - anchorAt)) return "maybe";
      }
      return (high & 0x80808080) === 0 ? "none" : otherScripts;
    },
  };
}

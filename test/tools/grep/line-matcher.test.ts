import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  countLongLines,
  createLineMatcher,
  findMatchingLines,
  hasLookaround,
  mayMatchNewline,
  trimOuterWildcards,
  windowAround,
} from "../../../src/tools/grep/line-matcher.js";
import { compileGrepPattern } from "../../../src/tools/grep/index.js";

const WIDE = { maxLineLength: 500, maxScanLineLength: 20_000 };

/** The expression grep runs for `pattern`. */
const compiled = (pattern: string, ignoreCase = false): RegExp => {
  const re = compileGrepPattern(pattern, ignoreCase);
  if (typeof re === "string") throw new Error(re);
  return re;
};

/**
 * The reference: split as read splits, on "\r\n", "\n" or a lone "\r" (a trailing line end
 * starts no line), skip lines over `maxScanLineLength`, and test each of the rest alone with the
 * pattern as given (its `.*` kept); a long line shows a window around where it matched.
 */
function reference(
  text: string,
  re: RegExp,
  limits: { maxLineLength: number; maxScanLineLength: number },
): { lines: number[]; texts: string[]; longLines: number } {
  // As read.ts splits a text with a lone CR.
  const lines = text === "" ? [] : text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  const found = { lines: [] as number[], texts: [] as string[], longLines: 0 };
  lines.forEach((line, index) => {
    if (line.length > limits.maxScanLineLength) {
      found.longLines++;
      return;
    }
    const match = new RegExp(re.source, re.flags).exec(line);
    if (match === null) return;
    found.lines.push(index + 1);
    found.texts.push(line.length > limits.maxLineLength ? windowAround(line, match.index, limits.maxLineLength) : line);
  });
  return found;
}

describe("trimOuterWildcards", () => {
  it.each([
    [".*foo.*bar.*", "foo.*bar", true],
    [".*?foo.*?", "foo", true],
    ["foo.*", "foo", false],
    [".*", "", true],
    [".*.*", "", true],
    ["foo\\.*", "foo\\.*", false],
    ["foo\\\\.*", "foo\\\\", false],
    ["^.*foo", "^.*foo", false],
    ["(.*)foo", "(.*)foo", false],
    ["foo.+", "foo.+", false],
  ] as const)("%s → %s", (source, rest, leading) => {
    expect(trimOuterWildcards(source)).toEqual({ source: rest, leading });
  });
});

describe("hasLookaround", () => {
  it.each([
    ["(?<!\\s)foo", true],
    ["(?<=a)b", true],
    ["abc(?!\\s)", true],
    ["a(?=b)", true],
    ["[(?=]x", false],
    ["\\(?=x", false],
    ["(?:a)(?<name>b)", false],
    ["[]](?=x)", true],
  ] as const)("%s → %s", (source, expected) => {
    expect(hasLookaround(source)).toBe(expected);
  });
});

describe("mayMatchNewline", () => {
  it.each([
    ['[^"]*secret', "u", true],
    ["\\s+foo", "u", true],
    ["a\\Wb", "u", true],
    ["a\\Db", "u", true],
    ["\\p{L}+x", "u", true],
    ["a\\nb", "u", true],
    ["a\\x0ab", "u", true],
    ["[\\t-\\r]x", "u", true],
    ["[\\sx]", "u", true],
    ["a.b", "su", true],
    ["function \\w+\\(", "u", false],
    ["a.*b", "u", false],
    ["[a-z]+\\d\\S", "u", false],
    ["[\\t ]x", "u", false],
    ["\\[^x\\]", "u", false],
    ["[]^x", "u", false],
  ] as const)("/%s/%s → %s", (source, flags, expected) => {
    expect(mayMatchNewline(new RegExp(source, flags))).toBe(expected);
  });

  it("a pattern that may match a line break is tested line by line, with the same lines as the reference", () => {
    // `[^x]*y` over the whole text would run from every start to the end of the text (quadratic
    // in the file's size); line by line it stays within each line.
    const matcher = createLineMatcher(compiled("[^x]*y"));
    expect(matcher.scan).toBeUndefined();
    const text = `${"abcdefghij\n".repeat(3)}ab y\n${"abcdefghij\n".repeat(2)}`;
    expect(findMatchingLines(text, matcher, WIDE)).toEqual({ lines: [4], texts: ["ab y"], longLines: 0 });
  });
});

describe("createLineMatcher", () => {
  it("drops a leading and a trailing `.*`, and scans the whole text only without a lookaround", () => {
    const matcher = createLineMatcher(compiled(".*a.*b.*"));
    expect([matcher.line.source, matcher.line.flags, matcher.scan?.source, matcher.scan?.flags]).toEqual([
      "a.*b",
      "u",
      "a.*b",
      "gmu",
    ]);
    expect(createLineMatcher(compiled("(?<=a)b")).scan).toBeUndefined();
    expect(createLineMatcher(compiled(".*(?!x)", true)).line.flags).toBe("iu");
  });
});

describe("findMatchingLines", () => {
  it("gives the same lines and texts as testing each line alone with the pattern as given (property: leading and trailing `.*`, lookarounds, anchors, CRLF and lone CR)", () => {
    const piece = fc.constantFrom(
      "a",
      "b",
      " ",
      ".",
      "\\s",
      "\\S",
      "\\b",
      "[^a]",
      "a*",
      "b?",
      "^",
      "$",
      "\\r",
      "(?<=a)",
      "(?<!\\s)",
      "(?=\\s)",
      "(?!b)",
      "(?<=\\r)",
      "(a|b)",
    );
    const wildcard = fc.constantFrom("", "", ".*", ".*?");
    const pattern = fc
      .tuple(wildcard, fc.array(piece, { minLength: 1, maxLength: 5 }), wildcard)
      .map(([head, body, tail]) => `${head}${body.join("")}${tail}`);
    const text = fc
      .array(fc.constantFrom("a", "b", " ", "ab", "\n", "\r\n", "\r", "\u2028"), { maxLength: 24 })
      .map((parts) => parts.join(""));
    const seen = { matched: 0, trimmed: 0, long: 0, perLine: 0, scanned: 0 };
    fc.assert(
      fc.property(
        pattern,
        text,
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 2, max: 30 }),
        fc.boolean(),
        (source, haystack, maxLineLength, maxScanLineLength, ignoreCase) => {
          const re = compiled(source, ignoreCase);
          const limits = { maxLineLength, maxScanLineLength };
          const matcher = createLineMatcher(re);
          const found = findMatchingLines(haystack, matcher, limits);
          const expected = reference(haystack, re, limits);
          if (expected.lines.length > 0) seen.matched++;
          if (matcher.line.source !== re.source) seen.trimmed++;
          if (expected.longLines > 0) seen.long++;
          if (matcher.scan === undefined) seen.perLine++;
          else if (expected.longLines === 0) seen.scanned++;
          expect({ source, haystack, ...found }).toEqual({ source, haystack, ...expected });
        },
      ),
      { numRuns: 4000 },
    );
    // The property met every kind of case (a sanity check of the generator, not of the matcher).
    expect({
      matched: seen.matched > 1000,
      trimmed: seen.trimmed > 1000,
      long: seen.long > 200,
      perLine: seen.perLine > 500,
      scanned: seen.scanned > 500,
    }).toEqual({ matched: true, trimmed: true, long: true, perLine: true, scanned: true });
  });

  it("tests a pattern with a lookaround on each line alone: the line break is not there to see", () => {
    // (?<=a)b across a line boundary: the whole text has "a\nb", but no line holds "ab".
    expect(findMatchingLines("a\nb\n", createLineMatcher(compiled("(?<=a)b")), WIDE)).toEqual({
      lines: [],
      texts: [],
      longLines: 0,
    });
    expect(findMatchingLines("a\nab\n", createLineMatcher(compiled("(?<=a)b")), WIDE)).toEqual({
      lines: [2],
      texts: ["ab"],
      longLines: 0,
    });
    // The "\n" before a line is whitespace in the whole text, not in the line.
    expect(findMatchingLines("x\nfoo\n", createLineMatcher(compiled("(?<!\\s)foo")), WIDE)).toEqual({
      lines: [2],
      texts: ["foo"],
      longLines: 0,
    });
    // The "\r" of a CRLF ending is not part of the line.
    expect(findMatchingLines("abc\r\nabc \r\n", createLineMatcher(compiled("abc(?!\\s)")), WIDE)).toEqual({
      lines: [1],
      texts: ["abc"],
      longLines: 0,
    });
  });

  it("does not count a CRLF line's `\\r` toward the long-line limit", () => {
    expect(countLongLines("abc\r\nabcd\r\nab\n", 3)).toBe(1);
    expect(countLongLines("abc\r\n", 3)).toBe(0);
    expect(countLongLines("abcd", 3)).toBe(1);
    expect(
      findMatchingLines("abc\r\nabcd\r\nab\r\n", createLineMatcher(compiled("ab")), {
        maxLineLength: 500,
        maxScanLineLength: 3,
      }),
    ).toEqual({ lines: [1, 3], texts: ["abc", "ab"], longLines: 1 });
  });

  it("shows a long line around where the pattern as given matches, its `.*` dropped or not", () => {
    const line = `${"x".repeat(30)}NEEDLE${"y".repeat(30)}`;
    const limits = { maxLineLength: 12, maxScanLineLength: 20_000 };
    // `.*NEEDLE` matches from the line's start, so the window starts there too.
    expect(findMatchingLines(`${line}\n`, createLineMatcher(compiled(".*NEEDLE")), limits).texts).toEqual([
      `${"x".repeat(12)}…`,
    ]);
    expect(findMatchingLines(`${line}\n`, createLineMatcher(compiled("NEEDLE.*")), limits).texts).toEqual([
      `…xxxNEEDLEyyy…`,
    ]);
    // After a U+2028, `.` stops: `.*NEEDLE` matches from just after it (index 21; the window
    // starts a quarter of its width before).
    expect(
      findMatchingLines(`${"x".repeat(20)}\u2028${line}\n`, createLineMatcher(compiled(".*NEEDLE")), limits).texts,
    ).toEqual([`…xx\u2028${"x".repeat(9)}…`]);
    // A lone CR ends the line: the match is on line 2, from its start.
    expect(findMatchingLines(`${"x".repeat(20)}\r${line}\n`, createLineMatcher(compiled(".*NEEDLE")), limits)).toEqual({
      lines: [2],
      texts: [`${"x".repeat(12)}…`],
      longLines: 0,
    });
  });

  it("ends lines where read does: at a lone `\\r`, `\\r\\n` or `\\n`, no `\\r` shown", () => {
    // read shows "alpha\rbeta\rgamma\r" as three lines; so does grep.
    expect(findMatchingLines("alpha\rbeta\rgamma\r", createLineMatcher(compiled("a")), WIDE)).toEqual({
      lines: [1, 2, 3],
      texts: ["alpha", "beta", "gamma"],
      longLines: 0,
    });
    expect(findMatchingLines("a\rb\nc\n", createLineMatcher(compiled("^b$")), WIDE)).toEqual({
      lines: [2],
      texts: ["b"],
      longLines: 0,
    });
    expect(findMatchingLines("a\rb\r\nc\r\n", createLineMatcher(compiled("c$")), WIDE)).toEqual({
      lines: [3],
      texts: ["c"],
      longLines: 0,
    });
    // CRLF only: the trailing "\r" is taken off, not shown.
    expect(findMatchingLines("x\r\nyb\r\n", createLineMatcher(compiled("b$")), WIDE)).toEqual({
      lines: [2],
      texts: ["yb"],
      longLines: 0,
    });
    // Long lines are counted the same way: "abcd" and "efgh" are two lines of 4.
    expect(countLongLines("abcd\refgh", 3)).toBe(2);
    expect(countLongLines("abc\rdef\r", 3)).toBe(0);
  });
});

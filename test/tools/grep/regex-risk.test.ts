import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { trimOuterWildcards } from "../../../src/tools/grep/line-matcher.js";
import { patternRisk, riskyPatternReason } from "../../../src/tools/grep/regex-risk.js";

const CHOICE =
  "it repeats a choice whose alternatives can start with the same character (like `(a|aa)+` or `(\\w|\\d)*`), " +
  "which can backtrack for exponential time on a line that nearly matches. Make the alternatives exclusive " +
  "(`a+` instead of `(a|aa)+`, `\\w*` instead of `(\\w|\\d)*`), or search for a fixed part of the text.";
const ADJACENT =
  "it puts unbounded repeats over the same characters next to each other (like `.*.*` or `\\w+\\d*`), " +
  "which can backtrack for a very long time on a long line. Merge them into one (`.*` instead of `.*.*`), " +
  "put a fixed character between them, or make their characters differ (`\\w+\\s*`).";

const CHAINED =
  "it chains three or more unbounded repeats over the same characters with only text they can match between them " +
  "(like `a.*b.*c.*d`), which can backtrack for a very long time even on a line of a few hundred characters. " +
  "Keep at most two of them (`a.*b.*c`), bound the others (`.{0,100}` instead of `.*`), or put after a repeat " +
  "a character it cannot match (`[^(]*\\(`).";

const refused = (pattern: string, why: string): string =>
  `grep input pattern ${JSON.stringify(pattern)} was refused: ${why}`;

describe("riskyPatternReason", () => {
  it.each(["(a|a)*$", "(a|aa)+$", "(a|b|ab)*c", "(\\w|\\d)+$", "(?:foo|fo)+x", "x|((a|ab))*y", '(\\\\.|[^"])*"'])(
    "refuses the repeated overlapping choice %s",
    (pattern) => {
      expect(riskyPatternReason(pattern)).toBe(refused(pattern, CHOICE));
    },
  );

  it.each([
    "a*a*a*a*a*a*a*b",
    ".*.*.*.*.*.*=x",
    "a*a*b",
    ".*.*",
    "(.*)(.*)x",
    ".*?.*?x",
    "\\w+\\d+",
    ".*\\b.*x",
    "a+a{2,}",
  ])("refuses the adjacent overlapping repeats %s", (pattern) => {
    expect(riskyPatternReason(pattern)).toBe(refused(pattern, ADJACENT));
  });

  it.each([
    "foo.*bar",
    "(get|set)Value",
    "\\w+\\s*=",
    "function \\w+\\(",
    "(foo|for)+x",
    "(foo|bar)+",
    "TODO|FIXME",
    "^\\s*#.*",
    "import .* from",
    "\\d+\\.\\d+",
    '[^"]*"',
    '"(\\\\.|[^"\\\\])*"',
    "\\s*\\w+\\s*",
    "a*b*c",
    "a*A*b",
    "a{1,30}a{1,30}a{1,30}b",
    "(a|aa){1,5}",
    "(a|)*",
    "^$",
    "(?<=a)b+",
    "\\p{L}+",
  ])("accepts %s", (pattern) => {
    expect(riskyPatternReason(pattern)).toBeUndefined();
  });

  it.each(["a.*b.*c.*d", "\\w+_\\w+_\\w+$", "x.*b(?:.*c.*d|q)", "a.*(?:b.*c|d)e.*f", "import.*\\{.*\\}.*from"])(
    "refuses the chain of three unbounded repeats %s",
    (pattern) => {
      expect(patternRisk(pattern)).toBe("chained");
      expect(riskyPatternReason(pattern)).toBe(refused(pattern, CHAINED));
    },
  );

  // Two unbounded repeats with text between: cubic, run with a lower line limit, not refused.
  it.each([
    "a.*b.*c",
    "import.*from.*\\d",
    "function.*\\(.*\\)",
    "\\w+_\\w+$",
    "\\w+_\\w+_\\w+",
    "a.*b.*$",
    "(?:a.*b.*)x",
    "a.*(b|c).*d",
    "(a.*b.*c|x)",
    "a.*x?.*b",
    "\\w+(?:\\s.*y.*z|q)",
  ])("classifies %s as separated and lets it run", (pattern) => {
    expect(patternRisk(pattern)).toBe("separated");
    expect(riskyPatternReason(pattern)).toBeUndefined();
  });

  it.each(["a.*b.*", "\\w+_\\w+", "[^(]*\\(.*x", "a.{0,100}b.{0,100}c", "a.*b", "import .* from"])(
    "finds nothing in %s (a last repeat that ends the pattern, or one that cannot cross the text)",
    (pattern) => {
      expect(patternRisk(pattern)).toBeUndefined();
    },
  );

  it("reports a refused shape found after a separated one", () => {
    expect(patternRisk("a.*b.*c(x|xx)+")).toBe("choice");
    expect(patternRisk("a.*b.*c(a+)+")).toBe("nested");
    expect(patternRisk("(a.*b.*c|x)(y|yy)+")).toBe("choice");
    expect(patternRisk("(a.*b.*c|x)z*z*")).toBe("adjacent");
    expect(riskyPatternReason("a.*b.*c(x|xx)+")).toBe(refused("a.*b.*c(x|xx)+", CHOICE));
  });

  it("names the pattern the model sent when another form of it is checked", () => {
    expect(riskyPatternReason("a*a*b", false, ".*a*a*b.*")).toBe(refused(".*a*a*b.*", ADJACENT));
  });

  it("case-insensitive runs make letters of both cases overlap", () => {
    expect(riskyPatternReason("a*A*b", true)).toBe(refused("a*A*b", ADJACENT));
    expect(riskyPatternReason("(x|X)+y", true)).toBe(refused("(x|X)+y", CHOICE));
    expect(riskyPatternReason("(x|X)+y")).toBeUndefined();
    expect(patternRisk("[a-z]*_[A-Z]*_x")).toBeUndefined();
    expect(patternRisk("[a-z]*A[A-Z]*_x", true)).toBe("separated");
  });
});

describe("pieces that can match the empty string between two repeats", () => {
  it.each([
    ["a*x?a*b", "separated"],
    ["a*(?:x|y)?a*b", "separated"],
    ["a*\\s?a*b", "separated"],
    ["a*[^a]?a*b", "separated"],
    ["a+(?:x*)a+b", "separated"],
    ["a+.{0,3}a+b", "separated"],
    ["\\w+\\s?\\w+\\(", "separated"],
    ["a.*x?b.*c", "separated"],
    ["a*.a*b", "separated"],
    ["a+.{0,100}b", "separated"],
    ["a*x?a*x?a*b", "chained"],
    ["a+x?a+x?a+x?a+b", "chained"],
    ["a+.{0,10}a+b", "chained"],
    // small bounded repeats multiply: 8 and 16 ways count as one more repeat (found by the property below)
    ["\\w+.{0,3}\\w+x?\\(", "chained"],
    [".{0,3}a*.{0,3}a*\\(", "chained"],
    ["a+x?x?x?b", "separated"],
    ["a*x{0}a*b", "adjacent"],
    ["a*(?:)a*b", "adjacent"],
    ["a*(?=a)a*b", "adjacent"],
  ] as const)("classifies %s as %s", (pattern, risk) => {
    expect(patternRisk(pattern)).toBe(risk);
  });

  it.each([
    "[a-z]*[A-Z]*_x",
    "\\w+\\s?=",
    "a.{0,100}b.{0,100}c",
    "\\w+\\s*\\(",
    "\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}",
    "\\w+\\s?=\\s?",
  ])("finds nothing in %s", (pattern) => {
    expect(patternRisk(pattern)).toBeUndefined();
  });
});

/** One piece of a generated pattern: a character test repeated `min` to `max` times, greedy. */
interface Piece {
  readonly source: string;
  readonly has: (char: string) => boolean;
  readonly min: number;
  readonly max: number;
  /** Characters it can match, for the test lines. */
  readonly chars: string;
}

const PIECES: readonly Piece[] = [
  { source: "a*", has: (c) => c === "a", min: 0, max: Infinity, chars: "a" },
  { source: "a+", has: (c) => c === "a", min: 1, max: Infinity, chars: "a" },
  { source: ".*", has: (c) => c !== "\n", min: 0, max: Infinity, chars: "" },
  { source: "\\w+", has: (c) => /\w/.test(c), min: 1, max: Infinity, chars: "" },
  { source: "x?", has: (c) => c === "x", min: 0, max: 1, chars: "x" },
  { source: "\\s?", has: (c) => /\s/.test(c), min: 0, max: 1, chars: " " },
  { source: ".{0,3}", has: (c) => c !== "\n", min: 0, max: 3, chars: "" },
  { source: "(?:x|y)?", has: (c) => c === "x" || c === "y", min: 0, max: 1, chars: "xy" },
  { source: "b", has: (c) => c === "b", min: 1, max: 1, chars: "b" },
  { source: "\\(", has: (c) => c === "(", min: 1, max: 1, chars: "(" },
];

/**
 * Steps a backtracking engine takes to find whether `pieces` match anywhere in `line`: every
 * character a piece takes and every length it gives back counts one, as in V8's backtracking.
 */
function backtrackingSteps(pieces: readonly Piece[], line: string): number {
  let steps = 0;
  const matchFrom = (k: number, at: number): boolean => {
    const piece = pieces[k];
    if (piece === undefined) return true;
    let taken = 0;
    while (taken < piece.max && at + taken < line.length && piece.has(line[at + taken] as string)) {
      taken++;
      steps++;
    }
    for (; taken >= piece.min; taken--) {
      steps++;
      if (matchFrom(k + 1, at + taken)) return true;
    }
    return false;
  };
  for (let start = 0; start <= line.length; start++) if (matchFrom(0, start)) break;
  return steps;
}

/** Lines that do not match and make a pattern of `pieces` backtrack most: one or two of its own characters repeated, then `!`. */
function worstLines(pieces: readonly Piece[], length: number): string[] {
  const chars = [...new Set(["a", ...pieces.flatMap((piece) => [...piece.chars])])];
  const lines: string[] = [];
  for (const first of chars)
    for (const second of chars) lines.push(`${first}${second}`.repeat(length).slice(0, length - 1) + "!");
  return lines;
}

const mostSteps = (pieces: readonly Piece[], length: number): number =>
  Math.max(...worstLines(pieces, length).map((line) => backtrackingSteps(pieces, line)));

describe("generated patterns: refused, or their cost fits their class", () => {
  const literalA: Piece = { source: "a", has: (c) => c === "a", min: 1, max: 1, chars: "a" };
  const dotStar = PIECES[2] as Piece;
  // Reference: `a.*a.*b`, a cubic pattern grep runs on lines up to 1,000 characters.
  const reference = [literalA, dotStar, literalA, dotStar, PIECES[8] as Piece];
  const [short, long] = [30, 60];
  const referenceSteps = mostSteps(reference, long);

  it("the step count is cubic for a.*a.*b: doubling the line multiplies it by nearly 8", () => {
    expect(referenceSteps / mostSteps(reference, short)).toBeGreaterThan(7);
  });

  it("lets through only patterns within 8 times the steps of a.*a.*b (separated) or quadratic ones", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 5 }), (given) => {
        // Checked and run as grep does: a leading and a trailing `.*` dropped.
        let pieces = given[0] === dotStar ? given.slice(1) : given;
        if (pieces.length > 0 && pieces[pieces.length - 1] === dotStar) pieces = pieces.slice(0, -1);
        const pattern = pieces.map((piece) => piece.source).join("");
        expect(pattern).toBe(trimOuterWildcards(given.map((piece) => piece.source).join("")).source);
        const risk = patternRisk(pattern);
        if (pieces.length === 0 || (risk !== undefined && risk !== "separated")) return;
        const steps = mostSteps(pieces, long);
        const growth = steps / Math.max(1, mostSteps(pieces, short));
        if (risk === "separated") {
          // Cubic at most (doubling the line: 8 times the steps, more with lower terms; a fourth power gives 16), and not far above the reference.
          expect(growth).toBeLessThanOrEqual(10);
          expect(steps).toBeLessThanOrEqual(8 * referenceSteps);
        } else {
          // Quadratic at most (4 times; a cube gives 8): these run on lines of 20,000 characters.
          expect(growth).toBeLessThanOrEqual(5);
        }
      }),
      { numRuns: 400 },
    );
  });
});

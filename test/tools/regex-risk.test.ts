import { describe, expect, it } from "vitest";
import { patternRisk, riskyPatternReason } from "../../src/tools/regex-risk.js";

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

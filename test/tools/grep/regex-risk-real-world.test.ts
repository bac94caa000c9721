/**
 * Patterns models send every day, checked the way grep checks them (without a leading and a
 * trailing `.*`): none may be refused. Catastrophic ones still are.
 */
import { describe, expect, it } from "vitest";
import { trimOuterWildcards } from "../../../src/tools/grep/line-matcher.js";
import { patternRisk, riskyPatternReason } from "../../../src/tools/grep/regex-risk.js";

/** What grep decides for `pattern`: undefined (runs) or the shape it refuses. */
function refused(pattern: string): string | undefined {
  const checked = trimOuterWildcards(pattern).source;
  return riskyPatternReason(checked, false, pattern) === undefined ? undefined : patternRisk(checked);
}

const ACCEPTED = [
  String.raw`\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b`,
  String.raw`\d+\.\d+\.\d+\.\d+`,
  String.raw`\d{4}-\d{2}-\d{2}`,
  String.raw`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d`,
  String.raw`function\s+\w+\s*\(`,
  String.raw`function\s*\w*\s*\(`,
  "import .* from",
  String.raw`import\s+\{[^}]*\}\s+from`,
  "TODO|FIXME",
  "TODO|FIXME|XXX|HACK",
  String.raw`https?://\S+`,
  String.raw`https?://[^\s"']+`,
  String.raw`class \w+ extends \w+`,
  String.raw`class\s+\w+\s+extends\s+\w+`,
  String.raw`def\s+\w+\s*\(.*\)\s*:`,
  String.raw`const\s+\w+\s*=\s*require\(`,
  String.raw`console\.log\(.*\)`,
  String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`,
  String.raw`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
  String.raw`\bv?\d+\.\d+\.\d+\b`,
  String.raw`^\s*(public|private|protected)\s+\w+\s+\w+\s*\(`,
  String.raw`\d{3}[-.\s]?\d{3}[-.\s]?\d{4}`,
  String.raw`\[\w+\]\s+.*`,
  String.raw`(api[_-]?key|secret|token)\s*[:=]`,
  "SELECT .* FROM \\w+",
];

describe("real-world grep patterns", () => {
  it("the common ones run", () => {
    expect(ACCEPTED.map((pattern) => [pattern, refused(pattern)])).toEqual(
      ACCEPTED.map((pattern) => [pattern, undefined]),
    );
  });

  it("catastrophic ones are still refused", () => {
    const catastrophic = [
      "(a+)+",
      "(a|aa)+",
      "(\\w+\\s?)+$",
      "^(\\d+)+$",
      "(.*a){12}",
      "x.*.*=x",
      "a.*b.*c.*d",
      "(a?){30}a{30}",
      // what a fix of the optional groups below must keep refusing (2 s on 200 characters)
      "(a*)?(a*)?(a*)?b",
      "(a+)?a+b",
    ];
    expect(catastrophic.map((pattern) => [pattern, refused(pattern) !== undefined])).toEqual(
      catastrophic.map((pattern) => [pattern, true]),
    );
  });

  // An optional group holding a repeat (`(x+)?`) or a small repeat of a small repeat
  // (`(\d{1,3}\.){3}`) has at most a handful of ways per position: not nested repetition. Not
  // fixed: the chain check does not look inside groups, so letting these past safe-regex2 would
  // let `(a*)?(a*)?(a*)?b` through too. `it.fails`: this test starts failing (and must be turned
  // into a plain one) the day they run.
  it.fails(
    "known false positive, not fixed: optional groups and small repeats of small repeats are refused as nested",
    () => {
      const optional = [
        String.raw`(\d{1,3}\.){3}\d{1,3}`,
        String.raw`export\s+(default\s+)?(function|class|const)\s+\w+`,
        String.raw`class\s+\w+(\s+extends\s+\w+)?\s*\{`,
        String.raw`(?:\w+\.)?\w+\(`,
        String.raw`https?://[\w.-]+(?:/[\w./-]*)?`,
        String.raw`\d{1,2}:\d{2}(:\d{2})?`,
      ];
      expect(optional.map((pattern) => [pattern, refused(pattern)])).toEqual(
        optional.map((pattern) => [pattern, undefined]),
      );
    },
  );

  // The small bounded repeats of an IP address must match something: they anchor the match and
  // multiply nothing (0.3 ms on a 1,000-character line, where `.*GET.*404` alone takes 90 ms).
  it("small bounded repeats that must match something leave a separated chain separated", () => {
    const pattern = String.raw`\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}.*GET.*404`;
    expect(patternRisk(trimOuterWildcards(pattern).source)).toBe("separated");
  });
});

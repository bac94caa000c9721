/**
 * Patterns models send every day, checked the way grep checks them (without a leading and a
 * trailing `.*`): the common ones run on the JavaScript engine; catastrophic ones, and optional
 * groups the risk check cannot tell from them, run on the linear-time engine.
 */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { createGrepTool } from "../../../src/tools/grep/index.js";
import { resultText } from "../../../src/tools/kit/result.js";
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

  const CATASTROPHIC = [
    "(a+)+",
    "(a|aa)+",
    "(\\w+\\s?)+$",
    "^(\\d+)+$",
    "(.*a){12}",
    "x.*.*=x",
    "a.*b.*c.*d",
    "(a?){30}a{30}",
    "(a*)?(a*)?(a*)?b",
    "(a+)?a+b",
  ];

  it("catastrophic ones are still found risky, so the JavaScript engine never runs them", () => {
    expect(CATASTROPHIC.map((pattern) => [pattern, refused(pattern) !== undefined])).toEqual(
      CATASTROPHIC.map((pattern) => [pattern, true]),
    );
  });

  // Each on lines that nearly match, 5,000 characters long: hours for a backtracking engine.
  it("catastrophic ones run on the linear-time engine and return, with the right lines", async () => {
    const fs = memoryFileSystem({
      files: {
        "/w/a.txt": `${"a".repeat(5000)}!\n${"1".repeat(5000)}!\n${"ab ".repeat(1700)}!\nxyz=x\n`,
      },
    });
    const grep = createGrepTool({ fs, cwd: "/w" });
    const lines: Record<string, number[]> = {};
    for (const pattern of CATASTROPHIC) {
      const result = await grep.execute({ pattern });
      expect(result.error).toBeUndefined();
      lines[pattern] = resultText(result)
        .split("\n")
        .filter((line) => line.startsWith("a.txt:"))
        .map((line) => Number(line.split(":")[1]));
    }
    expect(lines).toEqual({
      "(a+)+": [1, 3],
      "(a|aa)+": [1, 3],
      "(\\w+\\s?)+$": [4],
      "^(\\d+)+$": [],
      "(.*a){12}": [1, 3],
      "x.*.*=x": [4],
      "a.*b.*c.*d": [],
      "(a?){30}a{30}": [1],
      "(a*)?(a*)?(a*)?b": [3],
      "(a+)?a+b": [3],
    });
  });

  // An optional group holding a repeat (`(x+)?`) or a small repeat of a small repeat
  // (`(\d{1,3}\.){3}`) is flagged by the risk check (it cannot tell them from `(a*)?(a*)?(a*)?b`),
  // so grep runs them on the linear-time engine instead of refusing them.
  it("optional groups and small repeats of small repeats run, and find the lines they should", async () => {
    const fs = memoryFileSystem({
      files: {
        "/w/a.ts": [
          "server 10.0.12.255 up",
          "export default function main() {}",
          "export const answer = 42;",
          "class Foo extends Bar {",
          "class Baz {",
          "obj.method(1);",
          "call(2);",
          "at 12:30 and 9:05:59",
          "see https://example.com/a/b.c",
          "nothing here",
          "",
        ].join("\n"),
      },
    });
    const grep = createGrepTool({ fs, cwd: "/w" });
    const optional = {
      [String.raw`(\d{1,3}\.){3}\d{1,3}`]: [1],
      [String.raw`export\s+(default\s+)?(function|class|const)\s+\w+`]: [2, 3],
      [String.raw`class\s+\w+(\s+extends\s+\w+)?\s*\{`]: [4, 5],
      [String.raw`(?:\w+\.)?\w+\(`]: [2, 6, 7],
      [String.raw`https?://[\w.-]+(?:/[\w./-]*)?`]: [9],
      [String.raw`\d{1,2}:\d{2}(:\d{2})?`]: [8],
    };
    const found: Record<string, number[] | string> = {};
    for (const pattern of Object.keys(optional)) {
      const result = await grep.execute({ pattern });
      found[pattern] =
        result.error?.message ??
        resultText(result)
          .split("\n")
          .map((line) => Number(line.split(":")[1]));
    }
    expect(found).toEqual(optional);
    // How they run: the risk check flags each (most as nested), so the JavaScript engine never sees them.
    expect(Object.keys(optional).map((pattern) => refused(pattern) !== undefined)).toEqual(
      Object.keys(optional).map(() => true),
    );
  });

  // The small bounded repeats of an IP address must match something: they anchor the match and
  // multiply nothing (0.3 ms on a 1,000-character line, where `.*GET.*404` alone takes 90 ms).
  it("small bounded repeats that must match something leave a separated chain separated", () => {
    const pattern = String.raw`\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}.*GET.*404`;
    expect(patternRisk(trimOuterWildcards(pattern).source)).toBe("separated");
  });
});

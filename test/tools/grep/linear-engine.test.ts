import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { backtrackingFeature, loadLinearEngine, type LinearFind } from "../../../src/tools/grep/linear-engine.js";
import { createLineMatcher, findMatchingLines } from "../../../src/tools/grep/line-matcher.js";

const WIDE = { maxLineLength: 500, maxScanLineLength: 20_000 };

async function compiled(source: string, ignoreCase = false): Promise<LinearFind> {
  const result = (await loadLinearEngine()).compile(source, ignoreCase);
  if (typeof result === "string") throw new Error(result);
  return result;
}

describe("backtrackingFeature", () => {
  it("names lookarounds and backreferences outside classes, nothing else", () => {
    const LOOK = "a lookahead or lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`)";
    const BACK = "a backreference (`\\1`, `\\k<name>`)";
    const cases = [
      "(a+)+(?=x)",
      "(?<!x)a",
      "(\\w)\\1",
      "(?<q>.)\\k<q>",
      "[\\1]x",
      "[(?=]x",
      "\\\\1",
      "(a+)+",
      "\\d{1,3}",
    ];
    expect(cases.map((source) => backtrackingFeature(source))).toEqual([
      LOOK,
      LOOK,
      BACK,
      BACK,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("the linear-time engine", () => {
  it("finds where a line matches, as the JavaScript engine does", async () => {
    const nested = await compiled("(a+)+b");
    expect([nested.find("xxaab"), nested.find("aaa"), nested.find(`${"a".repeat(5000)}!`)]).toEqual([2, -1, -1]);
    const ip = await compiled("(\\d{1,3}\\.){3}\\d{1,3}");
    expect(ip.find("at 10.0.12.255 up")).toBe(3);
    expect((await compiled("(A|B)+!", true)).find("xaA!")).toBe(1);
    expect((await compiled("(A|B)+!")).find("xaA!")).toBe(2);
    // JavaScript's escapes are translated: `\u00e9`, `\/`, named groups.
    expect((await compiled("caf\\u00e9\\/(?<x>\\w+)")).find("le café/bar")).toBe(3);
    expect([(await compiled("^(a|b)+$")).anywhere("x\nabba\ny"), (await compiled("^(a|b)+$")).anywhere("xab")]).toEqual(
      [true, false],
    );
  });

  it("returns the syntax error of a pattern it cannot read", async () => {
    const engine = await loadLinearEngine();
    expect(engine.compile("(a)\\1", false)).toBe("error parsing regexp: invalid escape sequence: `\\1`");
  });

  it("finds the same lines as testing each line alone with it (property: anchors, word bounds, negated classes, CRLF, lone CR)", async () => {
    const engine = await loadLinearEngine();
    const piece = fc.constantFrom(
      "a",
      "b",
      "(a|ab)+",
      "(a+)+",
      "^",
      "$",
      "\\b",
      "[^a]*",
      "\\s*",
      "(b*)?",
      ".*",
      "a*a*",
    );
    const pattern = fc.array(piece, { minLength: 1, maxLength: 5 }).map((pieces) => pieces.join(""));
    const text = fc
      .array(fc.constantFrom("a", "b", " ", "ab", "\n", "\r\n", "\r"), { maxLength: 24 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(pattern, text, (source, given) => {
        const linear = engine.compile(source, false);
        if (typeof linear === "string") return;
        const matcher = { ...createLineMatcher(new RegExp(source, "u")), scan: undefined, ...linear };
        const lines = given === "" ? [] : given.split(/\r\n|\r|\n/);
        if (lines[lines.length - 1] === "") lines.pop();
        const expected: number[] = [];
        lines.forEach((line, index) => {
          if (linear.find(line) >= 0) expected.push(index + 1);
        });
        expect(findMatchingLines(given, matcher, WIDE).lines).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

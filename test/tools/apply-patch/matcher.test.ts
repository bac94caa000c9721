import { describe, expect, test } from "vitest";
import { normalisePunctuation, seekLines } from "../../../src/tools/apply-patch/matcher.js";

describe("seekLines", () => {
  test("exact match", () => {
    expect(seekLines(["foo", "bar", "baz"], ["bar", "baz"], 0, false)).toEqual({
      kind: "found",
      index: 1,
      pass: "exact",
    });
  });

  test("trailing whitespace ignored on the second pass", () => {
    expect(seekLines(["foo   ", "bar\t\t"], ["foo", "bar"], 0, false)).toEqual({
      kind: "found",
      index: 0,
      pass: "trailing-whitespace",
    });
  });

  test("surrounding whitespace ignored on the third pass", () => {
    expect(seekLines(["    foo   ", "   bar\t"], ["foo", "bar"], 0, false)).toEqual({
      kind: "found",
      index: 0,
      pass: "whitespace",
    });
  });

  test("Unicode punctuation normalised on the last pass", () => {
    const lines = [
      "import asyncio  # local import \u2013 avoids top\u2011level dep",
      "say \u201Chi\u201D and \u2018bye\u2019\u00A0now",
    ];
    expect(
      seekLines(lines, ["import asyncio  # local import - avoids top-level dep", `say "hi" and 'bye' now`], 0, false),
    ).toEqual({
      kind: "found",
      index: 0,
      pass: "punctuation",
    });
    expect(normalisePunctuation("  \u2212\u2014\u201A\u201E\u3000x ")).toBe(`--'" x`);
  });

  test("an exact single match wins over looser matches elsewhere", () => {
    expect(seekLines(["x ", "x"], ["x"], 0, false)).toEqual({ kind: "found", index: 1, pass: "exact" });
  });

  test("several places on the deciding pass are ambiguous", () => {
    expect(seekLines(["a", "b", "a", "b", "a"], ["a"], 0, false)).toEqual({
      kind: "ambiguous",
      indexes: [0, 2, 4],
      pass: "exact",
    });
    expect(seekLines(["a ", "a\t"], ["a"], 0, false)).toEqual({
      kind: "ambiguous",
      indexes: [0, 1],
      pass: "trailing-whitespace",
    });
  });

  test("search is forward only, from start", () => {
    expect(seekLines(["a", "b", "a"], ["a"], 1, false)).toEqual({ kind: "found", index: 2, pass: "exact" });
    expect(seekLines(["a", "b"], ["a"], 1, false)).toEqual({ kind: "missing" });
  });

  test("end of file only tries the last position", () => {
    expect(seekLines(["a", "b", "a"], ["a"], 0, true)).toEqual({ kind: "found", index: 2, pass: "exact" });
    expect(seekLines(["a", "b"], ["a"], 0, true)).toEqual({ kind: "missing" });
  });

  test("end of file never goes back before start", () => {
    expect(seekLines(["x", "y", "z"], ["y", "z"], 1, true)).toEqual({ kind: "found", index: 1, pass: "exact" });
    expect(seekLines(["x", "y", "z"], ["y", "z"], 2, true)).toEqual({ kind: "missing" });
    expect(seekLines(["x", "y", "z"], ["z"], 3, true)).toEqual({ kind: "missing" });
  });

  test("empty pattern is found at start; a pattern longer than the file is missing", () => {
    expect(seekLines(["a"], [], 1, false)).toEqual({ kind: "found", index: 1, pass: "exact" });
    expect(seekLines(["just one line"], ["too", "many", "lines"], 0, false)).toEqual({ kind: "missing" });
  });
});

import { describe, expect, test } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { createGrepTool } from "../../../src/tools/grep/index.js";
import { MAX_SHOWN_PATTERN_CHARS, shownPattern, syntaxReason } from "../../../src/tools/grep/shown-pattern.js";
import { resultText } from "../../../src/tools/kit/result.js";

const INLINE_HINT =
  ". JavaScript regular expressions have no inline flags such as (?i): for a case-insensitive search set the ignoreCase option (a (?i) that starts a longer pattern is read as that); for (?s), (?m) or (?x), write the pattern without them";

describe("shownPattern", () => {
  test("quotes a short pattern whole and cuts a long one, saying its length", () => {
    expect(shownPattern('a"b')).toBe('"a\\"b"');
    expect(shownPattern("x".repeat(MAX_SHOWN_PATTERN_CHARS))).toBe(`"${"x".repeat(200)}"`);
    expect(shownPattern("x".repeat(100_000))).toBe(`"${"x".repeat(200)}"… (100,000 characters)`);
  });
});

describe("syntaxReason", () => {
  test("drops the engine's copy of the pattern and explains inline flags", () => {
    expect(syntaxReason("Invalid regular expression: /(/u: Unterminated group", "(")).toBe("Unterminated group");
    expect(syntaxReason("Invalid regular expression: /(?i)/: Invalid group", "(?i)")).toBe(
      `Invalid group${INLINE_HINT}`,
    );
    expect(syntaxReason("something else", "a")).toBe("something else");
  });
});

describe("grep: patterns in messages (trial findings 8 and 10)", () => {
  test("(?i) alone and a mid-pattern (?s) are EINPUT saying to use the ignoreCase option", async () => {
    const grep = createGrepTool({ fs: memoryFileSystem({ files: { "/w/a.txt": "Todo\n" } }), cwd: "/w" });
    expect((await grep.execute({ pattern: "(?i)" })).error).toEqual({
      code: "EINPUT",
      message: `grep input pattern is not a valid regular expression: Invalid group${INLINE_HINT}`,
    });
    expect(resultText(await grep.execute({ pattern: "a(?s)b" }))).toBe(
      `grep input pattern is not a valid regular expression: Invalid group${INLINE_HINT}`,
    );
    expect(resultText(await grep.execute({ pattern: "(?i)todo" }))).toBe("a.txt:1:Todo");
  });

  test("a 100,000-character pattern is not echoed whole", async () => {
    const grep = createGrepTool({ fs: memoryFileSystem({ files: { "/w/a.txt": "abc\n" } }), cwd: "/w" });
    const long = "q".repeat(100_000);
    expect(resultText(await grep.execute({ pattern: long }))).toBe(
      `No matches for "${"q".repeat(200)}"… (100,000 characters) in .; searched 1 file.`,
    );
    const invalid = await grep.execute({ pattern: `${long}(` });
    expect(invalid.error).toEqual({
      code: "EINPUT",
      message: "grep input pattern is not a valid regular expression: Unterminated group",
    });
    const risky = resultText(await grep.execute({ pattern: `(a+)+(?=x)${long}` }));
    expect(risky.length).toBeLessThan(1_000);
    expect(risky).toContain(`grep input pattern "(a+)+(?=x)${"q".repeat(190)}"… (100,010 characters) was refused: `);
  });
});

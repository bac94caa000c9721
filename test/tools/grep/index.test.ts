import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { testGrepTool } from "../kit/suite.js";

testGrepTool(async () => memoryFileSystem());

import { describe, expect, it } from "vitest";
import {
  createGrepTool,
  CUBIC_PATTERN_SCAN_LINE_LENGTH,
  GREP_DESCRIPTION,
  inlineIgnoreCase,
  riskyPatternReason,
} from "../../../src/tools/grep/index.js";
import { resultText } from "../../../src/tools/kit/result.js";
import { createReadTool } from "../../../src/tools/read/index.js";
import { FsError } from "../../../src/contract/errors.js";
import type { FileSystem } from "../../../src/contract/types.js";

describe("grep: pattern risk, line bounds, trailing newline, encoding", () => {
  const NESTED =
    'grep input pattern "(a+)+$" was refused: it nests repetition (a quantified group containing a quantifier, like `(a+)+` or `(.*x)*`), ' +
    "which can backtrack for exponential time on a line that nearly matches. Simplify it: drop the outer quantifier " +
    "(`a+` instead of `(a+)+`), or search for a fixed part of the text.";

  const LOOKAROUND_NOTE =
    "(grep runs such patterns with a linear-time engine, but this one uses a lookahead or lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`), " +
    "which that engine lacks: drop it, or drop the repeat.)";

  it("runs nested repetition on the linear-time engine; refuses it with a lookaround or backreference, as EINPUT", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": `${"a".repeat(40)}b\n`, "/w/b.txt": "aaa\n" } });
    const grep = createGrepTool({ fs, cwd: "/w" });
    expect(() => grep.validate({ pattern: "(a+)+$" })).not.toThrow();
    expect(resultText(await grep.execute({ pattern: "(a+)+$" }))).toBe("b.txt:1:aaa");
    expect(resultText(await grep.execute({ pattern: "(a+)+b$" }))).toBe(`a.txt:1:${"a".repeat(40)}b`);
    const message = NESTED.replace('"(a+)+$"', '"(a+)+(?=b)"') + " " + LOOKAROUND_NOTE;
    expect(() => grep.validate({ pattern: "(a+)+(?=b)" })).toThrow(message);
    expect((await grep.execute({ pattern: "(a+)+(?=b)" })).error).toEqual({ code: "EINPUT", message });
    expect((await grep.execute({ pattern: "(a+)+\\1" })).error?.message).toBe(
      NESTED.replace('"(a+)+$"', '"(a+)+\\\\1"') +
        " (grep runs such patterns with a linear-time engine, but this one uses a backreference (`\\1`, `\\k<name>`), " +
        "which that engine lacks: drop it, or drop the repeat.)",
    );
    expect(riskyPatternReason("(\\w*)*x")).toBeDefined();
    expect(riskyPatternReason("function \\w+\\(")).toBeUndefined();
    expect(riskyPatternReason("(?<=a)b+")).toBeUndefined();
    expect(riskyPatternReason("\\p{L}+")).toBeUndefined();
  });

  it("runs overlapping repeated choices and adjacent overlapping repeats in linear time (they hung the host)", async () => {
    const fs = memoryFileSystem({
      files: {
        "/w/a.txt": `${"a".repeat(40)}!
`,
        "/w/b.txt": `${"a".repeat(5000)}!
`,
      },
    });
    const grep = createGrepTool({ fs, cwd: "/w" });
    const counts = [];
    for (const pattern of ["(a|a)*$", "(a|aa)+$", "(a|aa)+!", "a*a*a*a*a*a*a*b", ".*.*.*.*.*.*=x", "(\\w+\\s?)+$"]) {
      expect(riskyPatternReason(pattern)).toBeDefined();
      expect(() => grep.validate({ pattern })).not.toThrow();
      counts.push((await grep.execute({ pattern })).count);
    }
    expect(counts).toEqual([2, 0, 2, 0, 0, 0]);
    // The match starts at the line's start: the window shows from there.
    expect(resultText(await grep.execute({ pattern: "(A|a)+!", ignoreCase: true }))).toBe(
      `a.txt:1:${"a".repeat(40)}!\nb.txt:1:${"a".repeat(500)}…`,
    );
    expect(resultText(await grep.execute({ pattern: "a{1,30}a{1,30}!" }))).toBe(
      `a.txt:1:${"a".repeat(40)}!\nb.txt:1:${"…" + "a".repeat(499)}!`,
    );
  });

  it("names the files it could not read, in the text and in `unreadable`", async () => {
    const inner = memoryFileSystem({
      files: { "/w/a.txt": "needle\n", "/w/b.txt": "needle\n", "/w/sub/c.txt": "needle\n", "/w/sub/d.txt": "x\n" },
    });
    const failing: Record<string, Error> = {
      "/w/a.txt": new FsError("EIO", { syscall: "open", path: "/w/a.txt" }),
      "/w/sub/c.txt": new Error("disk on fire"),
      "/w/sub/d.txt": new FsError("EACCES", { syscall: "open", path: "/w/sub/d.txt" }),
    };
    const fs = new Proxy(inner, {
      get(target, key, receiver) {
        // Called by name (check, then use): this test injects a fault, it is not about swaps.
        if (key === "noFollow") return undefined;
        const value: unknown = Reflect.get(target, key, receiver);
        // Both ways of reading fail (a wrapper that replaces readFile must replace readFileView too).
        if ((key !== "readFile" && key !== "readFileView") || typeof value !== "function") return value;
        return (path: string, ...rest: unknown[]) => {
          const error = failing[path];
          return error === undefined ? Reflect.apply(value, target, [path, ...rest]) : Promise.reject(error);
        };
      },
    }) as FileSystem;
    const grep = createGrepTool({ fs, cwd: "/w" });
    const result = await grep.execute({ pattern: "needle" });
    expect(result.ok).toBe(true);
    expect(result.count).toBe(1);
    expect(resultText(result)).toBe(
      "b.txt:1:needle\n[3 files could not be read, so they were not searched: a.txt (EIO), sub/c.txt (EIO), sub/d.txt (EACCES).]",
    );
    expect(result.unreadable).toEqual([
      { path: "/w/a.txt", code: "EIO" },
      { path: "/w/sub/c.txt", code: "EIO" },
      { path: "/w/sub/d.txt", code: "EACCES" },
    ]);
    const one = await grep.execute({ pattern: "zzz", path: "a.txt" });
    expect(resultText(one)).toBe(
      'No matches for "zzz" in a.txt; searched 0 files.\n[1 file could not be read, so it was not searched: a.txt (EIO).]',
    );
    expect(one.unreadable).toEqual([{ path: "/w/a.txt", code: "EIO" }]);
    expect((await grep.execute({ pattern: "needle", path: "b.txt" })).unreadable).toBeUndefined();
  });

  it("a leading (?i) means ignoreCase, as in the offsetLimitPreset dialect", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "Alpha\nalpha\nbeta\n" } });
    const grep = createGrepTool({ fs, cwd: "/w" });
    expect(inlineIgnoreCase("(?i)ALPHA")).toEqual({ pattern: "ALPHA", ignoreCase: true });
    expect(inlineIgnoreCase("(?i)")).toEqual({ pattern: "(?i)" });
    expect(inlineIgnoreCase("a(?i)b")).toEqual({ pattern: "a(?i)b" });
    expect(() => grep.validate({ pattern: "(?i)ALPHA" })).not.toThrow();
    const result = await grep.execute({ pattern: "(?i)ALPHA" });
    expect(result.ok).toBe(true);
    expect(resultText(result)).toBe("a.txt:1:Alpha\na.txt:2:alpha");
    expect(resultText(await grep.execute({ pattern: "(?i)^A", ignoreCase: false }))).toBe(
      "a.txt:1:Alpha\na.txt:2:alpha",
    );
    expect(resultText(await grep.execute({ pattern: "(?i)zzz" }))).toBe(
      'No matches for "(?i)zzz" in .; searched 1 file.',
    );
    // the risk check and the linear-time engine see the case-insensitive pattern
    expect(resultText(await grep.execute({ pattern: "(?i)a*A*B" }))).toBe("a.txt:3:beta");
    expect((await grep.execute({ pattern: "(?i)a*A*(?=B)" })).error?.code).toBe("EINPUT");
  });

  it("skips lines over maxScanLineLength and says so", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": `x1\n${"x".repeat(50)}\nx3\n`, "/w/b.txt": "x\n" } });
    const grep = createGrepTool({ fs, cwd: "/w", maxScanLineLength: 20 });
    const result = await grep.execute({ pattern: "x" });
    expect(resultText(result)).toBe(
      "a.txt:1:x1\na.txt:3:x3\nb.txt:1:x\n[Skipped 1 line longer than 20 characters, not searched, in a.txt.]",
    );
    expect(result.skippedLongLines).toEqual({
      count: 1,
      maxScanLineLength: 20,
      files: [{ path: "/w/a.txt", count: 1 }],
    });
    expect((await grep.execute({ pattern: "x", path: "b.txt" })).skippedLongLines).toBeUndefined();
  });

  it("does not count a CRLF line's \\r toward maxScanLineLength", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "abc\r\nabcd\r\nab\r\n" } });
    const grep = createGrepTool({ fs, cwd: "/w", maxScanLineLength: 3 });
    const result = await grep.execute({ pattern: "ab" });
    expect(resultText(result)).toBe(
      "a.txt:1:abc\na.txt:3:ab\n[Skipped 1 line longer than 3 characters, not searched, in a.txt.]",
    );
    expect(result.skippedLongLines).toEqual({
      count: 1,
      maxScanLineLength: 3,
      files: [{ path: "/w/a.txt", count: 1 }],
    });
  });

  it("runs two unbounded repeats with text between (cubic) on the linear-time engine, on long lines too", async () => {
    const long = `function f(${"x, ".repeat(400)}y) {}`; // 1,211 characters
    const fs = memoryFileSystem({
      files: { "/w/a.ts": `function g() {}\n${long}\nconst h = 1;\n`, "/w/b.ts": `${long}\r\n` },
    });
    const grep = createGrepTool({ fs, cwd: "/w" });
    expect(riskyPatternReason("function.*\\(.*\\)")).toBeUndefined();
    expect(() => grep.validate({ pattern: "function.*\\(.*\\)" })).not.toThrow();
    const result = await grep.execute({ pattern: "function.*\\(.*\\)" });
    expect([result.ok, result.count, result.skippedLongLines]).toEqual([true, 3, undefined]);
    expect(
      resultText(result)
        .split("\n")
        .map((line) => line.slice(0, 20)),
    ).toEqual(["a.ts:1:function g() ", "a.ts:2:function f(x,", "b.ts:1:function f(x,"]);
  });

  it("runs a cubic pattern that needs the JavaScript engine (a lookaround) on lines up to 1,000 characters, and says so", async () => {
    const long = `function f(${"x, ".repeat(400)}y) {}`; // 1,211 characters
    const fs = memoryFileSystem({
      files: { "/w/a.ts": `function g() {}\n${long}\nconst h = 1;\n`, "/w/b.ts": `${long}\r\n` },
    });
    const grep = createGrepTool({ fs, cwd: "/w" });
    expect(CUBIC_PATTERN_SCAN_LINE_LENGTH).toBe(1000);
    const pattern = "function.*\\(.*\\)(?= \\{)";
    expect(() => grep.validate({ pattern })).not.toThrow();
    const result = await grep.execute({ pattern });
    expect(result.ok).toBe(true);
    expect(resultText(result)).toBe(
      "a.ts:1:function g() {}\n" +
        "[Skipped 2 lines longer than 1,000 characters, not searched, in a.ts, b.ts. 1,000 is the limit for this pattern " +
        "(20,000 for others): its two unbounded repeats with text between them can take the cube of a line's length " +
        "on the JavaScript engine, which its lookaround or backreference needs. Drop that (it then runs on the linear-time engine), " +
        "keep one `.*`, or bound the other (`.{0,100}`), to search longer lines.]",
    );
    expect(result.count).toBe(1);
    expect(result.skippedLongLines).toEqual({
      count: 2,
      maxScanLineLength: 1000,
      files: [
        { path: "/w/a.ts", count: 1 },
        { path: "/w/b.ts", count: 1 },
      ],
    });
    // One unbounded repeat: the usual limit, the long lines searched.
    const one = await grep.execute({ pattern: "function.*\\((?=.)" });
    expect(one.count).toBe(3);
    expect(one.skippedLongLines).toBeUndefined();
    // Bounded, as the note suggests: searched too.
    expect((await grep.execute({ pattern: "function.*\\(.{0,100}\\)(?= \\{)" })).count).toBe(1);
    // Case-insensitive: the check sees it so (`[a-z]*` then meets `A`).
    expect((await grep.execute({ pattern: "[a-z]*G[A-Z]*\\((?=\\))" })).skippedLongLines).toBeUndefined();
    expect(
      (await grep.execute({ pattern: "[a-z]*G[A-Z]*\\((?=\\))", ignoreCase: true })).skippedLongLines
        ?.maxScanLineLength,
    ).toBe(1000);
  });

  it("a configured maxScanLineLength below 1,000 stays the limit for cubic patterns, with the usual note", async () => {
    const fs = memoryFileSystem({
      files: { "/w/a.txt": `import a from "b1";\nimport ${"x".repeat(1200)} from "c2";\n` },
    });
    const grep = createGrepTool({ fs, cwd: "/w", maxScanLineLength: 500 });
    const result = await grep.execute({ pattern: "import.*from.*\\d" });
    expect(resultText(result)).toBe(
      'a.txt:1:import a from "b1";\n[Skipped 1 line longer than 500 characters, not searched, in a.txt.]',
    );
    expect(result.skippedLongLines).toEqual({
      count: 1,
      maxScanLineLength: 500,
      files: [{ path: "/w/a.txt", count: 1 }],
    });
    const wide = createGrepTool({ fs, cwd: "/w", maxScanLineLength: 5000 });
    const linear = await wide.execute({ pattern: "import.*from.*\\d" });
    expect([linear.count, linear.skippedLongLines]).toEqual([2, undefined]);
    const cubic = await wide.execute({ pattern: "import.*from.*\\d(?!x)" });
    expect([cubic.count, cubic.skippedLongLines?.maxScanLineLength]).toEqual([1, 1000]);
    const square = await wide.execute({ pattern: "import.*from" });
    expect([square.count, square.skippedLongLines]).toEqual([2, undefined]);
  });

  it("runs three or more chained unbounded repeats; refuses them with a lookaround, naming the pattern as sent", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "abcd\n" } });
    const grep = createGrepTool({ fs, cwd: "/w" });
    expect(resultText(await grep.execute({ pattern: ".*a.*b.*c.*d.*" }))).toBe("a.txt:1:abcd");
    const message =
      'grep input pattern ".*a.*b.*c.*d(?!x).*" was refused: it chains three or more unbounded repeats over the same characters ' +
      "with only text they can match between them (like `a.*b.*c.*d`), which can backtrack for a very long time even on a " +
      "line of a few hundred characters. Keep at most two of them (`a.*b.*c`), bound the others (`.{0,100}` instead of `.*`), " +
      "or put after a repeat a character it cannot match (`[^(]*\\(`). " +
      LOOKAROUND_NOTE;
    expect(() => grep.validate({ pattern: ".*a.*b.*c.*d(?!x).*" })).toThrow(message);
    expect((await grep.execute({ pattern: ".*a.*b.*c.*d(?!x).*" })).error).toEqual({ code: "EINPUT", message });
    // Checked without the outer `.*`: `.*.*=x` runs as `.*=x`.
    expect(resultText(await grep.execute({ pattern: ".*.*d" }))).toBe("a.txt:1:abcd");
  });

  it("the description names the risky shapes, the linear-time engine and what it refuses", () => {
    expect(GREP_DESCRIPTION).toContain("such as `a*a*` or `a.*b.*c`) run on a linear-time engine (RE2");
    expect(GREP_DESCRIPTION).toContain("such a pattern that also has a lookaround or a backreference is refused.");
  });

  it("tests a pattern with a lookaround on each line alone (the line break is not there to see)", async () => {
    const fs = memoryFileSystem({
      files: { "/w/a.txt": "a\nb\n", "/w/b.txt": "x\nfoo\n", "/w/c.txt": "abc\r\nabc \r\n" },
    });
    const grep = createGrepTool({ fs, cwd: "/w" });
    expect(resultText(await grep.execute({ pattern: "(?<=a)b", path: "a.txt" }))).toBe(
      'No matches for "(?<=a)b" in a.txt; searched 1 file.',
    );
    expect(resultText(await grep.execute({ pattern: "(?<!\\s)foo" }))).toBe("b.txt:2:foo");
    expect(resultText(await grep.execute({ pattern: "abc(?!\\s)" }))).toBe("c.txt:1:abc");
  });

  it("drops a leading and a trailing .* and finds the same lines", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "foo\nbar\nxfoox\r\n" } });
    const grep = createGrepTool({ fs, cwd: "/w" });
    for (const pattern of ["foo", ".*foo", "foo.*", ".*foo.*", ".*?foo.*?"]) {
      expect(resultText(await grep.execute({ pattern }))).toBe("a.txt:1:foo\na.txt:3:xfoox");
    }
    // The risk check sees the pattern as it runs, and names it as sent: `.*.*o` runs as `.*o`.
    expect(resultText(await grep.execute({ pattern: ".*.*o" }))).toBe("a.txt:1:foo\na.txt:3:xfoox");
    expect(resultText(await grep.execute({ pattern: ".*a*a*b.*" }))).toBe("a.txt:2:bar");
    expect((await grep.execute({ pattern: ".*a*a*b(?=a).*" })).error).toEqual({
      code: "EINPUT",
      message: `${riskyPatternReason("a*a*b(?=a)")?.replace('"a*a*b(?=a)"', '".*a*a*b(?=a).*"')} ${LOOKAROUND_NOTE}`,
    });
    expect(riskyPatternReason("a*a*b")).toMatch(/^grep input pattern "a\*a\*b" was refused: it puts unbounded repeats/);
  });

  it("ends lines where read does: a lone \\r is a line end, as \\r\\n and \\n are", async () => {
    const fs = memoryFileSystem({ files: { "/w/cr.txt": "alpha\rbeta\rgamma\r", "/w/mixed.txt": "a\rb\r\nc\n" } });
    const grep = createGrepTool({ fs, cwd: "/w" });
    expect(resultText(await grep.execute({ pattern: "a", path: "cr.txt" }))).toBe(
      "cr.txt:1:alpha\ncr.txt:2:beta\ncr.txt:3:gamma",
    );
    expect(resultText(await grep.execute({ pattern: "^c$" }))).toBe("mixed.txt:3:c");
    // read numbers the same lines.
    const read = createReadTool({ fs, cwd: "/w" });
    expect(resultText(await read.execute({ path: "cr.txt", offset: 3, limit: 1 }))).toBe("3|gamma");
  });

  it("does not decode ASCII files that lack the text every match contains", async () => {
    // a.txt has a long line but no "needle": it cannot match, so its long line is not noted;
    // b.txt holds "needle" (on a long line, so skipped and noted); c.txt is not ASCII.
    const fs = memoryFileSystem({
      files: {
        "/w/a.txt": `${"x".repeat(50)}\n`,
        "/w/b.txt": `${"needle ".repeat(8)}\nneedle\n`,
        "/w/c.txt": "caf\u00e9 NEEDLE\n",
      },
    });
    const grep = createGrepTool({ fs, cwd: "/w", maxScanLineLength: 20 });
    expect(resultText(await grep.execute({ pattern: "needle" }))).toBe(
      "b.txt:2:needle\n[Skipped 1 line longer than 20 characters, not searched, in b.txt.]",
    );
    expect(resultText(await grep.execute({ pattern: "NEEDLE", ignoreCase: true }))).toBe(
      "b.txt:2:needle\nc.txt:1:caf\u00e9 NEEDLE\n[Skipped 1 line longer than 20 characters, not searched, in b.txt.]",
    );
    expect(resultText(await grep.execute({ pattern: "absent" }))).toBe(
      'No matches for "absent" in .; searched 3 files.',
    );
  });

  it("a trailing newline does not start a line", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n", "/w/b.txt": "a\n\nb", "/w/c.txt": "" } });
    const grep = createGrepTool({ fs, cwd: "/w" });
    expect(resultText(await grep.execute({ pattern: "^$" }))).toBe("b.txt:2:");
  });

  it("skips files that are not valid UTF-8 and names them", async () => {
    const fs = memoryFileSystem({
      files: { "/w/a.txt": "café\n", "/w/latin1.txt": Uint8Array.of(0x63, 0x61, 0x66, 0xe9, 0x0a) },
    });
    const grep = createGrepTool({ fs, cwd: "/w" });
    expect(resultText(await grep.execute({ pattern: "caf" }))).toBe(
      "a.txt:1:café\n[Skipped 1 file that is not valid UTF-8: latin1.txt.]",
    );
    expect(resultText(await grep.execute({ pattern: "zzz" }))).toBe(
      'No matches for "zzz" in .; searched 2 files.\n[Skipped 1 file that is not valid UTF-8: latin1.txt.]',
    );
  });
});

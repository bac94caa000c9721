import { memoryFileSystem } from "../../src/fs/memory.js";
import { describe, expect, test } from "vitest";
import { resultText } from "../../src/tools/result.js";
import { testReadTool } from "./suite.js";

testReadTool(async () => memoryFileSystem());

describe("read (memory only): the fast whole-file path equals the general path", () => {
  test("for random text with LF, CRLF, BOM, multibyte and long lines", async () => {
    const { default: fc } = await import("fast-check");
    const { createReadTool } = await import("../../src/tools/read.js");
    const encoder = new TextEncoder();
    const line = fc.string({ unit: fc.constantFrom("a", "é", "😀", " ", "\t", "\r", "|", "x"), maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 8 }), fc.constantFrom("\n", "\r\n"), fc.boolean(), fc.boolean(), fc.constantFrom(6, 100), async (lines, eol, bom, finalEol, maxLineLength) => {
        const content = `${bom ? "\uFEFF" : ""}${lines.join(eol)}${finalEol ? eol : ""}`;
        const fs = memoryFileSystem({ files: { "/w/f.txt": encoder.encode(content) } });
        const read = createReadTool({ fs, cwd: "/w", maxLineLength });
        const whole = await read.execute({ path: "f.txt" });
        const general = await read.execute({ path: "f.txt", offset: 1 });
        if (!general.ok) {
          expect(whole).toEqual(general);
          return;
        }
        expect(resultText(whole)).toBe(resultText(general));
        expect(whole.totalLines).toBe(general.totalLines);
      }),
      { numRuns: 300 },
    );
  });
});

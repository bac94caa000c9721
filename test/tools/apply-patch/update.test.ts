import { describe, expect, test } from "vitest";
import { parsePatch, type PatchChunk } from "../../../src/tools/apply-patch/parser.js";
import { applyChunks } from "../../../src/tools/apply-patch/update.js";

/** The hunks of a one-file update patch body. */
function chunks(body: string): readonly PatchChunk[] {
  const parsed = parsePatch(`*** Begin Patch\n*** Update File: f.txt\n${body}\n*** End Patch`);
  if (!parsed.ok || parsed.operations[0]?.type !== "update") throw new Error("the test patch does not parse");
  return parsed.operations[0].chunks;
}

describe("applyChunks", () => {
  test("the TSDoc example: the context line keeps its CRLF, the added line takes the dominant LF", () => {
    const chunk = {
      contexts: [],
      oldLines: ["a", "b"],
      newLines: ["a", "B"],
      sources: [0, -1],
      endOfFile: false,
      line: 3,
    };
    expect(applyChunks("a\r\nb\nc\n", [chunk], "f.txt")).toEqual({
      ok: true,
      text: "a\r\nB\nc\n",
      firstLine: 1,
      changed: true,
    });
  });

  test("the dominant ending is the most frequent; CRLF wins over LF only when more frequent", () => {
    expect(applyChunks("a\r\nb\r\nc\n", chunks("@@\n c\n+d"), "f.txt")).toMatchObject({ text: "a\r\nb\r\nc\nd\r\n" });
    expect(applyChunks("a\rb\rc\n", chunks("@@\n c\n+d"), "f.txt")).toMatchObject({ text: "a\rb\rc\nd\r" });
    expect(applyChunks("a\nb\r\nc\n", chunks("@@\n c\n+d"), "f.txt")).toMatchObject({ text: "a\nb\r\nc\nd\n" });
  });

  // The reference tool (Codex) takes the first line's ending when CRLF and LF lines tie; these two
  // cases failed when ties went to LF.
  test("a tie between CRLF and LF goes to the first line's ending: CRLF first", () => {
    expect(applyChunks("a\r\nb\n", chunks("@@\n b\n+c"), "f.txt")).toEqual({
      ok: true,
      text: "a\r\nb\nc\r\n",
      firstLine: 2,
      changed: true,
    });
    expect(applyChunks("a\r\nb\nc\r\nd\n", chunks("@@\n a\n-b\n+B"), "f.txt")).toMatchObject({
      text: "a\r\nB\r\nc\r\nd\n",
    });
  });

  test("a tie between CRLF and LF goes to the first line's ending: LF first", () => {
    expect(applyChunks("a\nb\r\n", chunks("@@\n b\n+c"), "f.txt")).toMatchObject({ text: "a\nb\r\nc\n" });
    expect(applyChunks("a\nb\r\nc\nd\r\n", chunks("@@\n a\n-b\n+B"), "f.txt")).toMatchObject({
      text: "a\nB\nc\nd\r\n",
    });
  });

  test("a three-way tie goes to whichever ending ends a line first, also a lone CR", () => {
    expect(applyChunks("a\rb\r\nc\n", chunks("@@\n c\n+d"), "f.txt")).toMatchObject({ text: "a\rb\r\nc\nd\r" });
    // The first line's CR is outnumbered: the tie is between the later CRLF and LF lines.
    expect(applyChunks("a\rb\nc\r\nd\ne\r\n", chunks("@@\n e\n+f"), "f.txt")).toMatchObject({
      text: "a\rb\nc\r\nd\ne\r\nf\n",
    });
  });

  test("an unterminated last line kept as context is ended before an added line", () => {
    expect(applyChunks("a\r\nb", chunks("@@\n b\n+c"), "f.txt")).toEqual({
      ok: true,
      text: "a\r\nb\r\nc\r\n",
      firstLine: 2,
      changed: true,
    });
  });

  test("a removed line and a context line swapped in by the patch: the kept line keeps its bytes", () => {
    // Old lines: "x" (context), "y" (removed); new lines: "y" (added), "x" (context).
    expect(applyChunks("x\r\ny\nz\n", chunks("@@\n+y\n x\n-y"), "f.txt")).toEqual({
      ok: true,
      text: "y\nx\r\nz\n",
      firstLine: 1,
      changed: true,
    });
  });

  test("no change: the text comes back as given, final line break still missing", () => {
    expect(applyChunks("a\nb", chunks("@@\n-b\n+b"), "f.txt")).toEqual({
      ok: true,
      text: "a\nb",
      firstLine: 2,
      changed: false,
    });
    expect(applyChunks("  a\n", chunks("@@\n a"), "f.txt")).toEqual({
      ok: true,
      text: "  a\n",
      firstLine: 1,
      changed: false,
    });
  });

  test("a '-' line added back with other whitespace is a change (the added line is the patch's)", () => {
    expect(applyChunks("\tb\n", chunks("@@\n-  b\n+  b"), "f.txt")).toEqual({
      ok: true,
      text: "  b\n",
      firstLine: 1,
      changed: true,
    });
  });
});

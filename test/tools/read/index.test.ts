import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { describe, expect, test } from "vitest";
import { resultText } from "../../../src/tools/kit/result.js";
import { testReadTool } from "../kit/suite.js";

testReadTool(async () => memoryFileSystem());

describe("read (memory only): the fast whole-file path equals the general path", () => {
  test("for random text with LF, CRLF, BOM, multibyte and long lines", async () => {
    const { default: fc } = await import("fast-check");
    const { createReadTool } = await import("../../../src/tools/read/index.js");
    const encoder = new TextEncoder();
    const line = fc.string({ unit: fc.constantFrom("a", "é", "😀", " ", "\t", "\r", "|", "x"), maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.constantFrom("\n", "\r\n"),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom(6, 100),
        async (lines, eol, bom, finalEol, maxLineLength) => {
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
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("read: the cap bounds the output, prefixes included", () => {
  test("a ranged read of a big file stays under the cap", async () => {
    const fs = memoryFileSystem({ files: { "/w/big.txt": "abc\n".repeat(1_000_000) } });
    const { createReadTool } = await import("../../../src/tools/read/index.js");
    const read = createReadTool({ fs, cwd: "/w" });
    const result = await read.execute({ path: "big.txt", offset: 1 });
    const out = resultText(result);
    const body = out.slice(0, out.lastIndexOf("\n["));
    // Lines 1-27,325 as `N|abc` plus newlines are exactly 262,144 bytes (the last newline is the note's).
    expect(new TextEncoder().encode(body).length).toBe(262_143);
    expect(result.endLine).toBe(27_325);
    expect(out.slice(out.lastIndexOf("\n[") + 1)).toBe(
      "[Output capped at 256.0 KiB (262,144 bytes): showed lines 1-27325 of 1,000,000. Continue with offset=27326.]",
    );
  });

  test("a whole read under the byte cap but over it with prefixes is paged", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "ab\n".repeat(10) } });
    const { createReadTool } = await import("../../../src/tools/read/index.js");
    const read = createReadTool({ fs, cwd: "/w", maxBytes: 40 });
    const result = await read.execute({ path: "a.txt" });
    expect(resultText(result)).toBe(
      "1|ab\n2|ab\n3|ab\n4|ab\n5|ab\n6|ab\n7|ab\n8|ab\n[Output capped at 40 bytes: showed lines 1-8 of 10. Continue with offset=9.]",
    );
    expect(result.truncated).toBe(true);
  });
});

import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeFileSystem } from "../../../src/backends/node/index.js";
import { createReadTool } from "../../../src/tools/read/index.js";
import { createEditTool } from "../../../src/tools/edit/index.js";

describe("read: the size is checked before the file is loaded (Node, sparse files)", () => {
  test("over the cap and 16 MiB: EFBIG from the size, without reading", async () => {
    const root = await mkdtemp(join(tmpdir(), "bft-read-big-"));
    try {
      await writeFile(join(root, "big.log"), "");
      await truncate(join(root, "big.log"), 20 * 1024 * 1024);
      const fs = nodeFileSystem({ cwd: root });
      // Loaded, these zeros would be EBINARY: EFBIG shows the size decided before any read.
      const result = await createReadTool({ fs, cwd: root }).execute({ path: "big.log" });
      expect(result.error).toEqual({
        code: "EFBIG",
        path: join(root, "big.log"),
        message:
          "big.log is 20.0 MiB (20,971,520 bytes), over the read cap of 256.0 KiB (262,144 bytes); nothing was returned. Read it in parts with offset and limit (in lines), e.g. offset=1 and limit=1000, then continue from the next line; or search its content for what you need.",
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  test("over 256 MiB, ranged or not: EFBIG naming the bound; over 2 GiB edit gets EFBIG, not ENOSPC", async () => {
    const root = await mkdtemp(join(tmpdir(), "bft-read-huge-"));
    try {
      await writeFile(join(root, "big.log"), "");
      await truncate(join(root, "big.log"), 3 * 1024 * 1024 * 1024);
      const fs = nodeFileSystem({ cwd: root });
      const read = createReadTool({ fs, cwd: root });
      const message =
        "big.log is 3.0 GiB (3,221,225,472 bytes), over the 256.0 MiB (268,435,456 bytes) read loads at most, with or without offset and limit; nothing was read. Search its content for what you need, or look at parts of it with a shell command (head, tail, sed -n) if one is available.";
      expect((await read.execute({ path: "big.log" })).error).toEqual({
        code: "EFBIG",
        path: join(root, "big.log"),
        message,
      });
      expect((await read.execute({ path: "big.log", offset: 1, limit: 1 })).error?.message).toBe(message);
      const edit = await createEditTool({ fs, cwd: root, state: false }).execute({
        path: "big.log",
        oldText: "a",
        newText: "b",
      });
      expect(edit.error?.code).toBe("EFBIG");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("read: UTF-16 is named as text in another encoding", () => {
  test("a UTF-16LE file suggests converting it to UTF-8; real binary keeps its wording", async () => {
    const fs = memoryFileSystem({
      files: { "/w/u16.txt": Uint8Array.of(0xff, 0xfe, 0x68, 0x00, 0x69, 0x00), "/w/z.bin": Uint8Array.of(0, 1, 2) },
    });
    const read = createReadTool({ fs, cwd: "/w" });
    expect((await read.execute({ path: "u16.txt" })).error).toEqual({
      code: "EBINARY",
      path: "/w/u16.txt",
      message:
        "Cannot read u16.txt (6 bytes): it is a text file in UTF-16 (little-endian), an encoding this tool does not read. Convert it to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8), then read it.",
    });
    expect((await read.execute({ path: "z.bin" })).error?.message).toBe(
      "Cannot read z.bin: it is a binary file (binary data, application/octet-stream, 3 bytes), not text.",
    );
  });
});

describe("read: a lone CR ends a line", () => {
  test("lone-CR and mixed files are numbered line by line, ranged or not", async () => {
    const fs = memoryFileSystem({ files: { "/w/cr.txt": "x\ry\r", "/w/mixed.txt": "a\r\nb\nc\rd\n" } });
    const read = createReadTool({ fs, cwd: "/w" });
    const cr = await read.execute({ path: "cr.txt" });
    expect([resultText(cr), cr.totalLines, cr.finalNewline]).toEqual(["1|x\n2|y", 2, true]);
    expect(resultText(await read.execute({ path: "mixed.txt" }))).toBe("1|a\n2|b\n3|c\n4|d");
    expect(resultText(await read.execute({ path: "mixed.txt", offset: 3, limit: 1 }))).toBe(
      "3|c\n[Showed lines 3-3 of 4. Continue with offset=4.]",
    );
  });
});

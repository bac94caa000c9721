/**
 * The behaviour tests of the core file tools, as functions of a backend factory, so every
 * backend can run them: `test/tools/*.test.ts` call them on memory in Node, and a browser test
 * can call {@link testTools} on OPFS in Chromium.
 *
 * Every test starts from an empty backend from the factory, writes its files under `/w` and
 * creates the tools with `cwd: "/w"`.
 */
import { describe, expect, test } from "vitest";
import type { FileSystem } from "../../../src/contract/types.js";
import { createEditTool } from "../../../src/tools/edit/index.js";
import { createFsTools } from "../../../src/shell/defaults.js";
import type { FsTools, FsToolsOptions } from "../../../src/tools/kit/fs-tools.js";
import { createGlobTool } from "../../../src/tools/glob/index.js";
import { createGrepTool } from "../../../src/tools/grep/index.js";
import { createListTool } from "../../../src/tools/list/index.js";
import { createReadTool } from "../../../src/tools/read/index.js";
import { resultText, type ToolResult } from "../../../src/tools/kit/result.js";
import { memoryStore } from "../../../src/tools/kit/state.js";
import { ToolInputError } from "../../../src/tools/kit/tool.js";
import { createWriteTool } from "../../../src/tools/write/index.js";

/** Makes a fresh, empty backend. */
export type CreateFs = () => Promise<FileSystem>;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** A fresh backend holding `files` (paths absolute, contents strings or bytes) and an empty `/w`. */
async function backend(createFs: CreateFs, files: Record<string, string | Uint8Array> = {}): Promise<FileSystem> {
  const fs = await createFs();
  await fs.mkdir("/w", { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    await fs.writeFile(path, typeof content === "string" ? encoder.encode(content) : content);
  }
  return fs;
}

/** A fresh backend with `files` and the whole tool set over it (cwd `/w`; a store only when `options` gives one). */
async function setup(
  createFs: CreateFs,
  files: Record<string, string | Uint8Array> = {},
  options: Omit<FsToolsOptions, "fs"> = {},
): Promise<{ fs: FileSystem; tools: FsTools }> {
  const fs = await backend(createFs, files);
  return { fs, tools: createFsTools({ fs, cwd: "/w", ...options }) };
}

async function readText(fs: FileSystem, path: string): Promise<string> {
  return decoder.decode(await fs.readFile(path));
}

function text(result: ToolResult): string {
  return resultText(result);
}

/** A minimal 1×1 PNG (valid header and IHDR; 33 bytes). */
export function tinyPng(): Uint8Array {
  return Uint8Array.of(
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    0x00,
    0x00,
    0x00,
    0x0d,
    0x49,
    0x48,
    0x44,
    0x52,
    0x00,
    0x00,
    0x00,
    0x01,
    0x00,
    0x00,
    0x00,
    0x01,
    0x08,
    0x06,
    0x00,
    0x00,
    0x00,
    0x1f,
    0x15,
    0xc4,
    0x89,
  );
}

/** `read` behaviour. */
export function testReadTool(createFs: CreateFs): void {
  describe("read", () => {
    test("returns N|text lines without a trailing empty line", async () => {
      const { tools } = await setup(createFs, { "/w/a.txt": "one\ntwo\n" });
      const result = await tools.read.execute({ path: "a.txt" });
      expect(result.ok).toBe(true);
      expect(result.parts).toEqual([{ type: "text", text: "1|one\n2|two" }]);
      expect({ total: result.totalLines, start: result.startLine, end: result.endLine }).toEqual({
        total: 2,
        start: 1,
        end: 2,
      });
    });

    test("offset and limit are 1-based lines, and say where to continue", async () => {
      const { tools } = await setup(createFs, { "/w/a.txt": "a\nb\nc\nd\ne" });
      const result = await tools.read.execute({ path: "a.txt", offset: 2, limit: 2 });
      expect(text(result)).toBe("2|b\n3|c\n[Showed lines 2-3 of 5. Continue with offset=4.]");
      expect({ start: result.startLine, end: result.endLine, truncated: result.truncated }).toEqual({
        start: 2,
        end: 3,
        truncated: false,
      });
      expect(text(await tools.read.execute({ path: "a.txt", offset: 4 }))).toBe("4|d\n5|e");
      expect(text(await tools.read.execute({ path: "/w/a.txt", limit: 1 }))).toBe(
        "1|a\n[Showed lines 1-1 of 5. Continue with offset=2.]",
      );
    });

    test("an offset past the end is an error naming the line count", async () => {
      const { tools } = await setup(createFs, { "/w/a.txt": "a\nb\n" });
      const result = await tools.read.execute({ path: "a.txt", offset: 3 });
      expect(result.ok).toBe(false);
      expect(result.error).toEqual({
        code: "EINPUT",
        path: "/w/a.txt",
        message: "offset 3 is past the end of a.txt, which has 2 lines.",
      });
    });

    test("an empty file says it is empty", async () => {
      const { tools } = await setup(createFs, { "/w/e.txt": "" });
      const result = await tools.read.execute({ path: "e.txt" });
      expect(result.ok).toBe(true);
      expect(text(result)).toBe("(e.txt is empty)");
      expect(result.totalLines).toBe(0);
    });

    test("a 300 KB single-line JSON without a range is refused with no content and says how to page", async () => {
      const json = JSON.stringify({ data: "x".repeat(300_000 - 11) });
      expect(json.length).toBe(300_000);
      const { tools } = await setup(createFs, { "/w/big.json": json });
      const result = await tools.read.execute({ path: "big.json" });
      expect(result.ok).toBe(false);
      expect(result.error?.code).toBe("EFBIG");
      expect(text(result)).toBe(
        "big.json is 293.0 KiB (300,000 bytes) (1 line), over the read cap of 256.0 KiB (262,144 bytes); nothing was returned. " +
          "Read it in parts with offset and limit (in lines), e.g. offset=1 and limit=1, then continue from the next line; or search its content for what you need. " +
          "Its lines are long (the longest has 300,000 characters) and lines over 2,000 characters are cut in reads, so searching its content is the better way to find something in it.",
      );
      expect(text(result)).not.toContain("xxxx");
    });

    test("the same JSON read with a range returns a bounded, cut line", async () => {
      const json = JSON.stringify({ data: "x".repeat(300_000 - 11) });
      const { tools } = await setup(createFs, { "/w/big.json": json });
      const result = await tools.read.execute({ path: "big.json", offset: 1, limit: 1 });
      expect(result.ok).toBe(true);
      expect(text(result)).toBe(`1|${json.slice(0, 2000)}… [cut: 298,000 more characters on this line]`);
    });

    test("a multi-line file over the cap suggests a limit that fits", async () => {
      const line = "y".repeat(99);
      const { tools } = await setup(createFs, { "/w/log.txt": `${line}\n`.repeat(4000) });
      const result = await tools.read.execute({ path: "log.txt" });
      expect(text(result)).toBe(
        "log.txt is 390.6 KiB (400,000 bytes) (4,000 lines), over the read cap of 256.0 KiB (262,144 bytes); nothing was returned. " +
          "Read it in parts with offset and limit (in lines), e.g. offset=1 and limit=2503, then continue from the next line; or search its content for what you need.",
      );
    });

    test("a ranged read past the cap pages: what fits, and where to continue", async () => {
      const line = "z".repeat(100);
      const fs = await backend(createFs, { "/w/p.txt": `${line}\n`.repeat(10) });
      const read = createReadTool({ fs, cwd: "/w", maxBytes: 350 });
      const result = await read.execute({ path: "p.txt", offset: 1 });
      expect(text(result)).toBe(
        `1|${line}\n2|${line}\n3|${line}\n[Output capped at 350 bytes: showed lines 1-3 of 10. Continue with offset=4.]`,
      );
      expect({ ok: result.ok, end: result.endLine, truncated: result.truncated }).toEqual({
        ok: true,
        end: 3,
        truncated: true,
      });
      expect(text(await read.execute({ path: "p.txt", offset: 9 }))).toBe(`9|${line}\n10|${line}`);
    });

    test("a 1023-byte ASCII prefix then a multibyte character reads cleanly with a cap cutting near it", async () => {
      const prefix = "a".repeat(1023);
      const tail = "b".repeat(200);
      const fs = await backend(createFs, { "/w/m.txt": `${prefix}é${tail}\nnext\n` });
      // Whole line: the character is intact.
      const whole = await createReadTool({ fs, cwd: "/w" }).execute({ path: "m.txt", limit: 1 });
      expect(text(whole)).toBe(`1|${prefix}é${tail}\n[Showed lines 1-1 of 2. Continue with offset=2.]`);
      // A 1,072-byte cap leaves 1,024 bytes for the text (less `1|`, the newline and the 45-byte
      // marker `… [cut: 1,224 more characters on this line]`): that falls inside the 2-byte é, so
      // the cut is before it, never half of it.
      const capped = await createReadTool({ fs, cwd: "/w", maxBytes: 1072 }).execute({ path: "m.txt", offset: 1 });
      expect(text(capped)).toBe(
        `1|${prefix}… [cut: 201 more characters on this line]\n` +
          "[Line 1 alone is over the read cap of 1.0 KiB (1,072 bytes); it was cut. Search the file's content for what you need, or continue with offset=2.]",
      );
      expect(text(capped)).not.toContain("\uFFFD");
    });

    test("a line cut in characters never splits a surrogate pair", async () => {
      const prefix = "a".repeat(1023);
      const fs = await backend(createFs, { "/w/e.txt": `${prefix}😀b\n` });
      const result = await createReadTool({ fs, cwd: "/w", maxLineLength: 1024 }).execute({ path: "e.txt" });
      expect(text(result)).toBe(`1|${prefix}… [cut: 3 more characters on this line]`);
    });

    test("long lines are cut with a marker at maxLineLength", async () => {
      const fs = await backend(createFs, { "/w/l.txt": `short\n${"q".repeat(30)}\n` });
      const result = await createReadTool({ fs, cwd: "/w", maxLineLength: 10 }).execute({ path: "l.txt" });
      expect(text(result)).toBe("1|short\n2|qqqqqqqqqq… [cut: 20 more characters on this line]");
    });

    test("a .woff2-like binary is refused with its size and type", async () => {
      const font = new Uint8Array(1234);
      font.set(encoder.encode("wOF2"), 0);
      font[4] = 0x00;
      font[5] = 0x01;
      const { tools } = await setup(createFs, { "/w/fonts/inter.woff2": font });
      const result = await tools.read.execute({ path: "fonts/inter.woff2" });
      expect(result.ok).toBe(false);
      expect(result.error).toEqual({
        code: "EBINARY",
        path: "/w/fonts/inter.woff2",
        message:
          "Cannot read fonts/inter.woff2: it is a binary file (WOFF2 font, font/woff2, 1.2 KiB (1,234 bytes)), not text.",
      });
    });

    test("binary is detected by content, not by extension", async () => {
      const { tools } = await setup(createFs, {
        "/w/data.txt": Uint8Array.of(0x61, 0x00, 0x62, 0x00),
        "/w/notes.png": "plain text in a .png\n",
      });
      expect(text(await tools.read.execute({ path: "data.txt" }))).toBe(
        "Cannot read data.txt: it is a binary file (binary data, application/octet-stream, 4 bytes), not text.",
      );
      expect(text(await tools.read.execute({ path: "notes.png" }))).toBe("1|plain text in a .png");
    });

    test("a file full of control characters is binary even without NUL bytes", async () => {
      const bytes = new Uint8Array(100).map((_, i) => (i % 2 === 0 ? 0x01 : 0x41));
      const { tools } = await setup(createFs, { "/w/ctl.bin": bytes });
      expect(text(await tools.read.execute({ path: "ctl.bin" }))).toBe(
        "Cannot read ctl.bin: it is a binary file (binary data, application/octet-stream, 100 bytes), not text.",
      );
    });

    test("invalid UTF-8 is reported with the byte offset and line, not shown as U+FFFD", async () => {
      const { tools } = await setup(createFs, {
        "/w/latin1.txt": Uint8Array.of(0x61, 0x62, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a),
      });
      const result = await tools.read.execute({ path: "latin1.txt" });
      expect(result.error).toEqual({
        code: "EILSEQ",
        path: "/w/latin1.txt",
        message:
          "Cannot read latin1.txt: it is not valid UTF-8 (byte 0xE9 at byte offset 6, line 2). It may use another encoding (Latin-1, Windows-1252, UTF-16); it is not shown, to avoid replacement characters.",
      });
    });

    test("a BOM is not shown, and CRLF line ends are not shown as characters", async () => {
      const { tools } = await setup(createFs, { "/w/bom.txt": "\uFEFFhello\r\nworld\r\n" });
      expect(text(await tools.read.execute({ path: "bom.txt" }))).toBe("1|hello\n2|world");
    });

    test("a directory is refused with a pointer to list", async () => {
      const { tools } = await setup(createFs, { "/w/src/a.ts": "x" });
      const result = await tools.read.execute({ path: "src" });
      expect(result.error).toEqual({
        code: "EISDIR",
        path: "/w/src",
        message: "src is a directory, not a file; list it to see what it contains.",
      });
    });

    test("a missing file says so", async () => {
      const { tools } = await setup(createFs);
      const result = await tools.read.execute({ path: "nope.txt" });
      expect(result.error).toEqual({
        code: "ENOENT",
        path: "/w/nope.txt",
        message: "File not found: nope.txt. Check the path: list its directory or search for the file name.",
      });
    });

    test("a path outside the workspace is refused by the gate", async () => {
      const { tools } = await setup(createFs, { "/secret.txt": "s" });
      const result = await tools.read.execute({ path: "../secret.txt" });
      expect(result.ok).toBe(false);
      expect(result.error?.code).toBe("EDENIED");
      expect(text(result)).not.toContain("1|s");
    });

    test("images become a media part; converters: [] refuses them as binary", async () => {
      const png = tinyPng();
      const { fs, tools } = await setup(createFs, { "/w/pic.png": png });
      const result = await tools.read.execute({ path: "pic.png" });
      expect(result.ok).toBe(true);
      expect(result.parts).toEqual([
        { type: "text", text: "Image pic.png (image/png, 1×1, 33 bytes)" },
        { type: "media", mediaType: "image/png", data: btoa(String.fromCharCode(...png)) },
      ]);
      const off = await createReadTool({ fs, cwd: "/w", converters: [] }).execute({ path: "pic.png" });
      expect(text(off)).toBe("Cannot read pic.png: it is a binary file (PNG image, image/png, 33 bytes), not text.");
    });

    test("files under tool-outputs/ are exempt from the cap: read back whole, ranged or not", async () => {
      const line = "o".repeat(99);
      const fs = await backend(createFs, {
        "/w/tool-outputs/call_1.txt": `${line}\n`.repeat(10),
        "/w/other.txt": `${line}\n`.repeat(10),
      });
      const read = createReadTool({ fs, cwd: "/w", maxBytes: 250 });
      const whole = Array.from({ length: 10 }, (_, index) => `${index + 1}|${line}`).join("\n");
      const back = await read.execute({ path: "tool-outputs/call_1.txt" });
      expect([text(back), back.truncated, back.endLine]).toEqual([whole, false, 10]);
      expect(text(await read.execute({ path: "tool-outputs/call_1.txt", offset: 2 }))).toBe(
        whole.slice(whole.indexOf("\n") + 1),
      );
      expect(text(await read.execute({ path: "tool-outputs/call_1.txt", offset: 9, limit: 1 }))).toBe(
        `9|${line}\n[Showed lines 9-9 of 10. Continue with offset=10.]`,
      );
      expect((await read.execute({ path: "other.txt" })).error?.code).toBe("EFBIG");
    });

    test("maxBytes: Infinity means no cap", async () => {
      const fs = await backend(createFs, { "/w/big.txt": `${"x".repeat(300_000)}\n` });
      const capped = await createReadTool({ fs, cwd: "/w", maxLineLength: 400_000 }).execute({ path: "big.txt" });
      expect(capped.error?.code).toBe("EFBIG");
      const read = createReadTool({ fs, cwd: "/w", maxBytes: Number.POSITIVE_INFINITY, maxLineLength: 400_000 });
      const result = await read.execute({ path: "big.txt" });
      expect([result.ok, text(result).length, result.truncated]).toEqual([true, 300_002, false]);
    });

    test("validate names unknown and missing keys and bad values", async () => {
      const read = createReadTool({ fs: await createFs() });
      expect(() => read.validate({ file: "a" })).toThrow(
        new ToolInputError("Unknown read input key: file. Expected path, offset, limit"),
      );
      expect(() => read.validate({})).toThrow(new ToolInputError("Missing read input key: path (a string)"));
      expect(() => read.validate({ path: "a", offset: 0 })).toThrow(
        new ToolInputError("read input offset must be ≥ 1, got 0"),
      );
      expect(() => read.validate({ path: "a", limit: "5" })).toThrow(
        new ToolInputError("read input limit must be an integer, got string"),
      );
      expect(() => read.validate("a")).toThrow(
        new ToolInputError("read input must be an object with path, offset, limit, got string"),
      );
      expect(read.validate({ path: "a", offset: null })).toEqual({ path: "a" });
      expect(read.inputSchema).toEqual({
        type: "object",
        properties: {
          path: {
            type: "string",
            description: "Path of the file to read, relative to the working directory or absolute.",
            minLength: 1,
          },
          offset: { type: "integer", description: "First line to read, 1-based. Omit to start at line 1.", minimum: 1 },
          limit: {
            type: "integer",
            description: "Most lines to read. Omit to read to the end (within the read cap).",
            minimum: 1,
          },
        },
        required: ["path"],
        additionalProperties: false,
      });
    });

    test("unknown options and bad values throw TypeError at creation", async () => {
      const fs = await createFs();
      expect(() => createReadTool({ fs, maxbytes: 1 } as never)).toThrow(TypeError);
      expect(() => createReadTool({ fs, maxbytes: 1 } as never)).toThrow(
        /^createReadTool got an unknown option "maxbytes"\. Known options: fs, cwd, /,
      );
      expect(() => createReadTool({ fs, maxBytes: 0 })).toThrow(
        new TypeError("createReadTool maxBytes must be a positive integer, got 0"),
      );
      expect(() => createReadTool({ fs, converters: [{}] as never })).toThrow(
        new TypeError("createReadTool converters must be an array of converters (objects with a convert function)"),
      );
    });
  });
}

/** `write` behaviour. */
export function testWriteTool(createFs: CreateFs): void {
  describe("write", () => {
    test("creates parents and says how many bytes went where", async () => {
      const { fs, tools } = await setup(createFs);
      const result = await tools.write.execute({ path: "sub/dir/a.txt", content: "héllo" });
      expect(result.ok).toBe(true);
      expect(text(result)).toBe("wrote 6 bytes to sub/dir/a.txt");
      expect(result.changes).toEqual([{ action: "added", path: "/w/sub/dir/a.txt", bytes: 6 }]);
      expect(await readText(fs, "/w/sub/dir/a.txt")).toBe("héllo");
      expect(text(await tools.write.execute({ path: "one.txt", content: "x" }))).toBe("wrote 1 byte to one.txt");
    });

    test("refuses a directory target", async () => {
      const { tools } = await setup(createFs, { "/w/src/a.ts": "x" });
      const result = await tools.write.execute({ path: "src", content: "x" });
      expect(result.error).toEqual({
        code: "EISDIR",
        path: "/w/src",
        message: "Cannot write src: it is a directory. Choose a file path inside it.",
      });
    });

    test("with a store, overwriting needs a read first and a fresh file", async () => {
      const { fs, tools } = await setup(createFs, { "/w/a.txt": "old" }, { state: memoryStore() });
      const unread = await tools.write.execute({ path: "a.txt", content: "new" });
      expect(unread.error).toEqual({
        code: "ENOTREAD",
        path: "/w/a.txt",
        message: "a.txt has not been read in this session. Read the file first, then retry.",
      });
      expect(await readText(fs, "/w/a.txt")).toBe("old");
      await tools.read.execute({ path: "a.txt" });
      await fs.writeFile("/w/a.txt", encoder.encode("changed elsewhere"));
      const stale = await tools.write.execute({ path: "a.txt", content: "new" });
      expect(stale.error).toEqual({
        code: "ESTALE",
        path: "/w/a.txt",
        message: "a.txt has changed since it was last read. Read the file again, then retry.",
      });
      expect(await readText(fs, "/w/a.txt")).toBe("changed elsewhere");
      await tools.read.execute({ path: "a.txt" });
      const ok = await tools.write.execute({ path: "a.txt", content: "new" });
      expect(text(ok)).toBe("wrote 3 bytes to a.txt");
      expect(ok.changes).toEqual([{ action: "updated", path: "/w/a.txt", bytes: 3 }]);
      // The write recorded the new digest: a second write needs no new read.
      expect(text(await tools.write.execute({ path: "a.txt", content: "newer" }))).toBe("wrote 5 bytes to a.txt");
    });

    test("a single factory shares nothing: no store, no read needed", async () => {
      const fs = await backend(createFs, { "/w/a.txt": "old" });
      const result = await createWriteTool({ fs, cwd: "/w" }).execute({ path: "a.txt", content: "new" });
      expect(text(result)).toBe("wrote 3 bytes to a.txt");
    });

    test("a file as a parent directory gives a clear error", async () => {
      const { tools } = await setup(createFs, { "/w/file": "x" });
      const result = await tools.write.execute({ path: "file/a.txt", content: "x" });
      expect(result.ok).toBe(false);
      expect(result.error?.code).toBe("ENOTDIR");
    });

    test("validate", async () => {
      const write = createWriteTool({ fs: await createFs() });
      expect(() => write.validate({ path: "a" })).toThrow(
        new ToolInputError("Missing write input key: content (a string)"),
      );
      expect(() => write.validate({ path: "a", content: "", mode: 1 })).toThrow(
        new ToolInputError("Unknown write input key: mode. Expected path, content"),
      );
      expect(write.validate({ path: "a", content: "" })).toEqual({ path: "a", content: "" });
    });
  });
}

/** `edit` behaviour. */
export function testEditTool(createFs: CreateFs): void {
  describe("edit", () => {
    async function editSetup(files: Record<string, string | Uint8Array>) {
      const { fs, tools } = await setup(createFs, files);
      for (const path of Object.keys(files)) await tools.read.execute({ path });
      return { fs, tools };
    }

    test("replaces one occurrence and says where", async () => {
      const { fs, tools } = await editSetup({ "/w/a.py": "import os\ndebug = True\n" });
      const result = await tools.edit.execute({ path: "a.py", oldText: "debug = True", newText: "debug = False" });
      expect(text(result)).toBe("replaced 1 occurrence in a.py at line 2");
      expect(result.changes).toEqual([{ action: "updated", path: "/w/a.py", bytes: 24, line: 2 }]);
      expect(await readText(fs, "/w/a.py")).toBe("import os\ndebug = False\n");
    });

    test("an edit on a CRLF file keeps CRLF", async () => {
      const { fs, tools } = await editSetup({ "/w/win.txt": "one\r\ntwo\r\nthree\r\n" });
      const result = await tools.edit.execute({ path: "win.txt", oldText: "one\ntwo", newText: "uno\ndos\nmas" });
      expect(text(result)).toBe("replaced 1 occurrence in win.txt at line 1");
      expect(await readText(fs, "/w/win.txt")).toBe("uno\r\ndos\r\nmas\r\nthree\r\n");
    });

    test("a mixed-ending file keeps each untouched line's ending", async () => {
      const { fs, tools } = await editSetup({ "/w/mix.txt": "a\r\nb\nc\r\nd\n" });
      await tools.edit.execute({ path: "mix.txt", oldText: "c\nd", newText: "C\nD" });
      expect(await readText(fs, "/w/mix.txt")).toBe("a\r\nb\nC\r\nD\n");
    });

    test("a BOM is kept", async () => {
      const { fs, tools } = await editSetup({ "/w/bom.txt": "\uFEFFkey=1\n" });
      await tools.edit.execute({ path: "bom.txt", oldText: "key=1", newText: "key=2" });
      expect([...(await fs.readFile("/w/bom.txt")).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(await readText(fs, "/w/bom.txt")).toBe("\uFEFFkey=2\n");
    });

    test("a tab-indented line is not matched by space-indented old text: clear error, file unchanged", async () => {
      const original = "def f():\n\treturn 1\n";
      const { fs, tools } = await editSetup({ "/w/t.py": original });
      const result = await tools.edit.execute({ path: "t.py", oldText: "    return 1", newText: "    return 2" });
      expect(result.error).toEqual({
        code: "ENOMATCH",
        path: "/w/t.py",
        message:
          "oldText was not found in t.py; the file was not changed. It matches at line 2 if spaces and tabs are ignored: the whitespace differs (the file's line 2 is indented with tabs). Copy the exact whitespace from read's output.",
      });
      expect(await readText(fs, "/w/t.py")).toBe(original);
    });

    test("PLACEHOLDER replaced with $$100 writes $$100 ($ is literal)", async () => {
      const { fs, tools } = await editSetup({ "/w/price.txt": "price: PLACEHOLDER\n" });
      await tools.edit.execute({ path: "price.txt", oldText: "PLACEHOLDER", newText: "$$100" });
      expect(await readText(fs, "/w/price.txt")).toBe("price: $$100\n");
      await tools.edit.execute({ path: "price.txt", oldText: "$$100", newText: "$& and $1 and $'" });
      expect(await readText(fs, "/w/price.txt")).toBe("price: $& and $1 and $'\n");
    });

    test("two identical debug = True lines with one edit is an error, not a first-match edit", async () => {
      const original = "debug = True\nx = 1\ndebug = True\n";
      const { fs, tools } = await editSetup({ "/w/s.py": original });
      const result = await tools.edit.execute({ path: "s.py", oldText: "debug = True", newText: "debug = False" });
      expect(result.error).toEqual({
        code: "EAMBIGUOUS",
        path: "/w/s.py",
        displayPath: "s.py",
        occurrences: 2,
        lines: [1, 3],
        lineCount: 2,
        message:
          "oldText occurs 2 times in s.py (at lines 1, 3); it must occur exactly once. Include more surrounding lines in oldText to make it unique, or set replaceAll to true to replace every occurrence.",
      });
      expect(await readText(fs, "/w/s.py")).toBe(original);
    });

    test("overlapping matches count: aa occurs twice in aaa", async () => {
      const { fs, tools } = await editSetup({ "/w/a.txt": "aaa" });
      const result = await tools.edit.execute({ path: "a.txt", oldText: "aa", newText: "b" });
      expect(text(result)).toBe(
        "oldText occurs 2 times in a.txt (at line 1); it must occur exactly once. Include more surrounding lines in oldText to make it unique, or set replaceAll to true to replace every occurrence.",
      );
      expect(await readText(fs, "/w/a.txt")).toBe("aaa");
    });

    test("replaceAll replaces left to right without overlap", async () => {
      const { fs, tools } = await editSetup({ "/w/a.txt": "aaa\nx aa\n", "/w/b.txt": "aaaa" });
      expect(text(await tools.edit.execute({ path: "a.txt", oldText: "aa", newText: "b", replaceAll: true }))).toBe(
        "replaced 2 occurrences in a.txt at lines 1, 2",
      );
      expect(await readText(fs, "/w/a.txt")).toBe("ba\nx b\n");
      expect(text(await tools.edit.execute({ path: "b.txt", oldText: "aa", newText: "b", replaceAll: true }))).toBe(
        "replaced 2 occurrences in b.txt at line 1",
      );
      expect(await readText(fs, "/w/b.txt")).toBe("bb");
    });

    test("identical oldText and newText is a no-op", async () => {
      const { fs, tools } = await editSetup({ "/w/a.txt": "same\n" });
      const result = await tools.edit.execute({ path: "a.txt", oldText: "same", newText: "same" });
      expect(result.ok).toBe(true);
      expect(result.changes).toEqual([]);
      expect(text(result)).toBe("No change: oldText and newText are identical, so a.txt was left as it was.");
      expect(await readText(fs, "/w/a.txt")).toBe("same\n");
    });

    test("not found in a CRLF file with LF old text carries the CRLF hint", async () => {
      const { tools } = await editSetup({ "/w/win.txt": "one\r\ntwo\r\n" });
      const result = await tools.edit.execute({ path: "win.txt", oldText: "one\nthree", newText: "x" });
      expect(result.error).toEqual({
        code: "ENOMATCH",
        path: "/w/win.txt",
        message:
          "oldText was not found in win.txt; the file was not changed. win.txt has CRLF line endings; oldText with LF line endings is matched against them, so line endings are not the difference.",
      });
    });

    test("not found with nothing close says to copy the text exactly; read's prefixes are pointed out", async () => {
      const { tools } = await editSetup({ "/w/a.txt": "alpha\n" });
      expect(text(await tools.edit.execute({ path: "a.txt", oldText: "beta", newText: "x" }))).toBe(
        "oldText was not found in a.txt; the file was not changed. Read the file again and copy the text exactly, including indentation.",
      );
      expect(text(await tools.edit.execute({ path: "a.txt", oldText: "1|alpha", newText: "x" }))).toBe(
        "oldText was not found in a.txt; the file was not changed. oldText seems to start with a line-number prefix from read (`12|`); leave the prefixes out.",
      );
    });

    test("a file that is not UTF-8 is refused untouched", async () => {
      const latin1 = Uint8Array.of(0x63, 0x61, 0x66, 0xe9, 0x0a);
      const { fs, tools } = await setup(createFs, { "/w/l.txt": latin1 }, { state: false });
      const result = await tools.edit.execute({ path: "l.txt", oldText: "caf", newText: "tea" });
      expect(result.error).toEqual({
        code: "EILSEQ",
        path: "/w/l.txt",
        message:
          "Cannot edit l.txt: it is not valid UTF-8 (invalid byte at byte offset 3). The file was left untouched; edit it with a tool that knows its encoding.",
      });
      expect([...(await fs.readFile("/w/l.txt"))]).toEqual([...latin1]);
    });

    test("a binary file is refused", async () => {
      const { tools } = await setup(createFs, { "/w/b.bin": Uint8Array.of(1, 0, 2) }, { state: false });
      expect(text(await tools.edit.execute({ path: "b.bin", oldText: "a", newText: "b" }))).toBe(
        "Cannot edit b.bin: it is a binary file (binary data), not text.",
      );
    });

    test("without a store (the default) edit and overwrite need no read", async () => {
      const { fs, tools } = await setup(createFs, { "/w/a.txt": "v1\n" });
      expect(text(await tools.edit.execute({ path: "a.txt", oldText: "v1", newText: "v2" }))).toBe(
        "replaced 1 occurrence in a.txt at line 1",
      );
      expect(text(await tools.write.execute({ path: "a.txt", content: "v3\n" }))).toBe("wrote 3 bytes to a.txt");
      expect(await readText(fs, "/w/a.txt")).toBe("v3\n");
    });

    test("read before edit (with a store): not read, then stale, then fine", async () => {
      const { fs, tools } = await setup(createFs, { "/w/a.txt": "v1\n" }, { state: memoryStore() });
      expect(text(await tools.edit.execute({ path: "a.txt", oldText: "v1", newText: "v2" }))).toBe(
        "a.txt has not been read in this session. Read the file first, then retry.",
      );
      await tools.read.execute({ path: "a.txt" });
      await fs.writeFile("/w/a.txt", encoder.encode("v1 changed\n"));
      const stale = await tools.edit.execute({ path: "a.txt", oldText: "v1", newText: "v2" });
      expect(stale.error?.code).toBe("ESTALE");
      expect(await readText(fs, "/w/a.txt")).toBe("v1 changed\n");
      await tools.read.execute({ path: "a.txt" });
      expect(text(await tools.edit.execute({ path: "a.txt", oldText: "v1", newText: "v2" }))).toBe(
        "replaced 1 occurrence in a.txt at line 1",
      );
      // The edit recorded the new digest: a second edit needs no new read.
      expect(text(await tools.edit.execute({ path: "a.txt", oldText: "v2", newText: "v3" }))).toBe(
        "replaced 1 occurrence in a.txt at line 1",
      );
      expect(await readText(fs, "/w/a.txt")).toBe("v3 changed\n");
    });

    test("two concurrent edits of one file both land", async () => {
      const { fs, tools } = await editSetup({ "/w/c.txt": "first\nsecond\n" });
      const [a, b] = await Promise.all([
        tools.edit.execute({ path: "c.txt", oldText: "first", newText: "FIRST" }),
        tools.edit.execute({ path: "c.txt", oldText: "second", newText: "SECOND" }),
      ]);
      expect([a.ok, b.ok]).toEqual([true, true]);
      expect(await readText(fs, "/w/c.txt")).toBe("FIRST\nSECOND\n");
    });

    test("many matches: the first ten lines are listed, then how many more", async () => {
      const { tools } = await editSetup({ "/w/m.txt": "x = 1\n".repeat(12) });
      expect(text(await tools.edit.execute({ path: "m.txt", oldText: "x = 1", newText: "x = 2" }))).toBe(
        "oldText occurs 12 times in m.txt (at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more); it must occur exactly once. Include more surrounding lines in oldText to make it unique, or set replaceAll to true to replace every occurrence.",
      );
    });

    test("a ranged read is enough to edit", async () => {
      const { tools } = await setup(createFs, { "/w/r.txt": "a\nb\nc\n" });
      await tools.read.execute({ path: "r.txt", offset: 3, limit: 1 });
      expect(text(await tools.edit.execute({ path: "r.txt", oldText: "a", newText: "A" }))).toBe(
        "replaced 1 occurrence in r.txt at line 1",
      );
    });

    test("outside the workspace, edit and write are refused and nothing changes", async () => {
      const { fs, tools } = await setup(createFs, { "/outside.txt": "keep" });
      expect((await tools.edit.execute({ path: "/outside.txt", oldText: "keep", newText: "lost" })).error?.code).toBe(
        "EDENIED",
      );
      expect((await tools.write.execute({ path: "../outside.txt", content: "lost" })).error?.code).toBe("EDENIED");
      expect(await readText(fs, "/outside.txt")).toBe("keep");
    });

    test("a missing file suggests write", async () => {
      const { tools } = await setup(createFs);
      expect(text(await tools.edit.execute({ path: "new.txt", oldText: "a", newText: "b" }))).toBe(
        "File not found: new.txt. Check the path: list its directory or search for the file name. To create a new file, write it whole instead of editing.",
      );
    });

    test("validate", async () => {
      const edit = createEditTool({ fs: await createFs() });
      expect(() => edit.validate({ path: "a", old_string: "x", newText: "y" })).toThrow(
        new ToolInputError("Unknown edit input key: old_string. Expected path, oldText, newText, replaceAll"),
      );
      expect(() => edit.validate({ path: "a", oldText: "", newText: "y" })).toThrow(
        new ToolInputError("edit input oldText must not be empty"),
      );
      expect(() => edit.validate({ path: "a", oldText: "x", newText: "y", replaceAll: "yes" })).toThrow(
        new ToolInputError("edit input replaceAll must be a boolean, got string"),
      );
    });
  });
}

/** `list` behaviour. */
export function testListTool(createFs: CreateFs): void {
  describe("list", () => {
    test("names with sizes, directories marked, sorted", async () => {
      const { tools } = await setup(createFs, {
        "/w/b.txt": "hello",
        "/w/a.md": "x",
        "/w/src/z.ts": "",
        "/w/.env": "K=1\n",
      });
      const result = await tools.list.execute({});
      expect(text(result)).toBe(".env (4 bytes)\na.md (1 byte)\nb.txt (5 bytes)\nsrc/");
      expect(result.count).toBe(4);
      expect(text(await tools.list.execute({ path: "src" }))).toBe("z.ts (0 bytes)");
    });

    test("capped, with a count of what was left out", async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 5; i++) files[`/w/d/f${i}.txt`] = "x";
      const fs = await backend(createFs, files);
      const result = await createListTool({ fs, cwd: "/w", maxEntries: 2 }).execute({ path: "d" });
      expect(text(result)).toBe(
        "f0.txt (1 byte)\nf1.txt (1 byte)\n[… 3 more entries not shown (5 in all). Use glob with a pattern to narrow the list.]",
      );
      expect({ count: result.count, truncated: result.truncated }).toEqual({ count: 5, truncated: true });
    });

    test("an empty directory, a file and a missing path", async () => {
      const { fs, tools } = await setup(createFs, { "/w/a.txt": "x" });
      await fs.mkdir("/w/empty");
      expect(text(await tools.list.execute({ path: "empty" }))).toBe("empty is an empty directory.");
      expect(text(await tools.list.execute({ path: "a.txt" }))).toBe(
        "a.txt is a file, not a directory; read the file to see its content.",
      );
      expect((await tools.list.execute({ path: "nope" })).error?.code).toBe("ENOENT");
    });

    test("pattern lists matching files below path, recursively, with sizes, sorted by path", async () => {
      const { fs, tools } = await setup(createFs, {
        "/w/notes/b.md": "bb",
        "/w/notes/a.md": "a",
        "/w/notes/deep/c.md": "ccc",
        "/w/notes/deep/d.txt": "d",
        "/w/notes/node_modules/x.md": "x",
      });
      const all = await tools.list.execute({ path: "notes", pattern: "**/*" });
      expect(text(all)).toBe("a.md (1 byte)\nb.md (2 bytes)\ndeep/c.md (3 bytes)\ndeep/d.txt (1 byte)");
      expect({ count: all.count, truncated: all.truncated }).toEqual({ count: 4, truncated: false });
      expect(text(await tools.list.execute({ path: "notes", pattern: "*.md" }))).toBe("a.md (1 byte)\nb.md (2 bytes)");
      expect(text(await tools.list.execute({ pattern: "**/c.md" }))).toBe("notes/deep/c.md (3 bytes)");
      expect(text(await tools.list.execute({ path: "notes", pattern: "*.rs" }))).toBe(
        "No files match *.rs under notes.",
      );
      const capped = await createListTool({ fs, cwd: "/w", maxEntries: 1 }).execute({ path: "notes", pattern: "**" });
      expect(text(capped)).toBe(
        "a.md (1 byte)\n[… 3 more files not shown (4 in all). Use a narrower pattern or path.]",
      );
      expect((await tools.list.execute({ pattern: "" })).error?.message).toBe("list input pattern must not be empty");
      // The default schema does not show it (glob covers it there).
      expect(Object.keys(tools.list.inputSchema["properties"] as object)).toEqual(["path"]);
    });
  });
}

/** `glob` behaviour. */
export function testGlobTool(createFs: CreateFs): void {
  describe("glob", () => {
    const files = {
      "/w/src/a.ts": "",
      "/w/src/lib/b.ts": "",
      "/w/src/c.js": "",
      "/w/.github/w.ts": "",
      "/w/node_modules/m/i.ts": "",
      "/w/README.md": "",
    };

    test("** crosses directories, * does not; hidden files are in, node_modules is not", async () => {
      const { tools } = await setup(createFs, files);
      const all = await tools.glob.execute({ pattern: "**/*.ts" });
      expect(text(all)).toBe(".github/w.ts\nsrc/a.ts\nsrc/lib/b.ts");
      expect(all.count).toBe(3);
      expect(text(await tools.glob.execute({ pattern: "src/*.ts" }))).toBe("src/a.ts");
      expect(text(await tools.glob.execute({ pattern: "*.ts", path: "src" }))).toBe("src/a.ts");
      expect(text(await tools.glob.execute({ pattern: "src/**/*.{ts,js}" }))).toBe("src/a.ts\nsrc/c.js\nsrc/lib/b.ts");
      expect(text(await tools.glob.execute({ pattern: "**/*.ts", path: "node_modules" }))).toBe("node_modules/m/i.ts");
    });

    test("a literal path, and no match", async () => {
      const { tools } = await setup(createFs, files);
      expect(text(await tools.glob.execute({ pattern: "src/lib/b.ts" }))).toBe("src/lib/b.ts");
      const none = await tools.glob.execute({ pattern: "**/*.py" });
      expect({ ok: none.ok, count: none.count, text: text(none) }).toEqual({
        ok: true,
        count: 0,
        text: "No files match **/*.py under ..",
      });
      expect(text(await tools.glob.execute({ pattern: "nowhere/**/*.ts" }))).toBe(
        "No files match nowhere/**/*.ts under ..",
      );
    });

    test("an absolute pattern", async () => {
      const { tools } = await setup(createFs, files);
      expect(text(await tools.glob.execute({ pattern: "/w/src/*.ts" }))).toBe("src/a.ts");
    });

    test("capped with a count", async () => {
      const { fs } = await setup(createFs, files);
      const result = await createGlobTool({ fs, cwd: "/w", maxResults: 1 }).execute({ pattern: "src/**" });
      expect(text(result)).toBe("src/a.ts\n[… 2 more files not shown (3 in all). Use a narrower pattern or path.]");
      expect(result.truncated).toBe(true);
    });
  });
}

/** `grep` behaviour. */
export function testGrepTool(createFs: CreateFs): void {
  describe("grep", () => {
    const files = {
      "/w/src/a.ts": "const a = 1;\n// TODO: fix a\nexport { a };\n",
      "/w/src/b.js": "// todo lower\nTODO at start\n",
      "/w/docs/c.md": "nothing here\r\nTODO in crlf\r\n",
      "/w/bin/x.bin": Uint8Array.of(0x54, 0x4f, 0x44, 0x4f, 0x00),
      "/w/node_modules/m/i.js": "TODO hidden\n",
    };

    test("path:line:text, sorted by path then line; binary and node_modules skipped; no \\r shown", async () => {
      const { tools } = await setup(createFs, files);
      const result = await tools.grep.execute({ pattern: "TODO" });
      expect(text(result)).toBe("docs/c.md:2:TODO in crlf\nsrc/a.ts:2:// TODO: fix a\nsrc/b.js:2:TODO at start");
      expect(result.count).toBe(3);
    });

    test("glob filter, ignoreCase, anchors per line, a single file", async () => {
      const { tools } = await setup(createFs, files);
      expect(text(await tools.grep.execute({ pattern: "todo", glob: "*.js", ignoreCase: true }))).toBe(
        "src/b.js:1:// todo lower\nsrc/b.js:2:TODO at start",
      );
      expect(text(await tools.grep.execute({ pattern: "^TODO" }))).toBe(
        "docs/c.md:2:TODO in crlf\nsrc/b.js:2:TODO at start",
      );
      expect(text(await tools.grep.execute({ pattern: "a;?$", path: "src/a.ts" }))).toBe("src/a.ts:2:// TODO: fix a");
      expect(text(await tools.grep.execute({ pattern: "TODO", glob: "docs/**" }))).toBe("docs/c.md:2:TODO in crlf");
    });

    test("matches are per line: a pattern spanning a newline does not match", async () => {
      const { tools } = await setup(createFs, { "/w/a.txt": "foo\nbar\nfoo bar\n" });
      expect(text(await tools.grep.execute({ pattern: "foo\\sbar" }))).toBe("a.txt:3:foo bar");
      expect(text(await tools.grep.execute({ pattern: "o$" }))).toBe("a.txt:1:foo");
    });

    test("no match says what was searched", async () => {
      const { tools } = await setup(createFs, files);
      const result = await tools.grep.execute({ pattern: "zzz", path: "src" });
      expect({ ok: result.ok, count: result.count, text: text(result) }).toEqual({
        ok: true,
        count: 0,
        text: 'No matches for "zzz" in src; searched 2 files.',
      });
    });

    test("caps on matches and on line length", async () => {
      const long = `${"a".repeat(50)}NEEDLE${"b".repeat(50)}`;
      const fs = await backend(createFs, { "/w/m.txt": "hit 1\nhit 2\nhit 3\n", "/w/long.txt": `${long}\n` });
      const grep = createGrepTool({ fs, cwd: "/w", maxMatches: 2, maxLineLength: 20 });
      const capped = await grep.execute({ pattern: "hit" });
      expect(text(capped)).toBe(
        "m.txt:1:hit 1\nm.txt:2:hit 2\n[Showed 2 of 3 matching lines in 1 file. Narrow the pattern, path or glob to see the rest.]",
      );
      expect({ count: capped.count, truncated: capped.truncated }).toEqual({ count: 3, truncated: true });
      expect(text(await grep.execute({ pattern: "NEEDLE" }))).toBe(`long.txt:1:…aaaaaNEEDLEbbbbbbbbb…`);
    });

    test("an invalid expression is an input error", async () => {
      const { tools } = await setup(createFs, files);
      expect(() => tools.grep.validate({ pattern: "(" })).toThrow(ToolInputError);
      const result = await tools.grep.execute({ pattern: "(" });
      expect(result.error?.code).toBe("EINPUT");
      expect(text(result)).toBe("grep input pattern is not a valid regular expression: Unterminated group");
    });

    test("\\p{L} works (Unicode mode when the pattern allows it)", async () => {
      const { tools } = await setup(createFs, { "/w/u.txt": "123\nÄrger\n" });
      expect(text(await tools.grep.execute({ pattern: "^\\p{L}+$" }))).toBe("u.txt:2:Ärger");
    });
  });
}

/** Offloading of large search output. */
export function testOffloading(createFs: CreateFs): void {
  describe("offloading", () => {
    test("a large grep result is saved under tool-outputs/ and can be read back in ranges", async () => {
      const lines = Array.from({ length: 2000 }, (_, i) => `line ${i} MATCH ${"p".repeat(20)}`).join("\n");
      const { fs, tools } = await setup(
        createFs,
        { "/w/big.txt": `${lines}\n` },
        { grep: { maxMatches: 5000 }, read: { maxBytes: 4096 } },
      );
      const result = await tools.grep.execute({ pattern: "MATCH" }, { toolCallId: "call/1" });
      const shown = text(result);
      expect(result.count).toBe(2000);
      const footer = shown.slice(shown.lastIndexOf("\n") + 1);
      // 97,782 bytes of output; the 8 KiB preview ends at the last line end before 8,192 bytes (175 lines).
      expect(footer).toBe(
        "[Output is 95.5 KiB (97,782 bytes), 2,000 lines; showed the first 175 lines. The full output is saved in tool-outputs/call_1.txt: read that file in ranges (from line 176, 500 lines at a time), or search it.]",
      );
      expect(shown.split("\n")).toHaveLength(176);
      const saved = await readText(fs, "/w/tool-outputs/call_1.txt");
      expect(saved.split("\n")).toHaveLength(2000);
      expect(saved.startsWith("big.txt:1:line 0 MATCH")).toBe(true);
      expect(shown.startsWith("big.txt:1:line 0 MATCH")).toBe(true);
      // Exempt from the 4 KiB read cap: it is read back whole.
      const back = await tools.read.execute({ path: "tool-outputs/call_1.txt" });
      expect([back.ok, back.truncated, back.endLine]).toEqual([true, false, 2000]);
      expect(text(back).split("\n")[0]).toBe(`1|big.txt:1:line 0 MATCH ${"p".repeat(20)}`);
      expect(text(back).split("\n")[1999]).toBe(`2000|big.txt:2000:line 1999 MATCH ${"p".repeat(20)}`);
      // ...and grep does not search tool-outputs/ by default.
      expect((await tools.grep.execute({ pattern: "MATCH" }, { toolCallId: "call/2" })).count).toBe(2000);
    });

    test("offload: false keeps the whole output inline", async () => {
      const lines = Array.from({ length: 2000 }, (_, i) => `line ${i} MATCH ${"p".repeat(20)}`).join("\n");
      const { fs, tools } = await setup(
        createFs,
        { "/w/big.txt": `${lines}\n` },
        { grep: { maxMatches: 5000, offload: false } },
      );
      const result = await tools.grep.execute({ pattern: "MATCH" });
      expect(text(result).split("\n")).toHaveLength(2000);
      expect((await fs.readdir("/w")).map((entry) => entry.name)).toEqual(["big.txt"]);
    });
  });
}

/** `createFsTools` behaviour. */
export function testFsToolsBundle(createFs: CreateFs): void {
  describe("createFsTools", () => {
    test("returns every tool by core name", async () => {
      const { tools } = await setup(createFs);
      expect(Object.keys(tools)).toEqual(["read", "write", "edit", "list", "glob", "grep", "apply_patch", "bash"]);
      expect(Object.values(tools).map((tool) => tool.name)).toEqual([
        "read",
        "write",
        "edit",
        "list",
        "glob",
        "grep",
        "apply_patch",
        "bash",
      ]);
    });

    test("state: false turns read-before-write off; a passed store is shared", async () => {
      const { fs, tools } = await setup(createFs, { "/w/a.txt": "a" }, { state: false });
      expect(text(await tools.edit.execute({ path: "a.txt", oldText: "a", newText: "b" }))).toBe(
        "replaced 1 occurrence in a.txt at line 1",
      );
      const store = memoryStore();
      const shared = createFsTools({ fs, cwd: "/w", state: store });
      await shared.read.execute({ path: "a.txt" });
      expect((await store.get("/w/a.txt"))?.digest).toMatch(/^[0-9a-f]{64}$/);
    });

    test("a single factory with a store checks reads", async () => {
      const fs = await backend(createFs, { "/w/a.txt": "a" });
      const store = memoryStore();
      const edit = createEditTool({ fs, cwd: "/w", state: store });
      expect((await edit.execute({ path: "a.txt", oldText: "a", newText: "b" })).error?.code).toBe("ENOTREAD");
      await createReadTool({ fs, cwd: "/w", state: store }).execute({ path: "a.txt" });
      expect((await edit.execute({ path: "a.txt", oldText: "a", newText: "b" })).ok).toBe(true);
    });

    test("options are checked at creation", async () => {
      const fs = await createFs();
      expect(() => createFsTools({ fs, reed: {} } as never)).toThrow(
        /^createFsTools got an unknown option "reed"\. Known options: fs, cwd, /,
      );
      expect(() => createFsTools({ fs, read: { cwd: "/x" } } as never)).toThrow(
        new TypeError("createFsTools read options cannot set cwd: set it once at the top level"),
      );
      expect(() => createFsTools({ fs, grep: { maxMatch: 1 } } as never)).toThrow(
        new TypeError(
          'createFsTools grep got an unknown option "maxMatch". Known options: maxMatches, maxLineLength, maxScanLineLength, concurrency, ignoreDirectories, offload, signature',
        ),
      );
      expect(() => createFsTools({ fs, read: 1 } as never)).toThrow(
        new TypeError("createFsTools read must be false, true or an object of read settings, got 1"),
      );
    });

    test("applyPatch: true is accepted (the AI SDK bundle's form) and gives the default apply_patch", async () => {
      const { fs } = await setup(createFs, { "/w/a.txt": "old\n" });
      const tools = createFsTools({ fs, cwd: "/w", applyPatch: true });
      const patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n*** End Patch\n";
      expect(await tools.apply_patch.execute({ patch })).toMatchObject({
        ok: true,
        changes: [{ action: "updated", path: "/w/a.txt" }],
      });
      expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("new\n");
    });
  });
}

/** Every behaviour test of the core file tools, over backends from `createFs`. */
export function testTools(createFs: CreateFs): void {
  testReadTool(createFs);
  testWriteTool(createFs);
  testEditTool(createFs);
  testListTool(createFs);
  testGlobTool(createFs);
  testGrepTool(createFs);
  testOffloading(createFs);
  testFsToolsBundle(createFs);
}

import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { testEditTool } from "../kit/suite.js";

testEditTool(async () => memoryFileSystem());

import { describe, expect, test } from "vitest";
import { createEditTool, MAX_REPLACEMENTS } from "../../../src/tools/edit/index.js";
import { resultText } from "../../../src/tools/kit/result.js";

describe("edit: huge match counts", () => {
  test("replaceAll over 17 million matches is refused at once with EFBIG (trial finding 8), the file unchanged", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n".repeat(17_000_000) } });
    const edit = createEditTool({ fs, cwd: "/w" });
    const result = await edit.execute({ path: "a.txt", oldText: "a", newText: "b", replaceAll: true });
    expect(result.error).toEqual({
      code: "EFBIG",
      path: "/w/a.txt",
      message:
        "oldText occurs more than 1,000,000 times in a.txt; replaceAll changes at most 1,000,000 occurrences in one edit. The file was not changed. Use a longer oldText that occurs fewer times, or write the file whole.",
    });
    const bytes = await fs.readFile("/w/a.txt");
    expect([bytes.length, bytes[0]]).toEqual([34_000_000, 0x61]);
  }, 60_000);

  test("replaceAll of exactly 1,000,000 occurrences (MAX_REPLACEMENTS) writes and reports", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n".repeat(MAX_REPLACEMENTS) } });
    const edit = createEditTool({ fs, cwd: "/w" });
    const result = await edit.execute({ path: "a.txt", oldText: "a", newText: "b", replaceAll: true });
    expect(resultText(result)).toBe(
      "replaced 1,000,000 occurrences in a.txt at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 999,990 more",
    );
    const bytes = await fs.readFile("/w/a.txt");
    expect([bytes.length, bytes[0], bytes[bytes.length - 2]]).toEqual([2_000_000, 0x62, 0x62]);
  }, 60_000);

  test("an oldText longer than the file is ENOMATCH saying so (trial finding 8)", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one two\n" } });
    const edit = createEditTool({ fs, cwd: "/w" });
    const result = await edit.execute({ path: "a.txt", oldText: "short  x".repeat(2_000_000), newText: "b" });
    expect(result.error).toEqual({
      code: "ENOMATCH",
      path: "/w/a.txt",
      message:
        "oldText was not found in a.txt; the file was not changed. oldText is longer than the whole file (16,000,000 characters against 8), so it cannot occur in it: read the file again and copy only the text to replace.",
    });
    // Blanks squeezed, a longer oldText can still match: then the whitespace hint is given.
    const spaced = await edit.execute({ path: "a.txt", oldText: "one         two", newText: "b" });
    expect(resultText(spaced)).toBe(
      "oldText was not found in a.txt; the file was not changed. It matches at line 1 if spaces and tabs are ignored: the whitespace differs (the file's line 1 is indented with spaces). Copy the exact whitespace from read's output.",
    );
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("one two\n");
  });

  test("without replaceAll, a huge count is EAMBIGUOUS with the count", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n".repeat(17_000_000) } });
    const result = await createEditTool({ fs, cwd: "/w" }).execute({ path: "a.txt", oldText: "a", newText: "b" });
    expect(result.error).toEqual({
      code: "EAMBIGUOUS",
      path: "/w/a.txt",
      displayPath: "a.txt",
      occurrences: 17_000_000,
      lines: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      lineCount: 17_000_000,
      message:
        "oldText occurs 17,000,000 times in a.txt (at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 16,999,990 more); it must occur exactly once. " +
        "Include more surrounding lines in oldText to make it unique, or set replaceAll to true to replace every occurrence.",
    });
  }, 60_000);

  test("many matches on one line without newlines are summarized as one line", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "ab".repeat(100_000) } });
    const result = await createEditTool({ fs, cwd: "/w" }).execute({ path: "a.txt", oldText: "ab", newText: "c" });
    expect(result.error?.message).toBe(
      "oldText occurs 100,000 times in a.txt (at line 1); it must occur exactly once. Include more surrounding lines in oldText to make it unique, or set replaceAll to true to replace every occurrence.",
    );
  });
});

describe("edit: text that is not well-formed UTF-16", () => {
  test("a lone surrogate in oldText is EINPUT and the emoji stays whole", async () => {
    const fs = memoryFileSystem({ files: { "/w/emoji.txt": "a😀b\n" } });
    const edit = createEditTool({ fs, cwd: "/w" });
    const result = await edit.execute({ path: "emoji.txt", oldText: "\uD83D", newText: "X" });
    expect(result.error).toEqual({
      code: "EINPUT",
      path: "/w/emoji.txt",
      message:
        "oldText is not well-formed Unicode: it has a lone surrogate (U+D83D) at character 0, half of a character such as an emoji, which has no UTF-8 form. Send whole characters; nothing was changed.",
    });
    expect(new TextDecoder().decode(await fs.readFile("/w/emoji.txt"))).toBe("a😀b\n");
  });

  test("a lone low surrogate in newText is EINPUT, file untouched", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\n" } });
    const edit = createEditTool({ fs, cwd: "/w" });
    const result = await edit.execute({ path: "a.txt", oldText: "one", newText: "x\uDE00y" });
    expect(result.error?.code).toBe("EINPUT");
    expect(result.error?.message).toBe(
      "newText is not well-formed Unicode: it has a lone surrogate (U+DE00) at character 1, half of a character such as an emoji, which has no UTF-8 form. Send whole characters; nothing was changed.",
    );
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("one\n");
  });

  test("whole surrogate pairs are edited as usual", async () => {
    const fs = memoryFileSystem({ files: { "/w/emoji.txt": "a😀b\n" } });
    const result = await createEditTool({ fs, cwd: "/w" }).execute({ path: "emoji.txt", oldText: "😀", newText: "🎉" });
    expect(resultText(result)).toBe("replaced 1 occurrence in emoji.txt at line 1");
    expect(new TextDecoder().decode(await fs.readFile("/w/emoji.txt"))).toBe("a🎉b\n");
  });
});

describe("edit: a result equal to the file is no change", () => {
  test("CRLF → LF under the line-ending tolerance says No change and lists no change", async () => {
    const fs = memoryFileSystem({ files: { "/w/crlf.txt": "one\r\ntwo\r\n" } });
    const edit = createEditTool({ fs, cwd: "/w" });
    const expected = {
      kind: "mutation",
      ok: true,
      parts: [
        {
          type: "text",
          text: "No change: oldText and newText differ only in line endings, and edit keeps the file's own line endings (to change them, write the whole file), so crlf.txt was left as it was.",
        },
      ],
      changes: [],
    };
    expect(await edit.execute({ path: "crlf.txt", oldText: "\r\n", newText: "\n", replaceAll: true })).toEqual(
      expected,
    );
    expect(await edit.execute({ path: "crlf.txt", oldText: "one\r\ntwo", newText: "one\ntwo" })).toEqual(expected);
    expect(new TextDecoder().decode(await fs.readFile("/w/crlf.txt"))).toBe("one\r\ntwo\r\n");
  });

  test("identical oldText and newText keep their own No change text", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\n" } });
    const result = await createEditTool({ fs, cwd: "/w" }).execute({ path: "a.txt", oldText: "one", newText: "one" });
    expect(result).toEqual({
      kind: "mutation",
      ok: true,
      parts: [{ type: "text", text: "No change: oldText and newText are identical, so a.txt was left as it was." }],
      changes: [],
    });
  });
});

describe("edit: UTF-16 is named as text in another encoding", () => {
  test("a UTF-16BE file is refused untouched with a hint to convert it", async () => {
    const bytes = Uint8Array.of(0xfe, 0xff, 0x00, 0x68, 0x00, 0x69);
    const fs = memoryFileSystem({ files: { "/w/u16.txt": bytes } });
    const result = await createEditTool({ fs, cwd: "/w" }).execute({ path: "u16.txt", oldText: "hi", newText: "x" });
    expect(result.error).toEqual({
      code: "EBINARY",
      path: "/w/u16.txt",
      message:
        "Cannot edit u16.txt: it is a text file in UTF-16 (big-endian), an encoding this tool does not read. Convert it to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8), then edit it.",
    });
    expect(await fs.readFile("/w/u16.txt")).toEqual(bytes);
  });
});

describe("edit: a lone CR is a line ending, as read shows it", () => {
  test("what read showed of a lone-CR file can be edited, and the CRs are kept", async () => {
    const fs = memoryFileSystem({ files: { "/w/cr.txt": "x\ry\r", "/w/mixed.txt": "a\r\nb\nc\rd\n" } });
    const edit = createEditTool({ fs, cwd: "/w" });
    const decode = async (path: string): Promise<string> => new TextDecoder().decode(await fs.readFile(path));
    expect(resultText(await edit.execute({ path: "cr.txt", oldText: "x\ny", newText: "X\nY\nZ" }))).toBe(
      "replaced 1 occurrence in cr.txt at line 1",
    );
    expect(await decode("/w/cr.txt")).toBe("X\rY\rZ\r");
    expect(resultText(await edit.execute({ path: "mixed.txt", oldText: "d", newText: "D" }))).toBe(
      "replaced 1 occurrence in mixed.txt at line 4",
    );
    expect(resultText(await edit.execute({ path: "mixed.txt", oldText: "c\nD", newText: "c\nd" }))).toBe(
      "replaced 1 occurrence in mixed.txt at line 3",
    );
    expect(await decode("/w/mixed.txt")).toBe("a\r\nb\nc\rd\n");
  });
});

describe("edit: the not-found hint is linear work", () => {
  test("a 5 MB oldText on a two-byte file is ENOMATCH saying it is longer than the file (the whitespace-blind search is skipped)", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "x\n" } });
    const edit = createEditTool({ fs, cwd: "/w" });
    const result = await edit.execute({ path: "a.txt", oldText: "y".repeat(5_000_000), newText: "z" });
    expect([result.error?.code, resultText(result)]).toEqual([
      "ENOMATCH",
      "oldText was not found in a.txt; the file was not changed. oldText is longer than the whole file (5,000,000 characters against 2), so it cannot occur in it: read the file again and copy only the text to replace.",
    ]);
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("x\n");
  });

  test("a 2 MB oldText of blank runs is squeezed in one pass and still found whitespace-blind", async () => {
    const line = "a \t  b";
    const file = `${"q\n".repeat(1000)}${"\t".repeat(3)}${line}\n`;
    const fs = memoryFileSystem({ files: { "/w/a.txt": file } });
    const edit = createEditTool({ fs, cwd: "/w" });
    const result = await edit.execute({ path: "a.txt", oldText: `${" ".repeat(2_000_000)}a b`, newText: "z" });
    expect(resultText(result)).toBe(
      "oldText was not found in a.txt; the file was not changed. It matches at line 1001 if spaces and tabs are ignored: the whitespace differs (the file's line 1001 is indented with tabs). Copy the exact whitespace from read's output.",
    );
  });
});

describe("edit: a path ending in / (trial finding 5)", () => {
  test("a.txt/ is EISDIR saying to leave out the /; the file is unchanged", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\n" } });
    const edit = createEditTool({ fs, cwd: "/w" });
    const result = await edit.execute({ path: "a.txt/", oldText: "one", newText: "two" });
    expect(result.error).toEqual({
      code: "EISDIR",
      path: "/w/a.txt",
      message:
        'Cannot edit "a.txt/": a path ending in "/" names a directory, not a file. For the file "a.txt" itself, leave out the final "/".',
    });
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("one\n");
  });
});

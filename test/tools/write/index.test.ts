import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { testWriteTool } from "../kit/suite.js";

testWriteTool(async () => memoryFileSystem());

import { describe, expect, test } from "vitest";
import { createWriteTool } from "../../../src/tools/write/index.js";

describe("write: text that is not well-formed UTF-16", () => {
  test("content with a lone surrogate is EINPUT and nothing is written", async () => {
    const fs = memoryFileSystem({ files: { "/w/old.txt": "keep\n" } });
    const write = createWriteTool({ fs, cwd: "/w" });
    const result = await write.execute({ path: "n.txt", content: "\uD800" });
    expect(result.error).toEqual({
      code: "EINPUT",
      path: "/w/n.txt",
      message:
        "content is not well-formed Unicode: it has a lone surrogate (U+D800) at character 0, half of a character such as an emoji, which has no UTF-8 form. Send whole characters; nothing was changed.",
    });
    await expect(fs.stat("/w/n.txt")).rejects.toMatchObject({ code: "ENOENT" });
    const over = await write.execute({ path: "old.txt", content: "ok 😀 then \uDC00" });
    expect(over.error?.message).toContain("(U+DC00) at character 11,");
    expect(new TextDecoder().decode(await fs.readFile("/w/old.txt"))).toBe("keep\n");
  });
});

describe("write: a path ending in / names a directory (trial finding 5)", () => {
  test("write newdir/ is EISDIR with what to do, and makes no file newdir", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const write = createWriteTool({ fs, cwd: "/w" });
    const result = await write.execute({ path: "newdir/", content: "x" });
    expect(result.error).toEqual({
      code: "EISDIR",
      path: "/w/newdir",
      message:
        'Cannot write "newdir/": a path ending in "/" names a directory, not a file. To make a file in it, name the file ("newdir/file.txt"; missing directories are created); for the file "newdir" itself, leave out the final "/".',
    });
    await expect(fs.stat("/w/newdir")).rejects.toMatchObject({ code: "ENOENT" });
    const dot = await write.execute({ path: "a.txt/.", content: "x" });
    expect(dot.error?.code).toBe("EISDIR");
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("a\n");
  });
});

describe("write: file: URLs and ~ are refused with the path to give (trial finding 9)", () => {
  test("file:///w/a.txt and ~/a.txt write nothing and say which path to use", async () => {
    const fs = memoryFileSystem({ files: { "/w/keep.txt": "k\n" } });
    const write = createWriteTool({ fs, cwd: "/w" });
    const url = await write.execute({ path: "file:///w/a.txt", content: "x" });
    expect(url.error).toEqual({
      code: "EINPUT",
      message: '"file:///w/a.txt" is a URL; give the path itself: "/w/a.txt".',
    });
    const home = await write.execute({ path: "~/a.txt", content: "x" });
    expect(home.error).toEqual({
      code: "EINPUT",
      message:
        '"~/a.txt": "~" (a home directory) is not expanded here. Give the path relative to the working directory ("a.txt") or absolute; for a directory really named "~", write "./~/a.txt".',
    });
    expect((await fs.readdir("/w")).map((entry) => entry.name)).toEqual(["keep.txt"]);
    const named = await write.execute({ path: "./~/a.txt", content: "x" });
    expect(named.ok).toBe(true);
  });
});

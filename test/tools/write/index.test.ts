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

import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { describe, expect, test } from "vitest";
import { createListTool } from "../../../src/tools/list/index.js";
import { resultText } from "../../../src/tools/kit/result.js";
import { testListTool } from "../kit/suite.js";

testListTool(async () => memoryFileSystem());

describe("list (memory only: symlinks)", () => {
  test("a symlink shows as name@ with its target", async () => {
    const fs = memoryFileSystem({ files: { "/w/real.txt": "x" } });
    await fs.symlink!("/w/real.txt", "/w/link");
    const list = createListTool({ fs, cwd: "/w" });
    expect(resultText(await list.execute({}))).toBe("link@ -> /w/real.txt\nreal.txt (1 byte)");
  });
});

import { generateText, isStepCount } from "ai";
import { describe, expect, test } from "vitest";
import {
  createAiSdkEditTool,
  createAiSdkReadTool,
  createAiSdkWriteTool,
  toAiSdkTool,
} from "../../../src/ai-sdk/index.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { createGrepTool } from "../../../src/tools/grep/index.js";
import { createListTool } from "../../../src/tools/list/index.js";
import { createReadTool } from "../../../src/tools/read/index.js";
import { offsetLimitPreset } from "../../../src/tools/signature/index.js";
import { memoryStore } from "../../../src/tools/kit/state.js";
import { resultText, type ToolResult } from "../../../src/tools/kit/result.js";
import { ToolInputError, type CoreTool } from "../../../src/tools/kit/tool.js";
import { scriptedModel, toolOutputsSentAt } from "../../ai-sdk/mock-model.js";

const text = (value: string) => ({ type: "content", value: [{ type: "text", text: value }] });
const errorText = (value: string) => ({ type: "error-text", value });

describe("offsetLimitPreset", () => {
  test("readOnly is the entry point's, not the preset's; names are the dialect's", () => {
    expect(() => offsetLimitPreset({ readOnly: true } as never)).toThrow(
      new TypeError(
        "offsetLimitPreset readOnly is not a preset option: set readOnly: true where the tools are made (createFsTools, createAiSdkFsTools, createWorkspaceAgent, createMcpServer)",
      ),
    );
    const preset = offsetLimitPreset();
    expect(Object.keys(preset)).toEqual(["read", "list", "grep", "write", "edit"]);
    expect([preset.read, preset.list, preset.grep, preset.write, preset.edit].map((s) => s?.name)).toEqual([
      "read_file",
      "list_files",
      "grep_files",
      "write_file",
      "edit_file",
    ]);
    expect(Object.keys(preset.edit?.inputSchema["properties"] as object)).toEqual([
      "path",
      "old_string",
      "new_string",
      "replace_all",
    ]);
    expect(preset.edit?.toInput({ path: "a", old_string: "x", new_string: "y", replace_all: true })).toEqual({
      path: "a",
      oldText: "x",
      newText: "y",
      replaceAll: true,
    });
    expect(() => offsetLimitPreset({ readonly: true } as never)).toThrow(
      new TypeError('offsetLimitPreset got an unknown option "readonly". Known options: maxReadChars'),
    );
  });

  test("read_file numbers lines like cat -n and keeps the paging note", async () => {
    const read = createReadTool({
      fs: memoryFileSystem({ files: { "/w/a.txt": "one two one\ntwo\nthree\n" } }),
      cwd: "/w",
    });
    const { read: signature } = offsetLimitPreset();
    const input = { path: "a.txt", offset: 1, limit: 2 };
    const result = signature.toResult?.(await read.execute(read.validate(signature.toInput(input))), input);
    expect(result?.parts).toEqual([
      { type: "text", text: "     1\tone two one\n     2\ttwo\n[Showed lines 1-2 of 3. Continue with offset=3.]" },
    ]);
  });
});

describe("offsetLimitPreset: the workspace file tools dialect", () => {
  const run = async <I, R extends ToolResult>(
    tool: CoreTool<I, R>,
    signature: { toInput(input: never): I; toResult?(result: R, input: never): R },
    input: object,
  ): Promise<string> => {
    const result = await tool.execute(tool.validate(signature.toInput(input as never)));
    return resultText(signature.toResult?.(result, input as never) ?? result);
  };

  test("read_file: offset=0 and limit=0 mean from the start and no limit", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\ntwo\nthree\n" } });
    const read = createReadTool({ fs, cwd: "/w" });
    const { read: signature } = offsetLimitPreset();
    const whole = "     1\tone\n     2\ttwo\n     3\tthree";
    expect(await run(read, signature, { path: "a.txt", offset: 0, limit: 0 })).toBe(whole);
    expect(await run(read, signature, { path: "a.txt" })).toBe(whole);
    expect(await run(read, signature, { path: "a.txt", offset: 2, limit: 0 })).toBe("     2\ttwo\n     3\tthree");
    expect(await run(read, signature, { path: "a.txt", offset: 0, limit: 1 })).toBe(
      "     1\tone\n[Showed lines 1-1 of 3. Continue with offset=2.]",
    );
    expect(() => signature.toInput({ path: "a.txt", offset: -1 })).toThrow(
      new ToolInputError("read_file input offset must be ≥ 0, got -1"),
    );
  });

  test("read_file output is cut at maxReadChars at a line end, saying where to continue", async () => {
    const fs = memoryFileSystem({
      files: { "/w/a.txt": "aaaa\nbbbb\ncccc\n", "/w/long.txt": `${"x".repeat(50)}\nend\n` },
    });
    const read = createReadTool({ fs, cwd: "/w" });
    const { read: signature } = offsetLimitPreset({ maxReadChars: 25 });
    // Each line is 11 characters ("     1\taaaa"); two lines and a newline are 23.
    expect(await run(read, signature, { path: "a.txt" })).toBe(
      "     1\taaaa\n     2\tbbbb\n[Output cut at 25 characters: showed lines 1-2 of 3. Continue with offset=3.]",
    );
    expect(await run(read, signature, { path: "a.txt", offset: 2 })).toBe("     2\tbbbb\n     3\tcccc");
    expect(await run(read, signature, { path: "long.txt" })).toBe(
      `     1\t${"x".repeat(18)}\n[Output cut at 25 characters, inside line 1 of 2. Continue with offset=2.]`,
    );
    const result = await read.execute(signature.toInput({ path: "a.txt" }));
    expect(signature.toResult!(result, { path: "a.txt" })).toMatchObject({ endLine: 2, truncated: true });
    expect(offsetLimitPreset().read.description).toContain("output is cut at 100,000 characters");
    expect(() => offsetLimitPreset({ maxReadChars: 0 })).toThrow(
      new TypeError("offsetLimitPreset maxReadChars must be a positive integer (characters) or Infinity, got 0"),
    );
    expect(offsetLimitPreset({ maxReadChars: Infinity }).read.description).not.toContain("cut");
  });

  test("read_file pages a file over the read cap instead of refusing it", async () => {
    const fs = memoryFileSystem({ files: { "/w/big.txt": "0123456789\n".repeat(30_000) } });
    const read = createReadTool({ fs, cwd: "/w" });
    const out = await run(read, offsetLimitPreset().read, { path: "big.txt" });
    expect(out.length).toBeLessThanOrEqual(100_000 + 200);
    expect(out.split("\n").at(-1)).toBe(
      "[Output cut at 100,000 characters: showed lines 1-5555 of 30,000. Continue with offset=5556.]",
    );
  });

  test("list_files lists recursively with its pattern (default **/*), paths relative to the working directory", async () => {
    const fs = memoryFileSystem({
      files: { "/w/a.md": "a", "/w/docs/b.md": "bb", "/w/docs/img/c.png": "ccc", "/w/docs/d.txt": "d" },
    });
    const list = createListTool({ fs, cwd: "/w" });
    const { list: signature } = offsetLimitPreset();
    expect(await run(list, signature, {})).toBe(
      "a.md (1 byte)\ndocs/b.md (2 bytes)\ndocs/d.txt (1 byte)\ndocs/img/c.png (3 bytes)",
    );
    expect(await run(list, signature, { path: "docs", pattern: "**/*.md" })).toBe("docs/b.md (2 bytes)");
    expect(await run(list, signature, { path: "docs", pattern: "*" })).toBe("docs/b.md (2 bytes)\ndocs/d.txt (1 byte)");
    expect(await run(list, signature, { path: ".", pattern: "*.rs" })).toBe("No files match *.rs under ..");
    expect(await run(list, signature, { path: "nope" })).toBe(
      "Error: File not found: nope. Check the path: list its directory or search for the file name.",
    );
  });

  test("grep_files accepts a leading (?i) as case-insensitive", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "Alpha\nalpha\nbeta\n" } });
    const grep = createGrepTool({ fs, cwd: "/w" });
    const { grep: signature } = offsetLimitPreset();
    expect(signature.toInput({ pattern: "(?i)ALPHA" })).toEqual({ pattern: "ALPHA", ignoreCase: true });
    expect(await run(grep, signature, { pattern: "(?i)ALPHA" })).toBe("a.txt:1:Alpha\na.txt:2:alpha");
    expect(await run(grep, signature, { pattern: "alpha" })).toBe("a.txt:2:alpha");
  });
});

describe("offset/limit preset through generateText", () => {
  test("read_file, a failed read, edit_file not unique, edit_file, write_file, list_files, grep_files", async () => {
    const fs = memoryFileSystem({
      files: { "/w/a.txt": "one two one\ntwo\n", "/w/src/b.ts": "two = 2\n", "/w/src/c.md": "# c\n" },
    });
    const preset = offsetLimitPreset();
    const shared = { fs, cwd: "/w", state: memoryStore() };
    const tools = {
      read_file: createAiSdkReadTool({ ...shared, signature: preset.read }),
      write_file: createAiSdkWriteTool({ ...shared, signature: preset.write }),
      edit_file: createAiSdkEditTool({ ...shared, signature: preset.edit }),
      list_files: toAiSdkTool(createListTool({ fs, cwd: "/w" }), { signature: preset.list }),
      grep_files: toAiSdkTool(createGrepTool({ fs, cwd: "/w" }), { signature: preset.grep }),
    };
    const model = scriptedModel([
      { calls: [{ tool: "read_file", input: { path: "a.txt", offset: null, limit: null } }] },
      { calls: [{ tool: "read_file", input: { path: "missing.txt", offset: null, limit: null } }] },
      {
        calls: [{ tool: "edit_file", input: { path: "a.txt", old_string: "one", new_string: "1", replace_all: null } }],
      },
      {
        calls: [
          { tool: "edit_file", input: { path: "a.txt", old_string: "one two", new_string: "1 2", replace_all: false } },
        ],
      },
      { calls: [{ tool: "write_file", input: { path: "src/d.ts", content: "export {};\n" } }] },
      { calls: [{ tool: "list_files", input: { path: "src", pattern: "*.ts" } }] },
      { calls: [{ tool: "grep_files", input: { pattern: "two", path: null, glob: "*.ts" } }] },
      { text: "done" },
    ]);
    const result = await generateText({ model, tools, prompt: "work", stopWhen: isStepCount(10) });
    expect(result.text).toBe("done");
    expect(toolOutputsSentAt(model, 7)).toEqual([
      { toolName: "read_file", output: text("     1\tone two one\n     2\ttwo") },
      {
        toolName: "read_file",
        output: errorText(
          "Error: File not found: missing.txt. Check the path: list its directory or search for the file name.",
        ),
      },
      {
        toolName: "edit_file",
        output: errorText(
          "Error: old_string is not unique in a.txt: it occurs 2 times (at line 1). Include more surrounding lines in old_string to make it unique, or set replace_all to true to replace every occurrence.",
        ),
      },
      { toolName: "edit_file", output: text("replaced 1 occurrence in a.txt at line 1") },
      { toolName: "write_file", output: text("wrote 11 bytes to src/d.ts") },
      { toolName: "list_files", output: text("src/b.ts (8 bytes)\nsrc/d.ts (11 bytes)") },
      { toolName: "grep_files", output: text("src/b.ts:1:two = 2") },
    ]);
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("1 2 one\ntwo\n");
  });
});

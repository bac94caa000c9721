import { generateText, isStepCount } from "ai";
import { describe, expect, test } from "vitest";
import {
  createAiSdkEditTool,
  createAiSdkReadTool,
  createAiSdkWriteTool,
  toAiSdkTool,
} from "../../../src/ai-sdk/index.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { createGrepTool } from "../../../src/tools/grep.js";
import { createListTool } from "../../../src/tools/list.js";
import { createReadTool } from "../../../src/tools/read.js";
import { offsetLimitPreset } from "../../../src/tools/signature/index.js";
import { memoryStore } from "../../../src/tools/state.js";
import { scriptedModel, toolOutputsSentAt } from "../../ai-sdk/mock-model.js";

const text = (value: string) => ({ type: "content", value: [{ type: "text", text: value }] });
const errorText = (value: string) => ({ type: "error-text", value });

describe("offsetLimitPreset", () => {
  test("readOnly leaves out the writing tools; names are the dialect's", () => {
    expect(Object.keys(offsetLimitPreset({ readOnly: true }))).toEqual(["read", "list", "grep"]);
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
      new TypeError('offsetLimitPreset got an unknown option "readonly". Known options: readOnly'),
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

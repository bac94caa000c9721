import { generateText, isStepCount } from "ai";
import { describe, expect, test } from "vitest";
import { createAiSdkFsTools } from "../../../src/ai-sdk/index.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import type { CommandRunner } from "../../../src/contract/runner.js";
import { createApplyPatchTool } from "../../../src/tools/apply-patch/index.js";
import { createReadTool } from "../../../src/tools/read/index.js";
import { DEFAULT_PRESET_TOOLS, defaultSignature } from "../../../src/tools/signature/index.js";
import { memoryStore } from "../../../src/tools/kit/state.js";
import { ToolInputError } from "../../../src/tools/kit/tool.js";
import { scriptedModel, toolOutputsSentAt } from "../../ai-sdk/mock-model.js";

const text = (value: string) => ({ type: "content", value: [{ type: "text", text: value }] });
const echoRunner: CommandRunner = {
  name: "echo",
  // It runs nothing, so it touches no file outside the workspace.
  confined: true,
  describe: () => "An echo runner for tests.",
  run: async ({ command }) => ({ stdout: `ran: ${command}\n`, stderr: "", exitCode: 0, timedOut: false }),
};

describe("default preset", () => {
  test("defaultSignature is the core tool's own name, schema and check", () => {
    const read = createReadTool({ fs: memoryFileSystem() });
    const signature = defaultSignature(read);
    expect([signature.name, signature.description, signature.inputSchema]).toEqual([
      read.name,
      read.description,
      read.inputSchema,
    ]);
    expect(signature.toInput({ path: "a", offset: 2 })).toEqual({ path: "a", offset: 2 });
    expect(() => signature.toInput({ file: "a" } as never)).toThrow(
      new ToolInputError("Unknown read input key: file. Expected path, offset, limit"),
    );
    expect(defaultSignature(createApplyPatchTool({ fs: memoryFileSystem() })).name).toBe("apply_patch");
  });

  test("read, edit, write, apply_patch and bash through generateText", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\n" } });
    const { tools } = createAiSdkFsTools({
      fs,
      cwd: "/w",
      state: memoryStore(),
      applyPatch: {},
      bash: { runner: echoRunner, env: () => ({}) },
    });
    expect(Object.keys(tools)).toEqual([...DEFAULT_PRESET_TOOLS]);
    const model = scriptedModel([
      { calls: [{ tool: "read", input: { path: "a.txt", offset: null, limit: null } }] },
      { calls: [{ tool: "edit", input: { path: "a.txt", oldText: "one", newText: "two", replaceAll: null } }] },
      {
        calls: [
          {
            tool: "apply_patch",
            input: { patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+three\n*** End Patch" },
          },
        ],
      },
      { calls: [{ tool: "write", input: { path: "b.txt", content: "b\n" } }] },
      { calls: [{ tool: "bash", input: { command: "cat a.txt", timeout: null, cwd: null } }] },
      { text: "done" },
    ]);
    const result = await generateText({ model, tools, prompt: "work", stopWhen: isStepCount(8) });
    expect(result.text).toBe("done");
    expect(toolOutputsSentAt(model, 5)).toEqual([
      { toolName: "read", output: text("1|one") },
      { toolName: "edit", output: text("replaced 1 occurrence in a.txt at line 1") },
      { toolName: "apply_patch", output: text("Success. Updated the following files:\nM a.txt") },
      { toolName: "write", output: text("wrote 2 bytes to b.txt") },
      { toolName: "bash", output: text("ran: cat a.txt\n[exit code 0]") },
    ]);
    expect(fs.volume.toJSON()).toEqual({ "/w/a.txt": "three\n", "/w/b.txt": "b\n" });
  });
});

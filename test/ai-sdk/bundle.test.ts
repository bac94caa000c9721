import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateText, isStepCount, simulateReadableStream, streamText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  createAiSdkApplyPatchTool,
  createAiSdkEditTool,
  createAiSdkFsTools,
  createAiSdkReadTool,
  toAiSdkOutput,
} from "../../src/ai-sdk/index.js";
import { freeformPatchSignature } from "../../src/tools/signature/patch.js";
import { lineRangePreset } from "../../src/tools/signature/line-range.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { nodeFileSystem } from "../../src/backends/node/index.js";
import type { FileSystem } from "../../src/contract/types.js";
import { memoryStore } from "../../src/tools/kit/state.js";
import { sha256Digest } from "../../src/contract/digest.js";
import type { ToolSignature } from "../../src/tools/kit/tool.js";
import type { ReadInput } from "../../src/tools/read/index.js";
import { resultText, type ReadResult, type SearchResult } from "../../src/tools/kit/result.js";
import { scriptedModel, toolOutputsSentAt } from "./mock-model.js";

/** A 1×1 PNG (70 bytes). */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const png = (): Uint8Array => Uint8Array.from(atob(PNG_BASE64), (char) => char.charCodeAt(0));
const text = (value: string) => ({ type: "content", value: [{ type: "text", text: value }] });
const decoder = new TextDecoder();

describe("createAiSdkFsTools over a backend that declares its place", () => {
  test("nodeFileSystem({ cwd, allowedRoots: [cwd] }) alone: relative paths resolve against the backend's cwd", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bft-aisdk-place-"));
    try {
      await writeFile(join(dir, "a.txt"), "hello\n");
      const { tools } = createAiSdkFsTools({ fs: nodeFileSystem({ cwd: dir, allowedRoots: [dir] }) });
      const model = scriptedModel([
        { calls: [{ tool: "read", input: { path: "a.txt", offset: null, limit: null } }] },
        { text: "done" },
      ]);
      const result = await generateText({ model, tools, prompt: "read", stopWhen: isStepCount(5) });
      expect(toolOutputsSentAt(model, 1)).toEqual([{ toolName: "read", output: text("1|hello") }]);
      expect(result.text).toBe("done");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("createAiSdkFsTools end to end (generateText + MockLanguageModelV4, memory fs)", () => {
  test("read, a refused input, edit, write and an image read across steps", async () => {
    const fs = memoryFileSystem({ files: { "/w/notes.txt": "one\ntwo\n", "/w/logo.png": png() } });
    const { tools } = createAiSdkFsTools({ fs, cwd: "/w", state: memoryStore() });
    expect(Object.keys(tools)).toStrictEqual(["read", "edit", "write"]);
    const model = scriptedModel([
      { calls: [{ tool: "read", input: { path: "notes.txt", offset: null, limit: null } }] },
      { calls: [{ tool: "read", input: { file: "notes.txt" } }] },
      { calls: [{ tool: "edit", input: { path: "notes.txt", oldText: "two", newText: "deux", replaceAll: null } }] },
      { calls: [{ tool: "write", input: { path: "new/hello.txt", content: "hi\n" } }] },
      { calls: [{ tool: "read", input: { path: "logo.png", offset: null, limit: null } }] },
      { text: "done" },
    ]);
    const result = await generateText({ model, tools, prompt: "work", stopWhen: isStepCount(10) });
    expect(result.text).toBe("done");
    expect(result.steps).toHaveLength(6);

    const outputs = toolOutputsSentAt(model, 5);
    expect(outputs[0]).toStrictEqual({ toolName: "read", output: text("1|one\n2|two") });
    expect(outputs[1]).toStrictEqual({
      toolName: "read",
      output: {
        type: "error-text",
        value:
          'AI_InvalidToolInputError: Invalid input for tool read: AI_TypeValidationError: Type validation failed: Value: {"file":"notes.txt"}.\n' +
          "Error message: ToolInputError: Unknown read input key: file. Expected path, offset, limit",
      },
    });
    // toEqual: the AI SDK adds `filename: undefined` and `providerOptions: undefined` to file parts.
    expect(outputs.slice(2)).toEqual([
      { toolName: "edit", output: text("replaced 1 occurrence in notes.txt at line 2") },
      { toolName: "write", output: text("wrote 3 bytes to new/hello.txt") },
      {
        toolName: "read",
        output: {
          type: "content",
          value: [
            { type: "text", text: "Image logo.png (image/png, 1×1, 70 bytes)" },
            { type: "file", mediaType: "image/png", data: { type: "data", data: PNG_BASE64 } },
          ],
        },
      },
    ]);
    expect(outputs.map((output) => (output as { toolName: string }).toolName)).toStrictEqual([
      "read",
      "read",
      "edit",
      "write",
      "read",
    ]);
    expect(result.steps[2]?.toolResults[0]?.output).toMatchObject({
      kind: "mutation",
      ok: true,
      changes: [{ action: "updated", path: "/w/notes.txt" }],
    });
    expect(result.steps[3]?.toolResults[0]?.output).toMatchObject({
      kind: "mutation",
      ok: true,
      changes: [{ action: "added", path: "/w/new/hello.txt" }],
    });
    expect(decoder.decode(await fs.readFile("/w/notes.txt"))).toBe("one\ndeux\n");
    expect(decoder.decode(await fs.readFile("/w/new/hello.txt"))).toBe("hi\n");
  });

  test("read of /notes.txt holding one\\n gives the issue's model output", async () => {
    const read = createAiSdkReadTool({ fs: memoryFileSystem({ files: { "/notes.txt": "one\n" } }) });
    const output = await read.execute?.({ path: "/notes.txt" }, { toolCallId: "c1", messages: [], context: {} });
    expect(toAiSdkOutput(output as ReadResult)).toStrictEqual({
      type: "content",
      value: [{ type: "text", text: "1|one" }],
    });
    expect(
      await read.toModelOutput?.({ toolCallId: "c1", input: { path: "/notes.txt" }, output: output as never }),
    ).toStrictEqual({
      type: "content",
      value: [{ type: "text", text: "1|one" }],
    });
  });

  test("contextSchema + fs as a function of the call: one bundle, a workspace per request", async () => {
    const workspaces: Record<string, FileSystem> = {
      alice: memoryFileSystem({ files: { "/w/who.txt": "alice\n" } }),
      bob: memoryFileSystem({ files: { "/w/who.txt": "bob\n" } }),
    };
    const { tools } = createAiSdkFsTools({
      fs: (call) => workspaces[(call.host?.context as { user: string }).user] as FileSystem,
      cwd: "/w",
      contextSchema: z.object({ user: z.enum(["alice", "bob"]) }),
    });
    for (const user of ["alice", "bob"] as const) {
      const model = scriptedModel([
        { calls: [{ tool: "read", input: { path: "who.txt", offset: null, limit: null } }] },
        { text: "ok" },
      ]);
      await generateText({
        model,
        tools,
        toolsContext: { read: { user }, edit: { user }, write: { user } },
        prompt: "who",
        stopWhen: isStepCount(3),
      });
      expect(toolOutputsSentAt(model, 1)).toStrictEqual([{ toolName: "read", output: text(`1|${user}`) }]);
    }
  });

  test("state: false turns the read-before-write check off", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "old\n" } });
    const { tools } = createAiSdkFsTools({ fs, cwd: "/w", state: false });
    expect(
      await tools.write.execute?.({ path: "a.txt", content: "new\n" }, { toolCallId: "c", messages: [], context: {} }),
    ).toMatchObject({ ok: true });
  });

  test("the bundle shares the store it is given: a write of an existing file needs a read first", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "old\n" } });
    const { tools } = createAiSdkFsTools({ fs, cwd: "/w", state: memoryStore() });
    const call = { toolCallId: "c", messages: [], context: {} };
    const first = await tools.write.execute?.({ path: "a.txt", content: "new\n" }, call);
    expect(first).toMatchObject({ ok: false, error: { code: "ENOTREAD" } });
    await tools.read.execute?.({ path: "a.txt" }, call);
    const second = await tools.write.execute?.({ path: "a.txt", content: "new\n" }, call);
    expect(second).toMatchObject({ ok: true });
    expect(decoder.decode(await fs.readFile("/w/a.txt"))).toBe("new\n");
  });

  test("state as a function of the call: each conversation has its own read-before-write store", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "old\n" } });
    const stores = { c1: memoryStore(), c2: memoryStore() };
    const { tools } = createAiSdkFsTools({
      fs,
      cwd: "/w",
      state: (call) => stores[(call.host?.context as { conversation: "c1" | "c2" }).conversation],
      contextSchema: z.object({ conversation: z.enum(["c1", "c2"]) }),
    });
    const options = (conversation: "c1" | "c2") => ({ toolCallId: "c", messages: [], context: { conversation } });
    await tools.read.execute?.({ path: "a.txt" }, options("c1"));
    expect(await tools.write.execute?.({ path: "a.txt", content: "c2\n" }, options("c2"))).toMatchObject({
      ok: false,
      error: { code: "ENOTREAD" },
    });
    expect(await tools.write.execute?.({ path: "a.txt", content: "c1\n" }, options("c1"))).toMatchObject({ ok: true });
    expect(decoder.decode(await fs.readFile("/w/a.txt"))).toBe("c1\n");
  });

  test("apply_patch with freeformPatchSignature() takes the same JSON { patch } over the AI SDK", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\n" } });
    const apply_patch = createAiSdkApplyPatchTool({ fs, cwd: "/w", signature: freeformPatchSignature() });
    const model = scriptedModel([
      {
        calls: [
          {
            tool: "apply_patch",
            input: { patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch" },
          },
        ],
      },
      { text: "ok" },
    ]);
    await generateText({ model, tools: { apply_patch }, prompt: "x", stopWhen: isStepCount(3) });
    expect(toolOutputsSentAt(model, 1)).toStrictEqual([
      { toolName: "apply_patch", output: text("Success. Updated the following files:\nM a.txt") },
    ]);
    expect(decoder.decode(await fs.readFile("/w/a.txt"))).toBe("two\n");
  });

  test("apply_patch and bash join when set; a signature renames a tool", async () => {
    const fs = memoryFileSystem();
    const renamed: ToolSignature<ReadInput, { file: string }, ReadResult> = {
      name: "view",
      inputSchema: { type: "object", properties: { file: { type: "string" } }, required: ["file"] },
      toInput: (input) => ({ path: input.file }),
    };
    const runner = {
      name: "fake",
      describe: () => "A fake runner.",
      run: async () => ({ stdout: "", stderr: "", exitCode: 0, timedOut: false }),
    };
    const { tools } = createAiSdkFsTools({
      fs,
      applyPatch: true,
      bash: { runner, env: {} },
      read: { signature: renamed },
    });
    expect(Object.keys(tools)).toStrictEqual(["view", "edit", "write", "apply_patch", "bash"]);
    expect(Object.values(tools).map((tool) => (tool as { strict?: boolean }).strict)).toStrictEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});

describe("createAiSdkFsTools tool scopes: any tool added or left out", () => {
  const files = { "/w/src/a.ts": "export const a = 1;\n", "/w/src/b.ts": "export const b = 2;\n" };
  const call = { toolCallId: "c", messages: [], context: {} };

  test("list, glob and grep join with true or their settings, after apply_patch and before bash, sharing the backend and cwd", async () => {
    const fs = memoryFileSystem({ files });
    const { tools } = createAiSdkFsTools({ fs, cwd: "/w", list: true, glob: {}, grep: { maxMatches: 1 } });
    expect(Object.keys(tools)).toStrictEqual(["read", "edit", "write", "list", "glob", "grep"]);
    expect(Object.values(tools).map((tool) => tool.name)).toStrictEqual([
      "read",
      "edit",
      "write",
      "list",
      "glob",
      "grep",
    ]);
    const listed = await tools.list.execute?.({ path: "src" }, call);
    expect(listed).toMatchObject({ kind: "search", ok: true, count: 2 });
    const globbed = await tools.glob.execute?.({ pattern: "**/*.ts" }, call);
    expect(globbed).toMatchObject({ ok: true, count: 2 });
    // grep's own setting applies (maxMatches: 1): two matches counted, the list cut.
    const grepped = await tools.grep.execute?.({ pattern: "export" }, call);
    expect(grepped).toMatchObject({ ok: true, count: 2, truncated: true });
  });

  test("false leaves a tool out; write: false leaves out write, edit and apply_patch; bash: false adds no bash", async () => {
    const fs = memoryFileSystem({ files });
    expect(Object.keys(createAiSdkFsTools({ fs, read: false, edit: false, grep: true }).tools)).toStrictEqual([
      "write",
      "grep",
    ]);
    const readOnly = createAiSdkFsTools({ fs, cwd: "/w", write: false, list: true, bash: false });
    expect(Object.keys(readOnly.tools)).toStrictEqual(["read", "list"]);
    expect(Object.keys(createAiSdkFsTools({ fs, applyPatch: false, list: false }).tools)).toStrictEqual([
      "read",
      "edit",
      "write",
    ]);
    // The withheld tools are not there to call: the model gets the AI SDK's no-such-tool error, no file changes.
    const model = scriptedModel([
      { calls: [{ tool: "edit", input: { path: "src/a.ts", oldText: "1", newText: "9", replaceAll: null } }] },
      { text: "cannot" },
    ]);
    await generateText({ model, tools: readOnly.tools, prompt: "edit", stopWhen: isStepCount(2) });
    expect(decoder.decode(await fs.readFile("/w/src/a.ts"))).toBe("export const a = 1;\n");
  });
});

describe("createAiSdkFsTools takes the one shape of tool options", () => {
  test("readOnly: true gives read and the search tools asked for; true is a tool's defaults; signatures rename", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\r\ntwo\r\n" } });
    const readOnly = createAiSdkFsTools({ fs, cwd: "/w", readOnly: true, grep: true });
    expect(Object.keys(readOnly.tools)).toStrictEqual(["read", "grep"]);
    expect(Object.keys(createAiSdkFsTools({ fs, read: true, edit: true, write: true }).tools)).toStrictEqual([
      "read",
      "edit",
      "write",
    ]);
    const preset = lineRangePreset();
    const { tools } = createAiSdkFsTools({
      fs,
      cwd: "/w",
      readOnly: true,
      read: { signature: preset.read },
      list: { signature: preset.list },
    });
    expect(Object.keys(tools)).toStrictEqual(["readFile", "listDir"]);
    const call = { toolCallId: "c", messages: [], context: {} };
    expect(await tools.readFile?.execute?.({ path: "a.txt" }, call)).toMatchObject({
      ok: true,
      parts: [{ type: "text", text: "one\r\ntwo\r\n" }],
    });
  });
});

describe("createAiSdkFsTools option errors", () => {
  const fs = memoryFileSystem();
  const cases: Array<{ name: string; options: unknown; message: string }> = [
    {
      name: "unknown option key",
      options: { fs, reed: {} },
      message:
        'createAiSdkFsTools got an unknown option "reed". Known options: fs, cwd, allowedRoots, permissions, state, locks, digest, clock, readOnly, read, edit, write, applyPatch, list, glob, grep, bash, contextSchema, needsApproval',
    },
    {
      name: "a shared key inside one tool's options",
      options: { fs, read: { digest: sha256Digest() } },
      message: "createAiSdkFsTools read options cannot set digest: set it once at the top level",
    },
    {
      name: "contextSchema inside one tool's options",
      options: { fs, applyPatch: { contextSchema: z.object({}) } },
      message: "createAiSdkFsTools applyPatch options cannot set contextSchema: set it once at the top level",
    },
    {
      name: "two tools with one name",
      options: {
        fs,
        edit: {
          signature: {
            name: "read",
            inputSchema: { type: "object", properties: {} },
            toInput: (input: unknown) => input,
          },
        },
      },
      message:
        'createAiSdkFsTools edit.signature gives the tool name "read", which the read tool has too: give one signature another name',
    },
    {
      name: "bash: true",
      options: { fs, bash: true },
      message:
        'createAiSdkFsTools bash must be an object with a runner and an env: the portable bundle has no default runner (got true). Give runner: justBashCommandRunner({ fs, cwd }) from "better-fs-tools/shell" (a shell over the same files, confined to cwd, in the browser or Node) or nodeCommandRunner({ cwd }) from "better-fs-tools/node" (real processes, Node only), and env: the variables the commands see ({} for none)',
    },
    {
      name: "bash without a runner",
      options: { fs, bash: { env: {} } },
      message:
        'createAiSdkFsTools bash must be an object with a runner and an env: the portable bundle has no default runner (it lacks a runner). Give runner: justBashCommandRunner({ fs, cwd }) from "better-fs-tools/shell" (a shell over the same files, confined to cwd, in the browser or Node) or nodeCommandRunner({ cwd }) from "better-fs-tools/node" (real processes, Node only)',
    },
    {
      name: "bash without an env",
      options: { fs, bash: { runner: { run: async () => ({ stdout: "", stderr: "", exitCode: 0 }) } } },
      message:
        "createAiSdkFsTools bash must be an object with a runner and an env: the portable bundle has no default runner (it lacks an env). Give env: the variables the commands see ({} for none)",
    },
    {
      name: "read that is not an object",
      options: { fs, read: 1 },
      message: "createAiSdkFsTools read must be false, true or an object of read settings, got 1",
    },
    {
      name: "write beside readOnly: true",
      options: { fs, readOnly: true, write: {} },
      message:
        "createAiSdkFsTools write cannot be set with readOnly: true (readOnly leaves out write, edit, apply_patch and bash)",
    },
    {
      name: "grep that is not an object or a boolean",
      options: { fs, grep: "yes" },
      message: 'createAiSdkFsTools grep must be false, true or an object of grep settings, got "yes"',
    },
    {
      name: "edit beside write: false",
      options: { fs, write: false, edit: {} },
      message:
        "createAiSdkFsTools edit cannot be set with write: false (write: false leaves out every tool that changes files: write, edit, apply_patch, and bash, whose commands write files; a shell needs write on)",
    },
    {
      name: "applyPatch beside write: false",
      options: { fs, write: false, applyPatch: true },
      message:
        "createAiSdkFsTools applyPatch cannot be set with write: false (write: false leaves out every tool that changes files: write, edit, apply_patch, and bash, whose commands write files; a shell needs write on)",
    },
    {
      name: "an unknown grep setting, named under its key",
      options: { fs, grep: { maxMatch: 1 } },
      message:
        'createAiSdkFsTools grep got an unknown option "maxMatch". Known options: maxMatches, maxLineLength, maxScanLineLength, concurrency, ignoreDirectories, offload, signature',
    },
    {
      name: "a bad list setting, named under its key",
      options: { fs, list: { maxEntries: 0 } },
      message: "createAiSdkFsTools list.maxEntries must be a positive integer, got 0",
    },
    {
      name: "missing fs",
      options: {},
      message:
        'createAiSdkFsTools fs must be given: a FileSystem such as memoryFileSystem() from "better-fs-tools/memory" or, in Node, nodeFileSystem({ cwd }) from "better-fs-tools/node" (or a function of the call returning one)',
    },
    {
      name: "a path given as fs",
      options: { fs: "/tmp" },
      message:
        'createAiSdkFsTools fs must be a FileSystem, not a path: to work on the directory "/tmp" of this machine, pass fs: nodeFileSystem({ cwd: "/tmp" }) from "better-fs-tools/node" (Node only; cwd: "/tmp" too), or memoryFileSystem() from "better-fs-tools/memory" for files in memory',
    },
  ];
  test.each(cases)("$name", ({ options, message }) => {
    expect(() => createAiSdkFsTools(options as never)).toThrow(new TypeError(message));
  });
});

describe("createAiSdkFsTools with streamText", () => {
  test("the same tools stream: a read call, then the answer", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "streamed\n" } });
    const { tools } = createAiSdkFsTools({ fs, cwd: "/w" });
    const finish = (unified: "tool-calls" | "stop") => ({
      type: "finish" as const,
      finishReason: { unified, raw: undefined },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
    });
    const model = new MockLanguageModelV4({
      doStream: [
        {
          stream: simulateReadableStream({
            chunks: [
              {
                type: "tool-call",
                toolCallId: "s1",
                toolName: "read",
                input: '{"path":"a.txt","offset":null,"limit":null}',
              },
              finish("tool-calls"),
            ],
          }),
        },
        {
          stream: simulateReadableStream({
            chunks: [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "done" },
              { type: "text-end", id: "t" },
              finish("stop"),
            ],
          }),
        },
      ],
    });
    const result = streamText({ model, tools, prompt: "x", stopWhen: isStepCount(3) });
    expect(await result.text).toBe("done");
    const prompt = model.doStreamCalls[1]?.prompt ?? [];
    const outputs = prompt
      .flatMap((message) => (message.role === "tool" ? message.content : []))
      .map((part) => (part.type === "tool-result" ? part.output : part));
    expect(outputs).toStrictEqual([text("1|streamed")]);
  });
});

describe("AI SDK single edit tools share the backend's default locks", () => {
  test("two single edit tools over one backend: 20 concurrent edits, none lost", async () => {
    const lines = Array.from({ length: 20 }, (_, index) => `line ${index}`);
    const fs = memoryFileSystem({ files: { "/w/a.txt": `${lines.join("\n")}\n` } });
    const first = createAiSdkEditTool({ fs, cwd: "/w" });
    const second = createAiSdkEditTool({ fs, cwd: "/w" });
    const call = { toolCallId: "c", messages: [], context: {} };
    const results = await Promise.all(
      lines.map((line, index) =>
        (index % 2 === 0 ? first : second).execute?.(
          { path: "a.txt", oldText: `${line}\n`, newText: `edited ${index}\n` },
          call,
        ),
      ),
    );
    expect(results.map((result) => (result as { ok: boolean }).ok)).toEqual(lines.map(() => true));
    expect(decoder.decode(await fs.readFile("/w/a.txt"))).toBe(
      `${lines.map((_, index) => `edited ${index}`).join("\n")}\n`,
    );
  });
});

describe("createAiSdkFsTools: execute takes strict mode's null for a parameter left out (trial finding 12)", () => {
  test("read with offset: null and limit: null reads the whole file; grep with null options searches", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\ntwo\n" } });
    const { tools } = createAiSdkFsTools({ fs, cwd: "/w", grep: true });
    const options = { toolCallId: "1", messages: [], context: {} };
    const read = (await tools.read.execute!({ path: "a.txt", offset: null, limit: null }, options)) as ReadResult;
    expect([read.ok, resultText(read)]).toEqual([true, "1|one\n2|two"]);
    const found = (await tools.grep.execute!(
      { pattern: "two", path: null, glob: null, ignoreCase: null },
      options,
    )) as SearchResult;
    expect(resultText(found)).toBe("a.txt:2:two");
  });
});

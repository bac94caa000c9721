import { generateText, isStepCount } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, test } from "vitest";
import {
  createAiSdkBashTool,
  createAiSdkEditTool,
  createAiSdkReadTool,
  createAiSdkWriteTool,
  toAiSdkTool,
} from "../../../src/ai-sdk/index.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import type { CommandRunner } from "../../../src/contract/runner.js";
import { createListTool } from "../../../src/tools/list/index.js";
import { createReadTool } from "../../../src/tools/read/index.js";
import { lineRangePreset, lineRangeSignature } from "../../../src/tools/signature/index.js";
import { memoryStore } from "../../../src/tools/kit/state.js";
import { withSignature } from "../../../src/tools/kit/tool.js";
import { resultText } from "../../../src/tools/kit/result.js";
import { ToolInputError } from "../../../src/tools/kit/tool.js";
import { scriptedModel, toolOutputsSentAt } from "../../ai-sdk/mock-model.js";

const text = (value: string) => ({ type: "content", value: [{ type: "text", text: value }] });
const FILE = Array.from({ length: 3644 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

/** A runner that echoes the command (no real shell needed for the signature). */
const echoRunner: CommandRunner = {
  name: "echo",
  // It runs nothing, so it touches no file outside the workspace.
  confined: true,
  describe: () => "An echo runner for tests.",
  run: async ({ command }) => ({ stdout: `ran: ${command}\n`, stderr: "", exitCode: 0, timedOut: false }),
};

describe("lineRangePreset", () => {
  test("takes no options: any key is a TypeError at creation", () => {
    expect(() => lineRangePreset({ readOnly: true } as never)).toThrow(
      new TypeError('lineRangePreset got an unknown option "readOnly". Known options: none'),
    );
    expect(() => lineRangePreset(null as never)).toThrow(new TypeError("lineRangePreset needs an options object"));
    expect(Object.keys(lineRangePreset({}))).toEqual(["read", "list", "write", "edit", "bash"]);
    expect(lineRangePreset().read.name).toBe("readFile");
  });
});

describe("lineRangeSignature", () => {
  test("maps startLine/endLine to offset/limit and refuses startLine > endLine", () => {
    const signature = lineRangeSignature();
    expect(signature.name).toBe("readFile");
    expect(signature.toInput({ path: "a.ts", startLine: 1200, endLine: 1260 })).toEqual({
      path: "a.ts",
      offset: 1200,
      limit: 61,
      exact: true,
    });
    expect(signature.toInput({ path: "a.ts", startLine: 5 })).toEqual({ path: "a.ts", offset: 5, exact: true });
    expect(signature.toInput({ path: "a.ts", endLine: 5 })).toEqual({ path: "a.ts", offset: 1, limit: 5, exact: true });
    expect(signature.toInput({ path: "a.ts" })).toEqual({ path: "a.ts", exact: true });
    expect(() => signature.toInput({ path: "a.ts", startLine: 9, endLine: 3 })).toThrow(
      new ToolInputError("startLine (9) must not be greater than endLine (3)"),
    );
    expect(() => signature.toInput({ file: "a.ts" })).toThrow(
      new ToolInputError("Unknown readFile input key: file. Expected path, startLine, endLine"),
    );
  });

  test("renames the tool and its parameters", async () => {
    const signature = lineRangeSignature({ name: "view", names: { path: "file", start: "from", end: "to" } });
    expect(signature.name).toBe("view");
    expect(Object.keys(signature.inputSchema["properties"] as object)).toEqual(["file", "from", "to"]);
    expect(signature.toInput({ file: "a.ts", from: 2, to: 3 })).toEqual({
      path: "a.ts",
      offset: 2,
      limit: 2,
      exact: true,
    });
    expect(() => signature.toInput({ file: "a.ts", from: 3, to: 2 })).toThrow(
      new ToolInputError("from (3) must not be greater than to (2)"),
    );
    const read = createReadTool({ fs: memoryFileSystem({ files: { "/w/a.ts": "1\n2\n3\n" } }), cwd: "/w" });
    const input = { file: "a.ts", from: 2, to: 9 };
    const result = signature.toResult?.(await read.execute(read.validate(signature.toInput(input))), input);
    expect(result?.parts).toEqual([{ type: "text", text: "[a.ts lines 2-3 of 3]\n2\n3" }]);
  });

  test("bad options throw TypeError", () => {
    expect(() => lineRangeSignature({ names: { path: "x", start: "x" } })).toThrow(
      new TypeError("lineRangeSignature names must differ, got x, x, endLine"),
    );
    expect(() => lineRangeSignature({ name: "read file" })).toThrow(
      new TypeError('lineRangeSignature name must be a name of letters, digits, _ or - (up to 64), got "read file"'),
    );
    expect(() => lineRangeSignature({ names: { begin: "b" } } as never)).toThrow(
      new TypeError('lineRangeSignature names got an unknown option "begin". Known options: path, start, end'),
    );
  });
});

describe("line-range preset through generateText", () => {
  test("readFile with and without a range, a refused range, listDir, writeFile, editFile, runBash", async () => {
    const fs = memoryFileSystem({ files: { "/w/src/server.ts": FILE, "/w/notes.txt": "one\ntwo\n" } });
    const preset = lineRangePreset();
    const state = memoryStore();
    const shared = { fs, cwd: "/w", state };
    const tools = {
      readFile: createAiSdkReadTool({ ...shared, signature: preset.read }),
      listDir: toAiSdkTool(createListTool({ fs, cwd: "/w" }), { signature: preset.list }),
      writeFile: createAiSdkWriteTool({ ...shared, signature: preset.write }),
      editFile: createAiSdkEditTool({ ...shared, signature: preset.edit }),
      runBash: createAiSdkBashTool({ fs, cwd: "/w", runner: echoRunner, env: () => ({}), signature: preset.bash }),
    };
    const model = scriptedModel([
      { calls: [{ tool: "readFile", input: { path: "src/server.ts", startLine: 1200, endLine: 1260 } }] },
      { calls: [{ tool: "readFile", input: { path: "notes.txt", startLine: null, endLine: null } }] },
      { calls: [{ tool: "readFile", input: { path: "notes.txt", startLine: 2, endLine: 99 } }] },
      { calls: [{ tool: "readFile", input: { path: "notes.txt", startLine: 2, endLine: 1 } }] },
      { calls: [{ tool: "listDir", input: { path: null } }] },
      { calls: [{ tool: "writeFile", input: { path: "new.txt", content: "hi\n" } }] },
      {
        calls: [{ tool: "editFile", input: { path: "notes.txt", oldText: "two", newText: "deux", replaceAll: null } }],
      },
      { calls: [{ tool: "runBash", input: { command: "ls" } }] },
      { text: "done" },
    ]);
    const result = await generateText({ model, tools, prompt: "work", stopWhen: isStepCount(12) });
    expect(result.text).toBe("done");
    const outputs = toolOutputsSentAt(model, 8);
    const expectedRange = Array.from({ length: 61 }, (_, i) => `line ${1200 + i}`).join("\n");
    expect(outputs).toEqual([
      { toolName: "readFile", output: text(`[src/server.ts lines 1200-1260 of 3644]\n${expectedRange}`) },
      { toolName: "readFile", output: text("one\ntwo\n") },
      { toolName: "readFile", output: text("[notes.txt lines 2-2 of 2]\ntwo") },
      {
        toolName: "readFile",
        output: {
          type: "error-text",
          value:
            'AI_InvalidToolInputError: Invalid input for tool readFile: AI_TypeValidationError: Type validation failed: Value: {"path":"notes.txt","startLine":2,"endLine":1}.\n' +
            "Error message: ToolInputError: startLine (2) must not be greater than endLine (1)",
        },
      },
      { toolName: "listDir", output: text("notes.txt (8 bytes)\nsrc/") },
      { toolName: "writeFile", output: text("wrote 3 bytes to new.txt") },
      { toolName: "editFile", output: text("replaced 1 occurrence in notes.txt at line 2") },
      { toolName: "runBash", output: text("ran: ls\n[exit code 0]") },
    ]);
    expect(new TextDecoder().decode(await fs.readFile("/w/notes.txt"))).toBe("one\ndeux\n");
    expect(new TextDecoder().decode(await fs.readFile("/w/new.txt"))).toBe("hi\n");
  });
});

describe("line-range read errors speak the dialect", () => {
  test("a file over the read cap suggests startLine/endLine; past the end names startLine", async () => {
    const fs = memoryFileSystem({ files: { "/w/big.txt": "0123456789\n".repeat(100) } });
    const read = createReadTool({ fs, cwd: "/w", maxBytes: 500 });
    const signature = lineRangeSignature();
    const run = async (input: Record<string, string | number | undefined>) =>
      signature.toResult?.(await read.execute(read.validate(signature.toInput(input))), input).parts;
    expect(await run({ path: "big.txt" })).toEqual([
      {
        type: "text",
        text:
          "big.txt is 1.1 KiB (1,100 bytes) (100 lines), over the read cap of 500 bytes; nothing was returned. " +
          "Read it in parts with startLine and endLine (1-based line numbers, inclusive), e.g. startLine=1 and endLine=35, then continue from the next line; or search its content for what you need.",
      },
    ]);
    expect(await run({ path: "big.txt", startLine: 101 })).toEqual([
      { type: "text", text: "startLine 101 is past the end of big.txt, which has 100 lines." },
    ]);
  });
});

/** A file with every trait an unranged read must keep: a BOM, CRLF and lone-CR line endings, a long line, no final newline. */
const TRICKY =
  "\uFEFFconst retries = 3;\r\n" + `const long = "${"x".repeat(5000)}";\r\n` + "legacy\rline\r\n\r\n  tail\twith tab";

describe("line-range readFile without a range is the file exactly (workspace-filesystem.txt)", () => {
  test("BOM, CRLF, lone CR, a 5,000-character line and a missing final newline come back as they are", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.ts": TRICKY, "/w/empty.txt": "" } });
    const read = createReadTool({ fs, cwd: "/w" });
    const signature = lineRangeSignature();
    const run = async (input: Record<string, string | number | undefined>) =>
      signature.toResult?.(await read.execute(read.validate(signature.toInput(input))), input);
    const whole = await run({ path: "a.ts" });
    expect(whole?.parts).toEqual([{ type: "text", text: TRICKY }]);
    expect(whole).toMatchObject({ ok: true, totalLines: 6, startLine: 1, endLine: 6, finalNewline: false });
    expect((await run({ path: "empty.txt" }))?.parts).toEqual([{ type: "text", text: "" }]);
    // A range shows lines without their endings or the BOM, long lines cut, under the header.
    const ranged = await run({ path: "a.ts", startLine: 1, endLine: 1 });
    expect(ranged?.parts).toEqual([{ type: "text", text: "[a.ts lines 1-1 of 6]\nconst retries = 3;" }]);
  });

  test("a ranged read stopped by the cap keeps its note, in the dialect's words, after the lines", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "0123456789\n".repeat(10) } });
    const read = createReadTool({ fs, cwd: "/w", maxBytes: 30 });
    const signature = lineRangeSignature();
    const input = { path: "a.txt", startLine: 2, endLine: 9 };
    const result = signature.toResult?.(await read.execute(read.validate(signature.toInput(input))), input);
    expect(result?.parts).toEqual([
      {
        type: "text",
        text:
          "[a.txt lines 2-3 of 10]\n0123456789\n0123456789\n" +
          "[Output capped at 30 bytes: showed lines 2-3 of 10. Continue with startLine=4.]",
      },
    ]);
  });

  test("a model that reads a file and writes it back with one change changes nothing else (generateText)", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.ts": TRICKY } });
    const preset = lineRangePreset();
    const read = createAiSdkReadTool({ fs, cwd: "/w", signature: preset.read });
    const write = createAiSdkWriteTool({ fs, cwd: "/w", signature: preset.write });
    let step = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        step += 1;
        const usage = {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        };
        if (step === 1) {
          const input = JSON.stringify({ path: "a.ts" });
          return {
            content: [{ type: "tool-call", toolCallId: "r", toolName: "readFile", input }],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          };
        }
        if (step === 2) {
          // What the model was sent, edited in one place and written back whole.
          const sent = prompt.flatMap((message) => (message.role === "tool" ? message.content : []));
          const output = sent[0]?.type === "tool-result" ? sent[0].output : undefined;
          const seen = output?.type === "content" && output.value[0]?.type === "text" ? output.value[0].text : "";
          const input = JSON.stringify({ path: "a.ts", content: seen.replace("retries = 3", "retries = 5") });
          return {
            content: [{ type: "tool-call", toolCallId: "w", toolName: "writeFile", input }],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          };
        }
        return {
          content: [{ type: "text", text: "done" }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        };
      },
    });
    const before = await fs.readFile("/w/a.ts");
    await generateText({
      model,
      tools: { readFile: read, writeFile: write },
      prompt: "Set retries to 5.",
      stopWhen: isStepCount(5),
    });
    const after = await fs.readFile("/w/a.ts");
    const expected = new TextEncoder().encode(TRICKY.replace("retries = 3", "retries = 5"));
    expect(Array.from(after)).toEqual(Array.from(expected));
    // Byte for byte the same outside the one changed character.
    expect(after.length).toBe(before.length);
    expect(Array.from(after).filter((byte, i) => byte !== before[i])).toEqual([0x35]);
  });
});

describe("lineRangePreset read: input errors and null ranges", () => {
  test("an unknown key is named as the caller sent it (offset), not renamed to startLine", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "l1\nl2\n" } });
    const read = withSignature(createReadTool({ fs, cwd: "/w" }), lineRangePreset().read);
    const result = await read.execute({ path: "a.txt", offset: 2 } as never);
    expect([result.error?.code, resultText(result)]).toEqual([
      "EINPUT",
      "Unknown readFile input key: offset. Expected path, startLine, endLine",
    ]);
  });

  test("startLine and endLine null read the file as omitted ones do: the exact bytes, no header", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "l1\r\nl2\r\n" } });
    const read = withSignature(createReadTool({ fs, cwd: "/w" }), lineRangePreset().read);
    const nulls = await read.execute({ path: "a.txt", startLine: null, endLine: null } as never);
    const omitted = await read.execute({ path: "a.txt" });
    expect([resultText(nulls), resultText(omitted)]).toEqual(["l1\r\nl2\r\n", "l1\r\nl2\r\n"]);
  });
});

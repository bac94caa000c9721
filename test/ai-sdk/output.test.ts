import { createAnthropic } from "@ai-sdk/anthropic";
import { generateText, isStepCount } from "ai";
import { describe, expect, test } from "vitest";
import {
  createAiSdkBashTool,
  createAiSdkEditTool,
  createAiSdkFsTools,
  createAiSdkReadTool,
  toAiSdkOutput,
} from "../../src/ai-sdk/index.js";
import { lineRangeSignature } from "../../src/tools/signature/line-range.js";
import { justBashCommandRunner } from "../../src/shell/just-bash-runner.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { scriptedModel, toolOutputsSentAt } from "./mock-model.js";

describe("toAiSdkOutput", () => {
  test("a result that did not fail is content; a failed one is error-text with its text unchanged", () => {
    expect(toAiSdkOutput({ ok: true, parts: [{ type: "text", text: "1|one" }] })).toEqual({
      type: "content",
      value: [{ type: "text", text: "1|one" }],
    });
    expect(toAiSdkOutput({ parts: [{ type: "media", mediaType: "image/png", data: "AAAA" }] })).toEqual({
      type: "content",
      value: [{ type: "file", mediaType: "image/png", data: { type: "data", data: "AAAA" } }],
    });
    expect(
      toAiSdkOutput({
        ok: false,
        parts: [
          { type: "text", text: "Cannot read a.txt: " },
          { type: "text", text: "no such file." },
        ],
      }),
    ).toEqual({ type: "error-text", value: "Cannot read a.txt: no such file." });
  });

  test("a failed call reaches Anthropic as a tool_result with is_error: true (request body, no network)", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const { tools } = createAiSdkFsTools({ fs, cwd: "/w" });
    const model = scriptedModel([
      { calls: [{ tool: "read", input: { path: "missing.txt", offset: null, limit: null } }] },
      { text: "done" },
    ]);
    const first = await generateText({ model, tools, prompt: "read it", stopWhen: isStepCount(2) });
    const [failed] = toolOutputsSentAt(model, 1) as Array<{ output: { type: string; value: string } }>;
    expect(failed?.output.type).toBe("error-text");

    const bodies: unknown[] = [];
    const anthropic = createAnthropic({
      apiKey: "test-key",
      fetch: async (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return new Response(
          JSON.stringify({
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "claude-test",
            content: [{ type: "text", text: "ok" }],
            stop_reason: "end_turn",
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
          { status: 200, headers: { "content-type": "application/json" } },
        );
      },
    });
    await generateText({
      model: anthropic("claude-test"),
      tools,
      // The first step's messages: the assistant's tool call and the tool's (failed) result.
      messages: [{ role: "user", content: "read it" }, ...(first.steps[0]?.response.messages ?? [])],
    });
    const messages = (bodies[0] as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> })
      .messages;
    const results = messages.flatMap((message) => message.content.filter((part) => part["type"] === "tool_result"));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ type: "tool_result", is_error: true, content: failed?.output.value });
  });
});

describe("AI SDK tools carry their name", () => {
  test("the signature's name, or the core tool's: { [read.name]: read } works", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const read = createAiSdkReadTool({
      fs,
      cwd: "/w",
      signature: lineRangeSignature({
        name: "read_file",
        names: { path: "file_path", start: "start_line", end: "end_line" },
      }),
    });
    const edit = createAiSdkEditTool({ fs, cwd: "/w" });
    const bash = createAiSdkBashTool({ runner: justBashCommandRunner(), env: {} });
    expect([read.name, edit.name, bash.name]).toEqual(["read_file", "edit", "bash"]);
    const { tools } = createAiSdkFsTools({ fs, cwd: "/w", applyPatch: true });
    expect(Object.entries(tools).map(([key, tool]) => [key, tool?.name])).toEqual([
      ["read", "read"],
      ["edit", "edit"],
      ["write", "write"],
      ["apply_patch", "apply_patch"],
    ]);
    const model = scriptedModel([
      { calls: [{ tool: "read_file", input: { file_path: "a.txt", start_line: null, end_line: null } }] },
      { text: "done" },
    ]);
    await generateText({ model, tools: { [read.name]: read }, prompt: "read", stopWhen: isStepCount(3) });
    expect(toolOutputsSentAt(model, 1)).toEqual([
      { toolName: "read_file", output: { type: "content", value: [{ type: "text", text: "a\n" }] } },
    ]);
  });
});

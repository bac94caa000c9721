import { generateText, isStepCount } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { toAiSdkTool } from "../../src/ai-sdk/tool.js";
import { errorResult, type ReadResult } from "../../src/tools/kit/result.js";
import { ToolInputError, type CoreToolParts, type ToolCall, type ToolSignature } from "../../src/tools/kit/tool.js";
import { scriptedModel, toolOutputsSentAt } from "./mock-model.js";

interface FakeInput {
  readonly path: string;
  readonly offset?: number;
  readonly limit?: number;
}

const MAX = Number.MAX_SAFE_INTEGER;

/** A fake core read: echoes its input and what it saw of the call; refuses an empty path like the core would. */
function fakeRead(seen: ToolCall[] = []): CoreToolParts<FakeInput, ReadResult> {
  return {
    name: "read",
    description: "Read a file.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", minLength: 1 },
        offset: { type: "integer", minimum: 1, maximum: MAX },
        limit: { type: "integer", minimum: 1, maximum: MAX },
      },
      required: ["path"],
      additionalProperties: false,
    },
    validate(input) {
      const record = input as Record<string, unknown>;
      if (typeof record["path"] !== "string" || record["path"] === "")
        throw new ToolInputError("read path must be a non-empty string");
      return record as unknown as FakeInput;
    },
    async execute(input, call) {
      if (call !== undefined) seen.push(call);
      if (input.path === "/missing")
        return errorResult("read", { code: "ENOENT", message: "File not found: /missing", path: "/missing" });
      return {
        kind: "read",
        ok: true,
        path: input.path,
        parts: [{ type: "text", text: `read ${JSON.stringify(input)}` }],
      };
    },
  };
}

describe("toAiSdkTool", () => {
  test("is strict, carries the converted schema and the core description", async () => {
    const read = toAiSdkTool(fakeRead());
    expect(read.strict).toBe(true);
    expect(read.description).toBe("Read a file.");
    const schema = await (read.inputSchema as { jsonSchema: unknown }).jsonSchema;
    expect(schema).toStrictEqual({
      type: "object",
      properties: {
        path: { type: "string" },
        offset: { type: ["integer", "null"], minimum: 1, maximum: MAX },
        limit: { type: ["integer", "null"], minimum: 1, maximum: MAX },
      },
      required: ["path", "offset", "limit"],
      additionalProperties: false,
    });
  });

  test("an inexpressible signature schema throws at creation naming the tool", () => {
    const signature: ToolSignature<FakeInput> = {
      name: "view",
      inputSchema: { type: "object", properties: {}, additionalProperties: true },
      toInput: (input) => input as unknown as FakeInput,
    };
    expect(() => toAiSdkTool(fakeRead(), { signature })).toThrow(
      new TypeError(
        "view: strict mode cannot express an object that allows other properties at #/additionalProperties",
      ),
    );
  });

  test("a signature that is not one, or whose name providers refuse, throws at creation", () => {
    expect(() => toAiSdkTool(fakeRead(), { signature: { name: "x" } as never })).toThrow(
      new TypeError("toAiSdkTool signature must be an object with a name, an inputSchema and a toInput function"),
    );
    const named = (name: unknown) =>
      ({ name, inputSchema: { type: "object" }, toInput: (input: unknown) => input }) as never;
    expect(() => toAiSdkTool(fakeRead(), { signature: named("read file") })).toThrow(
      new TypeError(
        'toAiSdkTool signature name must be 1 to 64 letters, digits, _ or - (what providers accept), got "read file"',
      ),
    );
    expect(() => toAiSdkTool(fakeRead(), { signature: named("") })).toThrow(
      new TypeError(
        'toAiSdkTool signature name must be 1 to 64 letters, digits, _ or - (what providers accept), got ""',
      ),
    );
    expect(() => toAiSdkTool({} as never)).toThrow(
      new TypeError("toAiSdkTool needs a core tool (an object with name, inputSchema, validate and execute)"),
    );
  });

  test("generateText: nulls become absent, refusals reach the model as tool errors, the loop continues", async () => {
    const seen: ToolCall[] = [];
    const model = scriptedModel([
      { calls: [{ tool: "read", input: { path: "/a.txt", offset: null, limit: 2 } }] },
      {
        calls: [
          { tool: "read", input: { file: "/a.txt" } },
          { tool: "read", input: { path: "", offset: null, limit: null } },
        ],
      },
      { calls: [{ tool: "read", input: { path: "/missing", offset: null, limit: null } }] },
      { text: "done" },
    ]);
    const result = await generateText({
      model,
      tools: { read: toAiSdkTool(fakeRead(seen)) },
      prompt: "read",
      stopWhen: isStepCount(10),
    });
    expect(result.text).toBe("done");
    expect(toolOutputsSentAt(model, 1)).toStrictEqual([
      {
        toolName: "read",
        output: { type: "content", value: [{ type: "text", text: 'read {"path":"/a.txt","limit":2}' }] },
      },
    ]);
    const step2 = result.steps[1]?.content
      .filter((part) => part.type === "tool-error")
      .map((part) => String((part as { error: unknown }).error));
    const unknownKey =
      'AI_InvalidToolInputError: Invalid input for tool read: AI_TypeValidationError: Type validation failed: Value: {"file":"/a.txt"}.\n' +
      "Error message: ToolInputError: Unknown read input key: file. Expected path, offset, limit";
    const emptyPath =
      'AI_InvalidToolInputError: Invalid input for tool read: AI_TypeValidationError: Type validation failed: Value: {"path":"","offset":null,"limit":null}.\n' +
      "Error message: ToolInputError: read path must be a non-empty string";
    expect(step2).toStrictEqual([unknownKey, emptyPath]);
    expect(toolOutputsSentAt(model, 2).slice(1)).toStrictEqual([
      { toolName: "read", output: { type: "error-text", value: unknownKey } },
      { toolName: "read", output: { type: "error-text", value: emptyPath } },
    ]);
    expect(toolOutputsSentAt(model, 3).at(-1)).toStrictEqual({
      toolName: "read",
      output: { type: "error-text", value: "File not found: /missing" },
    });
    expect(result.steps[2]?.toolResults[0]?.output).toMatchObject({
      kind: "read",
      ok: false,
      error: { code: "ENOENT" },
    });
    expect(seen.map((call) => call.toolCallId)).toStrictEqual(["call-0-0", "call-2-0"]);
    expect(seen[0]?.host?.messages).toHaveLength(1);
  });

  test("missing required keys and non-object input are refused naming the parameters", async () => {
    const read = toAiSdkTool(fakeRead());
    const validate = (
      read.inputSchema as unknown as { validate: (value: unknown) => Promise<{ success: boolean; error?: Error }> }
    ).validate;
    expect(await validate({ offset: 1, limit: null })).toStrictEqual({
      success: false,
      error: new ToolInputError("Missing read input key: path. Expected path, offset, limit"),
    });
    expect((await validate("x")).error?.message).toBe("read input must be an object. Expected path, offset, limit");
    expect((await validate({ a: 1, b: 2, path: "/x" })).error?.message).toBe(
      "Unknown read input keys: a, b. Expected path, offset, limit",
    );
  });

  test("a signature renames the tool and its parameters, maps input and result", async () => {
    const signature: ToolSignature<FakeInput, { file: string; from?: number }, ReadResult> = {
      name: "view",
      description: "View a file.",
      inputSchema: {
        type: "object",
        properties: { file: { type: "string" }, from: { type: "integer" } },
        required: ["file"],
      },
      toInput: (input) => ({ path: input.file, ...(input.from === undefined ? {} : { offset: input.from }) }),
      toResult: (result, input) => ({
        ...result,
        parts: [
          { type: "text", text: `[${input.file}] ${result.parts[0]?.type === "text" ? result.parts[0].text : ""}` },
        ],
      }),
    };
    const view = toAiSdkTool(fakeRead(), { signature });
    expect(view.description).toBe("View a file.");
    const model = scriptedModel([
      {
        calls: [
          { tool: "view", input: { file: "/b", from: null } },
          { tool: "view", input: { path: "/b", from: null } },
        ],
      },
      { text: "ok" },
    ]);
    const result = await generateText({ model, tools: { view }, prompt: "x", stopWhen: isStepCount(3) });
    expect(toolOutputsSentAt(model, 1)).toStrictEqual([
      { toolName: "view", output: { type: "content", value: [{ type: "text", text: '[/b] read {"path":"/b"}' }] } },
      {
        toolName: "view",
        output: {
          type: "error-text",
          value:
            'AI_InvalidToolInputError: Invalid input for tool view: AI_TypeValidationError: Type validation failed: Value: {"path":"/b","from":null}.\n' +
            "Error message: ToolInputError: Unknown view input key: path. Expected file, from",
        },
      },
    ]);
    expect(result.steps[0]?.toolCalls[0]?.input).toStrictEqual({ file: "/b" });
  });

  test("contextSchema: the AI SDK validates toolsContext[name]; the core gets it as call.host.context", async () => {
    const seen: ToolCall[] = [];
    const read = toAiSdkTool(fakeRead(seen), { contextSchema: z.object({ root: z.string() }) });
    const model = scriptedModel([
      { calls: [{ tool: "read", input: { path: "/a", offset: null, limit: null } }] },
      { text: "ok" },
    ]);
    const controller = new AbortController();
    await generateText({
      model,
      tools: { read },
      toolsContext: { read: { root: "/w1" } },
      prompt: "x",
      stopWhen: isStepCount(3),
      abortSignal: controller.signal,
    });
    expect(seen[0]?.host?.context).toStrictEqual({ root: "/w1" });
    expect(seen[0]?.host?.abortSignal).toBeInstanceOf(AbortSignal);
    expect(seen[0]?.abortSignal).toBe(seen[0]?.host?.abortSignal);

    const bad = scriptedModel([
      { calls: [{ tool: "read", input: { path: "/a", offset: null, limit: null } }] },
      { text: "ok" },
    ]);
    await expect(
      generateText({
        model: bad,
        tools: { read },
        toolsContext: { read: { root: 1 } } as unknown as { read: { root: string } },
        prompt: "x",
        stopWhen: isStepCount(3),
      }),
    ).rejects.toThrow('Type validation failed for tool context (read): Value: {"root":1}.');
  });
});

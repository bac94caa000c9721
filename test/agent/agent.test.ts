import { Output, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createWorkspaceAgent, DEFAULT_MAX_TOOL_ROUNDS, fileRunCache, memoryRunCache } from "../../src/agent/index.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { offsetLimitPreset } from "../../src/tools/signature/index.js";
import type { FileSystem } from "../../src/contract/types.js";
import { policyModel, systemOf, toolNamesOf, userTextsOf } from "./mock-model.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const write = (fs: FileSystem, path: string, text: string) => fs.writeFile(path, encoder.encode(text));
const text = async (fs: FileSystem, path: string) => decoder.decode(await fs.readFile(path));

/** A model that always answers `answer`. */
const textModel = (answer = "done") => policyModel(() => ({ text: answer }));

/** A model that writes `path` (with `content`) when it has tools, then answers `answer`. */
function writerModel(path: string, content: string, answer = "wrote it") {
  return policyModel((options, n) =>
    toolNamesOf(options).includes("write") && n % 2 === 0
      ? { calls: [{ tool: "write", input: { path, content } }] }
      : { text: answer },
  );
}

describe("memory file", () => {
  it("puts AGENTS.md after the instructions in the system prompt, read again on every run", async () => {
    const fs = memoryFileSystem({ files: { "/AGENTS.md": "Use tabs.\n" } });
    const model = textModel();
    const agent = createWorkspaceAgent({ model, fs, instructions: "You keep notes." });
    const first = await agent.generate({ prompt: "hi" });
    await write(fs, "/AGENTS.md", "Use spaces.\n");
    await agent.generate({ prompt: "hi" });
    expect(model.doGenerateCalls.map(systemOf)).toEqual([
      "You keep notes.\n\n# Agent memory (AGENTS.md)\n\nUse tabs.\n",
      "You keep notes.\n\n# Agent memory (AGENTS.md)\n\nUse spaces.\n",
    ]);
    expect(first.memory).toEqual({
      path: "AGENTS.md",
      text: "Use tabs.\n",
      bytes: 10,
      truncated: false,
      keptBytes: 10,
      binary: false,
    });
  });

  it("adds nothing when the file is absent or memoryFile is false; the memory alone without instructions", async () => {
    const fs = memoryFileSystem({ files: { "/notes/AGENTS.md": "Be brief." } });
    const model = textModel();
    const absent = await createWorkspaceAgent({ model, fs, instructions: "Base." }).generate({ prompt: "a" });
    await createWorkspaceAgent({ model, fs, instructions: "Base.", memoryFile: false }).generate({ prompt: "b" });
    await createWorkspaceAgent({ model, fs, memoryFile: "notes/AGENTS.md" }).generate({ prompt: "c" });
    expect(absent.memory).toBeUndefined();
    expect(model.doGenerateCalls.map(systemOf)).toEqual([
      "Base.",
      "Base.",
      "# Agent memory (notes/AGENTS.md)\n\nBe brief.",
    ]);
  });

  it("caps the file at maxMemoryBytes on a character boundary and says so", async () => {
    const fs = memoryFileSystem({ files: { "/AGENTS.md": "abcé-rest" } }); // é is 2 bytes (3..4)
    const model = textModel();
    const result = await createWorkspaceAgent({ model, fs, maxMemoryBytes: 4 }).generate({ prompt: "x" });
    expect(systemOf(model.doGenerateCalls[0])).toBe(
      "# Agent memory (AGENTS.md)\n\nabc\n\n[AGENTS.md cut at 3 of 10 bytes (cap 4): read the file for the rest]",
    );
    expect(result.memory).toEqual({
      path: "AGENTS.md",
      text: "abc",
      bytes: 10,
      truncated: true,
      keptBytes: 3,
      binary: false,
    });
  });

  it("a memory file that is not UTF-8 text is left out with a note, never sent raw", async () => {
    const fs = memoryFileSystem({ files: { "/AGENTS.md": new Uint8Array([0x41, 0, 0xff, 0x42]) } });
    const model = textModel();
    const result = await createWorkspaceAgent({ model, fs }).generate({ prompt: "x" });
    expect([systemOf(model.doGenerateCalls[0]), result.memory]).toEqual([
      "# Agent memory (AGENTS.md)\n\n[AGENTS.md is not UTF-8 text (4 bytes): its content was left out]",
      { path: "AGENTS.md", text: "", bytes: 4, truncated: false, keptBytes: 0, binary: true },
    ]);
  });

  it("reads the memory file through the gate: outside the roots the run rejects with EACCES", async () => {
    const fs = memoryFileSystem({ files: { "/etc/AGENTS.md": "secret", "/w/a.txt": "a" } });
    const agent = createWorkspaceAgent({ model: textModel(), fs, cwd: "/w", memoryFile: "/etc/AGENTS.md" });
    await expect(agent.generate({ prompt: "x" })).rejects.toMatchObject({ code: "EACCES" });
  });
});

describe("tool rounds", () => {
  it("after maxToolRounds the model gets one step with no tools, and the result is its text", async () => {
    const fs = memoryFileSystem({ files: { "/notes.txt": "one\n" } });
    const model = policyModel((options) =>
      toolNamesOf(options).length > 0
        ? { calls: [{ tool: "read", input: { path: "notes.txt", offset: null, limit: null } }] }
        : { text: "final answer" },
    );
    const result = await createWorkspaceAgent({ model, fs, maxToolRounds: 2 }).generate({ prompt: "loop" });
    expect(model.doGenerateCalls.map(toolNamesOf)).toEqual([
      ["read", "list", "glob", "grep", "write", "edit", "apply_patch"],
      ["read", "list", "glob", "grep", "write", "edit", "apply_patch"],
      [],
    ]);
    expect(model.doGenerateCalls.map((call) => call.toolChoice)).toEqual([
      { type: "auto" },
      { type: "auto" },
      { type: "none" },
    ]);
    expect({
      text: result.text,
      rounds: result.rounds,
      modelCalls: result.modelCalls,
      maxToolRounds: result.maxToolRounds,
    }).toEqual({ text: "final answer", rounds: 2, modelCalls: 3, maxToolRounds: 2 });
    // The calls of the last tool round finished: both reads reached the model as results.
    const lastPrompt = model.doGenerateCalls[2]?.prompt ?? [];
    expect(lastPrompt.filter((message) => message.role === "tool")).toHaveLength(2);
  });

  it("a model that calls a tool in the last step (tools disabled) ends the run as a failure, not an exception", async () => {
    const fs = memoryFileSystem({ files: { "/notes.txt": "one\n" } });
    const model = policyModel(() => ({ calls: [{ tool: "list", input: { path: null } }] }));
    const result = await createWorkspaceAgent({ model, fs, maxToolRounds: 2 }).generate({ prompt: "loop" });
    expect(model.doGenerateCalls.map((call) => call.toolChoice)).toEqual([
      { type: "auto" },
      { type: "auto" },
      { type: "none" },
    ]);
    expect({
      ok: result.ok,
      failures: result.failures,
      rounds: result.rounds,
      modelCalls: result.modelCalls,
      cached: result.cached,
    }).toEqual({
      ok: false,
      failures: [
        {
          kind: "rounds",
          message: "The model called a tool after its 2 tool rounds, when only a final answer was allowed.",
        },
      ],
      rounds: 2,
      modelCalls: 3,
      cached: false,
    });
  });

  it("defaults to 40 rounds", () => {
    expect(DEFAULT_MAX_TOOL_ROUNDS).toBe(40);
  });
});

describe("tool scopes", () => {
  const fs = memoryFileSystem();
  const names = (options: Parameters<typeof createWorkspaceAgent>[0]) =>
    Object.keys(createWorkspaceAgent(options).tools);

  it("has the file tools by default, read-only has only read, list, glob and grep, write: false withholds edit and apply_patch", () => {
    const model = textModel();
    expect({
      default: names({ model, fs }),
      readOnly: names({ model, fs, readOnly: true }),
      noWrite: names({ model, fs, write: false }),
      noPatch: names({ model, fs, applyPatch: false, grep: false }),
    }).toEqual({
      default: ["read", "list", "glob", "grep", "write", "edit", "apply_patch"],
      readOnly: ["read", "list", "glob", "grep"],
      noWrite: ["read", "list", "glob", "grep"],
      noPatch: ["read", "list", "glob", "write", "edit"],
    });
  });

  it("a read-only agent sends no write tool to the model, and refuses write scopes at creation", async () => {
    const model = textModel();
    await createWorkspaceAgent({ model, fs, readOnly: true }).generate({ prompt: "x" });
    expect(toolNamesOf(model.doGenerateCalls[0])).toEqual(["read", "list", "glob", "grep"]);
    expect(() => createWorkspaceAgent({ model, fs, readOnly: true, write: true })).toThrow(
      new TypeError(
        "createWorkspaceAgent write cannot be set with readOnly: true (readOnly leaves out write, edit, apply_patch and bash)",
      ),
    );
  });

  it("adds bash with a runner and env, and extra tools after the file tools", async () => {
    const model = textModel();
    const runner = {
      name: "fake",
      describe: () => "A fake shell.",
      run: async () => ({ stdout: "", stderr: "", exitCode: 0, timedOut: false }),
    };
    const extraTools = {
      weather: tool({
        description: "Weather",
        inputSchema: z.object({ city: z.string() }),
        execute: async () => "sunny",
      }),
    };
    const agent = createWorkspaceAgent({
      model,
      fs,
      edit: false,
      applyPatch: false,
      bash: { runner, env: () => ({}) },
      extraTools,
    });
    await agent.generate({ prompt: "x" });
    expect(toolNamesOf(model.doGenerateCalls[0])).toEqual(["read", "list", "glob", "grep", "write", "bash", "weather"]);
    expect(() => createWorkspaceAgent({ model, fs, extraTools: { read: extraTools.weather } })).toThrow(
      "createWorkspaceAgent extraTools.read has the name of a file tool: give it another name",
    );
  });

  it("speaks a preset's dialect with its settings: read_file over offsetLimitPreset with maxReadChars, read.maxBytes", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "alpha\nbeta\ngamma\n", "/w/big.txt": "x\n".repeat(100) } });
    const model = policyModel((options, n) =>
      n === 0
        ? {
            calls: [
              { tool: "read_file", input: { path: "a.txt", offset: null, limit: null } },
              { tool: "read_file", input: { path: "big.txt", offset: null, limit: null } },
            ],
          }
        : { text: "read" },
    );
    const preset = offsetLimitPreset({ maxReadChars: 30 });
    const agent = createWorkspaceAgent({
      model,
      fs,
      cwd: "/w",
      readOnly: true,
      read: { signature: preset.read, maxBytes: 20 },
      grep: { signature: preset.grep },
      list: false,
      glob: false,
    });
    expect(Object.keys(agent.tools)).toEqual(["read_file", "grep_files"]);
    await agent.generate({ prompt: "read" });
    const sent = model.doGenerateCalls[1]!.prompt.flatMap((message) =>
      message.role === "tool" ? message.content : [],
    );
    const texts = sent.map((part) =>
      part.type === "tool-result" && part.output.type === "content" ? part.output.value : undefined,
    );
    expect(texts).toEqual([
      // read.maxBytes (20) caps what the core read returns; maxReadChars (30) cuts read_file's output.
      [
        {
          type: "text",
          text: "     1\talpha\n     2\tbeta\n[Output capped at 20 bytes: showed lines 1-2 of 3. Continue with offset=3.]",
        },
      ],
      [
        {
          type: "text",
          text: "     1\tx\n     2\tx\n     3\tx\n[Output cut at 30 characters: showed lines 1-3 of 100. Continue with offset=4.]",
        },
      ],
    ]);
  });

  it("bash: true is refused (bash needs a runner and an env); a signature that is not one is refused", () => {
    const model = textModel();
    expect(() => createWorkspaceAgent({ model, fs, bash: true } as never)).toThrow(
      /^createWorkspaceAgent bash must be false or the bash tool's options with a runner and an env/,
    );
    expect(() => createWorkspaceAgent({ model, fs, read: { signature: { name: "x" } } } as never)).toThrow(
      "createWorkspaceAgent read.signature must be a signature ({ name, inputSchema, toInput }), e.g. lineRangePreset().read",
    );
  });

  it("refuses unknown options and bad values at creation", () => {
    const model = textModel();
    expect(() => createWorkspaceAgent({ model, fs, maxToolRounds: 0 })).toThrow(
      "createWorkspaceAgent maxToolRounds must be an integer ≥ 1, got 0",
    );
    expect(() => createWorkspaceAgent({ model, fs, memoryFile: "" })).toThrow(
      'createWorkspaceAgent memoryFile must be a non-empty path or false, got ""',
    );
    expect(() => createWorkspaceAgent({ model, fs, writ: false } as never)).toThrow(TypeError);
    expect(() => createWorkspaceAgent({ model, fs, tools: { write: false } } as never)).toThrow(
      /^createWorkspaceAgent got an unknown option "tools"\. Known options: /,
    );
    expect(() => createWorkspaceAgent({ model, fs, maxRounds: 3 } as never)).toThrow(TypeError);
  });
});

describe("run cache", () => {
  it("a second identical run makes zero model calls and replays the text", async () => {
    const fs = memoryFileSystem({ files: { "/AGENTS.md": "memo", "/src/a.ts": "a" } });
    const model = writerModel("out.md", "# out\n");
    const agent = createWorkspaceAgent({
      model,
      fs,
      cache: memoryRunCache(),
      inputGlobs: ["src/**"],
      expectedOutputFiles: () => ["out.md"],
    });
    const first = await agent.generate({ prompt: "write out.md" });
    const second = await agent.generate({ prompt: "write out.md" });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect({ cached: first.cached, modelCalls: first.modelCalls, rounds: first.rounds }).toEqual({
      cached: false,
      modelCalls: 2,
      rounds: 1,
    });
    expect({
      cached: second.cached,
      modelCalls: second.modelCalls,
      text: second.text,
      rounds: second.rounds,
      attempts: second.attempts,
      sameKey: second.key === first.key,
    }).toEqual({ cached: true, modelCalls: 0, text: "wrote it", rounds: 1, attempts: 0, sameKey: true });
    expect(first.key).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a changed input file, a changed memory file, another prompt or input miss; a file outside inputGlobs does not", async () => {
    const fs = memoryFileSystem({ files: { "/src/a.ts": "a", "/docs/x.md": "x" } });
    const model = textModel();
    const agent = createWorkspaceAgent({ model, fs, cache: memoryRunCache(), inputGlobs: ["src/**"] });
    const calls: number[] = [];
    const step = async (prompt: string, input?: { n: number }) => {
      await agent.generate({ prompt, ...(input === undefined ? {} : { input }) });
      calls.push(model.doGenerateCalls.length);
    };
    await step("p"); // miss
    await step("p"); // hit
    await write(fs, "/docs/x.md", "changed");
    await step("p"); // hit: not an input
    await write(fs, "/src/a.ts", "changed");
    await step("p"); // miss
    await write(fs, "/AGENTS.md", "new memory");
    await step("p"); // miss
    await step("q"); // miss
    await step("q", { n: 1 }); // miss
    await step("q", { n: 1 }); // hit
    expect(calls).toEqual([1, 1, 1, 2, 3, 4, 5, 5]);
  });

  it("a deleted expected output makes the next run call the model again", async () => {
    const fs = memoryFileSystem();
    const model = writerModel("out.md", "# out\n");
    const agent = createWorkspaceAgent({
      model,
      fs,
      cache: memoryRunCache(),
      expectedOutputFiles: () => ["out.md"],
    });
    await agent.generate({ prompt: "go" });
    await fs.rm("/out.md");
    const again = await agent.generate({ prompt: "go" });
    expect({ calls: model.doGenerateCalls.length, cached: again.cached, content: await text(fs, "/out.md") }).toEqual({
      calls: 4,
      cached: false,
      content: "# out\n",
    });
  });

  it("stores under the key computed after the run: a run that edits its input is found by the next run", async () => {
    const fs = memoryFileSystem({ files: { "/notes/a.md": "draft" } });
    // Overwrites its own input (read first: the bundle's read-before-write check is on).
    const model = policyModel((_options, n) =>
      n === 0
        ? { calls: [{ tool: "read", input: { path: "notes/a.md", offset: null, limit: null } }] }
        : n === 1
          ? { calls: [{ tool: "write", input: { path: "notes/a.md", content: "final" } }] }
          : { text: "edited" },
    );
    const agent = createWorkspaceAgent({ model, fs, cache: memoryRunCache(), inputGlobs: ["notes/*.md"] });
    const first = await agent.generate({ prompt: "finish the note" });
    const second = await agent.generate({ prompt: "finish the note" });
    expect({
      content: await text(fs, "/notes/a.md"),
      calls: model.doGenerateCalls.length,
      cached: second.cached,
      sameKey: second.key === first.key,
    }).toEqual({ content: "final", calls: 3, cached: true, sameKey: true });
  });

  it("fileRunCache keeps runs on a backend, across agents", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a" } });
    const store = memoryFileSystem();
    const model = textModel("answer");
    const make = () =>
      createWorkspaceAgent({ model, fs, cwd: "/w", readOnly: true, cache: fileRunCache(store, "/runs") });
    const first = await make().generate({ prompt: "p" });
    const second = await make().generate({ prompt: "p" });
    const names = (await store.readdir("/runs")).map((entry) => entry.name);
    expect({ calls: model.doGenerateCalls.length, cached: second.cached, names }).toEqual({
      calls: 1,
      cached: true,
      names: [`${first.key}.json`],
    });
    expect(JSON.parse(await text(store, `/runs/${first.key}.json`))).toMatchObject({
      text: "answer",
      output: "answer",
      modelCalls: 1,
      rounds: 0,
    });
  });

  it("without a cache every run calls the model and key is undefined", async () => {
    const model = textModel();
    const agent = createWorkspaceAgent({ model, fs: memoryFileSystem() });
    const first = await agent.generate({ prompt: "p" });
    await agent.generate({ prompt: "p" });
    expect({ calls: model.doGenerateCalls.length, key: first.key, cached: first.cached }).toEqual({
      calls: 2,
      key: undefined,
      cached: false,
    });
  });
});

describe("validation", () => {
  it("a validation failure reaches the model as a user turn, and the second attempt passes", async () => {
    const fs = memoryFileSystem();
    const model = policyModel((_options, n) => ({ text: n === 0 ? "short" : "a long enough answer" }));
    const seen: unknown[] = [];
    const agent = createWorkspaceAgent({
      model,
      fs,
      validate: ({ text, output, input }) => {
        seen.push({ text, output, input });
        return text.length < 10 ? "The answer is too short; write at least 10 characters." : undefined;
      },
    });
    const result = await agent.generate({ prompt: "answer", input: { topic: "t" } });
    const feedback =
      "Your result did not pass the checks:\n- The answer is too short; write at least 10 characters.\nFix this, then give your final answer again.";
    expect(userTextsOf(model.doGenerateCalls[1])).toEqual(["answer", feedback]);
    expect(seen).toEqual([
      { text: "short", output: "short", input: { topic: "t" } },
      { text: "a long enough answer", output: "a long enough answer", input: { topic: "t" } },
    ]);
    expect({
      text: result.text,
      ok: result.ok,
      attempts: result.attempts,
      feedback: result.feedback,
      modelCalls: result.modelCalls,
    }).toEqual({ text: "a long enough answer", ok: true, attempts: 2, feedback: [feedback], modelCalls: 2 });
  });

  it("a missing expected file is feedback too; after maxValidationRetries the result says what failed and is not cached", async () => {
    const fs = memoryFileSystem();
    const model = textModel("no file");
    const cache = memoryRunCache();
    const agent = createWorkspaceAgent({
      model,
      fs,
      cache,
      maxValidationRetries: 1,
      expectedOutputFiles: (input) => [(input as { file: string }).file],
    });
    const result = await agent.generate({ prompt: "p", input: { file: "report.md" } });
    expect({
      ok: result.ok,
      attempts: result.attempts,
      failures: result.failures,
      calls: model.doGenerateCalls.length,
    }).toEqual({
      ok: false,
      attempts: 2,
      failures: [
        {
          kind: "missing-output",
          path: "report.md",
          message: "The expected output file report.md does not exist: write it with the write tool.",
        },
      ],
      calls: 2,
    });
    expect(userTextsOf(model.doGenerateCalls[1])[1]).toBe(
      "Your result did not pass the checks:\n- The expected output file report.md does not exist: write it with the write tool.\nFix this, then give your final answer again.",
    );
    expect(await cache.get(result.key as string)).toBeUndefined();
  });
});

describe("stream", () => {
  it("streams the text, and a replay streams the stored text with no model call", async () => {
    const model = textModel("hello streamed world");
    const agent = createWorkspaceAgent({ model, fs: memoryFileSystem(), cache: memoryRunCache() });
    const collect = async (stream: AsyncIterable<string>) => {
      const chunks: string[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      return chunks;
    };
    const first = await agent.stream({ prompt: "p" });
    const firstChunks = await collect(first.textStream);
    const second = await agent.stream({ prompt: "p" });
    expect({
      firstChunks,
      first: (await first.result).cached,
      secondChunks: await collect(second.textStream),
      second: (await second.result).cached,
      streamCalls: model.doStreamCalls.length,
    }).toEqual({
      firstChunks: ["hello ", "streamed ", "world"],
      first: false,
      secondChunks: ["hello streamed world"],
      second: true,
      streamCalls: 1,
    });
  });
});

describe("conversations and the full stream", () => {
  it("continues a conversation given as messages; responseMessages carry the feedback turn and both answers", async () => {
    const model = policyModel((_options, n) => ({ text: n === 0 ? "short" : "a long enough answer" }));
    const turns: string[] = [];
    const agent = createWorkspaceAgent({
      model,
      fs: memoryFileSystem(),
      validate: ({ text }) => (text.length < 10 ? "Too short." : undefined),
    });
    const result = await agent.generate({
      messages: [
        { role: "user", content: "first question" },
        { role: "assistant", content: "first answer" },
        { role: "user", content: "second question" },
      ],
      onFeedback: (turn, failures) => turns.push(`${failures.length}:${turn}`),
    });
    const feedback = "Your result did not pass the checks:\n- Too short.\nFix this, then give your final answer again.";
    expect(userTextsOf(model.doGenerateCalls[0])).toEqual(["first question", "second question"]);
    expect(userTextsOf(model.doGenerateCalls[1])).toEqual(["first question", "second question", feedback]);
    expect(turns).toEqual([`1:${feedback}`]);
    expect(
      result.responseMessages.map((message) => ({
        role: message.role,
        text:
          typeof message.content === "string"
            ? message.content
            : message.content.map((part) => (part.type === "text" ? part.text : part.type)).join(""),
      })),
    ).toEqual([
      { role: "assistant", text: "short" },
      { role: "user", text: feedback },
      { role: "assistant", text: "a long enough answer" },
    ]);
  });

  it("messages are part of the cache key; a replay gives one assistant message", async () => {
    const model = textModel("answer");
    const agent = createWorkspaceAgent({ model, fs: memoryFileSystem(), cache: memoryRunCache() });
    const conversation = [{ role: "user" as const, content: "q" }];
    const first = await agent.generate({ messages: conversation });
    const again = await agent.generate({ messages: conversation });
    const longer = await agent.generate({
      messages: [...conversation, { role: "assistant", content: "answer" }, { role: "user", content: "q" }],
    });
    const asPrompt = await agent.generate({ prompt: "q" });
    expect({
      cached: [first.cached, again.cached, longer.cached, asPrompt.cached],
      sameKey: again.key === first.key,
      distinct: new Set([first.key, longer.key, asPrompt.key]).size,
      replayMessages: again.responseMessages,
      calls: model.doGenerateCalls.length,
    }).toEqual({
      cached: [false, true, false, false],
      sameKey: true,
      distinct: 3,
      replayMessages: [{ role: "assistant", content: "answer" }],
      calls: 3,
    });
  });

  it("refuses a call with both or neither of prompt and messages", async () => {
    const agent = createWorkspaceAgent({ model: textModel(), fs: memoryFileSystem() });
    const message = "createWorkspaceAgent generate/stream need { prompt: string } or { messages: ModelMessage[] }";
    await expect(agent.generate({} as never)).rejects.toThrow(new TypeError(message));
    await expect(agent.generate({ prompt: "a", messages: [{ role: "user", content: "b" }] } as never)).rejects.toThrow(
      new TypeError(message),
    );
  });

  it("stream sends every part to onPart: tool calls, results and text; a replay sends one text block", async () => {
    const fs = memoryFileSystem({ files: { "/notes.txt": "one\n" } });
    const model = policyModel((_options, n) =>
      n === 0
        ? { calls: [{ tool: "read", input: { path: "notes.txt", offset: null, limit: null } }] }
        : { text: "read it" },
    );
    const agent = createWorkspaceAgent({ model, fs, cache: memoryRunCache() });
    const summary = (parts: ReadonlyArray<{ type: string; text?: string; toolName?: string }>) =>
      parts
        .filter((part) => ["tool-call", "tool-result", "text-delta", "error"].includes(part.type))
        .map((part) =>
          part.type === "text-delta"
            ? `text:${part.text}`
            : part.type === "tool-result"
              ? `tool-result:${part.toolName}`
              : `${part.type}:${part.toolName ?? ""}`,
        );
    const firstParts: Array<{ type: string; text?: string; toolName?: string }> = [];
    const first = await agent.stream({ prompt: "p", onPart: (part) => firstParts.push(part) });
    const firstResult = await first.result;
    const replayParts: Array<{ type: string; text?: string; toolName?: string }> = [];
    const replay = await agent.stream({ prompt: "p", onPart: (part) => replayParts.push(part) });
    await replay.result;
    expect({
      first: summary(firstParts),
      rounds: firstResult.rounds,
      responseRoles: firstResult.responseMessages.map((message) => message.role),
      replay: replayParts,
    }).toEqual({
      first: ["tool-call:read", "tool-result:read", "text:read ", "text:it"],
      rounds: 1,
      responseRoles: ["assistant", "tool", "assistant"],
      replay: [
        { type: "text-start", id: "replay" },
        { type: "text-delta", id: "replay", text: "read it" },
        { type: "text-end", id: "replay" },
      ],
    });
  });

  it("a model call that fails rejects the stream's result with the provider's error", async () => {
    const model = policyModel(() => ({ text: "unused" }));
    model.doStream = async () => {
      throw new Error("Incorrect API key provided");
    };
    const agent = createWorkspaceAgent({ model, fs: memoryFileSystem() });
    const parts: string[] = [];
    const streamed = await agent.stream({ prompt: "p", onPart: (part) => parts.push(part.type) });
    await expect(streamed.result).rejects.toThrow(new Error("Incorrect API key provided"));
    expect(parts.includes("error")).toBe(true);
  });
});

describe("structured output", () => {
  const schema = z.object({ title: z.string(), count: z.number() });

  it("parses the final answer into result.output, gives it to validate, and caches it with the run", async () => {
    const fs = memoryFileSystem({ files: { "/notes.md": "a\nb\n" } });
    const model = policyModel(() => ({ text: '{"title":"Notes","count":2}' }));
    const seen: unknown[] = [];
    const agent = createWorkspaceAgent({
      model,
      fs,
      output: Output.object({ schema }),
      validate: ({ output }) => {
        seen.push(output);
        return output.count === 2 ? undefined : "count is wrong";
      },
      cache: memoryRunCache(),
    });
    const first = await agent.generate({ prompt: "Summarise." });
    const title: string = first.output.title; // typed from the schema
    expect([title, first.output, first.ok, first.cached]).toEqual(["Notes", { title: "Notes", count: 2 }, true, false]);
    expect(seen).toEqual([{ title: "Notes", count: 2 }]);
    const again = await agent.generate({ prompt: "Summarise." });
    expect([again.output, again.cached, again.modelCalls]).toEqual([{ title: "Notes", count: 2 }, true, 0]);
    // Another schema is another run: the key holds the response format.
    const other = createWorkspaceAgent({
      model,
      fs,
      output: Output.object({ schema: z.object({ title: z.string() }) }),
      cache: memoryRunCache(),
    });
    expect((await other.generate({ prompt: "Summarise." })).key).not.toBe(first.key);
  });

  it("an answer that does not parse is a failed check sent back; the next answer is the output", async () => {
    const fs = memoryFileSystem();
    const model = policyModel((_, n) => ({ text: n === 0 ? "Here you go: notes" : '{"title":"Notes","count":1}' }));
    const feedback: string[] = [];
    const result = await createWorkspaceAgent({ model, fs, output: Output.object({ schema }) }).generate({
      prompt: "Summarise.",
      onFeedback: (turn) => feedback.push(turn),
    });
    expect([result.ok, result.attempts, result.output]).toEqual([true, 2, { title: "Notes", count: 1 }]);
    expect(feedback).toHaveLength(1);
    expect(feedback[0]).toMatch(
      /^.*Your final answer is not the structured output asked for \(.+\)\. Answer again with only JSON that matches the schema\./s,
    );
  });

  it("streams the same way", async () => {
    const fs = memoryFileSystem();
    const model = policyModel(() => ({ text: '{"title":"S","count":3}' }));
    const streamed = await createWorkspaceAgent({ model, fs, output: Output.object({ schema }) }).stream({
      prompt: "go",
    });
    expect((await streamed.result).output).toEqual({ title: "S", count: 3 });
  });
});

describe("extraTools: a record of tools, sent after the file tools", () => {
  const named = tool({ description: "n", inputSchema: z.object({}), execute: async () => "n" });

  it("integer-like names are sent after the file tools too", async () => {
    const model = policyModel(() => ({ text: "done" }));
    const fs = memoryFileSystem();
    await createWorkspaceAgent({ model, fs, extraTools: { zeta: named, 0: named } }).generate({ prompt: "p" });
    expect(toolNamesOf(model.doGenerateCalls[0])).toEqual([
      "read",
      "list",
      "glob",
      "grep",
      "write",
      "edit",
      "apply_patch",
      "0",
      "zeta",
    ]);
  });

  it("an array, or a tool without inputSchema or execute, throws OptionError at creation", () => {
    const model = policyModel(() => ({ text: "done" }));
    const fs = memoryFileSystem();
    const thrown = (extraTools: unknown) => {
      try {
        createWorkspaceAgent({ model, fs, extraTools: extraTools as never });
      } catch (error) {
        return (error as Error).message;
      }
      return "no error";
    };
    expect([thrown([named]), thrown({ foo: { description: "x" } }), thrown({ foo: 1 })]).toEqual([
      "createWorkspaceAgent extraTools must be a record of AI SDK tools ({ name: tool({ ... }) }), not an array",
      "createWorkspaceAgent extraTools.foo must be an AI SDK tool with an inputSchema and an execute function: tool({ description, inputSchema, execute })",
      "createWorkspaceAgent extraTools.foo must be an AI SDK tool with an inputSchema and an execute function: tool({ description, inputSchema, execute })",
    ]);
  });
});

describe("extraTools results are offloaded like the file tools'", () => {
  const big = Array.from({ length: 2000 }, (_, i) => `row ${i}`).join("\n"); // 15,889 bytes
  const search = tool({
    description: "Search the web",
    inputSchema: z.object({ q: z.string() }),
    execute: async () => big,
  });
  const small = tool({
    description: "Small JSON",
    inputSchema: z.object({}),
    execute: async () => ({ answer: 42 }),
  });

  it("a result over the threshold is saved to tool-outputs/ and the model gets a preview; small ones pass", async () => {
    const fs = memoryFileSystem();
    const model = policyModel((_, n) =>
      n === 0
        ? {
            calls: [
              { tool: "search", input: { q: "x" } },
              { tool: "small", input: {} },
            ],
          }
        : { text: "done" },
    );
    const agent = createWorkspaceAgent({
      model,
      fs,
      cwd: "/w",
      extraTools: { search, small },
      extraToolsOffload: { thresholdBytes: 1024, previewBytes: 64 },
    });
    const result = await agent.generate({ prompt: "search" });
    const sent = model.doGenerateCalls[1]!.prompt.flatMap((message) =>
      message.role === "tool" ? message.content : [],
    );
    const outputs = sent.map((part) => (part.type === "tool-result" ? part.output : undefined));
    expect(outputs[1]).toEqual({ type: "json", value: { answer: 42 } });
    const preview = outputs[0] as { type: string; value: string };
    expect(preview.type).toBe("text");
    expect(preview.value.startsWith("row 0\nrow 1\n")).toBe(true);
    expect(preview.value).toContain("tool-outputs/call-0-0.txt");
    expect(new TextDecoder().decode(await fs.readFile("/w/tool-outputs/call-0-0.txt"))).toBe(big);
    // The host still sees the whole result in the steps.
    expect(result.steps[0]!.toolResults.map((part) => part.output)).toEqual([big, { answer: 42 }]);
  });

  it("readOnly: true writes nothing: a large result stays a preview with a note; the gate refuses writes", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "x\n" } });
    const model = policyModel((_, n) =>
      n === 0 ? { calls: [{ tool: "search", input: { q: "x" } }] } : { text: "done" },
    );
    const agent = createWorkspaceAgent({
      model,
      fs,
      cwd: "/w",
      readOnly: true,
      extraTools: { search },
      extraToolsOffload: { thresholdBytes: 1024, previewBytes: 16 },
    });
    await agent.generate({ prompt: "search" });
    const sent = model.doGenerateCalls[1]!.prompt.flatMap((message) =>
      message.role === "tool" ? message.content : [],
    );
    const check = await agent.gate.check("/w/a.txt", "write");
    expect({
      sent: sent.map((part) => (part.type === "tool-result" ? part.output : undefined)),
      names: (await fs.readdir("/w")).map((entry) => entry.name),
      check: check.ok ? "admitted" : check.error.code,
      backendWrite: await agent.gate.backend.writeFile("/w/a.txt", new Uint8Array([1])).catch(String),
      content: new TextDecoder().decode(await fs.readFile("/w/a.txt")),
    }).toEqual({
      sent: [
        {
          type: "text",
          value:
            'row 0\nrow 1\n[Output is 16.5 KiB (16,889 bytes), 2,000 lines; showed the first 2 lines. The rest could not be saved to tool-outputs/call-0-0.txt (Permission denied: /w/tool-outputs/call-0-0.txt matches a deny rule for "writeFile" in the permissions config.); narrow the request to see more.]',
        },
      ],
      names: ["a.txt"],
      check: "EDENIED",
      backendWrite: "FsError: EROFS: read-only file system, open '/w/a.txt'",
      content: "x\n",
    });
  });

  it("extraToolsOffload: false sends every result whole; bad values throw", async () => {
    const fs = memoryFileSystem();
    const model = policyModel((_, n) =>
      n === 0 ? { calls: [{ tool: "search", input: { q: "x" } }] } : { text: "done" },
    );
    await createWorkspaceAgent({ model, fs, extraTools: { search }, extraToolsOffload: false }).generate({
      prompt: "s",
    });
    const sent = model.doGenerateCalls[1]!.prompt.flatMap((message) =>
      message.role === "tool" ? message.content : [],
    );
    expect(sent.map((part) => (part.type === "tool-result" ? part.output : undefined))).toEqual([
      { type: "text", value: big },
    ]);
    expect(() => createWorkspaceAgent({ model, fs, extraToolsOffload: { thresholdBytes: 0 } })).toThrow(
      "createWorkspaceAgent extraToolsOffload.thresholdBytes must be a positive integer (bytes), got 0",
    );
  });
});

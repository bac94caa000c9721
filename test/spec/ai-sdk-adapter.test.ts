/**
 * The AI SDK adapter specification (../shared/spec/ai-sdk-adapter.txt), run as written: every
 * code example of it, with our package names (`@better-fs-tools/ai-sdk` → `better-fs-tools/ai-sdk`,
 * `/node` → `better-fs-tools/node`, `/read`, `/write`, their `/signature` subpaths → the root,
 * `/fs` → `better-fs-tools/memory`, `/shell` → `better-fs-tools/shell`), checked against the
 * output the specification shows. Each test's name says which section it covers.
 *
 * The examples are the modules in `test/spec/ai-sdk-adapter/` (one per example, the code as the
 * specification has it; a `const` the test needs is exported). They read `process.cwd()` when
 * imported, so the test points it at a fresh directory first. A real model is replaced by a
 * scripted `MockLanguageModelV4` (`ai/test`). The type-level examples (the result's non-null
 * properties, the context type of a factory) compile in the tsc test at the end
 * (`test/spec/ai-sdk-adapter.test-d.ts`).
 */
import { execFile } from "node:child_process";
import { mkdtemp, mkdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { asSchema, generateText, isStepCount, jsonSchema } from "ai";
import { InMemoryFs } from "just-bash";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { z } from "zod";
import {
  createAiSdkApplyPatchTool,
  createAiSdkBashTool,
  createAiSdkFsTools,
  createAiSdkReadTool,
  toAiSdkOutput,
  toAiSdkTool,
  toStrictSchema,
  type AiSdkToolCall,
} from "better-fs-tools/ai-sdk";
import {
  createListTool,
  createReadTool,
  type ToolResult,
  defaultPatchSignature,
  imageConverter,
  memoryStore,
  ToolInputError,
  type ContentConverter,
  type JsonSchema,
  type ReadInput,
  type ReadResult,
  type ToolSignature,
} from "better-fs-tools";
import { memoryFileSystem } from "better-fs-tools/memory";
import { nodeCommandRunner, nodeDigest, nodeFileSystem } from "better-fs-tools/node";
import { justBashCommandRunner, justBashFileSystem, shellEnv } from "better-fs-tools/shell";
import { scriptedModel, toolOutputsSentAt } from "../ai-sdk/mock-model.js";

/** The directory the examples see as `process.cwd()`. */
let cwd: string;

beforeAll(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), "bft-spec-ai-sdk-")));
  vi.spyOn(process, "cwd").mockReturnValue(cwd);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await rm(cwd, { recursive: true, force: true });
});

/**
 * Run an AI SDK tool's `execute` as the AI SDK does (call options with the toolsContext entry)
 * and give its whole result.
 */
async function exec(
  tool: { execute?: unknown } | undefined,
  input: object,
  context: unknown = {},
): Promise<ToolResult> {
  const execute = tool?.execute as (input: object, options: object) => Promise<ToolResult>;
  return execute(input, { toolCallId: "call-1", messages: [], context });
}

/** A one-pixel PNG. */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (char) => char.charCodeAt(0),
);

/** What `fn` throws, as `Name: message`. */
function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return `${error instanceof TypeError ? "TypeError" : "not a TypeError"}: ${(error as Error).message}`;
  }
  return "nothing thrown";
}

/** The JSON Schema a tool sends to the model. */
async function schemaOf(tool: { inputSchema: unknown }): Promise<Record<string, unknown>> {
  return (await asSchema(tool.inputSchema as Parameters<typeof asSchema>[0]).jsonSchema) as Record<string, unknown>;
}

/** A JSON Schema without its descriptions and with the `path` pattern left out (as the spec shows it). */
function withoutDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== "description")
      .map(([key, value]) => [key, withoutDescriptions(value)]),
  );
}

describe("ai-sdk-adapter.txt: Recommended configuration", () => {
  test("the Node bundle (nodeFileSystem, nodeDigest, nodeCommandRunner, shellEnv) holds read, edit, write and bash, working in the process cwd", async () => {
    await writeFile(join(cwd, "rec.txt"), "one\ntwo\n");
    const { tools } = await import("./ai-sdk-adapter/recommended.js");
    expect(Object.keys(tools)).toEqual(["read", "edit", "write", "bash"]);
    expect(Object.values(tools).map((tool) => tool.name)).toEqual(["read", "edit", "write", "bash"]);
    // Relative paths resolve against the backend's cwd, and the roots are the backend's.
    expect(await exec(tools.read, { path: "rec.txt" })).toMatchObject({
      ok: true,
      path: join(cwd, "rec.txt"),
      parts: [{ type: "text", text: "1|one\n2|two" }],
    });
    const edited = await exec(tools.edit, { path: "rec.txt", oldText: "two", newText: "2" });
    expect(edited).toMatchObject({ ok: true, changes: [{ action: "updated", path: join(cwd, "rec.txt") }] });
    expect(await readFile(join(cwd, "rec.txt"), "utf8")).toBe("one\n2\n");
    // Kept on purpose (README, Differences): the real bash of nodeCommandRunner is not confined by
    // the gate, so as written (no runBash rule, no approval) its commands are refused, and the
    // model is told which rule to add.
    expect(await exec(tools.bash, { command: "pwd" })).toMatchObject({
      ok: false,
      error: {
        code: "EDENIED",
        message:
          'Permission denied: the command "pwd" would run with the node runner, which is not confined to the workspace, and interactive permission prompts are not available in this execution context. Add an allow rule for "runBash" to the permissions config. A model cannot change the permissions: use the file tools or a command the rules allow, or ask the user to allow this one.',
      },
    });
  });

  test("the same configuration with runBash allow rules runs its commands in the runner's cwd (the README's recommended form)", async () => {
    const admitted = createAiSdkFsTools({
      fs: nodeFileSystem({ cwd, allowedRoots: [cwd] }),
      digest: nodeDigest(),
      bash: { runner: nodeCommandRunner({ cwd }), env: shellEnv(() => process.env) },
      permissions: {
        allow: [
          { tool: "runBash", command: "pwd" },
          { tool: "runBash", command: "cat" },
        ],
      },
    });
    expect(await exec(admitted.tools.bash, { command: "pwd && cat rec.txt" })).toMatchObject({
      ok: true,
      exitCode: 0,
      stdout: `${cwd}\none\n2\n`,
    });
    expect(await exec(admitted.tools.bash, { command: "rm rec.txt" })).toMatchObject({
      ok: false,
      error: { code: "EDENIED" },
    });
    expect(await readFile(join(cwd, "rec.txt"), "utf8")).toBe("one\n2\n");
  });

  test("the bundle goes into generateText as it is: change(model, prompt) gives the model's text and the file changes on disk", async () => {
    await writeFile(join(cwd, "typo.txt"), "fix teh typo\n");
    const { change } = await import("./ai-sdk-adapter/recommended-generate.js");
    const model = scriptedModel([
      { calls: [{ tool: "read", input: { path: "typo.txt", offset: null, limit: null } }] },
      { calls: [{ tool: "edit", input: { path: "typo.txt", oldText: "teh", newText: "the", replaceAll: null } }] },
      { text: "Fixed." },
    ]);
    expect(await change(model, "Fix the typo in typo.txt")).toBe("Fixed.");
    expect(toolOutputsSentAt(model, 2)).toEqual([
      { toolName: "read", output: { type: "content", value: [{ type: "text", text: "1|fix teh typo" }] } },
      {
        toolName: "edit",
        output: { type: "content", value: [{ type: "text", text: "replaced 1 occurrence in typo.txt at line 1" }] },
      },
    ]);
    expect(await readFile(join(cwd, "typo.txt"), "utf8")).toBe("fix the typo\n");
  });
});

describe("ai-sdk-adapter.txt: Bundle options", () => {
  test("the example (state, read.converters: [], applyPatch, bash) gives read, edit, write, apply_patch and bash; reads are checked, images are off", async () => {
    await writeFile(join(cwd, "opts.txt"), "alpha\n");
    await writeFile(join(cwd, "dot.png"), PNG);
    const { bundle } = await import("./ai-sdk-adapter/bundle-options.js");
    expect(Object.keys(bundle.tools)).toEqual(["read", "edit", "write", "apply_patch", "bash"]);
    // state: memoryStore() turns read before write on.
    expect(await exec(bundle.tools.edit, { path: "opts.txt", oldText: "alpha", newText: "beta" })).toMatchObject({
      ok: false,
      error: { code: "ENOTREAD" },
    });
    await exec(bundle.tools.read, { path: "opts.txt" });
    expect(await exec(bundle.tools.edit, { path: "opts.txt", oldText: "alpha", newText: "beta" })).toMatchObject({
      ok: true,
    });
    // converters: [] turns images off: a PNG is not sent as an image.
    const image = await exec(bundle.tools.read, { path: "dot.png" });
    expect(image.ok).toBe(false);
    expect(image.parts.some((part) => part.type === "media")).toBe(false);
  });

  test("TypeErrors: an unknown key, a shared key inside one tool's options (the spec's wording), two tools with one name, bash: true", () => {
    const fs = memoryFileSystem();
    expect(thrown(() => createAiSdkFsTools({ fs, reed: {} } as never))).toMatch(
      /^TypeError: createAiSdkFsTools got an unknown option "reed"\. Known options: /,
    );
    expect(thrown(() => createAiSdkFsTools({ fs, read: { digest: async () => "" } } as never))).toBe(
      "TypeError: createAiSdkFsTools read options cannot set digest: set it once at the top level",
    );
    const named = (name: string): ToolSignature<ReadInput, ReadInput, ReadResult> => ({
      name,
      inputSchema: createReadTool({ fs }).inputSchema,
      toInput: (input) => input,
    });
    expect(thrown(() => createAiSdkFsTools({ fs, read: { signature: named("edit") } }))).toBe(
      'TypeError: createAiSdkFsTools edit.signature gives the tool name "edit", which the read tool has too: give one signature another name',
    );
    expect(thrown(() => createAiSdkFsTools({ fs, bash: true } as never))).toBe(
      'TypeError: createAiSdkFsTools bash must be an object with a runner and an env: the portable bundle has no default runner (got true). Give runner: justBashCommandRunner({ fs, cwd }) from "better-fs-tools/shell" (a shell over the same files, confined to cwd, in the browser or Node) or nodeCommandRunner({ cwd }) from "better-fs-tools/node" (real processes, Node only), and env: the variables the commands see ({} for none)',
    );
  });
});

describe("ai-sdk-adapter.txt: Single tools", () => {
  test("a read tool renamed read_file with a line range (file_path, start_line, end_line), keyed { [read.name]: read }", async () => {
    await writeFile(join(cwd, "lines.txt"), "one\ntwo\nthree\n");
    const { read, ask } = await import("./ai-sdk-adapter/single-read.js");
    expect(read.name).toBe("read_file");
    expect(Object.keys((await schemaOf(read))["properties"] as object)).toEqual([
      "file_path",
      "start_line",
      "end_line",
    ]);
    const model = scriptedModel([
      { calls: [{ tool: "read_file", input: { file_path: "lines.txt", start_line: 2, end_line: 3 } }] },
      { text: "two, three" },
    ]);
    expect(await ask(model, "What are lines 2 and 3?")).toBe("two, three");
    expect(toolOutputsSentAt(model, 1)).toEqual([
      {
        toolName: "read_file",
        output: { type: "content", value: [{ type: "text", text: "[lines.txt lines 2-3 of 3]\ntwo\nthree" }] },
      },
    ]);
  });

  test("three single tools given one store and one lock manager check reads: edit and overwrite need a read first", async () => {
    await writeFile(join(cwd, "shared.txt"), "x = 1\n");
    const { tools } = await import("./ai-sdk-adapter/single-shared.js");
    expect(Object.keys(tools)).toEqual(["read", "edit", "write"]);
    const edit = tools["edit"]!;
    const write = tools["write"]!;
    expect(await exec(edit, { path: "shared.txt", oldText: "1", newText: "2" })).toMatchObject({
      ok: false,
      error: { code: "ENOTREAD" },
    });
    expect(await exec(write, { path: "shared.txt", content: "x = 3\n" })).toMatchObject({
      ok: false,
      error: { code: "ENOTREAD" },
    });
    await exec(tools["read"]!, { path: "shared.txt" });
    expect(await exec(edit, { path: "shared.txt", oldText: "1", newText: "2" })).toMatchObject({ ok: true });
    expect(await exec(write, { path: "shared.txt", content: "x = 3\n" })).toMatchObject({ ok: true });
    expect(await readFile(join(cwd, "shared.txt"), "utf8")).toBe("x = 3\n");
  });

  test("a single factory takes its core factory's options with the same defaults: same name and description as the core tool", async () => {
    const fs = memoryFileSystem();
    const core = createReadTool({ fs });
    const read = createAiSdkReadTool({ fs });
    expect(read.description).toBe(core.description);
    expect(read.name).toBe(core.name);
  });
});

describe("ai-sdk-adapter.txt: Images", () => {
  const fs = memoryFileSystem({ files: { "/w/dot.png": PNG } });

  test("read.converters defaults to [imageConverter()]: an image read is a media result, sent to the model as a file part", async () => {
    const read = createAiSdkReadTool({ fs, cwd: "/w" });
    const result = await exec(read, { path: "dot.png" });
    const media = result.parts.find((part) => part.type === "media");
    expect(media).toEqual({ type: "media", mediaType: "image/png", data: btoa(String.fromCharCode(...PNG)) });
    const sent = await read.toModelOutput!({
      toolCallId: "call-1",
      input: { path: "dot.png" },
      output: result as ReadResult,
    });
    const output = (sent as { value: unknown[] }).value;
    expect(output).toContainEqual({
      type: "file",
      mediaType: "image/png",
      data: { type: "data", data: btoa(String.fromCharCode(...PNG)) },
    });
  });

  test("a list you pass replaces the default: [] turns images off, a list without imageConverter() refuses images", async () => {
    const passThrough: ContentConverter = { name: "none", convert: () => undefined };
    for (const converters of [[], [passThrough]]) {
      const read = createAiSdkReadTool({ fs, cwd: "/w", converters });
      const result = await exec(read, { path: "dot.png" });
      expect(result.ok).toBe(false);
      expect(result.error?.code).toBe("EBINARY");
    }
    const withImages = createAiSdkReadTool({ fs, cwd: "/w", converters: [passThrough, imageConverter()] });
    expect((await exec(withImages, { path: "dot.png" })).ok).toBe(true);
  });
});

describe("ai-sdk-adapter.txt: Bash tool", () => {
  test("createAiSdkBashTool({ runner: nodeCommandRunner(), env: shellEnv(() => process.env) }), no fs: named bash; run(model, prompt) gives the text, the refusal reaching the model as a tool error", async () => {
    const { bash, run } = await import("./ai-sdk-adapter/bash-tool.js");
    expect(bash.name).toBe("bash");
    const model = scriptedModel([
      { calls: [{ tool: "bash", input: { command: "cat bash.txt", timeout: null, cwd: null } }] },
      { text: "I may not run commands here." },
    ]);
    expect(await run(model, "What does bash.txt say?")).toBe("I may not run commands here.");
    // Unconfined runner, no runBash rule: refused (README, Differences).
    expect(toolOutputsSentAt(model, 1)).toEqual([
      {
        toolName: "bash",
        output: {
          type: "error-text",
          value:
            'Permission denied: the command "cat bash.txt" would run with the node runner, which is not confined to the workspace, and interactive permission prompts are not available in this execution context. Add an allow rule for "runBash" to the permissions config. A model cannot change the permissions: use the file tools or a command the rules allow, or ask the user to allow this one.',
        },
      },
    ]);
  });

  test("a bash tool with no fs, given a runBash rule, runs in the runner's cwd (nodeCommandRunner() defaults to the process cwd)", async () => {
    await writeFile(join(cwd, "bash.txt"), "from bash\n");
    const bash = createAiSdkBashTool({
      runner: nodeCommandRunner(),
      env: shellEnv(() => process.env),
      permissions: { allow: [{ tool: "runBash", command: "cat" }] },
    });
    const model = scriptedModel([
      { calls: [{ tool: "bash", input: { command: "cat bash.txt", timeout: null, cwd: null } }] },
      { text: "It says: from bash" },
    ]);
    const result = await generateText({
      model,
      prompt: "What does bash.txt say?",
      tools: { [bash.name]: bash },
      stopWhen: isStepCount(5),
    });
    expect(result.text).toBe("It says: from bash");
    expect(toolOutputsSentAt(model, 1)).toEqual([
      { toolName: "bash", output: { type: "content", value: [{ type: "text", text: "from bash\n[exit code 0]" }] } },
    ]);
  });

  test("the default signature is bash with command, timeout (milliseconds) and cwd; the description names the runner", async () => {
    const { bash } = await import("./ai-sdk-adapter/bash-tool.js");
    const schema = await schemaOf(bash);
    expect(schema["required"]).toEqual(["command", "timeout", "cwd"]);
    const properties = schema["properties"] as Record<string, { description: string }>;
    expect(properties["timeout"]?.description).toMatch(/milliseconds/);
    expect(bash.description).toContain("Commands run in a real /bin/bash process on the host machine (Node.js)");
    expect(bash.description).toContain(`Working directory: ${cwd} `);
  });

  test("in the bundle, bash: true throws the TypeError the spec shows", () => {
    expect(thrown(() => createAiSdkFsTools({ fs: memoryFileSystem(), bash: true } as never))).toBe(
      'TypeError: createAiSdkFsTools bash must be an object with a runner and an env: the portable bundle has no default runner (got true). Give runner: justBashCommandRunner({ fs, cwd }) from "better-fs-tools/shell" (a shell over the same files, confined to cwd, in the browser or Node) or nodeCommandRunner({ cwd }) from "better-fs-tools/node" (real processes, Node only), and env: the variables the commands see ({} for none)',
    );
  });
});

describe("ai-sdk-adapter.txt: Host context", () => {
  test("createAiSdkFsTools<Workspace>({ contextSchema, fs: (call) => nodeFileSystem(...) }) picks the filesystem of each call from toolsContext", async () => {
    for (const name of ["one", "two"]) {
      await mkdir(join(cwd, name), { recursive: true });
      await writeFile(join(cwd, name, "which.txt"), `${name}\n`);
    }
    const { tools } = await import("./ai-sdk-adapter/host-context.js");
    for (const name of ["one", "two"]) {
      const root = join(cwd, name);
      const model = scriptedModel([
        { calls: [{ tool: "read", input: { path: "which.txt", offset: null, limit: null } }] },
        { text: "done" },
      ]);
      await generateText({
        model,
        prompt: "Which workspace?",
        tools,
        toolsContext: { read: { root }, edit: { root }, write: { root } },
        stopWhen: isStepCount(2),
      });
      expect(toolOutputsSentAt(model, 1)).toEqual([
        { toolName: "read", output: { type: "content", value: [{ type: "text", text: `1|${name}` }] } },
      ]);
    }
  });

  test("a contextSchema that validates (zod) has the AI SDK refuse a bad toolsContext entry before execute; jsonSchema() without a validate function checks nothing, so the fs function's own error reaches the model", async () => {
    const read = createAiSdkReadTool<{ root: string }>({
      contextSchema: z.object({ root: z.string() }),
      fs: (call) => nodeFileSystem({ cwd: call.host.context.root, allowedRoots: [call.host.context.root] }),
    });
    const bad = { root: 1 } as unknown as { root: string };
    await expect(
      generateText({
        model: scriptedModel([{ calls: [{ tool: "read", input: { path: "which.txt", offset: null, limit: null } }] }]),
        prompt: "Which workspace?",
        tools: { read },
        toolsContext: { read: bad },
        stopWhen: isStepCount(2),
      }),
    ).rejects.toThrow(/Type validation failed/);

    const { tools } = await import("./ai-sdk-adapter/host-context.js");
    const model = scriptedModel([
      { calls: [{ tool: "read", input: { path: "which.txt", offset: null, limit: null } }] },
      { text: "done" },
    ]);
    await generateText({
      model,
      prompt: "Which workspace?",
      tools,
      toolsContext: { read: bad, edit: bad, write: bad },
      stopWhen: isStepCount(2),
    });
    expect(toolOutputsSentAt(model, 1)).toEqual([
      {
        toolName: "read",
        output: {
          type: "error-text",
          value: "The fs option of this call failed: nodeFileSystem cwd must be an absolute POSIX path, got 1",
        },
      },
    ]);
  });

  test("a function of the call works for state, in the bundle and in a single tool (one store per session)", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const stores = new Map<string, ReturnType<typeof memoryStore>>();
    interface Session {
      readonly session: string;
    }
    const state = (call: AiSdkToolCall<Session>) => {
      const session = call.host.context.session;
      if (!stores.has(session)) stores.set(session, memoryStore());
      return stores.get(session)!;
    };
    const contextSchema = jsonSchema<Session>({
      type: "object",
      properties: { session: { type: "string" } },
      required: ["session"],
      additionalProperties: false,
    });
    const { tools } = createAiSdkFsTools<Session>({ fs, cwd: "/w", contextSchema, state });
    const single = createAiSdkReadTool<Session>({ fs, cwd: "/w", contextSchema, state });
    const at = (session: string) => ({ session });
    await exec(single, { path: "a.txt" }, at("s1"));
    expect(await exec(tools.edit, { path: "a.txt", oldText: "a", newText: "b" }, at("s2"))).toMatchObject({
      ok: false,
      error: { code: "ENOTREAD" },
    });
    expect(await exec(tools.edit, { path: "a.txt", oldText: "a", newText: "b" }, at("s1"))).toMatchObject({
      ok: true,
    });
  });
});

describe("ai-sdk-adapter.txt: Alternatives", () => {
  test("Read before write: state: memoryStore() makes edit and write refuse a file the model has not read in this session", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const off = createAiSdkFsTools({ fs, cwd: "/w" });
    expect(await exec(off.tools.write, { path: "a.txt", content: "b\n" })).toMatchObject({ ok: true });
    const on = createAiSdkFsTools({ fs, cwd: "/w", state: memoryStore() });
    expect(await exec(on.tools.write, { path: "a.txt", content: "c\n" })).toMatchObject({
      ok: false,
      error: { code: "ENOTREAD" },
    });
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("b\n");
  });

  test("Cloudflare Agents is not run (no Cloudflare Shell backend: README Differences); the Worker form it names, justBashFileSystem() as fs with allowedRoots, gives read, edit and write", async () => {
    const workspace = new InMemoryFs({ "/workspace/a.txt": "hi\n" });
    function workspaceTools(store: InMemoryFs) {
      const fs = justBashFileSystem(store);
      return createAiSdkFsTools({ fs, allowedRoots: ["/workspace"] }).tools;
    }
    const tools = workspaceTools(workspace);
    expect(Object.keys(tools)).toEqual(["read", "edit", "write"]);
    expect(await exec(tools.read, { path: "a.txt" })).toMatchObject({
      ok: true,
      parts: [{ type: "text", text: "1|hi" }],
    });
    expect(await exec(tools.read, { path: "/etc/passwd" })).toMatchObject({
      ok: false,
      error: { code: "EDENIED" },
    });
  });

  test("A patch signature with a grammar: freeformPatchSignature() sends the same JSON schema as defaultPatchSignature(), and the patch applies", async () => {
    await writeFile(join(cwd, "patch.txt"), "old\n");
    const { applyPatch } = await import("./ai-sdk-adapter/freeform-patch.js");
    const plain = createAiSdkApplyPatchTool({
      fs: nodeFileSystem({ cwd, allowedRoots: [cwd] }),
      signature: defaultPatchSignature(),
    });
    expect(applyPatch.name).toBe(plain.name);
    expect(await schemaOf(applyPatch)).toEqual(await schemaOf(plain));
    expect((await schemaOf(applyPatch))["required"]).toEqual(["patch"]);
    const patch = "*** Begin Patch\n*** Update File: patch.txt\n@@\n-old\n+new\n*** End Patch\n";
    expect(await exec(applyPatch, { patch })).toMatchObject({ ok: true });
    expect(await readFile(join(cwd, "patch.txt"), "utf8")).toBe("new\n");
  });
});

describe("ai-sdk-adapter.txt: Strict schemas", () => {
  test("every tool is strict: true; the default read signature sends the schema the spec shows (descriptions and the path pattern left out)", async () => {
    const fs = memoryFileSystem();
    const { tools } = createAiSdkFsTools({
      fs,
      applyPatch: true,
      bash: { runner: nodeCommandRunner({ cwd }), env: {} },
    });
    expect(Object.values(tools).map((tool) => tool.strict)).toEqual([true, true, true, true, true]);
    const schema = withoutDescriptions(await schemaOf(tools.read)) as Record<string, unknown>;
    const properties = schema["properties"] as Record<string, Record<string, unknown>>;
    delete properties["path"]!["pattern"];
    expect(schema).toStrictEqual({
      type: "object",
      additionalProperties: false,
      properties: {
        path: { type: "string" },
        offset: { type: ["integer", "null"], minimum: 1, maximum: 9007199254740991 },
        limit: { type: ["integer", "null"], minimum: 1, maximum: 9007199254740991 },
      },
      required: ["path", "offset", "limit"],
    });
  });

  test('a call { path: "src/a.ts", offset: null, limit: null } is the same as { path: "src/a.ts" }', async () => {
    const fs = memoryFileSystem({ files: { "/src/a.ts": "export {};\n" } });
    const read = createAiSdkReadTool({ fs });
    const validate = asSchema(read.inputSchema).validate!;
    expect(await validate({ path: "src/a.ts", offset: null, limit: null })).toEqual({
      success: true,
      value: { path: "src/a.ts" },
    });
    expect(await validate({ path: "src/a.ts" })).toEqual({ success: true, value: { path: "src/a.ts" } });
  });

  test("validate runs toInput and the core check; a refusal names the signature's parameters (a TypeError), and generateText gives it to the model as a tool error", async () => {
    const fs = memoryFileSystem({ files: { "/a.txt": "a\n" } });
    const read = createAiSdkReadTool({ fs });
    const refused = await asSchema(read.inputSchema).validate!({ file: "a.txt" });
    expect(refused.success).toBe(false);
    const error = (refused as { error: Error }).error;
    expect(error).toBeInstanceOf(TypeError);
    expect(ToolInputError.isInstance(error)).toBe(true);
    expect(error.message).toBe("Unknown read input key: file. Expected path, offset, limit");
    // A check strict mode dropped still applies: offset is at least 1.
    const low = await asSchema(read.inputSchema).validate!({ path: "a.txt", offset: 0, limit: null });
    expect((low as { error: Error }).error.message).toBe("read input offset must be ≥ 1, got 0");

    const model = scriptedModel([{ calls: [{ tool: "read", input: { file: "a.txt" } }] }, { text: "sorry" }]);
    const result = await generateText({ model, prompt: "read", tools: { read }, stopWhen: isStepCount(2) });
    expect(result.text).toBe("sorry");
    // The AI SDK wraps the refusal in its own InvalidToolInputError text; ours is inside, as it was.
    const [sent] = toolOutputsSentAt(model, 1) as Array<{ toolName: string; output: { type: string; value: string } }>;
    expect(sent?.toolName).toBe("read");
    expect(sent?.output.type).toBe("error-text");
    expect(sent?.output.value).toContain("ToolInputError: Unknown read input key: file. Expected path, offset, limit");
  });

  test("the conversion: required and additionalProperties: false everywhere, optional → nullable, oneOf → anyOf, allOf merged, const → enum, definitions → $defs, local $ref kept, other keywords and formats dropped", () => {
    const schema: JsonSchema = {
      type: "object",
      title: "dropped",
      definitions: { name: { type: "string", minLength: 1 } },
      properties: {
        name: { $ref: "#/definitions/name" },
        kind: { const: "a" },
        mode: { type: "string", enum: ["x", "y"] },
        size: { oneOf: [{ type: "integer" }, { type: "string" }] },
        when: { type: "string", format: "date-time" },
        odd: { type: "string", format: "color" },
        nested: { allOf: [{ type: "object", properties: { deep: { type: "boolean", default: true } } }] },
        list: { type: "array", items: { type: "object", properties: { id: { type: "integer" } } }, maxItems: 3 },
      },
      required: ["name"],
    };
    expect(toStrictSchema(schema, "custom").schema).toStrictEqual({
      type: "object",
      $defs: { name: { type: "string" } },
      properties: {
        name: { $ref: "#/$defs/name" },
        kind: { enum: ["a", null] },
        mode: { type: ["string", "null"], enum: ["x", "y", null] },
        size: { anyOf: [{ type: "integer", maximum: 9007199254740991 }, { type: "string" }, { type: "null" }] },
        when: { type: ["string", "null"], format: "date-time" },
        odd: { type: ["string", "null"] },
        nested: {
          type: ["object", "null"],
          properties: { deep: { type: ["boolean", "null"] } },
          required: ["deep"],
          additionalProperties: false,
        },
        list: {
          type: ["array", "null"],
          items: {
            type: "object",
            properties: { id: { type: ["integer", "null"], maximum: 9007199254740991 } },
            required: ["id"],
            additionalProperties: false,
          },
          maxItems: 3,
        },
      },
      required: ["name", "kind", "mode", "size", "when", "odd", "nested", "list"],
      additionalProperties: false,
    });
  });
});

describe("ai-sdk-adapter.txt: Custom signatures", () => {
  const fs = memoryFileSystem();
  const withSchema = (inputSchema: JsonSchema): ToolSignature<ReadInput, ReadInput, ReadResult> => ({
    name: "read",
    inputSchema,
    toInput: (input) => input,
  });

  test("a schema strict mode cannot express throws at creation, naming the tool and the schema path", () => {
    expect(
      thrown(() =>
        createAiSdkReadTool({
          fs,
          signature: withSchema({
            type: "object",
            properties: { path: { type: "string" } },
            additionalProperties: true,
          }),
        }),
      ),
    ).toBe(
      "TypeError: read: strict mode cannot express an object that allows other properties at #/additionalProperties",
    );
  });

  test.each<[string, JsonSchema, RegExp]>([
    ["a root that is not an object", { type: "string" }, /^TypeError: read: .* at #$/],
    [
      "an object that allows other properties",
      { type: "object", additionalProperties: {} },
      /at #\/additionalProperties$/,
    ],
    ["a schema with no type", { type: "object", properties: { path: {} } }, /at #\/properties\/path$/],
    ["not", { type: "object", properties: { path: { type: "string", not: { const: "" } } } }, /at #\/properties\/path/],
    ["if", { type: "object", properties: { path: { type: "string", if: { const: "" } } } }, /at #\/properties\/path/],
    ["patternProperties", { type: "object", patternProperties: { "^x": { type: "string" } } }, /at #/],
    [
      "dependentRequired",
      { type: "object", properties: { a: { type: "string" } }, dependentRequired: { a: ["b"] } },
      /at #/,
    ],
    [
      "tuple items",
      { type: "object", properties: { a: { type: "array", items: [{ type: "string" }] } } },
      /at #\/properties\/a/,
    ],
    [
      "both anyOf and oneOf",
      { type: "object", properties: { a: { anyOf: [{ type: "string" }], oneOf: [{ type: "integer" }] } } },
      /at #\/properties\/a/,
    ],
    [
      "an allOf over two object schemas",
      {
        type: "object",
        properties: {
          a: {
            allOf: [
              { type: "object", properties: { x: { type: "string" } } },
              { type: "object", properties: { y: { type: "string" } } },
            ],
          },
        },
      },
      /at #\/properties\/a/,
    ],
    [
      "an allOf with a $ref",
      { type: "object", $defs: { s: { type: "string" } }, properties: { a: { allOf: [{ $ref: "#/$defs/s" }] } } },
      /at #\/properties\/a/,
    ],
    [
      "an allOf with a keyword that differs from its schema",
      { type: "object", properties: { a: { type: "string", allOf: [{ type: "integer" }] } } },
      /at #\/properties\/a/,
    ],
    [
      "a $ref outside the schema",
      { type: "object", properties: { a: { $ref: "other.json#/a" } } },
      /at #\/properties\/a/,
    ],
  ])("throws for %s", (_form, inputSchema, message) => {
    expect(thrown(() => createAiSdkReadTool({ fs, signature: withSchema(inputSchema) }))).toMatch(message);
  });

  test("a check kept only in a keyword strict mode drops (minLength) is not sent; one in the signature's parse refuses the input", async () => {
    const signature: ToolSignature<ReadInput, { file: string }, ReadResult> = {
      name: "view",
      inputSchema: {
        type: "object",
        properties: { file: { type: "string", minLength: 3 } },
        required: ["file"],
        additionalProperties: false,
      },
      toInput: (input) => {
        if (input.file.length < 3) throw new ToolInputError("view input file must be at least 3 characters");
        return { path: input.file };
      },
    };
    const view = createAiSdkReadTool({ fs, signature });
    expect((await schemaOf(view))["properties"]).toEqual({ file: { type: "string" } });
    const refused = await asSchema(view.inputSchema).validate!({ file: "ab" });
    expect((refused as { error: Error }).error.message).toBe("view input file must be at least 3 characters");
  });
});

describe("ai-sdk-adapter.txt: Model output", () => {
  test("toAiSdkOutput in a hand-made tool over a callable core tool (readFile({ path })): the notes file reaches the model as the spec shows", async () => {
    const { readNotes } = await import("./ai-sdk-adapter/model-output.js");
    const output = await exec(readNotes, {});
    expect(await readNotes.toModelOutput!({ toolCallId: "c", input: {}, output: output as ReadResult })).toEqual({
      type: "content",
      value: [{ type: "text", text: "1|one" }],
    });
    const model = scriptedModel([{ calls: [{ tool: "readNotes", input: {} }] }, { text: "one" }]);
    await generateText({ model, prompt: "notes?", tools: { readNotes }, stopWhen: isStepCount(2) });
    expect(toolOutputsSentAt(model, 1)).toEqual([
      { toolName: "readNotes", output: { type: "content", value: [{ type: "text", text: "1|one" }] } },
    ]);
  });

  test("a core tool is a function that also keeps execute, validate, name and its schema", async () => {
    const fs = memoryFileSystem({ files: { "/notes.txt": "one\n" } });
    const readFile = createReadTool({ fs });
    expect(typeof readFile).toBe("function");
    expect(await readFile({ path: "/notes.txt" })).toEqual(await readFile.execute({ path: "/notes.txt" }));
    expect(readFile.name).toBe("read");
    expect(readFile.validate({ path: "/notes.txt" })).toEqual({ path: "/notes.txt" });
    // Called as a function, it checks its input as execute does.
    expect(await readFile({ path: "/notes.txt", offset: 0 })).toMatchObject({ ok: false, error: { code: "EINPUT" } });
    // And it still adapts to the AI SDK.
    expect(toAiSdkTool(createListTool({ fs })).name).toBe("list");
  });

  test("execute returns the whole result (ReadResult, MutationResult, ShellResult); toModelOutput sends text as text and media as a base64 file part", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n", "/w/dot.png": PNG } });
    const { tools } = createAiSdkFsTools({
      fs,
      cwd: "/w",
      bash: { runner: justBashCommandRunner({ fs, cwd: "/w" }), env: {} },
    });
    expect(await exec(tools.read, { path: "a.txt" })).toMatchObject({
      kind: "read",
      ok: true,
      path: "/w/a.txt",
      totalLines: 1,
    });
    expect(await exec(tools.write, { path: "b.txt", content: "b\n" })).toMatchObject({
      kind: "mutation",
      ok: true,
      changes: [{ action: "added", path: "/w/b.txt", bytes: 2 }],
    });
    const shell = await exec(tools.bash, { command: "echo hi" });
    expect(shell).toMatchObject({ kind: "shell", stdout: "hi\n", exitCode: 0 });
    const image = await exec(tools.read, { path: "dot.png" });
    expect(toAiSdkOutput(image).value).toContainEqual({
      type: "file",
      mediaType: "image/png",
      data: { type: "data", data: btoa(String.fromCharCode(...PNG)) },
    });
  });
});

describe("ai-sdk-adapter.txt: Install", () => {
  test("ai is a peer at ^7.0.77; the ai-sdk subpath imports nothing from node: (it runs in a Worker)", async () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as {
      peerDependencies: Record<string, string>;
    };
    expect(pkg.peerDependencies["ai"]).toBe("^7.0.77");
    const { readdir } = await import("node:fs/promises");
    const dir = join(root, "src", "ai-sdk");
    for (const file of await readdir(dir)) {
      if (!file.endsWith(".ts")) continue;
      expect(await readFile(join(dir, file), "utf8"), file).not.toMatch(/from "node:/);
    }
  });
});

test("ai-sdk-adapter.txt: the type-level examples (The result, Host context) compile: tsc over test/spec/ai-sdk-adapter.test-d.ts and the example modules", async () => {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const output = await promisify(execFile)(
    process.execPath,
    [tsc, "-p", "test/spec/ai-sdk-adapter/tsconfig.json", "--pretty", "false"],
    { cwd: root },
  ).then(
    (result) => `${result.stdout}${result.stderr}`,
    (error: { stdout?: string; message?: string }) => error.stdout || `tsc did not run: ${error.message}`,
  );
  expect(output).toBe("");
});

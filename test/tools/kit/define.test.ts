import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { FsError } from "../../../src/contract/errors.js";
import { OptionError, optionValueError } from "../../../src/contract/options.js";
import { createApplyPatchTool } from "../../../src/tools/apply-patch/index.js";
import { defineCoreTool } from "../../../src/tools/kit/define.js";
import { createEditTool } from "../../../src/tools/edit/index.js";
import { createBashTool } from "../../../src/shell/defaults.js";
import { resultText, textParts, type ReadResult } from "../../../src/tools/kit/result.js";
import { offsetLimitPreset } from "../../../src/tools/signature/offset-limit.js";
import { createTextEditorTool } from "../../../src/tools/text-editor/index.js";
import { ToolInputError, type ToolCall } from "../../../src/tools/kit/tool.js";
import type { ToolContextOptions } from "../../../src/tools/kit/context.js";

interface ShoutOptions extends ToolContextOptions {
  readonly times?: number;
}

/** A small tool on the definer: repeats a text `times` times, upper-cased. */
const createShoutTool = defineCoreTool({
  factory: "createShoutTool",
  name: "shout",
  kind: "read",
  spec: { text: { type: "string", required: true, nonEmpty: true, description: "What to shout." } },
  settings: ["times"],
  setup(options: ShoutOptions) {
    const times = options.times ?? 1;
    if (!Number.isSafeInteger(times) || times < 1)
      optionValueError("createShoutTool", "times", `must be ≥ 1, got ${times}`);
    return { times };
  },
  description: ({ times }) => `Shout a text back ${times} times.`,
  schema: (schema, { times }) => ({ ...schema, "x-times": times }),
  check(input: { text: string }) {
    if (input.text === "quiet") throw new ToolInputError("shout input text must not be quiet");
  },
  async run(input: { text: string }, ctx, { times }): Promise<ReadResult> {
    if (input.text === "missing") await ctx.gate.fs.readFile("/w/missing");
    if (input.text === "boom") throw new Error("boom");
    const cwd = ctx.gate.cwd;
    return { kind: "read", ok: true, parts: textParts(`${input.text.toUpperCase().repeat(times)} in ${cwd}`) };
  },
});

describe("defineCoreTool", () => {
  const fs = memoryFileSystem({ files: { "/w/a.txt": "x\n" } });

  it("makes a CoreTool from the definition and the resolved settings", async () => {
    const shout = createShoutTool({ fs, cwd: "/w", times: 2 });
    expect(Object.keys(shout)).toEqual(["name", "description", "inputSchema", "validate", "execute"]);
    expect(shout.name).toBe("shout");
    expect(shout.description).toBe("Shout a text back 2 times.");
    expect(shout.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string", description: "What to shout.", minLength: 1 } },
      required: ["text"],
      additionalProperties: false,
      "x-times": 2,
    });
    expect(resultText(await shout.execute({ text: "hi" }))).toBe("HIHI in /w");
  });

  it("the tool is a function of its input, the same as execute, with read-only parts", async () => {
    const shout = createShoutTool({ fs, cwd: "/w" });
    expect(typeof shout).toBe("function");
    expect(resultText(await shout({ text: "hi" }))).toBe("HI in /w");
    // Called directly, it still checks its input (an EINPUT result, nothing thrown).
    expect(await shout({ text: "" })).toMatchObject({ ok: false, error: { code: "EINPUT" } });
    expect(() => {
      (shout as unknown as { name: string }).name = "other";
    }).toThrow(TypeError);
    expect(shout.name).toBe("shout");
    // A spread copies the parts (what a wrapper such as the bash tool builds on).
    expect(Object.keys({ ...shout })).toEqual(["name", "description", "inputSchema", "validate", "execute"]);
    const bash = createBashTool({ fs, cwd: "/w" });
    expect(typeof bash).toBe("function");
    expect(await bash({ command: "echo hi" })).toMatchObject({ ok: true, stdout: "hi\n" });
  });

  it("checks option keys, then the tool's settings, then the shared options, at creation", () => {
    expect(() => createShoutTool({ fs, time: 2 } as never)).toThrow(
      new TypeError(
        'createShoutTool got an unknown option "time". Known options: fs, cwd, allowedRoots, permissions, state, locks, digest, clock, times',
      ),
    );
    // Unknown key first, even with a bad setting beside it.
    expect(() => createShoutTool({ fs, times: 0, time: 2 } as never)).toThrow(/got an unknown option "time"/);
    expect(() => createShoutTool({ fs, times: 0, cwd: "w" })).toThrow(
      new TypeError("createShoutTool times must be ≥ 1, got 0"),
    );
    expect(() => createShoutTool({ fs, cwd: "w" })).toThrow(
      new TypeError('createShoutTool cwd must be an absolute path, got "w"'),
    );
    let error: unknown;
    try {
      createShoutTool({ fs, time: 2 } as never);
    } catch (caught) {
      error = caught;
    }
    expect(OptionError.isInstance(error) && [error.factory, error.option]).toEqual(["createShoutTool", "time"]);
  });

  it("checks the input (spec, then check) and turns thrown errors into results", async () => {
    const shout = createShoutTool({ fs, cwd: "/w" });
    expect(await shout.execute({ text: "" } as never)).toEqual({
      kind: "read",
      ok: false,
      parts: [{ type: "text", text: "shout input text must not be empty" }],
      error: { code: "EINPUT", message: "shout input text must not be empty" },
    });
    expect((await shout.execute({ text: "quiet" })).error).toEqual({
      code: "EINPUT",
      message: "shout input text must not be quiet",
    });
    expect(() => shout.validate({ text: "quiet" })).toThrow(new ToolInputError("shout input text must not be quiet"));
    expect((await shout.execute({ text: "missing" })).error).toEqual({
      code: "ENOENT",
      message: new FsError("ENOENT", { syscall: "open", path: "/w/missing" }).message,
    });
    expect((await shout.execute({ text: "boom" })).error).toEqual({ code: "EIO", message: "boom" });
  });

  it("rethrows an abort, and resolves a per-call fs from the call", async () => {
    const other = memoryFileSystem({ cwd: "/v" });
    const shout = createShoutTool({ fs: (call: ToolCall) => (call.toolCallId === "v" ? other : fs), cwd: "/" });
    expect(resultText(await shout.execute({ text: "a" }, { toolCallId: "v" }))).toBe("A in /");
    const controller = new AbortController();
    const reason = new DOMException("stop", "AbortError");
    controller.abort(reason);
    const slow = defineCoreTool({
      factory: "createSlowTool",
      name: "slow",
      kind: "read",
      spec: {},
      settings: [],
      description: "Waits.",
      async run(_input: Record<string, never>, ctx): Promise<ReadResult> {
        ctx.call.abortSignal?.throwIfAborted();
        return { kind: "read", ok: true, parts: [] };
      },
    })({ fs });
    await expect(slow.execute({}, { abortSignal: controller.signal })).rejects.toBe(reason);
  });

  it("takes a custom input check and schema instead of an InputSpec", async () => {
    const echo = defineCoreTool({
      factory: "createEchoTool",
      name: "echo",
      kind: "read",
      spec: {
        schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
        check(input: unknown): { n: number } {
          const n = (input as { n?: unknown }).n;
          if (typeof n !== "number") throw new ToolInputError("echo needs n");
          return { n };
        },
      },
      settings: [],
      description: "Echo.",
      run: async (input: { n: number }): Promise<ReadResult> => ({
        kind: "read",
        ok: true,
        parts: textParts(String(input.n)),
      }),
    })({ fs });
    expect(echo.inputSchema).toEqual({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] });
    expect(resultText(await echo.execute({ n: 4 }))).toBe("4");
    expect((await echo.execute({} as never)).error).toEqual({ code: "EINPUT", message: "echo needs n" });
  });
});

describe("data in fields", () => {
  it("edit: EAMBIGUOUS carries the occurrences and the lines; a change carries its line", async () => {
    const fs = memoryFileSystem({ files: { "/w/s.py": "x = 1\ndebug = True\ny = 2\ndebug = True\n" } });
    const edit = createEditTool({ fs, cwd: "/w" });
    const ambiguous = await edit.execute({ path: "s.py", oldText: "debug = True", newText: "debug = False" });
    expect(ambiguous.error).toEqual({
      code: "EAMBIGUOUS",
      path: "/w/s.py",
      displayPath: "s.py",
      occurrences: 2,
      lines: [2, 4],
      lineCount: 2,
      message:
        "oldText occurs 2 times in s.py (at lines 2, 4); it must occur exactly once. Include more surrounding lines in oldText to make it unique, or set replaceAll to true to replace every occurrence.",
    });
    const done = await edit.execute({ path: "s.py", oldText: "y = 2", newText: "y = 3" });
    expect(done.changes).toEqual([{ action: "updated", path: "/w/s.py", bytes: 38, line: 3 }]);
  });

  it("edit: overlapping matches on one line count, on one line", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\naaa\n" } });
    const result = await createEditTool({ fs, cwd: "/w" }).execute({ path: "a.txt", oldText: "aa", newText: "b" });
    expect([result.error?.occurrences, result.error?.lines, result.error?.lineCount]).toEqual([2, [2], 1]);
  });

  it("apply_patch: EAMBIGUOUS carries the places, and an update its first changed line", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\nx\nb\nx\nc\n" } });
    const tool = createApplyPatchTool({ fs, cwd: "/w" });
    const ambiguous = await tool.execute({
      patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch",
    });
    expect([
      ambiguous.error?.code,
      ambiguous.error?.occurrences,
      ambiguous.error?.lines,
      ambiguous.error?.lineCount,
    ]).toEqual(["EAMBIGUOUS", 2, [2, 4], 2]);
    const done = await tool.execute({
      patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n b\n-x\n+y\n*** End Patch",
    });
    expect(done.changes).toEqual([{ action: "updated", path: "/w/a.txt", bytes: 10, line: 3 }]);
  });

  it("the presets word EAMBIGUOUS from the fields: the text editor and offset/limit", async () => {
    const fs = memoryFileSystem({ files: { "/w/s.py": "debug = True\nx = 1\ndebug = True\n" } });
    const editor = createTextEditorTool({ fs, cwd: "/w" });
    const replaced = await editor.execute({
      command: "str_replace",
      path: "s.py",
      old_str: "debug = True",
      new_str: "z",
    });
    expect(resultText(replaced)).toBe(
      "No replacement was performed. Multiple occurrences of old_str `debug = True` in lines [1, 3]. Please ensure it is unique",
    );
    const preset = offsetLimitPreset();
    const edit = createEditTool({ fs, cwd: "/w" });
    const input = { path: "s.py", old_string: "debug = True", new_string: "z" };
    const result = preset.edit!.toResult!(await edit.execute(preset.edit!.toInput(input)), input);
    expect(resultText(result)).toBe(
      "Error: old_string is not unique in s.py: it occurs 2 times (at lines 1, 3). Include more surrounding lines in old_string to make it unique, or set replace_all to true to replace every occurrence.",
    );
  });

  it("the text editor's insert and str_replace report their line", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\ntwo\nthree\n" } });
    const editor = createTextEditorTool({ fs, cwd: "/w" });
    const inserted = await editor.execute({ command: "insert", path: "a.txt", insert_line: 1, insert_text: "new" });
    expect("changes" in inserted && inserted.changes).toEqual([
      { action: "updated", path: "/w/a.txt", bytes: 18, line: 2 },
    ]);
    const replaced = await editor.execute({ command: "str_replace", path: "a.txt", old_str: "three", new_str: "3" });
    expect("changes" in replaced && replaced.changes).toEqual([
      { action: "updated", path: "/w/a.txt", bytes: 14, line: 4 },
    ]);
  });
});

describe("defineCoreTool: an input path written as a file: URL or with ~ (trial finding 9)", () => {
  it("every core tool with a path refuses it with the path to give, before the backend is used", async () => {
    const { createFsTools } = await import("../../../src/shell/defaults.js");
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const tools = createFsTools({ fs, cwd: "/w", state: false });
    const url = '"file:///w/a.txt" is a URL; give the path itself: "/w/a.txt".';
    for (const result of [
      await tools.read.execute({ path: "file:///w/a.txt" }),
      await tools.edit.execute({ path: "file:///w/a.txt", oldText: "a", newText: "b" }),
      await tools.list.execute({ path: "file:///w/a.txt" }),
      await tools.grep.execute({ pattern: "a", path: "file:///w/a.txt" }),
      await tools.glob.execute({ pattern: "*", path: "file:///w/a.txt" }),
    ]) {
      expect(result.error).toEqual({ code: "EINPUT", message: url });
    }
    const home = await tools.read.execute({ path: "~/a.txt" });
    expect(resultText(home)).toBe(
      '"~/a.txt": "~" (a home directory) is not expanded here. Give the path relative to the working directory ("a.txt") or absolute; for a directory really named "~", write "./~/a.txt".',
    );
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("a\n");
  });
});

import { describe, expect, it } from "vitest";
import { createAiSdkFsTools, createAiSdkReadTool } from "../../src/ai-sdk/index.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { assertKnownOptions, OptionError, optionValueError } from "../../src/contract/options.js";
import { FsError } from "../../src/contract/errors.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { createReadTool } from "../../src/tools/read/index.js";
import { ToolInputError } from "../../src/tools/kit/tool.js";

/** The error a call throws, or a failure when it throws none. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

/** The data of an OptionError, read from its fields. */
function fields(error: unknown): object {
  if (!OptionError.isInstance(error)) throw new Error(`not an OptionError: ${String(error)}`);
  return {
    factory: error.factory,
    option: error.option,
    known: error.known,
    within: error.within,
    problem: error.problem,
    message: error.message,
  };
}

const READ_KNOWN = ["fs", "cwd", "allowedRoots", "permissions", "state", "locks", "digest", "clock"];

describe("OptionError", () => {
  it("is a TypeError built from its fields", () => {
    const error = new OptionError({ factory: "f", option: "x", known: ["a", "b"] });
    expect(error).toBeInstanceOf(TypeError);
    expect(error.name).toBe("TypeError");
    expect(error.message).toBe('f got an unknown option "x". Known options: a, b');
    expect(new OptionError({ factory: "f", option: "x", known: [] }).message).toBe(
      'f got an unknown option "x". Known options: none',
    );
    expect(new OptionError({ factory: "f", option: "p.q", within: "p", known: ["r"] }).message).toBe(
      'f p got an unknown option "q". Known options: r',
    );
    expect(new OptionError({ factory: "f", option: "n", problem: "must be 1, got 2" }).message).toBe(
      "f n must be 1, got 2",
    );
    // The fields stay out of equality: it equals the TypeError with its message.
    expect(error).toEqual(new TypeError('f got an unknown option "x". Known options: a, b'));
  });

  it("assertKnownOptions and optionValueError throw it", () => {
    expect(fields(thrown(() => assertKnownOptions("shellEnv", { allow: 1 }, ["include", "exclude"])))).toEqual({
      factory: "shellEnv",
      option: "allow",
      known: ["include", "exclude"],
      within: undefined,
      problem: undefined,
      message: 'shellEnv got an unknown option "allow". Known options: include, exclude',
    });
    expect(
      fields(thrown(() => optionValueError("createReadTool", "maxBytes", "must be a positive integer, got 0"))),
    ).toEqual({
      factory: "createReadTool",
      option: "maxBytes",
      known: undefined,
      within: undefined,
      problem: "must be a positive integer, got 0",
      message: "createReadTool maxBytes must be a positive integer, got 0",
    });
    expect(thrown(() => assertKnownOptions("f", null as never, []))).toEqual(
      new TypeError("f needs an options object"),
    );
  });

  it("createReadTool: unknown keys, nested keys and bad values", () => {
    const fs = memoryFileSystem();
    expect(fields(thrown(() => createReadTool({ fs, maxbytes: 1 } as never)))).toEqual({
      factory: "createReadTool",
      option: "maxbytes",
      known: [...READ_KNOWN, "maxBytes", "maxLineLength", "converters"],
      within: undefined,
      problem: undefined,
      message: `createReadTool got an unknown option "maxbytes". Known options: ${[...READ_KNOWN, "maxBytes", "maxLineLength", "converters"].join(", ")}`,
    });
    expect(fields(thrown(() => createReadTool({ fs, permissions: { block: [] } } as never)))).toEqual({
      factory: "createReadTool",
      option: "permissions.block",
      known: ["allow", "deny", "approve"],
      within: "permissions",
      problem: undefined,
      message: 'createReadTool permissions got an unknown option "block". Known options: allow, deny, approve',
    });
    expect(fields(thrown(() => createReadTool({ fs, maxBytes: 0 })))).toEqual({
      factory: "createReadTool",
      option: "maxBytes",
      known: undefined,
      within: undefined,
      problem: "must be a positive integer, got 0",
      message: "createReadTool maxBytes must be a positive integer, got 0",
    });
  });

  it("createFsTools restates a tool's error under the tool's key, from the fields", () => {
    const fs = memoryFileSystem();
    expect(fields(thrown(() => createFsTools({ fs, read: { maxbytes: 1 } } as never)))).toEqual({
      factory: "createFsTools",
      option: "read.maxbytes",
      known: ["maxBytes", "maxLineLength", "converters", "signature"],
      within: "read",
      problem: undefined,
      message:
        'createFsTools read got an unknown option "maxbytes". Known options: maxBytes, maxLineLength, converters, signature',
    });
    expect(fields(thrown(() => createFsTools({ fs, grep: { offload: { foo: 1 } } } as never)))).toEqual({
      factory: "createFsTools",
      option: "grep.offload.foo",
      known: ["thresholdBytes", "previewBytes"],
      within: "grep.offload",
      problem: undefined,
      message: 'createFsTools grep.offload got an unknown option "foo". Known options: thresholdBytes, previewBytes',
    });
    expect(fields(thrown(() => createFsTools({ fs, bash: { maxTimeoutMs: -1 } })))).toEqual({
      factory: "createFsTools",
      option: "bash.maxTimeoutMs",
      known: undefined,
      within: undefined,
      problem: "must be a positive integer, got -1",
      message: "createFsTools bash.maxTimeoutMs must be a positive integer, got -1",
    });
    // A shared option's error is named at the top level.
    expect(fields(thrown(() => createFsTools({ fs, cwd: "w" })))).toEqual({
      factory: "createFsTools",
      option: "cwd",
      known: undefined,
      within: undefined,
      problem: 'must be an absolute path, got "w"',
      message: 'createFsTools cwd must be an absolute path, got "w"',
    });
    expect(fields(thrown(() => createFsTools({ fs, read: { cwd: "/w" } } as never)))).toEqual({
      factory: "createFsTools",
      option: "read.cwd",
      known: undefined,
      within: undefined,
      problem: "cannot set cwd: set it once at the top level",
      message: "createFsTools read options cannot set cwd: set it once at the top level",
    });
  });

  it("the AI SDK factories name their own options", () => {
    const fs = memoryFileSystem();
    expect(fields(thrown(() => createAiSdkReadTool({ fs, maxbytes: 1 } as never)))).toEqual({
      factory: "createAiSdkReadTool",
      option: "maxbytes",
      known: [...READ_KNOWN, "maxBytes", "maxLineLength", "converters", "signature", "contextSchema", "needsApproval"],
      within: undefined,
      problem: undefined,
      message: `createAiSdkReadTool got an unknown option "maxbytes". Known options: ${[...READ_KNOWN, "maxBytes", "maxLineLength", "converters", "signature", "contextSchema", "needsApproval"].join(", ")}`,
    });
    expect(fields(thrown(() => createAiSdkReadTool({ fs, maxLineLength: 0 })))).toEqual({
      factory: "createAiSdkReadTool",
      option: "maxLineLength",
      known: undefined,
      within: undefined,
      problem: "must be a positive integer, got 0",
      message: "createAiSdkReadTool maxLineLength must be a positive integer, got 0",
    });
    expect(fields(thrown(() => createAiSdkFsTools({ fs, edit: { mode: 1 } } as never)))).toEqual({
      factory: "createAiSdkFsTools",
      option: "edit.mode",
      known: ["signature"],
      within: "edit",
      problem: undefined,
      message: 'createAiSdkFsTools edit got an unknown option "mode". Known options: signature',
    });
    expect(fields(thrown(() => createAiSdkFsTools({ fs, read: { maxBytes: 0 } })))).toEqual({
      factory: "createAiSdkFsTools",
      option: "read.maxBytes",
      known: undefined,
      within: undefined,
      problem: "must be a positive integer, got 0",
      message: "createAiSdkFsTools read.maxBytes must be a positive integer, got 0",
    });
  });
});

describe("isInstance across package copies (a plain object with the marker)", () => {
  it("matches the Symbol.for marker of each class, and nothing else", () => {
    const copy = (name: string): object => ({ [Symbol.for(`better-fs-tools.error.${name}`)]: true });
    expect(FsError.isInstance(copy("FsError"))).toBe(true);
    expect(ToolInputError.isInstance(copy("ToolInputError"))).toBe(true);
    expect(OptionError.isInstance(copy("OptionError"))).toBe(true);
    expect([FsError.isInstance(copy("ToolInputError")), ToolInputError.isInstance(copy("FsError"))]).toEqual([
      false,
      false,
    ]);
    expect([
      FsError.isInstance(new Error("x")),
      OptionError.isInstance(new TypeError("x")),
      FsError.isInstance(null),
    ]).toEqual([false, false, false]);
    expect(FsError.isInstance(new FsError("ENOENT", { syscall: "open", path: "/a" }))).toBe(true);
    expect(ToolInputError.isInstance(new ToolInputError("bad"))).toBe(true);
    expect(OptionError.isInstance(new OptionError({ factory: "f", option: "x", known: [] }))).toBe(true);
  });
});

/**
 * One AI SDK tool per core tool: `createAiSdkReadTool`, `createAiSdkEditTool`,
 * `createAiSdkWriteTool`, `createAiSdkApplyPatchTool`, `createAiSdkBashTool`,
 * `createAiSdkListTool`, `createAiSdkGlobTool`, `createAiSdkGrepTool`. Each takes its core
 * factory's options plus `signature`, `contextSchema` and `needsApproval`; no read-before-write
 * store unless one is passed, and (as the core factories) the backend's own locks unless `locks`
 * is given. The first type argument of each is the context type (`call.host.context`).
 *
 * @module
 */
import type { PermissionOptions } from "../gate/gate.js";
import { createApplyPatchTool } from "../tools/apply-patch/index.js";
import { createBashTool } from "../shell/defaults.js";
import { CONTEXT_OPTION_KEYS, type ToolContextOptions } from "../tools/kit/context.js";
import { assertKnownOptions, OptionError, optionValueError } from "../contract/options.js";
import { TOOL_SETTING_KEYS, type ToolSettingsKey } from "../tools/kit/setting-keys.js";
import { createEditTool } from "../tools/edit/index.js";
import { createGlobTool } from "../tools/glob/index.js";
import { createGrepTool } from "../tools/grep/index.js";
import { createListTool } from "../tools/list/index.js";
import { createReadTool } from "../tools/read/index.js";
import type { ToolResult } from "../tools/kit/result.js";
import type { AnyCoreTool, CoreTool, ToolCall } from "../tools/kit/tool.js";
import { createWriteTool } from "../tools/write/index.js";
import {
  adaptCoreTool,
  type AiSdkAdapterOptions,
  type AiSdkFsTool,
  type AiSdkToolCall,
  type AiSdkToolContext,
} from "./tool.js";

/** A core tool factory, whatever its tool's input. */
type CoreFactory = (options: never) => AnyCoreTool;

/** The adapter's own option keys, accepted by every single factory besides the core factory's. */
const ADAPTER_KEYS = ["signature", "contextSchema", "needsApproval"] as const;
/** The options of a core factory. */
export type CoreOptionsOf<F extends CoreFactory> = Parameters<F>[0];
/** The core input of a core factory's tool. */
export type CoreInputOf<F extends CoreFactory> =
  ReturnType<F> extends { validate(input: unknown): infer I } ? I : never;
/** The result of a core factory's tool. */
export type CoreResultOf<F extends CoreFactory> = ReturnType<F> extends AnyCoreTool<infer R> ? R : never;

/** An option value whose function form is given the AI SDK call (typed context) instead of a bare `ToolCall`. */
type WithAiSdkCall<V, Context> = V extends (call: ToolCall) => infer R ? (call: AiSdkToolCall<Context>) => R : V;

/**
 * A core factory's options as an AI SDK factory takes them: the same keys, with the functions of
 * the call (`fs`, `state`) given an {@link AiSdkToolCall}, so `call.host.context` has the
 * factory's context type.
 */
export type AiSdkCoreOptions<O, Context> = {
  [K in keyof O]: K extends "fs" | "state" ? WithAiSdkCall<O[K], Context> : O[K];
};

/** Options of a single AI SDK tool factory: the core factory's options plus the adapter's. */
export type AiSdkSingleToolOptions<F extends CoreFactory, ModelInput, Context> = AiSdkCoreOptions<
  CoreOptionsOf<F>,
  Context
> &
  AiSdkAdapterOptions<CoreInputOf<F>, ModelInput, CoreResultOf<F>, Context>;

/**
 * Make an AI SDK tool from a core factory and its options (the adapter's keys split off).
 * With `needsApproval`, approved calls run on a core made by the same factory with the same
 * options (same locks, store, digest, clock) and an `approve` that admits what was approved.
 *
 * @internal shared by the single factories and the bundle.
 */
export function adaptCoreFactory<F extends CoreFactory, ModelInput, Context>(
  factory: string,
  tool: ToolSettingsKey,
  coreFactory: F,
  options: AiSdkSingleToolOptions<F, ModelInput, Context>,
): AiSdkFsTool<ModelInput, CoreResultOf<F>, Context> {
  assertKnownOptions(factory, options, [...CONTEXT_OPTION_KEYS, ...TOOL_SETTING_KEYS[tool], ...ADAPTER_KEYS]);
  const { signature, contextSchema, needsApproval, ...rest } = options as AiSdkAdapterOptions<
    unknown,
    ModelInput,
    ToolResult,
    Context
  > &
    Record<string, unknown>;
  if (needsApproval !== undefined && typeof needsApproval !== "boolean") {
    optionValueError(factory, "needsApproval", `must be a boolean, got ${JSON.stringify(needsApproval)}`);
  }
  // No locks given: the core default, the backend's own (locksFor), shared with every tool over it.
  const coreOptions = rest as unknown as ToolContextOptions;
  const make = (extra: object): CoreTool<CoreInputOf<F>, CoreResultOf<F>> =>
    (coreFactory as unknown as (options: object) => CoreTool<CoreInputOf<F>, CoreResultOf<F>>)({
      ...coreOptions,
      ...extra,
    });
  let core: CoreTool<CoreInputOf<F>, CoreResultOf<F>>;
  try {
    core = make({});
  } catch (error) {
    // The core factory's option errors, in this factory's name (same option paths).
    throw OptionError.isInstance(error) ? error.restate(factory) : error;
  }
  return adaptCoreTool<CoreInputOf<F>, ModelInput, CoreResultOf<F>, Context>(
    {
      factory,
      core,
      approval: {
        contextOptions: coreOptions,
        withPermissions: (permissions: PermissionOptions) => make({ permissions }),
      },
    },
    {
      signature: signature as AiSdkAdapterOptions<CoreInputOf<F>, ModelInput, CoreResultOf<F>, Context>["signature"],
      contextSchema,
      needsApproval,
    },
  );
}

/** Options of {@link createAiSdkReadTool}. */
export type AiSdkReadToolOptions<
  ModelInput = CoreInputOf<typeof createReadTool>,
  Context = AiSdkToolContext,
> = AiSdkSingleToolOptions<typeof createReadTool, ModelInput, Context>;
/** Options of {@link createAiSdkEditTool}. */
export type AiSdkEditToolOptions<
  ModelInput = CoreInputOf<typeof createEditTool>,
  Context = AiSdkToolContext,
> = AiSdkSingleToolOptions<typeof createEditTool, ModelInput, Context>;
/** Options of {@link createAiSdkWriteTool}. */
export type AiSdkWriteToolOptions<
  ModelInput = CoreInputOf<typeof createWriteTool>,
  Context = AiSdkToolContext,
> = AiSdkSingleToolOptions<typeof createWriteTool, ModelInput, Context>;
/** Options of {@link createAiSdkApplyPatchTool}. */
export type AiSdkApplyPatchToolOptions<
  ModelInput = CoreInputOf<typeof createApplyPatchTool>,
  Context = AiSdkToolContext,
> = AiSdkSingleToolOptions<typeof createApplyPatchTool, ModelInput, Context>;
/** Options of {@link createAiSdkListTool}. */
export type AiSdkListToolOptions<
  ModelInput = CoreInputOf<typeof createListTool>,
  Context = AiSdkToolContext,
> = AiSdkSingleToolOptions<typeof createListTool, ModelInput, Context>;
/** Options of {@link createAiSdkGlobTool}. */
export type AiSdkGlobToolOptions<
  ModelInput = CoreInputOf<typeof createGlobTool>,
  Context = AiSdkToolContext,
> = AiSdkSingleToolOptions<typeof createGlobTool, ModelInput, Context>;
/** Options of {@link createAiSdkGrepTool}. */
export type AiSdkGrepToolOptions<
  ModelInput = CoreInputOf<typeof createGrepTool>,
  Context = AiSdkToolContext,
> = AiSdkSingleToolOptions<typeof createGrepTool, ModelInput, Context>;
/** Options of {@link createAiSdkBashTool}. */
export type AiSdkBashToolOptions<
  ModelInput = CoreInputOf<typeof createBashTool>,
  Context = AiSdkToolContext,
> = AiSdkSingleToolOptions<typeof createBashTool, ModelInput, Context>;

/**
 * The `read` tool for the AI SDK (strict schema; text as `N|text` lines, images as file parts).
 *
 * @typeParam Context - the type of `call.host.context` (the tool's `toolsContext` entry), e.g.
 *   `createAiSdkReadTool<Workspace>({ contextSchema, fs: (call) => pick(call.host.context) })`.
 * @typeParam ModelInput - the model's input (its signature's); inferred from `signature`.
 * @param options - `createReadTool`'s options (`fs` required) plus `signature`, `contextSchema`, `needsApproval`.
 * @returns an AI SDK tool; put it in `tools` under its signature's name (`read` by default).
 * @throws TypeError at creation for an unknown or bad option (named), or a signature schema
 *   strict mode cannot express (`read: strict mode cannot express ... at #/...`).
 * @example
 * ```ts
 * const read = createAiSdkReadTool({ fs: memoryFileSystem({ files: { "/notes.txt": "one\n" } }) });
 * await generateText({ model, tools: { read }, prompt: "Read /notes.txt" });
 * ```
 */
export function createAiSdkReadTool<Context = AiSdkToolContext, ModelInput = CoreInputOf<typeof createReadTool>>(
  options: AiSdkReadToolOptions<ModelInput, Context>,
): AiSdkFsTool<ModelInput, CoreResultOf<typeof createReadTool>, Context> {
  return adaptCoreFactory("createAiSdkReadTool", "read", createReadTool, options);
}

/**
 * The `edit` tool for the AI SDK (exact-match replacement; see `createEditTool`).
 *
 * @typeParam Context - the type of `call.host.context` (the tool's `toolsContext` entry).
 * @param options - `createEditTool`'s options (`fs` required) plus `signature`, `contextSchema`, `needsApproval`.
 * @returns an AI SDK tool; put it in `tools` under its signature's name (`edit` by default).
 * @throws TypeError at creation for an unknown or bad option, or an inexpressible signature schema.
 * @example
 * ```ts
 * const edit = createAiSdkEditTool({ fs, state: memoryStore() });
 * ```
 */
export function createAiSdkEditTool<Context = AiSdkToolContext, ModelInput = CoreInputOf<typeof createEditTool>>(
  options: AiSdkEditToolOptions<ModelInput, Context>,
): AiSdkFsTool<ModelInput, CoreResultOf<typeof createEditTool>, Context> {
  return adaptCoreFactory("createAiSdkEditTool", "edit", createEditTool, options);
}

/**
 * The `write` tool for the AI SDK (whole-file writes; see `createWriteTool`).
 *
 * @typeParam Context - the type of `call.host.context` (the tool's `toolsContext` entry).
 * @param options - `createWriteTool`'s options (`fs` required) plus `signature`, `contextSchema`, `needsApproval`.
 * @returns an AI SDK tool; put it in `tools` under its signature's name (`write` by default).
 * @throws TypeError at creation for an unknown or bad option, or an inexpressible signature schema.
 * @example
 * ```ts
 * const write = createAiSdkWriteTool({ fs });
 * ```
 */
export function createAiSdkWriteTool<Context = AiSdkToolContext, ModelInput = CoreInputOf<typeof createWriteTool>>(
  options: AiSdkWriteToolOptions<ModelInput, Context>,
): AiSdkFsTool<ModelInput, CoreResultOf<typeof createWriteTool>, Context> {
  return adaptCoreFactory("createAiSdkWriteTool", "write", createWriteTool, options);
}

/**
 * The `apply_patch` tool for the AI SDK (Codex patch envelope; all or nothing).
 *
 * @typeParam Context - the type of `call.host.context` (the tool's `toolsContext` entry).
 * @param options - `createApplyPatchTool`'s options (`fs` required) plus `signature`
 *   (e.g. `defaultPatchSignature()`, `freeformPatchSignature()`), `contextSchema`, `needsApproval`.
 * @returns an AI SDK tool; put it in `tools` under its signature's name (`apply_patch` by default).
 * @throws TypeError at creation for an unknown or bad option, or an inexpressible signature schema.
 * @example
 * ```ts
 * const apply_patch = createAiSdkApplyPatchTool({ fs, signature: defaultPatchSignature() });
 * ```
 */
export function createAiSdkApplyPatchTool<
  Context = AiSdkToolContext,
  ModelInput = CoreInputOf<typeof createApplyPatchTool>,
>(
  options: AiSdkApplyPatchToolOptions<ModelInput, Context>,
): AiSdkFsTool<ModelInput, CoreResultOf<typeof createApplyPatchTool>, Context> {
  return adaptCoreFactory("createAiSdkApplyPatchTool", "applyPatch", createApplyPatchTool, options);
}

/**
 * The `bash` tool for the AI SDK: runs a command line with the runner you pass.
 *
 * @typeParam Context - the type of `call.host.context` (the tool's `toolsContext` entry).
 * @param options - `createBashTool`'s options (`fs`, `runner`, `env` ...) plus `signature`, `contextSchema`, `needsApproval`.
 * @returns an AI SDK tool; put it in `tools` under its signature's name (`bash` by default).
 * @throws TypeError at creation for an unknown or bad option, neither a `runner` nor an `fs`
 *   (`createAiSdkBashTool runner must be given when fs is not: ...`), or an inexpressible signature schema.
 * @example
 * ```ts
 * import { createGate } from "better-fs-tools";
 * import { memoryFileSystem } from "better-fs-tools/memory";
 * import { justBashCommandRunner, shellEnv } from "better-fs-tools/shell";
 * const fs = memoryFileSystem();
 * const gate = createGate({ fs, cwd: "/w" }); // the same cwd, roots and permissions as the tool
 * const bash = createAiSdkBashTool({
 *   fs, cwd: "/w",
 *   runner: justBashCommandRunner({ fs: gate }),
 *   env: shellEnv(() => ({ LANG: "C.UTF-8", API_TOKEN: "secret" })), // API_TOKEN is dropped as a secret
 * });
 * ```
 */
export function createAiSdkBashTool<Context = AiSdkToolContext, ModelInput = CoreInputOf<typeof createBashTool>>(
  options: AiSdkBashToolOptions<ModelInput, Context>,
): AiSdkFsTool<ModelInput, CoreResultOf<typeof createBashTool>, Context> {
  return adaptCoreFactory("createAiSdkBashTool", "bash", createBashTool, options);
}

/**
 * The `list` tool for the AI SDK (a directory's entries; see `createListTool`).
 *
 * @typeParam Context - the type of `call.host.context` (the tool's `toolsContext` entry).
 * @param options - `createListTool`'s options (`fs` required) plus `signature`, `contextSchema`, `needsApproval`.
 * @returns an AI SDK tool; put it in `tools` under its signature's name (`list` by default).
 * @throws TypeError at creation for an unknown or bad option, or an inexpressible signature schema.
 * @example
 * ```ts
 * const list = createAiSdkListTool({ fs });
 * await generateText({ model, tools: { [list.name]: list }, prompt: "What is in src/?" });
 * ```
 */
export function createAiSdkListTool<Context = AiSdkToolContext, ModelInput = CoreInputOf<typeof createListTool>>(
  options: AiSdkListToolOptions<ModelInput, Context>,
): AiSdkFsTool<ModelInput, CoreResultOf<typeof createListTool>, Context> {
  return adaptCoreFactory("createAiSdkListTool", "list", createListTool, options);
}

/**
 * The `glob` tool for the AI SDK (paths matching a pattern; see `createGlobTool`).
 *
 * @typeParam Context - the type of `call.host.context` (the tool's `toolsContext` entry).
 * @param options - `createGlobTool`'s options (`fs` required) plus `signature`, `contextSchema`, `needsApproval`.
 * @returns an AI SDK tool; put it in `tools` under its signature's name (`glob` by default).
 * @throws TypeError at creation for an unknown or bad option, or an inexpressible signature schema.
 * @example
 * ```ts
 * const glob = createAiSdkGlobTool({ fs });
 * ```
 */
export function createAiSdkGlobTool<Context = AiSdkToolContext, ModelInput = CoreInputOf<typeof createGlobTool>>(
  options: AiSdkGlobToolOptions<ModelInput, Context>,
): AiSdkFsTool<ModelInput, CoreResultOf<typeof createGlobTool>, Context> {
  return adaptCoreFactory("createAiSdkGlobTool", "glob", createGlobTool, options);
}

/**
 * The `grep` tool for the AI SDK (lines matching a regular expression; see `createGrepTool`).
 *
 * @typeParam Context - the type of `call.host.context` (the tool's `toolsContext` entry).
 * @param options - `createGrepTool`'s options (`fs` required) plus `signature`, `contextSchema`, `needsApproval`.
 * @returns an AI SDK tool; put it in `tools` under its signature's name (`grep` by default).
 * @throws TypeError at creation for an unknown or bad option, or an inexpressible signature schema.
 * @example
 * ```ts
 * const grep = createAiSdkGrepTool({ fs, maxMatches: 200 });
 * ```
 */
export function createAiSdkGrepTool<Context = AiSdkToolContext, ModelInput = CoreInputOf<typeof createGrepTool>>(
  options: AiSdkGrepToolOptions<ModelInput, Context>,
): AiSdkFsTool<ModelInput, CoreResultOf<typeof createGrepTool>, Context> {
  return adaptCoreFactory("createAiSdkGrepTool", "grep", createGrepTool, options);
}

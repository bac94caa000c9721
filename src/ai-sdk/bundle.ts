/**
 * `createAiSdkFsTools`: the file tools as one AI SDK tool set sharing one backend, one
 * read-before-write store, one set of locks, one digest and one clock.
 *
 * @module
 */
import type { FlexibleSchema } from "ai";
import type { FileSystem } from "../contract/types.js";
import type { createApplyPatchTool } from "../tools/apply-patch/index.js";
import type { createBashTool } from "../tools/bash/index.js";
import { checkFsOption, CONTEXT_OPTION_KEYS, type ToolContextOptions } from "../tools/kit/context.js";
import { assertKnownOptions, OptionError, optionValueError } from "../contract/options.js";
import {
  assertNoSharedOptions,
  isContextOption,
  TOOL_SETTING_KEYS,
  type ToolSettingsKey,
} from "../tools/kit/setting-keys.js";
import { selectTools } from "../tools/kit/tool-selection.js";
import type { createEditTool } from "../tools/edit/index.js";
import type { createGlobTool } from "../tools/glob/index.js";
import type { createGrepTool } from "../tools/grep/index.js";
import type { createListTool } from "../tools/list/index.js";
import type { createReadTool } from "../tools/read/index.js";
import type { FileStateStore } from "../tools/kit/state.js";
import { sha256Digest } from "../contract/digest.js";
import type { ToolSignature } from "../tools/kit/tool.js";
import type { createWriteTool } from "../tools/write/index.js";
import {
  adaptCoreFactory,
  createAiSdkApplyPatchTool,
  createAiSdkBashTool,
  createAiSdkEditTool,
  createAiSdkGlobTool,
  createAiSdkGrepTool,
  createAiSdkListTool,
  createAiSdkReadTool,
  createAiSdkWriteTool,
  type CoreInputOf,
  type CoreOptionsOf,
  type CoreResultOf,
} from "./single-tools.js";
import { assertContextSchema, type AiSdkFsTool, type AiSdkPerCall, type AiSdkToolContext } from "./tool.js";

const FACTORY = "createAiSdkFsTools";

/** The bundle's own keys that apply to every tool, set only at the top level. */
const ADAPTER_BUNDLE_KEYS = ["contextSchema", "needsApproval"] as const;

/**
 * The per-tool option keys of the bundle, in the order the tools come in `tools`, with the
 * default tool name of each.
 */
export const BUNDLE_TOOL_KEYS = {
  read: "read",
  edit: "edit",
  write: "write",
  applyPatch: "apply_patch",
  list: "list",
  glob: "glob",
  grep: "grep",
  bash: "bash",
} as const;

/** The tools the bundle has unless their key is `false`. */
const ON_BY_DEFAULT: readonly ToolSettingsKey[] = ["read", "edit", "write"];

type SharedKey = (typeof CONTEXT_OPTION_KEYS)[number];
type CoreFactory = Parameters<typeof adaptCoreFactory>[2];

/**
 * One tool's options inside the bundle: its core factory's own settings (no shared key) and an
 * optional `signature`. A signature with a literal `name` types the tool's key in `tools`.
 */
export type BundleToolOptions<F extends CoreFactory> = Omit<CoreOptionsOf<F>, SharedKey> & {
  readonly [K in SharedKey | "contextSchema" | "needsApproval"]?: never;
} & {
  readonly signature?: ToolSignature<CoreInputOf<F>, never, CoreResultOf<F>>;
};

/**
 * Options of {@link createAiSdkFsTools}. `read`, `edit` and `write` are on unless set to `false`
 * (`write: false` also withholds `edit`, `apply_patch` and `bash`, as a tool scope does); `applyPatch`,
 * `list`, `glob` and `grep` are added by `true` or their options; `bash` by its options.
 */
export interface AiSdkFsToolsOptions<Context = AiSdkToolContext> extends Omit<ToolContextOptions, "state" | "fs"> {
  /** The backend, or a function of the AI SDK call that picks one (`call.host.context` has the context type). */
  readonly fs: AiSdkPerCall<FileSystem, Context>;
  /**
   * Read-before-write store shared by all tools (as `createFsTools`): with one (`memoryStore()`),
   * edit, overwrite and apply_patch need a prior read and fail on a stale file. A function of the
   * call picks one per conversation. Absent or `false`: no check.
   * @default none (the check is opt-in)
   */
  readonly state?: AiSdkPerCall<FileStateStore, Context> | false;
  /**
   * Leave out every tool that changes files or runs commands (`write`, `edit`, `apply_patch`,
   * `bash`; setting one of them beside it throws), as `createFsTools`, the agent and the MCP
   * server take it. @default false
   */
  readonly readOnly?: boolean;
  /** The `read` tool's settings, `true` (its defaults; on anyway), or `false` to leave it out. */
  readonly read?: BundleToolOptions<typeof createReadTool> | boolean;
  /** The `edit` tool's settings, `true` (its defaults; on anyway), or `false` to leave it out. */
  readonly edit?: BundleToolOptions<typeof createEditTool> | boolean;
  /**
   * The `write` tool's settings, `true` (its defaults; on anyway), or `false` to leave out every
   * tool that changes files: `write`, `edit` and `apply_patch` (setting `edit` or `applyPatch`
   * beside it throws).
   */
  readonly write?: BundleToolOptions<typeof createWriteTool> | boolean;
  /** Adds `apply_patch`: `true` for the defaults, or its options. */
  readonly applyPatch?: true | false | BundleToolOptions<typeof createApplyPatchTool>;
  /** Adds `list`: `true` for the defaults, or its options. */
  readonly list?: true | false | BundleToolOptions<typeof createListTool>;
  /** Adds `glob`: `true` for the defaults, or its options. */
  readonly glob?: true | false | BundleToolOptions<typeof createGlobTool>;
  /** Adds `grep`: `true` for the defaults, or its options. */
  readonly grep?: true | false | BundleToolOptions<typeof createGrepTool>;
  /**
   * Adds `bash`: its options, with a `runner` and an `env` (the portable bundle has no default
   * runner); `false` leaves it out.
   */
  readonly bash?: BundleToolOptions<typeof createBashTool> | false;
  /** Schema of each tool's `toolsContext` entry (the same schema for every tool of the bundle). */
  readonly contextSchema?: FlexibleSchema<Context>;
  /** AI SDK tool approval for every tool of the bundle (see `AiSdkAdapterOptions.needsApproval`). */
  readonly needsApproval?: boolean;
}

/** The tool name a tool's options give: the signature's literal name, or the default. */
type ToolNameOf<T, Default extends string> = T extends { readonly signature: { readonly name: infer N extends string } }
  ? N
  : Default;

/** The model input a tool's options give: the signature's, or the core input. */
type ModelInputOf<T, F extends CoreFactory> = T extends { readonly signature: { toInput(input: infer M): unknown } }
  ? M
  : CoreInputOf<F>;

type ToolEntry<T, F extends CoreFactory, Default extends string, Context> =
  string extends ToolNameOf<T, Default>
    ? { readonly [name: string]: AiSdkFsTool<ModelInputOf<T, F>, CoreResultOf<F>, Context> | undefined }
    : { readonly [K in ToolNameOf<T, Default>]: AiSdkFsTool<ModelInputOf<T, F>, CoreResultOf<F>, Context> };

/**
 * A tool that is on unless its option is `false`: no key when the option is exactly `false`,
 * else a non-optional one (options typed wide, where a `false` cannot be seen, type it as on).
 */
type DefaultEntry<T, F extends CoreFactory, Default extends string, Context> = [T] extends [false]
  ? unknown
  : ToolEntry<Exclude<T, false>, F, Default, Context>;

/**
 * A tool that exists only when its option is set: non-optional when set, absent when not set (or
 * `false`), optional when the options are typed wide (set or not cannot be seen).
 */
type OptionalEntry<T, F extends CoreFactory, Default extends string, Context> = [T] extends [undefined | false]
  ? unknown
  : [Extract<T, undefined | false>] extends [never]
    ? ToolEntry<T, F, Default, Context>
    : Partial<ToolEntry<Exclude<T, undefined | false>, F, Default, Context>>;

type ContextOf<O> = O extends { readonly contextSchema: FlexibleSchema<infer C> } ? C : AiSdkToolContext;
type Field<O, K extends string> = K extends keyof O ? O[K] : undefined;
/** A tool that changes files: left out with `write: false`. */
type Mutating<O, T> = [Field<O, "write">] extends [false] ? false : Withheld<O, T>;
/** A tool `readOnly: true` leaves out: those that change files, and bash. */
type Withheld<O, T> = [Field<O, "readOnly">] extends [true] ? false : T;

/**
 * The tools of {@link createAiSdkFsTools}, keyed by tool name.
 *
 * @typeParam O - the bundle's options.
 * @typeParam Context - the type of each tool's context (default: the `contextSchema`'s type).
 */
export type AiSdkFsToolSet<O, Context = ContextOf<O>> = DefaultEntry<
  Field<O, "read">,
  typeof createReadTool,
  "read",
  Context
> &
  DefaultEntry<Mutating<O, Field<O, "edit">>, typeof createEditTool, "edit", Context> &
  DefaultEntry<Withheld<O, Field<O, "write">>, typeof createWriteTool, "write", Context> &
  OptionalEntry<Mutating<O, Field<O, "applyPatch">>, typeof createApplyPatchTool, "apply_patch", Context> &
  OptionalEntry<Field<O, "list">, typeof createListTool, "list", Context> &
  OptionalEntry<Field<O, "glob">, typeof createGlobTool, "glob", Context> &
  OptionalEntry<Field<O, "grep">, typeof createGrepTool, "grep", Context> &
  OptionalEntry<Withheld<O, Field<O, "bash">>, typeof createBashTool, "bash", Context>;

/** The runners to name when `bash` lacks one. */
const RUNNERS =
  'runner: justBashCommandRunner({ fs, cwd }) from "better-fs-tools/shell" (a shell over the same files, confined to cwd, in the browser or Node) ' +
  'or nodeCommandRunner({ cwd }) from "better-fs-tools/node" (real processes, Node only)';

/**
 * What is wrong with the bundle's `bash` option (undefined when it has a runner and an env),
 * naming what is missing and the runners to use.
 */
function bashOptionProblem(bash: unknown): string | undefined {
  const record = typeof bash === "object" && bash !== null ? (bash as Record<string, unknown>) : undefined;
  const missing = [
    ...(record?.["runner"] === undefined ? ["a runner"] : []),
    ...(record?.["env"] === undefined ? ["an env"] : []),
  ];
  if (record !== undefined && missing.length === 0) return undefined;
  const what = record === undefined ? `got ${String(bash)}` : `it lacks ${missing.join(" and ")}`;
  const give = [
    ...(record?.["runner"] === undefined ? [RUNNERS] : []),
    ...(record?.["env"] === undefined ? ["env: the variables the commands see ({} for none)"] : []),
  ];
  return `${FACTORY} bash must be an object with a runner and an env: the portable bundle has no default runner (${what}). Give ${give.join(", and ")}`;
}

/** Each bundle key's single factory. */
const FACTORIES: Readonly<Record<keyof typeof BUNDLE_TOOL_KEYS, (options: never) => unknown>> = {
  read: createAiSdkReadTool,
  edit: createAiSdkEditTool,
  write: createAiSdkWriteTool,
  applyPatch: createAiSdkApplyPatchTool,
  list: createAiSdkListTool,
  glob: createAiSdkGlobTool,
  grep: createAiSdkGrepTool,
  bash: createAiSdkBashTool,
};

/**
 * Make the file tools for `generateText`/`streamText`: `read`, `edit`, `write`, plus
 * `apply_patch`, `list`, `glob` or `grep` when their key is `true` or their options, and `bash`
 * when `bash` is `{ runner, env, ... }`. Any tool can be left out with `false`; `write: false`
 * leaves out every tool that changes files (`write`, `edit`, `apply_patch`, and `bash`, whose commands write). Every tool is
 * strict (see `toStrictSchema`), runs over the same backend and gate, and shares the store,
 * locks, digest and clock given once at the top level. As with `createFsTools`, the
 * read-before-write check is on only with a `state` (`memoryStore()`), and without `locks` the
 * backend's own locks are used, so two tools writing one file take turns.
 *
 * @typeParam Context - the type of `call.host.context` in `fs` and `state` functions and of each
 *   tool's context: `createAiSdkFsTools<Workspace>({ contextSchema, fs: (call) => ... })`.
 *   Without it, the options are inferred and the context type is the `contextSchema`'s. With it,
 *   the result type has `read`, `edit` and `write`, and the other tools as optional keys.
 * @typeParam O - the options, inferred (do not pass it).
 * @param options - the shared tool options (`fs` required; `cwd`, `allowedRoots`, `permissions`,
 *   `state`, `locks`, `digest`, `clock`), per-tool options (`read`, `edit`, `write`,
 *   `applyPatch`, `list`, `glob`, `grep`, `bash`, each with an optional `signature`),
 *   `contextSchema`, `needsApproval`.
 * @returns `{ tools }`, keyed by tool name (a signature's name replaces the default), in the
 *   order read, edit, write, apply_patch, list, glob, grep, bash.
 * @throws TypeError at creation for: an unknown option key; a shared key inside one tool's
 *   options (`createAiSdkFsTools read options cannot set digest: set it once at the top level`);
 *   an unknown key there (`createAiSdkFsTools read got an unknown option "maxbytes". Known options:
 *   maxBytes, maxLineLength, converters, signature`), all {@link OptionError}s; a tool's options
 *   that are not an object (or `true`/`false` where taken); `edit`, `applyPatch` or `bash` set beside
 *   `write: false`; two tools with one name; `bash` that is not `false` or an object with a runner and an env
 *   (`createAiSdkFsTools bash must be an object with a runner and an env: the portable bundle has
 *   no default runner (it lacks a runner). Give runner: justBashCommandRunner({ fs, cwd }) from
 *   "better-fs-tools/shell" ...`, naming what is missing and the runners to use); a `contextSchema` that is not a schema; and whatever a core factory or
 *   the strict-schema conversion throws.
 * @example
 * ```ts
 * const { tools } = createAiSdkFsTools({ fs: memoryFileSystem(), cwd: "/", state: memoryStore(), applyPatch: true, grep: true });
 * const result = await generateText({ model, tools, prompt: "Fix the typo in README.md", stopWhen: isStepCount(20) });
 * ```
 */
export function createAiSdkFsTools<
  Context = unknown,
  const O extends AiSdkFsToolsOptions<Context> = AiSdkFsToolsOptions<Context>,
>(
  options: O & { readonly [K in Exclude<keyof O, keyof AiSdkFsToolsOptions<unknown>>]: never },
): { readonly tools: AiSdkFsToolSet<O, unknown extends Context ? ContextOf<O> : Context> } {
  assertKnownOptions(FACTORY, options, [
    ...CONTEXT_OPTION_KEYS,
    "readOnly",
    ...Object.keys(BUNDLE_TOOL_KEYS),
    ...ADAPTER_BUNDLE_KEYS,
  ]);
  const given = options as AiSdkFsToolsOptions<unknown>;
  const { bash, contextSchema, needsApproval } = given;
  const contextOptions = Object.fromEntries(
    Object.entries(given).filter(([key]) => (CONTEXT_OPTION_KEYS as readonly string[]).includes(key)),
  ) as Partial<AiSdkFsToolsOptions<unknown>>;
  checkFsOption(FACTORY, contextOptions.fs);
  if (needsApproval !== undefined && typeof needsApproval !== "boolean") {
    throw new TypeError(`${FACTORY} needsApproval must be a boolean, got ${JSON.stringify(needsApproval)}`);
  }
  assertContextSchema(FACTORY, contextSchema);
  const { state, ...rest } = contextOptions;
  const shared = {
    ...rest,
    ...(state === undefined || state === false ? {} : { state }),
    digest: contextOptions.digest ?? sha256Digest(),
  };
  const keys = Object.keys(BUNDLE_TOOL_KEYS) as Array<keyof typeof BUNDLE_TOOL_KEYS>;
  if (bash !== undefined && bash !== false) {
    const problem = bashOptionProblem(bash);
    if (problem !== undefined) throw new TypeError(problem);
  }
  // The one shape: false | true | options per tool, write: false and readOnly: true withhold.
  const selected = new Set(selectTools(FACTORY, given, { onByDefault: ON_BY_DEFAULT }).map(({ key }) => key));
  const isOn = (key: keyof typeof BUNDLE_TOOL_KEYS): boolean => selected.has(key);
  const toolOptions = (key: keyof typeof BUNDLE_TOOL_KEYS): Record<string, unknown> => {
    const value = given[key];
    const own = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
    assertNoSharedOptions(FACTORY, key, own, [...CONTEXT_OPTION_KEYS, "readOnly", ...ADAPTER_BUNDLE_KEYS]);
    assertKnownOptions(FACTORY, own, [...TOOL_SETTING_KEYS[key], "signature"], key);
    return { ...shared, ...own, contextSchema, needsApproval };
  };
  const entries: Array<[key: keyof typeof BUNDLE_TOOL_KEYS, name: string, tool: unknown]> = [];
  for (const key of keys) {
    if (!isOn(key)) continue;
    const toolSettings = toolOptions(key);
    const signature = toolSettings["signature"] as { name?: unknown } | undefined;
    const name = typeof signature?.name === "string" ? signature.name : BUNDLE_TOOL_KEYS[key];
    const clash = entries.find(([, other]) => other === name);
    if (clash !== undefined) {
      optionValueError(
        FACTORY,
        `${key}.signature`,
        `gives the tool name "${name}", which the ${clash[0]} tool has too: give one signature another name`,
      );
    }
    let tool: unknown;
    try {
      tool = FACTORIES[key](toolSettings as never);
    } catch (error) {
      // The single factory names its own options; restate them under the bundle's key.
      if (!OptionError.isInstance(error) || error.factory === FACTORY) throw error;
      throw isContextOption(error.option) ? error.restate(FACTORY) : error.restate(FACTORY, key);
    }
    entries.push([key, name, tool]);
  }
  const tools = Object.fromEntries(entries.map(([, name, tool]) => [name, tool]));
  return { tools: tools as AiSdkFsToolSet<O, unknown extends Context ? ContextOf<O> : Context> };
}

/**
 * `createAiSdkFsTools`: the file tools as one AI SDK tool set sharing one backend, one
 * read-before-write store, one set of locks, one digest and one clock.
 *
 * @module
 */
import type { FlexibleSchema } from "ai";
import type { createApplyPatchTool } from "../tools/apply-patch/index.js";
import type { createBashTool } from "../tools/bash.js";
import { CONTEXT_OPTION_KEYS, type PerCall, type ToolContextOptions } from "../tools/context.js";
import { assertKnownOptions, OptionError } from "../contract/options.js";
import { assertNoSharedOptions, isContextOption, TOOL_SETTING_KEYS } from "../tools/setting-keys.js";
import type { createEditTool } from "../tools/edit.js";
import type { createReadTool } from "../tools/read.js";
import type { FileStateStore } from "../tools/state.js";
import { sha256Digest } from "../contract/digest.js";
import type { ToolSignature } from "../tools/tool.js";
import type { createWriteTool } from "../tools/write.js";
import {
  adaptCoreFactory,
  createAiSdkApplyPatchTool,
  createAiSdkBashTool,
  createAiSdkEditTool,
  createAiSdkReadTool,
  createAiSdkWriteTool,
  type CoreInputOf,
  type CoreOptionsOf,
  type CoreResultOf,
} from "./single-tools.js";
import type { AiSdkFsTool, AiSdkToolContext } from "./tool.js";

const FACTORY = "createAiSdkFsTools";

/** The bundle's own keys that apply to every tool, set only at the top level. */
const ADAPTER_BUNDLE_KEYS = ["contextSchema", "needsApproval"] as const;

/** The per-tool option keys of the bundle, with the default tool name of each. */
export const BUNDLE_TOOL_KEYS = {
  read: "read",
  edit: "edit",
  write: "write",
  applyPatch: "apply_patch",
  bash: "bash",
} as const;

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

/** Options of {@link createAiSdkFsTools}. */
export interface AiSdkFsToolsOptions<Context = AiSdkToolContext> extends Omit<ToolContextOptions, "state"> {
  /**
   * Read-before-write store shared by all tools (as `createFsTools`): with one (`memoryStore()`),
   * edit, overwrite and apply_patch need a prior read and fail on a stale file. A function of the
   * call picks one per conversation. Absent or `false`: no check.
   * @default none (the check is opt-in)
   */
  readonly state?: PerCall<FileStateStore> | false;
  readonly read?: BundleToolOptions<typeof createReadTool>;
  readonly edit?: BundleToolOptions<typeof createEditTool>;
  readonly write?: BundleToolOptions<typeof createWriteTool>;
  /** Adds `apply_patch`: `true` for the defaults, or its options. */
  readonly applyPatch?: true | BundleToolOptions<typeof createApplyPatchTool>;
  /** Adds `bash`: its options, with a `runner` and an `env` (the portable bundle has no default runner). */
  readonly bash?: BundleToolOptions<typeof createBashTool>;
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

/** An entry that exists only when its option is set: non-optional when set, optional otherwise. */
type OptionalEntry<T, F extends CoreFactory, Default extends string, Context> = [T] extends [undefined]
  ? Partial<ToolEntry<undefined, F, Default, Context>>
  : undefined extends T
    ? Partial<ToolEntry<Exclude<T, undefined>, F, Default, Context>>
    : ToolEntry<T, F, Default, Context>;

type ContextOf<O> = O extends { readonly contextSchema: FlexibleSchema<infer C> } ? C : AiSdkToolContext;
type Field<O, K extends string> = K extends keyof O ? O[K] : undefined;

/** The tools of {@link createAiSdkFsTools}, keyed by tool name. */
export type AiSdkFsToolSet<O> = ToolEntry<Field<O, "read">, typeof createReadTool, "read", ContextOf<O>> &
  ToolEntry<Field<O, "edit">, typeof createEditTool, "edit", ContextOf<O>> &
  ToolEntry<Field<O, "write">, typeof createWriteTool, "write", ContextOf<O>> &
  OptionalEntry<Field<O, "applyPatch">, typeof createApplyPatchTool, "apply_patch", ContextOf<O>> &
  OptionalEntry<Field<O, "bash">, typeof createBashTool, "bash", ContextOf<O>>;

const BASH_MESSAGE = `${FACTORY} bash must be an object with a runner and an env: the portable bundle has no default runner`;

/**
 * Make the file tools for `generateText`/`streamText`: `read`, `edit`, `write`, plus
 * `apply_patch` when `applyPatch` is set and `bash` when `bash` is `{ runner, env, ... }`.
 * Every tool is strict (see `toStrictSchema`), runs over the same backend and gate, and shares
 * the store, locks, digest and clock given once at the top level. As with `createFsTools`, the
 * read-before-write check is on only with a `state` (`memoryStore()`), and without `locks` the
 * backend's own locks are used, so two tools writing one file take turns.
 *
 * @param options - the shared tool options (`fs` required; `cwd`, `allowedRoots`, `permissions`,
 *   `state`, `locks`, `digest`, `clock`), per-tool options (`read`, `edit`, `write`,
 *   `applyPatch`, `bash`, each with an optional `signature`), `contextSchema`, `needsApproval`.
 * @returns `{ tools }`, keyed by tool name (a signature's name replaces the default).
 * @throws TypeError at creation for: an unknown option key; a shared key inside one tool's
 *   options (`createAiSdkFsTools read.digest is a shared option: set it once at the top level`); an
 *   unknown key there (`createAiSdkFsTools read got an unknown option "maxbytes". Known options:
 *   maxBytes, maxLineLength, converters, signature`), all {@link OptionError}s;
 *   two tools with one name; `bash` that is not an object with a runner and an env
 *   (`createAiSdkFsTools bash must be an object with a runner and an env: the portable bundle has
 *   no default runner`); and whatever a core factory or the strict-schema conversion throws.
 * @example
 * ```ts
 * const { tools } = createAiSdkFsTools({ fs: memoryFileSystem(), cwd: "/", state: memoryStore(), applyPatch: true });
 * const result = await generateText({ model, tools, prompt: "Fix the typo in README.md", stopWhen: isStepCount(20) });
 * ```
 */
export function createAiSdkFsTools<const O extends AiSdkFsToolsOptions<unknown>>(
  options: O & { readonly [K in Exclude<keyof O, keyof AiSdkFsToolsOptions<unknown>>]: never },
): { readonly tools: AiSdkFsToolSet<O> } {
  assertKnownOptions(FACTORY, options, [
    ...CONTEXT_OPTION_KEYS,
    ...Object.keys(BUNDLE_TOOL_KEYS),
    ...ADAPTER_BUNDLE_KEYS,
  ]);
  const { read, edit, write, applyPatch, bash, contextSchema, needsApproval, ...contextOptions } =
    options as AiSdkFsToolsOptions<unknown>;
  if (contextOptions.fs === undefined || contextOptions.fs === null) {
    throw new TypeError(`${FACTORY} needs an fs option (a FileSystem, or a function of the call returning one)`);
  }
  if (needsApproval !== undefined && typeof needsApproval !== "boolean") {
    throw new TypeError(`${FACTORY} needsApproval must be a boolean, got ${JSON.stringify(needsApproval)}`);
  }
  const { state, ...rest } = contextOptions;
  const shared: ToolContextOptions = {
    ...rest,
    ...(state === undefined || state === false ? {} : { state }),
    digest: contextOptions.digest ?? sha256Digest(),
  };
  for (const [key, value] of [
    ["applyPatch", applyPatch] as const,
    ["read", read] as const,
    ["edit", edit] as const,
    ["write", write] as const,
  ]) {
    if (value !== undefined && value !== true && (typeof value !== "object" || value === null)) {
      throw new TypeError(`${FACTORY} ${key} must be an object of options${key === "applyPatch" ? " or true" : ""}`);
    }
  }
  if (bash !== undefined) {
    const record = bash as unknown as Record<string, unknown>;
    if (typeof bash !== "object" || bash === null || record["runner"] === undefined || record["env"] === undefined) {
      throw new TypeError(BASH_MESSAGE);
    }
  }
  const toolOptions = (
    key: keyof typeof BUNDLE_TOOL_KEYS,
    value: object | true | undefined,
  ): Record<string, unknown> => {
    const own = value === undefined || value === true ? {} : (value as Record<string, unknown>);
    assertNoSharedOptions(FACTORY, key, own, [...CONTEXT_OPTION_KEYS, ...ADAPTER_BUNDLE_KEYS]);
    assertKnownOptions(FACTORY, own, [...TOOL_SETTING_KEYS[key], "signature"], key);
    return { ...shared, ...own, contextSchema, needsApproval };
  };
  const entries: Array<[key: keyof typeof BUNDLE_TOOL_KEYS, name: string, tool: unknown]> = [];
  const add = (
    key: keyof typeof BUNDLE_TOOL_KEYS,
    options: Record<string, unknown>,
    make: (options: never) => unknown,
  ): void => {
    const signature = options["signature"] as { name?: unknown } | undefined;
    const name = typeof signature?.name === "string" ? signature.name : BUNDLE_TOOL_KEYS[key];
    const clash = entries.find(([, other]) => other === name);
    if (clash !== undefined) {
      throw new TypeError(
        `${FACTORY} has two tools named "${name}" (${clash[0]} and ${key} options): give one signature another name`,
      );
    }
    let tool: unknown;
    try {
      tool = make(options as never);
    } catch (error) {
      // The single factory names its own options; restate them under the bundle's key.
      if (!OptionError.isInstance(error) || error.factory === FACTORY) throw error;
      throw isContextOption(error.option) ? error.restate(FACTORY) : error.restate(FACTORY, key);
    }
    entries.push([key, name, tool]);
  };
  add("read", toolOptions("read", read), createAiSdkReadTool);
  add("edit", toolOptions("edit", edit), createAiSdkEditTool);
  add("write", toolOptions("write", write), createAiSdkWriteTool);
  if (applyPatch !== undefined) add("applyPatch", toolOptions("applyPatch", applyPatch), createAiSdkApplyPatchTool);
  if (bash !== undefined) add("bash", toolOptions("bash", bash), createAiSdkBashTool);
  const tools = Object.fromEntries(entries.map(([, name, tool]) => [name, tool]));
  return { tools: tools as AiSdkFsToolSet<O> };
}

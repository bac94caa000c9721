/**
 * `createFsTools`: the whole tool set over one backend, sharing one read-before-write store,
 * one set of locks, one digest and one clock, so a `read` lets a later `edit` through and two
 * mutations of one file (by edit, write or apply_patch) serialise.
 *
 * @module
 */
import { createApplyPatchTool, type ApplyPatchInput, type ApplyPatchToolOptions } from "../apply-patch/index.js";
import { createBashTool, type BashInput, type BashToolSettings, type FallbackRunner } from "../bash/index.js";
import { checkFsOption, CONTEXT_OPTION_KEYS, type PerCall, type ToolContextOptions } from "./context.js";
import { assertKnownOptions, OptionError, optionValueError } from "../../contract/options.js";
import {
  assertNoSharedOptions,
  isContextOption,
  TOOL_SETTING_KEYS,
  TOOL_SETTINGS_KEYS,
  type ToolSettingsKey,
} from "./setting-keys.js";
import { createEditTool, type EditInput, type EditToolSettings } from "../edit/index.js";
import { createGlobTool, type GlobInput, type GlobToolSettings } from "../glob/index.js";
import { createGrepTool, type GrepInput, type GrepToolSettings } from "../grep/index.js";
import { createListTool, type ListInput, type ListToolSettings } from "../list/index.js";
import { createReadTool, type ReadInput, type ReadToolSettings } from "../read/index.js";
import type { MutationResult, ReadResult, SearchResult, ShellResult, ToolResult } from "./result.js";
import type { FileStateStore } from "./state.js";
import { systemClock } from "../../contract/clock.js";
import { sha256Digest } from "../../contract/digest.js";
import { withSignature, type AnyCoreTool, type CoreTool, type ToolSignature } from "./tool.js";
import { selectTools } from "./tool-selection.js";
import { createWriteTool, type WriteInput, type WriteToolSettings } from "../write/index.js";

/** The `apply_patch` tool's own options (those of {@link ApplyPatchToolOptions} beyond the shared ones). */
export type ApplyPatchToolSettings = Omit<ApplyPatchToolOptions, keyof ToolContextOptions>;

/**
 * One tool's option in {@link createFsTools} (and `createMcpServer`): `false` leaves the tool
 * out, `true` makes it with its defaults, an object with these settings and, optionally, a
 * `signature` (a preset's, `lineRangePreset().read`) that gives it another name and parameters.
 */
export type FsToolOption<Settings, Input, Result extends ToolResult> =
  boolean | (Settings & { readonly signature?: ToolSignature<Input, never, Result> });

/**
 * Options of {@link createFsTools}: the shared context, `readOnly`, and a key per tool in the
 * one shape every entry point takes (`false`, `true` or its settings).
 */
export interface FsToolsOptions extends Omit<ToolContextOptions, "state"> {
  /**
   * Read-before-write store shared by all tools: with one (`memoryStore()`), edit, overwrite and
   * apply_patch need a prior read and fail on a stale file. A function of the call picks one per
   * session. Absent or `false`: no check.
   * @default none (the check is opt-in)
   */
  readonly state?: PerCall<FileStateStore> | false;
  /**
   * Leave out every tool that changes files or runs commands: `write`, `edit`, `apply_patch`
   * and `bash` (setting one of them beside it throws). @default false
   */
  readonly readOnly?: boolean;
  readonly read?: FsToolOption<ReadToolSettings, ReadInput, ReadResult>;
  /**
   * `false` leaves out `write`, and with it `edit`, `apply_patch` and `bash` (its commands write
   * files): setting one of them beside it throws.
   */
  readonly write?: FsToolOption<WriteToolSettings, WriteInput, MutationResult>;
  readonly edit?: FsToolOption<EditToolSettings, EditInput, MutationResult>;
  readonly list?: FsToolOption<ListToolSettings, ListInput, SearchResult>;
  readonly glob?: FsToolOption<GlobToolSettings, GlobInput, SearchResult>;
  readonly grep?: FsToolOption<GrepToolSettings, GrepInput, SearchResult>;
  /** Settings of `apply_patch` (createApplyPatchTool, src/tools/apply-patch/index.ts). */
  readonly applyPatch?: FsToolOption<ApplyPatchToolSettings, ApplyPatchInput, MutationResult>;
  /** Settings of `bash` (createBashTool, src/tools/bash/index.ts); without a `runner`, the default runner. */
  readonly bash?: FsToolOption<BashToolSettings, BashInput, ShellResult>;
}

/** The tools of {@link createFsTools} with every tool on and no signature, by core name. */
export interface FsTools {
  readonly read: CoreTool<ReadInput, ReadResult>;
  readonly write: CoreTool<WriteInput, MutationResult>;
  readonly edit: CoreTool<EditInput, MutationResult>;
  readonly list: CoreTool<ListInput, SearchResult>;
  readonly glob: CoreTool<GlobInput, SearchResult>;
  readonly grep: CoreTool<GrepInput, SearchResult>;
  readonly apply_patch: CoreTool<ApplyPatchInput, MutationResult>;
  readonly bash: CoreTool<BashInput, ShellResult>;
}

/** Each option key's core name (the key of its tool in {@link FsTools}). */
interface CoreNames {
  read: "read";
  write: "write";
  edit: "edit";
  list: "list";
  glob: "glob";
  grep: "grep";
  applyPatch: "apply_patch";
  bash: "bash";
}
type Field<O, K extends string> = K extends keyof O ? O[K] : undefined;
type Withheld = "write" | "edit" | "applyPatch" | "bash";
/** True when the options surely leave the tool out. */
type SurelyOff<O, K extends keyof CoreNames> = [Field<O, K>] extends [false]
  ? true
  : K extends Withheld
    ? [Field<O, "readOnly">] extends [true]
      ? true
      : K extends "edit" | "applyPatch" | "bash"
        ? [Field<O, "write">] extends [false]
          ? true
          : false
        : false
    : false;
/** A tool's type: the signature's model input when its settings give one. */
type ToolOf<T, K extends keyof CoreNames> = T extends { readonly signature: { toInput(input: infer M): unknown } }
  ? FsTools[CoreNames[K]] extends AnyCoreTool<infer R>
    ? CoreTool<M, R>
    : never
  : FsTools[CoreNames[K]];

/**
 * The tools {@link createFsTools} returns for options `O`, by core name: a tool the options
 * surely leave out (`grep: false`, `readOnly: true`, `write: false`) has no key; the others
 * have one (options typed wide, where a `false` cannot be seen, type the tool as there, as
 * `createAiSdkFsTools` does), and a tool with a signature takes the signature's input.
 * `FsToolsOf<{ fs: FileSystem }>` is {@link FsTools}.
 */
export type FsToolsOf<O> = {
  readonly [K in keyof CoreNames as SurelyOff<O, K> extends true ? never : CoreNames[K]]: ToolOf<Field<O, K>, K>;
};

const FACTORY = "createFsTools";

/**
 * Run a tool factory and restate its {@link OptionError} in the bundle's terms, from the error's
 * fields: `createReadTool got an unknown option "maxbytes"` becomes `createFsTools read got an
 * unknown option "maxbytes". Known options: maxBytes, maxLineLength, converters, signature` (the read
 * settings), `createReadTool maxBytes must be ...` becomes `createFsTools read.maxBytes must be
 * ...`, and a shared option's error (`createReadTool cwd ...`) is named at the top level
 * (`createFsTools cwd ...`). Other errors pass unchanged.
 */
function named<T>(key: ToolSettingsKey, create: () => T): T {
  try {
    return create();
  } catch (error) {
    if (!OptionError.isInstance(error) || error.factory === FACTORY) throw error;
    if (isContextOption(error.option)) throw error.restate(FACTORY);
    throw error.restate(FACTORY, key, [...TOOL_SETTING_KEYS[key], "signature"]);
  }
}

/** Each key's core factory. */
const MAKERS: Readonly<
  Record<ToolSettingsKey, (options: ToolContextOptions & Record<string, unknown>, fallback?: FallbackRunner) => unknown>
> = {
  read: (options) => createReadTool(options),
  write: (options) => createWriteTool(options),
  edit: (options) => createEditTool(options),
  list: (options) => createListTool(options),
  glob: (options) => createGlobTool(options),
  grep: (options) => createGrepTool(options),
  applyPatch: (options) => createApplyPatchTool(options),
  bash: (options, fallback) => createBashTool(options, fallback),
};

/**
 * Create the core tools over one backend with shared state.
 *
 * @param options - the shared context (`fs`, `cwd`, `allowedRoots`, `permissions`, `state`,
 *   `locks`, `digest`, `clock`), `readOnly`, and a key per tool (`read`, `write`, `edit`,
 *   `list`, `glob`, `grep`, `applyPatch`, `bash`): `false` leaves it out, `true` or absent makes
 *   it with its defaults, an object with these settings and an optional `signature`.
 *   `write: false` leaves out `edit`, `apply_patch` and `bash` (its commands write) too; `readOnly: true` leaves out `write`,
 *   `edit`, `apply_patch` and `bash`.
 * @param fallbackRunner - the runner `bash` uses without `bash.runner` (the package's entries
 *   pass just-bash's).
 * @returns `{ read, write, edit, list, glob, grep, apply_patch, bash }` ({@link FsToolsOf}),
 *   keyed by core name whatever their signature. They share the store given as `state` (none by
 *   default; with {@link memoryStore}, edit and overwrite need a prior read and fail on a stale
 *   file), locks (the host's `locks`, else the backend's own, {@link locksFor}: shared with
 *   every other tool and bundle over the same backend object), one digest
 *   ({@link sha256Digest}) and one clock.
 * @throws TypeError ({@link OptionError}) at creation for an unknown option (top level or in a
 *   tool's settings), a shared option under a tool's key, a bad value (named), a tool key that
 *   is not `false`, `true` or an object, a tool set beside `readOnly: true` or `write: false`
 *   that they leave out, and a `signature` that is not one.
 * @example
 * ```ts
 * const fs = memoryFileSystem({ files: { "/w/a.py": "debug = True\n" } });
 * const tools = createFsTools({ fs, cwd: "/w" });
 * await tools.read.execute({ path: "a.py" });
 * await tools.edit.execute({ path: "a.py", oldText: "True", newText: "False" });
 * const readOnlyTools = createFsTools({ fs, cwd: "/w", readOnly: true }); // read, list, glob, grep
 * ```
 */
export function createFsTools<const O extends FsToolsOptions>(
  options: O,
  fallbackRunner?: FallbackRunner,
): FsToolsOf<O> {
  if (typeof options !== "object" || options === null) throw new TypeError(`${FACTORY} needs an options object`);
  const known: readonly string[] = [...CONTEXT_OPTION_KEYS, "readOnly", ...TOOL_SETTINGS_KEYS];
  assertKnownOptions(FACTORY, options, known);
  checkFsOption(FACTORY, options.fs);
  const selected = selectTools(FACTORY, options, { onByDefault: TOOL_SETTINGS_KEYS });
  const shared: ToolContextOptions = {
    fs: options.fs,
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.allowedRoots !== undefined ? { allowedRoots: options.allowedRoots } : {}),
    ...(options.permissions !== undefined ? { permissions: options.permissions } : {}),
    ...(options.state === undefined || options.state === false ? {} : { state: options.state }),
    ...(options.locks !== undefined ? { locks: options.locks } : {}),
    digest: options.digest ?? sha256Digest(),
    clock: options.clock ?? systemClock,
  };
  const tools: Record<string, unknown> = {};
  const names = new Map<string, string>();
  for (const { key, signature } of selected) {
    const name = signature?.name ?? (key === "applyPatch" ? "apply_patch" : key);
    const other = names.get(name);
    if (other !== undefined) {
      optionValueError(
        FACTORY,
        `${key}.signature`,
        `gives the tool name "${name}", which the ${other} tool has too: give one signature another name`,
      );
    }
    names.set(name, key);
  }
  for (const { key, settings, signature } of selected) {
    assertNoSharedOptions(FACTORY, key, settings, [...CONTEXT_OPTION_KEYS, "readOnly"]);
    const core = named(key, () => MAKERS[key]({ ...shared, ...settings }, fallbackRunner)) as CoreTool<
      never,
      ToolResult
    >;
    tools[key === "applyPatch" ? "apply_patch" : key] = signature === undefined ? core : withSignature(core, signature);
  }
  return Object.freeze(tools) as FsToolsOf<O>;
}

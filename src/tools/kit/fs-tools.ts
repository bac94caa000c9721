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
import type { MutationResult, ReadResult, SearchResult, ShellResult } from "./result.js";
import type { FileStateStore } from "./state.js";
import { systemClock } from "../../contract/clock.js";
import { sha256Digest } from "../../contract/digest.js";
import type { CoreTool } from "./tool.js";
import { createWriteTool, type WriteInput, type WriteToolSettings } from "../write/index.js";

/** The `apply_patch` tool's own options (those of {@link ApplyPatchToolOptions} beyond the shared ones). */
export type ApplyPatchToolSettings = Omit<ApplyPatchToolOptions, keyof ToolContextOptions>;

/** Options of {@link createFsTools}: the shared context, plus each tool's own settings under its name. */
export interface FsToolsOptions extends Omit<ToolContextOptions, "state"> {
  /**
   * Read-before-write store shared by all tools: with one (`memoryStore()`), edit, overwrite and
   * apply_patch need a prior read and fail on a stale file. A function of the call picks one per
   * session. Absent or `false`: no check.
   * @default none (the check is opt-in)
   */
  readonly state?: PerCall<FileStateStore> | false;
  readonly read?: ReadToolSettings;
  readonly write?: WriteToolSettings;
  readonly edit?: EditToolSettings;
  readonly list?: ListToolSettings;
  readonly glob?: GlobToolSettings;
  readonly grep?: GrepToolSettings;
  /**
   * Settings of `apply_patch` (createApplyPatchTool, src/tools/apply-patch/index.ts), or `true`
   * for its defaults (the form `createAiSdkFsTools` takes; `apply_patch` is always in this set).
   */
  readonly applyPatch?: ApplyPatchToolSettings | true;
  /** Settings of `bash` (createBashTool, src/tools/bash.ts). */
  readonly bash?: BashToolSettings;
}

/** The tools of {@link createFsTools}, by core name. */
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

const FACTORY = "createFsTools";

function settingsOf<T extends object>(options: FsToolsOptions, key: ToolSettingsKey): T {
  const value = options[key];
  // `applyPatch: true` (the AI SDK bundle's form) is its defaults here, where the tool is always made.
  if (value === undefined || (key === "applyPatch" && value === true)) return {} as T;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    optionValueError(FACTORY, key, `must be an object of ${key} settings`);
  }
  assertNoSharedOptions(FACTORY, key, value, CONTEXT_OPTION_KEYS);
  return value as T;
}

/**
 * Run a tool factory and restate its {@link OptionError} in the bundle's terms, from the error's
 * fields: `createReadTool got an unknown option "maxbytes"` becomes `createFsTools read got an
 * unknown option "maxbytes". Known options: maxBytes, maxLineLength, converters` (the read
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
    throw error.restate(FACTORY, key, TOOL_SETTING_KEYS[key]);
  }
}

/**
 * Create every core tool over one backend with shared state.
 *
 * @param options - the shared context (`fs`, `cwd`, `allowedRoots`, `permissions`, `state`,
 *   `locks`, `digest`, `clock`) and per-tool settings under `read`, `write`, `edit`, `list`,
 *   `glob`, `grep`, `applyPatch` (or `applyPatch: true`, the defaults), `bash`.
 * @returns `{ read, write, edit, list, glob, grep, apply_patch, bash }`. They share the store
 *   given as `state` (none by default; with {@link memoryStore}, edit and overwrite need a prior
 *   read and fail on a stale file),
 *   locks (the host's `locks`, else the backend's own, {@link locksFor}: shared with every other
 *   tool and bundle over the same backend object), one digest ({@link sha256Digest}) and one clock.
 * @throws TypeError at creation for an unknown option (top level or in a tool's settings), a
 *   shared option under a tool's key, or a bad value (named).
 * @example
 * ```ts
 * const fs = memoryFileSystem({ files: { "/w/a.py": "debug = True\n" } });
 * const tools = createFsTools({ fs, cwd: "/w" });
 * await tools.read.execute({ path: "a.py" });
 * await tools.edit.execute({ path: "a.py", oldText: "True", newText: "False" });
 * ```
 */
export function createFsTools(options: FsToolsOptions, fallbackRunner?: FallbackRunner): FsTools {
  if (typeof options !== "object" || options === null) throw new TypeError(`${FACTORY} needs an options object`);
  const known: readonly string[] = [...CONTEXT_OPTION_KEYS, ...TOOL_SETTINGS_KEYS];
  assertKnownOptions(FACTORY, options, known);
  checkFsOption(FACTORY, options.fs);
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
  return Object.freeze({
    read: named("read", () => createReadTool({ ...shared, ...settingsOf<ReadToolSettings>(options, "read") })),
    write: named("write", () => createWriteTool({ ...shared, ...settingsOf<WriteToolSettings>(options, "write") })),
    edit: named("edit", () => createEditTool({ ...shared, ...settingsOf<EditToolSettings>(options, "edit") })),
    list: named("list", () => createListTool({ ...shared, ...settingsOf<ListToolSettings>(options, "list") })),
    glob: named("glob", () => createGlobTool({ ...shared, ...settingsOf<GlobToolSettings>(options, "glob") })),
    grep: named("grep", () => createGrepTool({ ...shared, ...settingsOf<GrepToolSettings>(options, "grep") })),
    apply_patch: named("applyPatch", () =>
      createApplyPatchTool({ ...shared, ...settingsOf<ApplyPatchToolSettings>(options, "applyPatch") }),
    ),
    bash: named("bash", () =>
      createBashTool({ ...shared, ...settingsOf<BashToolSettings>(options, "bash") }, fallbackRunner),
    ),
  });
}

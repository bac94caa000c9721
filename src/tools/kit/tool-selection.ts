/**
 * The one shape of tool options every entry point takes (`createFsTools`, `createAiSdkFsTools`,
 * `createWorkspaceAgent`, `createMcpServer`): a key per tool (`read`, `write`, `edit`,
 * `applyPatch`, `list`, `glob`, `grep`, `bash`) that is `false` (left out), `true` (on, with its
 * defaults) or its settings (on, with an optional `signature`), plus `readOnly: true`. Which
 * tools are on when their key is absent is the entry point's; what a key means is the same
 * everywhere.
 *
 * @module
 */
import { optionValueError } from "../../contract/options.js";
import { TOOL_SETTINGS_KEYS, type ToolSettingsKey } from "./setting-keys.js";
import type { ToolResult } from "./result.js";
import type { ToolSignature } from "./tool.js";

/** The tools that change files: `readOnly: true` withholds them, `write: false` the last two with `write`. */
export const MUTATING_TOOL_KEYS = ["write", "edit", "applyPatch"] as const;

/** The tools `readOnly: true` withholds: those that change files, and `bash`. */
export const READ_ONLY_WITHHELD_KEYS = [...MUTATING_TOOL_KEYS, "bash"] as const;

/**
 * The tools `write: false` withholds besides `write` (setting one beside it throws): `edit`,
 * `applyPatch`, and `bash`, whose commands write files (`echo x > a.txt`), default runner or not.
 */
export const WRITE_FALSE_WITHHELD_KEYS = ["edit", "applyPatch", "bash"] as const;

/**
 * One tool's option in the one shape: `false` leaves it out, `true` turns it on with its
 * defaults, an object turns it on with these settings (and a `signature`, where the entry point
 * speaks signatures).
 */
export type ToolOption<Settings> = boolean | Settings;

/** One tool an entry point is to make: its key, its own settings and its signature, if any. */
export interface SelectedTool {
  readonly key: ToolSettingsKey;
  /** The settings given under the key, without `signature` (empty for `true` or absent). */
  readonly settings: Readonly<Record<string, unknown>>;
  /** The signature given under the key. */
  readonly signature: ToolSignature<never, never, ToolResult> | undefined;
}

/** How {@link selectTools} reads one entry point's options. */
export interface ToolSelectionRules {
  /** The tools that are on when their key is absent. */
  readonly onByDefault: readonly ToolSettingsKey[];
  /** Whether a `signature` inside a tool's settings is taken (else it is refused). @default true */
  readonly signatures?: boolean;
}

/** The tool each preset signature was made for (a signature of another tool is refused). */
const SIGNATURE_TOOLS = new WeakMap<object, ToolSettingsKey>();

/**
 * Record which tool each signature of a preset was made for, so that an entry point refuses it
 * under another tool's key (`grep: { signature: lineRangePreset().read }`).
 *
 * @param preset - the preset: a signature per tool key.
 * @returns the preset, unchanged.
 * @example
 * ```ts
 * return forTools({ read, list, write, edit });
 * ```
 */
export function forTools<P extends Partial<Record<ToolSettingsKey, object>>>(preset: P): P {
  for (const [key, signature] of Object.entries(preset)) {
    if (typeof signature === "object" && signature !== null) SIGNATURE_TOOLS.set(signature, key as ToolSettingsKey);
  }
  return preset;
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== false;
}

function checkSignature(factory: string, key: string, signature: unknown): ToolSelectionSignature {
  const record = signature as Record<string, unknown> | null;
  if (
    typeof signature !== "object" ||
    record === null ||
    typeof record["name"] !== "string" ||
    typeof record["inputSchema"] !== "object" ||
    typeof record["toInput"] !== "function"
  ) {
    optionValueError(
      factory,
      `${key}.signature`,
      "must be a signature ({ name, inputSchema, toInput }), e.g. lineRangePreset().read",
    );
  }
  return signature as ToolSelectionSignature;
}

type ToolSelectionSignature = ToolSignature<never, never, ToolResult>;

/**
 * Read the tool keys and `readOnly` of an entry point's options: which tools to make, in the
 * order `read`, `write`, `edit`, `list`, `glob`, `grep`, `applyPatch`, `bash`, each with its
 * settings and signature. The settings' own keys are left to the tool factories to check.
 *
 * @param factory - the entry point's name, for messages (`createWorkspaceAgent`).
 * @param options - the entry point's options (only the tool keys and `readOnly` are read).
 * @param rules - the tools on by default, and whether signatures are taken.
 * @returns the tools to make.
 * @throws OptionError (a TypeError) when `readOnly` is not a boolean; a tool key is not
 *   `false`, `true` or an object (`createFsTools grep must be false, true or an object of grep
 *   settings, got 3`); `write`, `edit`, `applyPatch` or `bash` is set beside `readOnly: true`
 *   (`createWorkspaceAgent bash cannot be set with readOnly: true (readOnly leaves out write,
 *   edit, apply_patch and bash)`); `edit`, `applyPatch` or `bash` is set beside `write: false` (it withholds all three); a
 *   `signature` is not a signature, is a preset's signature of another tool, or is given where
 *   `rules.signatures` is `false`.
 * @example
 * ```ts
 * selectTools("createFsTools", { readOnly: true, grep: { maxMatches: 10 } }, { onByDefault: TOOL_SETTINGS_KEYS });
 * // [{ key: "read", settings: {} }, { key: "list", ... }, { key: "glob", ... }, { key: "grep", settings: { maxMatches: 10 } }]
 * ```
 */
export function selectTools(
  factory: string,
  options: { readonly readOnly?: unknown } & Partial<Record<ToolSettingsKey, unknown>>,
  rules: ToolSelectionRules,
): SelectedTool[] {
  const readOnly = options.readOnly;
  if (readOnly !== undefined && typeof readOnly !== "boolean") {
    optionValueError(factory, "readOnly", `must be a boolean, got ${JSON.stringify(readOnly)}`);
  }
  for (const key of TOOL_SETTINGS_KEYS) {
    const value = options[key];
    if (value !== undefined && typeof value !== "boolean" && (typeof value !== "object" || value === null)) {
      optionValueError(
        factory,
        key,
        `must be false, true or an object of ${key} settings, got ${JSON.stringify(value)}`,
      );
    }
  }
  if (readOnly === true) {
    const extra = READ_ONLY_WITHHELD_KEYS.find((key) => isSet(options[key]));
    if (extra !== undefined) {
      optionValueError(
        factory,
        extra,
        "cannot be set with readOnly: true (readOnly leaves out write, edit, apply_patch and bash)",
      );
    }
  }
  if (options.write === false) {
    const extra = WRITE_FALSE_WITHHELD_KEYS.find((key) => isSet(options[key]));
    if (extra !== undefined) {
      optionValueError(
        factory,
        extra,
        "cannot be set with write: false (write: false leaves out every tool that changes files: write, edit, apply_patch, and bash, whose commands write files; a shell needs write on)",
      );
    }
  }
  const withheld = (key: ToolSettingsKey): boolean =>
    (readOnly === true && (READ_ONLY_WITHHELD_KEYS as readonly string[]).includes(key)) ||
    (options.write === false && (WRITE_FALSE_WITHHELD_KEYS as readonly string[]).includes(key));
  const selected: SelectedTool[] = [];
  for (const key of TOOL_SETTINGS_KEYS) {
    const value = options[key];
    if (value === false || withheld(key)) continue;
    if (value === undefined && !rules.onByDefault.includes(key)) continue;
    const own = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
    const { signature, ...settings } = own;
    if (signature !== undefined && rules.signatures === false) {
      optionValueError(
        factory,
        `${key}.signature`,
        "is not taken here: this entry point's tool names and parameters are fixed (use another dialect, or createAiSdkFsTools)",
      );
    }
    const checked = signature === undefined ? undefined : checkSignature(factory, key, signature);
    const madeFor = checked === undefined ? undefined : SIGNATURE_TOOLS.get(checked);
    if (checked !== undefined && madeFor !== undefined && madeFor !== key) {
      optionValueError(
        factory,
        `${key}.signature`,
        `is the ${madeFor} tool's signature (${checked.name}), not ${key}'s: take the preset's ${key} signature`,
      );
    }
    selected.push({ key, settings, signature: checked });
  }
  return selected;
}

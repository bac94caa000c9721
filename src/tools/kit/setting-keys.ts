/**
 * The one list of each core tool's own option keys, by the key a bundle takes its settings
 * under: used by `createFsTools` and by the AI SDK factories and bundle, so a setting added to
 * a tool is known everywhere at once.
 *
 * @module
 */
import { APPLY_PATCH_SETTING_KEYS } from "../apply-patch/index.js";
import { BASH_SETTING_KEYS } from "../bash/index.js";
import { CONTEXT_OPTION_KEYS } from "./context.js";
import { OptionError } from "../../contract/options.js";
import { EDIT_SETTING_KEYS } from "../edit/index.js";
import { GLOB_SETTING_KEYS } from "../glob/index.js";
import { GREP_SETTING_KEYS } from "../grep/index.js";
import { LIST_SETTING_KEYS } from "../list/index.js";
import { READ_SETTING_KEYS } from "../read/index.js";
import { WRITE_SETTING_KEYS } from "../write/index.js";
import { TOOL_SETTINGS_KEYS, type ToolSettingsKey } from "./tool-keys.js";

export { TOOL_SETTINGS_KEYS, type ToolSettingsKey };

/** Each core tool's own option keys (besides {@link CONTEXT_OPTION_KEYS}), by bundle key. */
export const TOOL_SETTING_KEYS = Object.freeze({
  read: READ_SETTING_KEYS,
  write: WRITE_SETTING_KEYS,
  edit: EDIT_SETTING_KEYS,
  list: LIST_SETTING_KEYS,
  glob: GLOB_SETTING_KEYS,
  grep: GREP_SETTING_KEYS,
  applyPatch: APPLY_PATCH_SETTING_KEYS,
  bash: BASH_SETTING_KEYS,
} as const) satisfies Readonly<Record<ToolSettingsKey, readonly string[]>>;

/**
 * True when an option path (`cwd`, `permissions.allow[0].tool`) lies under one of the shared
 * context options, which a bundle takes once at its top level.
 *
 * @param option - an option path, as in `OptionError.option`.
 * @returns whether its first component is one of {@link CONTEXT_OPTION_KEYS}.
 * @example
 * ```ts
 * isContextOption("permissions.allow"); // true
 * isContextOption("maxBytes"); // false
 * ```
 */
export function isContextOption(option: string): boolean {
  return CONTEXT_OPTION_KEYS.some(
    (name) => option === name || option.startsWith(`${name}.`) || option.startsWith(`${name}[`),
  );
}

/**
 * Refuse a shared option set inside one tool's settings of a bundle (`read: { cwd }`): the
 * bundle takes it once, at its top level.
 *
 * @param factory - the bundle's factory name.
 * @param key - the tool's key in the bundle (`read`).
 * @param settings - that tool's settings object.
 * @param shared - the keys taken at the top level only: {@link CONTEXT_OPTION_KEYS} and the
 *   bundle's own (`contextSchema`, `needsApproval`).
 * @throws OptionError `createFsTools read options cannot set cwd: set it once at the top level`
 *   (`option: "read.cwd"`, `sharedIn: "read"`, `problem: "cannot set cwd: set it once at the top level"`).
 * @example
 * ```ts
 * assertNoSharedOptions("createFsTools", "read", { cwd: "/w" }, CONTEXT_OPTION_KEYS); // throws
 * ```
 */
export function assertNoSharedOptions(factory: string, key: string, settings: object, shared: readonly string[]): void {
  for (const name of shared) {
    if (Object.hasOwn(settings, name)) {
      throw new OptionError({
        factory,
        option: `${key}.${name}`,
        problem: `cannot set ${name}: set it once at the top level`,
        sharedIn: key,
      });
    }
  }
}

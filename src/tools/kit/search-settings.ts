/**
 * Options shared by the search tools (list, glob, grep): concurrency, ignored directories and
 * output offloading, checked once at creation.
 *
 * @module
 */
import { optionValueError } from "../../contract/options.js";
import { checkOffloadOptions, type OffloadOptions } from "./offload.js";
import { DEFAULT_IGNORED_DIRECTORIES, DEFAULT_WALK_CONCURRENCY } from "./walk.js";

/** Options every search tool takes. */
export interface SearchSettings {
  /** Backend calls in flight during a walk. @default DEFAULT_WALK_CONCURRENCY (32) */
  readonly concurrency?: number;
  /** Directory names not entered while walking. @default DEFAULT_IGNORED_DIRECTORIES (`.git`, `node_modules`, `tool-outputs`) */
  readonly ignoreDirectories?: readonly string[];
  /**
   * Results over `thresholdBytes` are saved to `tool-outputs/<id>.txt` and the model gets a
   * preview plus the path; `false` turns offloading off. @default {} (the offload defaults)
   */
  readonly offload?: OffloadOptions | false;
}

/** The keys of {@link SearchSettings}. */
export const SEARCH_SETTING_KEYS = ["concurrency", "ignoreDirectories", "offload"] as const;

/** Resolved search settings. */
export interface ResolvedSearchSettings {
  readonly concurrency: number;
  readonly ignoreDirectories: readonly string[];
  readonly offload: OffloadOptions | false;
}

/**
 * Check and resolve {@link SearchSettings}.
 *
 * @throws OptionError naming the option: a `concurrency` that is not a positive integer, an
 *   `ignoreDirectories` that is not an array of names, a bad `offload`.
 */
export function resolveSearchSettings(factory: string, settings: SearchSettings): ResolvedSearchSettings {
  const concurrency = settings.concurrency ?? DEFAULT_WALK_CONCURRENCY;
  if (!Number.isSafeInteger(concurrency) || concurrency <= 0) {
    optionValueError(
      factory,
      "concurrency",
      `must be a positive integer, got ${typeof concurrency === "string" ? JSON.stringify(concurrency) : String(concurrency)}`,
    );
  }
  const ignoreDirectories = settings.ignoreDirectories ?? DEFAULT_IGNORED_DIRECTORIES;
  if (
    !Array.isArray(ignoreDirectories) ||
    ignoreDirectories.some((name) => typeof name !== "string" || name.includes("/"))
  ) {
    optionValueError(factory, "ignoreDirectories", "must be an array of directory names (no slashes)");
  }
  checkOffloadOptions(factory, "offload", settings.offload);
  return Object.freeze({
    concurrency,
    ignoreDirectories: Object.freeze([...ignoreDirectories]),
    offload: settings.offload ?? {},
  });
}

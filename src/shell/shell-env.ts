/**
 * `shellEnv`: the environment commands run with. The core never reads `process.env`; the host
 * hands a function that returns its environment, and this filters it on every command.
 *
 * @module
 */
import type { ShellEnv } from "../contract/runner.js";
import picomatch from "picomatch";
import { assertKnownOptions } from "../contract/options.js";

/** Where variables come from: called before every command (so changes are seen). */
export type ShellEnvSource = () => Readonly<Record<string, string | undefined>>;

/**
 * Names left out by default because they usually hold secrets the model should not read back
 * with `env`: `*_KEY`, `*_TOKEN`, `*SECRET*`, `*PASSWORD*`, `*PASSWD*`, `*CREDENTIAL*`,
 * `*_AUTH`, `*COOKIE*`, `*SESSION*`, `*PRIVATE*` (matched without regard to case).
 */
export const DEFAULT_SECRET_ENV_PATTERNS: readonly string[] = Object.freeze([
  "*_KEY",
  "*_TOKEN",
  "*SECRET*",
  "*PASSWORD*",
  "*PASSWD*",
  "*CREDENTIAL*",
  "*_AUTH",
  "*COOKIE*",
  "*SESSION*",
  "*PRIVATE*",
]);

/** Options of {@link shellEnv}. */
export interface ShellEnvOptions {
  /** Keep only these names (globs: `LC_*`). Default: every name. */
  readonly include?: readonly string[];
  /** Drop these names (globs, case-insensitive). @default DEFAULT_SECRET_ENV_PATTERNS */
  readonly exclude?: readonly string[];
  /** Set after filtering, over the source's values (not filtered). */
  readonly set?: Readonly<Record<string, string>>;
}

const OPTION_KEYS = ["include", "exclude", "set"] as const;

function checkPatterns(option: string, value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string" || item === "")) {
    throw new TypeError(`shellEnv ${option} must be an array of non-empty name patterns`);
  }
  return value as readonly string[];
}

/**
 * Build the environment function the bash tool and the runners use.
 *
 * Each call reads `source()`, drops `undefined` values, keeps only `include` names (when given),
 * drops `exclude` names (secrets by default), then applies `set`. The result is a new frozen
 * object; the source is never changed.
 *
 * @param source - a function returning the host's variables (`() => process.env` in Node, a
 *   fixed object in a browser).
 * @param options - see {@link ShellEnvOptions}.
 * @returns a {@link ShellEnv} to pass as the bash tool's `env`.
 * @throws TypeError at creation when `source` is not a function, an option is unknown, a
 *   pattern list is not an array of non-empty strings, or `set` holds a non-string value.
 * @example
 * ```ts
 * const env = shellEnv(() => process.env, { include: ["PATH", "HOME", "LANG", "LC_*"] });
 * const bash = createBashTool({
 *   fs, runner: nodeCommandRunner({ cwd }), env,
 *   permissions: { allow: [{ tool: "runBash", command: "npm test" }] }, // a real bash fails closed without rules
 * });
 * env(); // { PATH: "/usr/bin:/bin", HOME: "/home/me", LANG: "C.UTF-8" }
 * ```
 */
export function shellEnv(source: ShellEnvSource, options: ShellEnvOptions = {}): ShellEnv {
  if (typeof source !== "function")
    throw new TypeError("shellEnv needs a function returning the environment, e.g. () => process.env");
  if (typeof options !== "object" || options === null) throw new TypeError("shellEnv options must be an object");
  assertKnownOptions("shellEnv", options, OPTION_KEYS);
  const include = checkPatterns("include", options.include);
  const exclude = checkPatterns("exclude", options.exclude) ?? DEFAULT_SECRET_ENV_PATTERNS;
  const set = options.set ?? {};
  if (typeof set !== "object" || set === null || Object.values(set).some((value) => typeof value !== "string")) {
    throw new TypeError("shellEnv set must be an object of string values");
  }
  const included = include === undefined ? () => true : picomatch([...include], { dot: true });
  const excluded = exclude.length === 0 ? () => false : picomatch([...exclude], { dot: true, nocase: true });
  const fixed = { ...set };

  return () => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(source())) {
      if (typeof value !== "string" || !included(name) || excluded(name)) continue;
      out[name] = value;
    }
    return Object.freeze(Object.assign(out, fixed));
  };
}

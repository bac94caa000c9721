/**
 * What every core tool runs over: the backend (behind the gate), the read-before-write store,
 * locks, digest and clock. Shared by read, write, edit, apply_patch, list, glob, grep and bash.
 *
 * @module
 */
import type { FileSystem } from "../../contract/types.js";
import { createGate, type Gate, type PermissionOptions } from "../../gate/gate.js";
import { isWithin, resolvePath } from "../../contract/path.js";
import type { ToolCall } from "./tool.js";
import { type FileStateStore } from "./state.js";
import { systemClock, type Clock } from "../../contract/clock.js";
import { sha256Digest, type Digest } from "../../contract/digest.js";
import { memoryLocks, type Locks } from "../../contract/locks.js";
import { assertKnownOptions, optionValueError } from "../../contract/options.js";

/** A value, or a function of the tool call giving it (so one tool can serve many workspaces). */
export type PerCall<T> = T | ((call: ToolCall) => T | Promise<T>);

/** Options every core tool factory takes. */
export interface ToolContextOptions {
  /** The backend, or a function of the call that picks one (e.g. per request from `call.host.context`). */
  readonly fs: PerCall<FileSystem>;
  /** Working directory for relative paths (absolute). Default: the first allowed root, or `/`. */
  readonly cwd?: string;
  /**
   * Roots the tools may use without a rule (absolute). Default: `[cwd]`. An empty list throws a
   * TypeError at creation (it would admit nothing); a root that does not exist yet admits what
   * will be under it.
   */
  readonly allowedRoots?: readonly string[];
  /** Allow rules and the approve callback for paths outside the roots, and for bash commands. */
  readonly permissions?: PermissionOptions;
  /** Read-before-write store. Without one (or with `false`), writes and edits do not require a prior read. */
  readonly state?: PerCall<FileStateStore> | false;
  /**
   * Per-path locks. Default: the locks of the backend object ({@link locksFor}), shared by every
   * tool over that backend (single tools and bundles alike), so mutations of one path serialize
   * even across tools and bundles. A host whose backends are several objects over one storage
   * passes its own.
   */
  readonly locks?: Locks;
  /** Content digest for staleness checks. Default: {@link sha256Digest}. */
  readonly digest?: Digest;
  /** Clock in milliseconds since the epoch. Default: `Date.now`. */
  readonly clock?: Clock;
}

/** The option keys of {@link ToolContextOptions}: shared by all tools of a bundle. */
export const CONTEXT_OPTION_KEYS = [
  "fs",
  "cwd",
  "allowedRoots",
  "permissions",
  "state",
  "locks",
  "digest",
  "clock",
] as const satisfies ReadonlyArray<keyof ToolContextOptions>;

/** The default locks of each backend object: one {@link memoryLocks} per FileSystem. */
const locksByBackend = new WeakMap<FileSystem, Locks>();

/**
 * The default per-path locks of a backend: the same {@link Locks} for every tool created over
 * the same FileSystem object, so two tools (or two bundles) over one backend serialize their
 * mutations of a path. Held weakly: dropped with the backend.
 *
 * @param fs - the backend object (not the gate's wrapper).
 * @returns the backend's locks, created on first use.
 * @example
 * ```ts
 * locksFor(fs) === locksFor(fs); // true
 * ```
 */
export function locksFor(fs: FileSystem): Locks {
  if (fs.locks !== undefined) return fs.locks;
  let locks = locksByBackend.get(fs);
  if (locks === undefined) {
    locks = memoryLocks();
    locksByBackend.set(fs, locks);
  }
  return locks;
}

const PERMISSION_KEYS = ["allow", "deny", "approve"] as const;
const RULE_TOOLS = ["readFile", "writeFile", "listDir", "runBash"] as const;

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  if (typeof value === "function") return "a function";
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

function checkPermissions(factory: string, permissions: unknown): void {
  if (permissions === undefined) return;
  if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
    optionValueError(factory, "permissions", `must be an object ({ allow, approve }), got ${describe(permissions)}`);
  }
  assertKnownOptions(factory, permissions, PERMISSION_KEYS, "permissions");
  const { allow, approve } = permissions as PermissionOptions;
  if (allow !== undefined) {
    if (!Array.isArray(allow))
      optionValueError(factory, "permissions.allow", `must be an array of rules, got ${describe(allow)}`);
    allow.forEach((rule: unknown, index) => {
      const tool = typeof rule === "object" && rule !== null ? (rule as { tool?: unknown }).tool : undefined;
      if (typeof tool !== "string" || !(RULE_TOOLS as readonly string[]).includes(tool)) {
        optionValueError(
          factory,
          `permissions.allow[${index}].tool`,
          `must be one of ${RULE_TOOLS.join(", ")}, got ${JSON.stringify(tool) ?? "undefined"}`,
        );
      }
    });
  }
  if (approve !== undefined && typeof approve !== "function") {
    optionValueError(factory, "permissions.approve", `must be a function, got ${describe(approve)}`);
  }
}

/** What a tool sees during one call. */
export interface ToolContext {
  /** The gate for this call; `gate.fs` is the checked backend, `gate.check` resolves paths. */
  readonly gate: Gate;
  readonly state: FileStateStore | undefined;
  readonly locks: Locks;
  readonly digest: Digest;
  readonly clock: Clock;
  readonly call: ToolCall;
}

export { assertKnownOptions };

/**
 * Check a factory's `fs` option: a FileSystem (an object), or a function of the call returning
 * one. A path given instead (`fs: "/tmp"`) is refused with the backend to wrap it in.
 *
 * @param factory - the factory named in the message.
 * @param fs - the option's value.
 * @throws OptionError naming `fs`: missing (`createFsTools fs must be given: a FileSystem such
 *   as memoryFileSystem() ...`), a string (`... must be a FileSystem, not a path: to work on the
 *   directory "/tmp" of this machine, pass fs: nodeFileSystem({ cwd: "/tmp" }) ...`), or
 *   another value.
 * @example
 * ```ts
 * checkFsOption("createFsTools", memoryFileSystem()); // passes
 * checkFsOption("createFsTools", "/tmp"); // throws OptionError
 * ```
 */
export function checkFsOption(factory: string, fs: unknown): void {
  const backends =
    'a FileSystem such as memoryFileSystem() from "better-fs-tools/memory" or, in Node, nodeFileSystem({ cwd }) from "better-fs-tools/node" (or a function of the call returning one)';
  if (fs === undefined || fs === null) optionValueError(factory, "fs", `must be given: ${backends}`);
  if (typeof fs === "string") {
    optionValueError(
      factory,
      "fs",
      `must be a FileSystem, not a path: to work on the directory ${JSON.stringify(fs)} of this machine, pass ` +
        `fs: nodeFileSystem({ cwd: ${JSON.stringify(fs)} }) from "better-fs-tools/node" (Node only; cwd: ${JSON.stringify(fs)} too), ` +
        'or memoryFileSystem() from "better-fs-tools/memory" for files in memory',
    );
  }
  if (typeof fs !== "object" && typeof fs !== "function") {
    optionValueError(factory, "fs", `must be ${backends}, got ${describe(fs)}`);
  }
}

/**
 * Validate the shared options once, at creation, and return a function that builds the
 * {@link ToolContext} of each call.
 *
 * @param factory - the calling factory's name, for error messages.
 * @returns a resolver; it rejects with a plain `Error` (which {@link guardExecute} turns into an
 *   `EIO` result) when the call's `fs` or `state` function throws or gives no value.
 * @throws TypeError naming the option when `fs` is missing; `cwd` is not absolute or lies outside
 *   every allowed root; `allowedRoots` is not an array of absolute paths; `state` is not a store,
 *   a function or `false`; `locks` has no `run`; `digest` or `clock` is not a function;
 *   `permissions` has an unknown key, an `allow` that is not an array of rules with a known
 *   `tool`, or an `approve` that is not a function.
 */
export function createContextResolver(
  factory: string,
  options: ToolContextOptions,
): (call?: ToolCall) => Promise<ToolContext> {
  checkFsOption(factory, options.fs);
  if (options.cwd !== undefined && (typeof options.cwd !== "string" || !options.cwd.startsWith("/"))) {
    optionValueError(factory, "cwd", `must be an absolute path, got ${JSON.stringify(options.cwd)}`);
  }
  if (options.allowedRoots !== undefined && !Array.isArray(options.allowedRoots)) {
    optionValueError(
      factory,
      "allowedRoots",
      `must be an array of absolute paths, got ${describe(options.allowedRoots)}`,
    );
  }
  if (options.allowedRoots?.length === 0) {
    optionValueError(
      factory,
      "allowedRoots",
      "must list at least one absolute path (an empty list would admit nothing); leave it out for [cwd]",
    );
  }
  for (const root of options.allowedRoots ?? []) {
    if (typeof root !== "string" || !root.startsWith("/")) {
      optionValueError(factory, "allowedRoots", `must be absolute paths, got ${JSON.stringify(root)}`);
    }
  }
  if (options.cwd !== undefined && options.allowedRoots !== undefined && options.allowedRoots.length > 0) {
    const cwd = resolvePath("/", options.cwd);
    if (!options.allowedRoots.some((root) => isWithin(resolvePath("/", root), cwd))) {
      optionValueError(
        factory,
        "cwd",
        `${JSON.stringify(options.cwd)} is outside every allowed root (${options.allowedRoots.join(", ")})`,
      );
    }
  }
  checkPermissions(factory, options.permissions);
  const givenState: unknown = options.state;
  if (
    givenState !== undefined &&
    givenState !== false &&
    typeof givenState !== "function" &&
    !(
      typeof givenState === "object" &&
      givenState !== null &&
      ["get", "set", "delete"].every((key) => typeof (givenState as Record<string, unknown>)[key] === "function")
    )
  ) {
    optionValueError(
      factory,
      "state",
      `must be a store (get, set, delete), a function of the call returning one, or false; got ${describe(givenState)}`,
    );
  }
  if (
    options.locks !== undefined &&
    (typeof options.locks !== "object" || options.locks === null || typeof options.locks.run !== "function")
  ) {
    optionValueError(
      factory,
      "locks",
      `must be an object with a run function (see memoryLocks), got ${describe(options.locks)}`,
    );
  }
  if (options.digest !== undefined && typeof options.digest !== "function") {
    optionValueError(factory, "digest", `must be a function (bytes => hex string), got ${describe(options.digest)}`);
  }
  if (options.clock !== undefined && typeof options.clock !== "function") {
    optionValueError(factory, "clock", `must be a function returning milliseconds, got ${describe(options.clock)}`);
  }
  const digest = options.digest ?? sha256Digest();
  const clock = options.clock ?? systemClock;
  const fixedFs = typeof options.fs === "function" ? undefined : options.fs;
  const fixedGate =
    fixedFs === undefined
      ? undefined
      : createGate({
          fs: fixedFs,
          cwd: options.cwd,
          allowedRoots: options.allowedRoots,
          permissions: options.permissions,
        });
  const fixedLocks = options.locks ?? (fixedFs === undefined ? undefined : locksFor(fixedFs));
  return async (call = {}) => {
    let gate = fixedGate;
    let locks = fixedLocks;
    if (gate === undefined) {
      const fs = await callOption("fs", options.fs as (call: ToolCall) => FileSystem | Promise<FileSystem>, call);
      gate = createGate({ fs, cwd: options.cwd, allowedRoots: options.allowedRoots, permissions: options.permissions });
      locks ??= locksFor(fs);
    }
    const state =
      typeof options.state === "function"
        ? await callOption("state", options.state, call)
        : options.state === false
          ? undefined
          : options.state;
    return { gate, state, locks: locks!, digest, clock, call };
  };
}

/** Call a per-call option function; a throw or a missing value becomes a plain Error naming the option. */
async function callOption<T>(name: string, fn: (call: ToolCall) => T | Promise<T>, call: ToolCall): Promise<T> {
  let value: T;
  try {
    value = await fn(call);
  } catch (error) {
    throw new Error(
      `The ${name} option of this call failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (value === undefined || value === null || typeof value !== "object") {
    throw new Error(
      `The ${name} option of this call gave ${value === null ? "null" : typeof value}, not a ${name === "fs" ? "FileSystem" : "store"}`,
    );
  }
  return value;
}

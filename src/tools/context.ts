/**
 * What every core tool runs over: the backend (behind the gate), the read-before-write store,
 * locks, digest and clock. Shared by read, write, edit, apply_patch, list, glob, grep and bash.
 *
 * @module
 */
import type { FileSystem } from "../fs/types.js";
import { createGate, type Gate, type PermissionOptions } from "../fs/gate.js";
import type { ToolCall } from "./tool.js";
import { memoryLocks, sha256Digest, systemClock, type Clock, type Digest, type FileStateStore, type Locks } from "./state.js";

/** A value, or a function of the tool call giving it (so one tool can serve many workspaces). */
export type PerCall<T> = T | ((call: ToolCall) => T | Promise<T>);

/** Options every core tool factory takes. */
export interface ToolContextOptions {
  /** The backend, or a function of the call that picks one (e.g. per request from `call.host.context`). */
  readonly fs: PerCall<FileSystem>;
  /** Working directory for relative paths (absolute). Default: the first allowed root, or `/`. */
  readonly cwd?: string;
  /** Roots the tools may use without a rule (absolute). Default: `[cwd]`. */
  readonly allowedRoots?: readonly string[];
  /** Allow rules and the approve callback for paths outside the roots, and for bash commands. */
  readonly permissions?: PermissionOptions;
  /** Read-before-write store. Without one, writes and edits do not require a prior read. */
  readonly state?: PerCall<FileStateStore>;
  /** Per-path locks. Default: a fresh {@link memoryLocks} per factory. */
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

/**
 * Throw `TypeError` for option keys a factory does not know.
 *
 * @param factory - the factory's name, used in the message.
 * @param options - the caller's options object.
 * @param known - every key the factory accepts.
 * @throws TypeError `createReadTool got an unknown option "maxbytes". Known options: fs, cwd, ...`
 */
export function assertKnownOptions(factory: string, options: object, known: readonly string[]): void {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`${factory} needs an options object`);
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(`${factory} got an unknown option "${key}". Known options: ${known.join(", ")}`);
    }
  }
}

/**
 * Validate the shared options once, at creation, and return a function that builds the
 * {@link ToolContext} of each call.
 *
 * @param factory - the calling factory's name, for error messages.
 * @throws TypeError when `fs` is missing, or `cwd`/`allowedRoots` are not absolute paths.
 */
export function createContextResolver(
  factory: string,
  options: ToolContextOptions,
): (call?: ToolCall) => Promise<ToolContext> {
  if (options.fs === undefined || options.fs === null) {
    throw new TypeError(`${factory} needs an fs option (a FileSystem, or a function of the call returning one)`);
  }
  if (options.cwd !== undefined && (typeof options.cwd !== "string" || !options.cwd.startsWith("/"))) {
    throw new TypeError(`${factory} cwd must be an absolute path, got ${JSON.stringify(options.cwd)}`);
  }
  for (const root of options.allowedRoots ?? []) {
    if (typeof root !== "string" || !root.startsWith("/")) {
      throw new TypeError(`${factory} allowedRoots must be absolute paths, got ${JSON.stringify(root)}`);
    }
  }
  const locks = options.locks ?? memoryLocks();
  const digest = options.digest ?? sha256Digest();
  const clock = options.clock ?? systemClock;
  const fixedFs = typeof options.fs === "function" ? undefined : options.fs;
  const fixedGate =
    fixedFs === undefined
      ? undefined
      : createGate({ fs: fixedFs, cwd: options.cwd, allowedRoots: options.allowedRoots, permissions: options.permissions });
  return async (call = {}) => {
    const gate =
      fixedGate ??
      createGate({
        fs: await (options.fs as (call: ToolCall) => FileSystem | Promise<FileSystem>)(call),
        cwd: options.cwd,
        allowedRoots: options.allowedRoots,
        permissions: options.permissions,
      });
    const state = typeof options.state === "function" ? await options.state(call) : options.state;
    return { gate, state, locks, digest, clock, call };
  };
}

/**
 * {@link Locks} over the Web Locks API (`navigator.locks`): held across tabs and Workers of one
 * origin, so two tabs editing one file never interleave a read-modify-write.
 *
 * @module
 */
import { assertKnownOptions } from "../../contract/options.js";
import type { Locks } from "../../contract/locks.js";

/** Prefix of every lock name, so our locks never clash with the page's own. */
export const DEFAULT_WEB_LOCKS_PREFIX = "better-fs-tools:";

/** Options of {@link webLocks}. */
export interface WebLocksOptions {
  /** Prefix of the lock names (one per key). Use one per workspace when paths overlap. @default DEFAULT_WEB_LOCKS_PREFIX */
  readonly prefix?: string;
  /** The lock manager. @default navigator.locks */
  readonly manager?: LockManager;
}

/**
 * Per-path locks shared by every tab and Worker of the origin (exclusive Web Locks, taken in
 * sorted key order so two callers never deadlock).
 *
 * @param options - name prefix and lock manager.
 * @returns a {@link Locks} for the tools' `locks` option.
 * @throws TypeError at creation when `navigator.locks` is missing and no `manager` is given,
 *   or for an unknown option.
 * @example
 * ```ts
 * import { opfsFileSystem, webLocks } from "better-fs-tools/opfs";
 * const tools = createFsTools({ fs: opfsFileSystem(), locks: webLocks() });
 * ```
 */
export function webLocks(options: WebLocksOptions = {}): Locks {
  assertKnownOptions("webLocks", options, ["prefix", "manager"]);
  const prefix = options.prefix ?? DEFAULT_WEB_LOCKS_PREFIX;
  if (typeof prefix !== "string")
    throw new TypeError(`webLocks: option "prefix" must be a string, got ${typeof prefix}`);
  const manager = options.manager ?? (typeof navigator === "undefined" ? undefined : navigator.locks);
  if (manager === undefined || typeof manager.request !== "function") {
    throw new TypeError(
      "webLocks: navigator.locks (the Web Locks API) is not available here; use memoryLocks() for a single tab",
    );
  }
  return {
    run<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> {
      const sorted = [...new Set(keys)].sort();
      const hold = (index: number): Promise<T> =>
        index === sorted.length
          ? fn()
          : (manager.request(prefix + sorted[index], { mode: "exclusive" }, () => hold(index + 1)) as Promise<T>);
      return hold(0);
    },
  };
}

/**
 * Read-before-write state shared by the tools: which files were read, and their digest then.
 * (Locks, the digest and the clock are contract types: src/contract/.)
 *
 * @module
 */
import { assertKnownOptions } from "../../contract/options.js";

/** What the store keeps for a file that was read. */
export interface FileRecord {
  /** Digest of the bytes as they were read or last written by a tool. */
  readonly digest: string;
  /** When, in milliseconds since the epoch (from the tools' `clock`). */
  readonly atMs: number;
}

/**
 * Read-before-write state. Keys are absolute canonical paths. Implementations may be async
 * (a host can persist it per conversation).
 */
export interface FileStateStore {
  get(path: string): FileRecord | undefined | Promise<FileRecord | undefined>;
  set(path: string, record: FileRecord): void | Promise<void>;
  delete(path: string): void | Promise<void>;
}

/**
 * An in-memory read-before-write store for one session.
 *
 * @param options - none yet; an empty object, or nothing.
 * @returns a {@link FileStateStore} backed by a `Map`.
 * @throws TypeError at creation for any option key (an `OptionError`:
 *   `memoryStore got an unknown option "maxEntries". Known options: none`) or a non-object.
 * @example
 * ```ts
 * const tools = createFsTools({ fs, state: memoryStore() });
 * ```
 */
export function memoryStore(options: Readonly<Record<string, never>> = {}): FileStateStore {
  assertKnownOptions("memoryStore", options, []);
  const records = new Map<string, FileRecord>();
  return {
    get: (path) => records.get(path),
    set: (path, record) => {
      records.set(path, record);
    },
    delete: (path) => {
      records.delete(path);
    },
  };
}

/**
 * Session state shared by the tools: which files were read (and their digest then), per-path
 * locks, the content digest and the clock.
 *
 * @module
 */

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
 * @returns a {@link FileStateStore} backed by a `Map`.
 * @example
 * ```ts
 * const tools = createFsTools({ fs, state: memoryStore() });
 * ```
 */
export function memoryStore(): FileStateStore {
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

/** Per-key mutual exclusion: `run` waits for earlier holders of the same keys. */
export interface Locks {
  /**
   * Run `fn` while holding every key in `keys` (taken in sorted order, so two callers never
   * deadlock). Returns what `fn` returns; the locks are released when it settles.
   */
  run<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T>;
}

/**
 * In-process locks: two edits of one file serialize, both land.
 *
 * @example
 * ```ts
 * const locks = memoryLocks();
 * await locks.run(["/a.txt"], async () => { ... });
 * ```
 */
export function memoryLocks(): Locks {
  const tails = new Map<string, Promise<void>>();
  async function acquire(key: string): Promise<() => void> {
    const previous = tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => held);
    tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (tails.get(key) === tail) tails.delete(key);
    };
  }
  return {
    async run(keys, fn) {
      const sorted = [...new Set(keys)].sort();
      const releases: Array<() => void> = [];
      try {
        for (const key of sorted) releases.push(await acquire(key));
        return await fn();
      } finally {
        for (const release of releases.reverse()) release();
      }
    },
  };
}

/** A content digest: bytes in, a stable hex string out. */
export type Digest = (data: Uint8Array) => Promise<string>;

/**
 * SHA-256 through WebCrypto (`crypto.subtle`), available in browsers, Workers and Node.
 *
 * @returns a {@link Digest} giving 64 lowercase hex characters.
 * @throws TypeError at creation when `crypto.subtle` is missing (an insecure browser context).
 */
export function sha256Digest(): Digest {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new TypeError("sha256Digest needs crypto.subtle (a secure context: https or localhost)");
  }
  return async (data) => {
    const hash = new Uint8Array(await subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
    let hex = "";
    for (const byte of hash) hex += byte.toString(16).padStart(2, "0");
    return hex;
  };
}

/** Milliseconds since the epoch; injectable for tests. */
export type Clock = () => number;

/** The system clock (`Date.now`). */
export const systemClock: Clock = () => Date.now();

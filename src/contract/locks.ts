/**
 * Per-key locks: the tools take them around every read-modify-write; a backend may carry its own
 * (`FileSystem.locks`, e.g. Web Locks shared by every tab).
 *
 * @module
 */

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

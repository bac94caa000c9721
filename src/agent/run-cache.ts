/**
 * Where the agent keeps finished runs: `memoryRunCache()` (one process or page) and
 * `fileRunCache(fs, dir)` (any backend: OPFS or IndexedDB in a page, Node's fs on a server).
 *
 * @module
 */
import type { FileSystem } from "../contract/types.js";
import type { JsonValue } from "../tools/kit/tool.js";
import { resolvePath } from "../contract/path.js";

/** A finished run as the cache keeps it: what a hit replays. */
export interface CachedRun {
  /** The final text of the run. */
  readonly text: string;
  /** The run's output (the text, unless the agent has an `output` specification). */
  readonly output: JsonValue;
  /** Model calls the run made when it ran. */
  readonly modelCalls: number;
  /** Tool rounds the run used (steps whose model response called tools). */
  readonly rounds: number;
  /** When it was stored, in milliseconds since the epoch. */
  readonly storedAtMs: number;
}

/** A store of runs by key. Both methods may be called concurrently. */
export interface RunCache {
  /** The run stored under `key`, or `undefined`. */
  get(key: string): Promise<CachedRun | undefined>;
  /** Store `run` under `key`, replacing what was there. */
  set(key: string, run: CachedRun): Promise<void>;
}

/** Most runs {@link memoryRunCache} keeps by default: 1,000 (the least recently used go first). */
export const DEFAULT_MEMORY_RUN_CACHE_ENTRIES = 1000;

/** Options of {@link memoryRunCache}. */
export interface MemoryRunCacheOptions {
  /** Most runs kept; the least recently used is dropped first. @default DEFAULT_MEMORY_RUN_CACHE_ENTRIES */
  readonly maxEntries?: number;
}

/**
 * A run cache in memory, for one process, page or Worker.
 *
 * @param options - `maxEntries` (default {@link DEFAULT_MEMORY_RUN_CACHE_ENTRIES}).
 * @returns a {@link RunCache}.
 * @throws TypeError when `maxEntries` is not a positive integer.
 * @example
 * ```ts
 * const agent = createWorkspaceAgent({ model, fs, cache: memoryRunCache() });
 * ```
 */
export function memoryRunCache(options: MemoryRunCacheOptions = {}): RunCache {
  const maxEntries = options.maxEntries ?? DEFAULT_MEMORY_RUN_CACHE_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new TypeError(`memoryRunCache maxEntries must be a positive integer, got ${JSON.stringify(maxEntries)}`);
  }
  const runs = new Map<string, CachedRun>();
  return {
    async get(key) {
      const run = runs.get(key);
      if (run !== undefined) {
        runs.delete(key);
        runs.set(key, run); // most recently used last
      }
      return run;
    },
    async set(key, run) {
      runs.delete(key);
      runs.set(key, run);
      while (runs.size > maxEntries) runs.delete(runs.keys().next().value as string);
    },
  };
}

const KEY = /^[0-9a-f]{16,128}$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A run cache in files: one JSON file per run, `<dir>/<key>.json`, on any backend. A file that
 * is missing or does not parse is a miss. Writes go to a temporary name and are renamed into
 * place, so a reader never sees half a file. Keep `dir` out of the agent's `inputGlobs` (or use
 * another backend), or storing a run changes the next key.
 *
 * @param fs - the backend to keep the files on (raw: the cache is host code, not a tool).
 * @param dir - the directory (absolute), created on the first store.
 * @returns a {@link RunCache}.
 * @throws TypeError at creation when `fs` is not a FileSystem or `dir` is not absolute; `get`
 *   and `set` reject with a TypeError for a key that is not hex, and `set` with the backend's
 *   FsError when it cannot write.
 * @example
 * ```ts
 * const cache = fileRunCache(opfsFileSystem({ root: "agent-cache" }), "/runs");
 * const agent = createWorkspaceAgent({ model, fs, cache });
 * ```
 */
export function fileRunCache(fs: FileSystem, dir: string): RunCache {
  if (typeof fs !== "object" || fs === null || typeof fs.readFile !== "function") {
    throw new TypeError("fileRunCache needs a FileSystem as its first argument");
  }
  if (typeof dir !== "string" || !dir.startsWith("/")) {
    throw new TypeError(`fileRunCache dir must be an absolute path, got ${JSON.stringify(dir)}`);
  }
  const root = resolvePath("/", dir);
  const pathOf = (key: string): string => {
    if (typeof key !== "string" || !KEY.test(key)) {
      throw new TypeError(`fileRunCache keys are lowercase hex digests, got ${JSON.stringify(key)}`);
    }
    return `${root === "/" ? "" : root}/${key}.json`;
  };
  let serial = 0;
  return {
    async get(key) {
      const path = pathOf(key);
      let data: Uint8Array;
      try {
        data = await fs.readFile(path);
      } catch (error) {
        if ((error as { code?: unknown }).code === "ENOENT") return undefined;
        throw error;
      }
      try {
        const run = JSON.parse(decoder.decode(data)) as CachedRun;
        return typeof run === "object" && run !== null && typeof run.text === "string" ? run : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, run) {
      const path = pathOf(key);
      serial += 1;
      const temporary = `${path}.${serial}-${Math.random().toString(36).slice(2)}.tmp`;
      await fs.writeFile(temporary, encoder.encode(JSON.stringify(run)));
      await fs.rename(temporary, path);
    },
  };
}

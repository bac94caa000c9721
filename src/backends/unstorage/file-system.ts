/**
 * {@link unstorageFileSystem}: a {@link FileSystem} over any unstorage `Storage` (memory, Redis,
 * S3, Azure, Cloudflare KV/R2, Vercel, MongoDB... through unstorage's drivers).
 *
 * Layout: a file is one key holding its bytes with its kind and mtime (`a:b.txt`), a directory is
 * a marker key below its own (`a:%`), names escaped (see `keys.ts`). One file is one `set`, so a
 * reader sees the old bytes or the new, never a mix, in any process. A tree operation (rename or
 * rm of a directory, the parents a write creates) is several calls: it copies before it deletes,
 * so a failure half-way leaves a duplicate, never a loss.
 *
 * @module
 */
import type { Storage } from "unstorage";
import { FsError, type FsErrorCode } from "../../contract/errors.js";
import { mapConcurrent } from "../../contract/concurrency.js";
import { memoryLocks, type Locks } from "../../contract/locks.js";
import { assertKnownOptions, optionValueError } from "../../contract/options.js";
import type { DirEntry, FileStat, FileSystem } from "../../contract/types.js";
import {
  DIRECTORY_MARKER,
  decodeName,
  directoryKey,
  entryKey,
  markerOf,
  parseStorePath,
  prefixKeys,
  pathOf,
  type StorePath,
  STORE_PREFIX_CHARACTERS,
  STORE_PREFIX_PATTERN,
} from "./keys.js";
import { decodeValue, encodeValue, type StoredValue } from "./value.js";

/** The backend's default name, in messages and descriptions. */
export const UNSTORAGE_FILE_SYSTEM_NAME = "unstorage";
/** Store calls a tree operation (rename, rm, a deep mkdir) keeps in flight. */
export const UNSTORAGE_TREE_CONCURRENCY = 32;

/** Options of {@link unstorageFileSystem}. */
export interface UnstorageFileSystemOptions {
  /** Backend name in messages and descriptions. @default UNSTORAGE_FILE_SYSTEM_NAME */
  readonly name?: string;
  /**
   * Key prefix of this workspace inside the storage (several workspaces can share one store):
   * letters, digits, `_` `.` `~` `-` only, so no two bases ever share a key (a `:` or `/` would
   * reach into another workspace's directories). `""` is the whole storage, every base included.
   * @default "" (the whole storage)
   */
  readonly base?: string;
  /** The working directory to hand to the tools (absolute). @default "/" */
  readonly cwd?: string;
  /**
   * Locks to declare as the backend's `locks` (the tools use them): e.g. Redis locks shared by
   * every process. @default one in-process lock table per storage and base, shared by every
   * backend object over them in this process
   */
  readonly locks?: Locks;
  /** The clock for modification times, in milliseconds since the epoch. @default Date.now */
  readonly now?: () => number;
}

/** The unstorage backend: a {@link FileSystem} plus the storage it runs on. */
export interface UnstorageFileSystem extends FileSystem {
  readonly cwd: string;
  /** The storage given. */
  readonly storage: Storage;
}

const KNOWN_OPTIONS = ["name", "base", "cwd", "locks", "now"];

/** The default locks: one table per storage and base in this process (every backend object over them shares it). */
const locksByStorage = new WeakMap<Storage, Map<string, Locks>>();

/** The in-process locks of `base` in `storage`, created on first use. */
function processLocks(storage: Storage, base: string): Locks {
  let byBase = locksByStorage.get(storage);
  if (byBase === undefined) locksByStorage.set(storage, (byBase = new Map()));
  let locks = byBase.get(base);
  if (locks === undefined) byBase.set(base, (locks = memoryLocks()));
  return locks;
}

/** What a path names right now. */
type Found =
  { readonly kind: "file"; readonly value: StoredValue } | { readonly kind: "directory"; readonly mtimeMs: number };

/**
 * A {@link FileSystem} over an unstorage `Storage`: binary-safe (raw get and set), directories
 * that exist while empty, `mtimeMs` and `size`, rename and rm of whole trees. No symlinks: it
 * declares none, and the shell's `ln -s` is refused with `ENOTSUP`.
 *
 * Calls go straight to the store; many may be in flight. What a store promises across
 * processes is what this backend promises: one file is one key, written whole. Per-path locks
 * across processes come from `options.locks` (see `redisLocks` in `better-fs-tools/redis`).
 *
 * @param storage - an unstorage `Storage` (`createStorage({ driver })`).
 * @param options - name, key prefix, cwd, locks, clock.
 * @returns the backend. Every method rejects with {@link FsError}: the contract's codes, and
 *   `EIO` (the store's own message in the detail) when the store fails (a lost connection, a
 *   timeout) or holds a value this backend did not write.
 * @throws TypeError (an `OptionError`) at creation for a storage without `getItemRaw`/`setItemRaw`,
 *   an unknown option, or a bad value.
 * @example
 * ```ts
 * import { createStorage } from "unstorage";
 * import { unstorageFileSystem } from "better-fs-tools/unstorage";
 *
 * const fs = unstorageFileSystem(createStorage(), { base: "workspace-1" });
 * await fs.writeFile("/w/a.txt", new TextEncoder().encode("hello"));
 * ```
 */
export function unstorageFileSystem(storage: Storage, options: UnstorageFileSystemOptions = {}): UnstorageFileSystem {
  if (
    typeof storage !== "object" ||
    storage === null ||
    typeof storage.getItemRaw !== "function" ||
    typeof storage.setItemRaw !== "function" ||
    typeof storage.getKeys !== "function"
  ) {
    throw new TypeError(
      "unstorageFileSystem needs an unstorage Storage (createStorage({ driver })) as its first argument",
    );
  }
  assertKnownOptions("unstorageFileSystem", options, KNOWN_OPTIONS);
  const name = options.name ?? UNSTORAGE_FILE_SYSTEM_NAME;
  if (typeof name !== "string" || name === "")
    optionValueError("unstorageFileSystem", "name", "must be a non-empty string");
  const base = options.base ?? "";
  if (typeof base !== "string" || (base !== "" && !STORE_PREFIX_PATTERN.test(base))) {
    optionValueError(
      "unstorageFileSystem",
      "base",
      `must be "" or a string of ${STORE_PREFIX_CHARACTERS} (no : or /, which would reach into another base's keys), got ${JSON.stringify(base)}`,
    );
  }
  const cwd = options.cwd ?? "/";
  if (typeof cwd !== "string" || !cwd.startsWith("/")) {
    optionValueError("unstorageFileSystem", "cwd", `must be an absolute path string, got ${JSON.stringify(cwd)}`);
  }
  if (options.locks !== undefined && typeof options.locks?.run !== "function") {
    optionValueError("unstorageFileSystem", "locks", "must be a Locks ({ run(keys, fn) })");
  }
  const now = options.now ?? Date.now;
  if (typeof now !== "function")
    optionValueError("unstorageFileSystem", "now", "must be a function returning milliseconds");
  const prefix = base;
  const locks = options.locks ?? processLocks(storage, prefix);
  const full = (key: string) => (prefix === "" ? key : key === "" ? prefix : `${prefix}:${key}`);

  // ---- store calls (every rejection of the store becomes EIO) ----

  async function raw(key: string): Promise<StoredValue | undefined> {
    const value: unknown = await storage.getItemRaw(full(key));
    if (value === null || value === undefined) return undefined;
    const decoded = decodeValue(value);
    // A plain Error: `call` turns it into EIO naming the call and the path.
    if (decoded === undefined) throw new Error(`a value this backend did not write, at key '${full(key)}'`);
    return decoded;
  }
  const has = (key: string): Promise<boolean> => storage.hasItem(full(key));
  const put = (key: string, value: Uint8Array): Promise<void> => storage.setItemRaw(full(key), value);
  const remove = (key: string): Promise<void> => storage.removeItem(full(key));
  /** Every key below `key` (its descendants and its marker), relative to `key` plus `:`. */
  async function below(key: string): Promise<string[]> {
    const start = full(key);
    const keys = await storage.getKeys(start);
    const cut = start === "" ? 0 : start.length + 1;
    return keys.filter((each) => start === "" || each.startsWith(`${start}:`)).map((each) => each.slice(cut));
  }

  /** Run a call; anything but an FsError becomes EIO naming the call and path. */
  async function call<T>(syscall: string, path: string, body: () => Promise<T>, dest?: string): Promise<T> {
    try {
      return await body();
    } catch (error) {
      if (FsError.isInstance(error)) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      throw new FsError("EIO", {
        syscall,
        path,
        ...(dest === undefined ? {} : { dest }),
        detail: `${name} store: ${detail}`,
        cause: error,
      });
    }
  }

  function fail(code: FsErrorCode, syscall: string, path: string, dest?: string): never {
    throw new FsError(code, { syscall, path, ...(dest === undefined ? {} : { dest }) });
  }

  /** What `names` is: a file (with its value), a directory, or nothing. The marker first: paths resolved on the way are mostly directories. */
  async function find(names: readonly string[]): Promise<Found | undefined> {
    const marker = directoryKey(names);
    if (marker === undefined) return { kind: "directory", mtimeMs: 0 };
    const directory = await raw(marker);
    if (directory !== undefined) return { kind: "directory", mtimeMs: directory.mtimeMs };
    const file = await raw(entryKey(names));
    return file === undefined ? undefined : { kind: "file", value: file };
  }

  async function isDirectory(names: readonly string[]): Promise<boolean> {
    const marker = directoryKey(names);
    return marker === undefined ? true : has(marker);
  }

  /**
   * Why `names` is missing: ENOTDIR when a name on the way is a file, else ENOENT; with how far
   * it resolved (no symlinks here: the deepest existing directory, or that file).
   */
  async function missing(names: readonly string[], syscall: string, path: string, dest?: string): Promise<never> {
    const keys = prefixKeys(names).slice(0, -1);
    const directories = await Promise.all(keys.map((key) => has(markerOf(key))));
    let depth = directories.indexOf(false);
    if (depth === -1) depth = keys.length;
    const isFile = depth < keys.length && (await has(keys[depth] as string));
    const realNames = names.slice(0, isFile ? depth + 1 : depth);
    throw new FsError(isFile ? "ENOTDIR" : "ENOENT", {
      syscall,
      path,
      ...(dest === undefined ? {} : { dest }),
      ...(syscall === "realpath"
        ? { resolvedPrefix: { real: pathOf(realNames), missing: names.slice(realNames.length) } }
        : {}),
    });
  }

  /** Make sure the parent of `names` is a directory, creating missing ones (ENOTDIR when a name on the way is a file). */
  async function ensureParent(names: readonly string[], syscall: string, path: string): Promise<void> {
    const parent = names.slice(0, -1);
    if (await isDirectory(parent)) return;
    await makeDirectories(parent, syscall, path);
  }

  /** Create every missing directory of `names` (inclusive), top down. */
  async function makeDirectories(names: readonly string[], syscall: string, path: string): Promise<void> {
    const keys = prefixKeys(names);
    const directories = await mapConcurrent(keys, UNSTORAGE_TREE_CONCURRENCY, (key) => has(markerOf(key)));
    const first = directories.indexOf(false);
    if (first === -1) return;
    const files = await mapConcurrent(keys.slice(first), UNSTORAGE_TREE_CONCURRENCY, (key) => has(key));
    const file = files.indexOf(true);
    if (file !== -1) {
      fail(first + file === names.length - 1 && syscall === "mkdir" ? "EEXIST" : "ENOTDIR", syscall, path);
    }
    const stamp = encodeValue("directory", now());
    for (const key of keys.slice(first)) await put(markerOf(key), stamp);
  }

  function parse(path: string, syscall: string, dest?: string): StorePath {
    return parseStorePath(path, syscall, dest);
  }

  async function statOf(path: string, syscall: "stat" | "lstat"): Promise<FileStat> {
    const { names, trailingSlash } = parse(path, syscall);
    return call(syscall, path, async () => {
      const found = await find(names);
      if (found === undefined) return missing(names, syscall, path);
      if (found.kind === "directory") return { type: "directory", size: 0, mtimeMs: found.mtimeMs };
      if (trailingSlash) fail("ENOTDIR", syscall, path);
      return { type: "file", size: found.value.content.byteLength, mtimeMs: found.value.mtimeMs };
    });
  }

  /** The keys of a directory's entries (relative), without its own marker. */
  async function contents(names: readonly string[]): Promise<string[]> {
    return (await below(entryKey(names))).filter((key) => key !== DIRECTORY_MARKER);
  }

  const fs: UnstorageFileSystem = {
    name,
    capabilities: {},
    cwd,
    storage,
    locks,

    async readFile(path) {
      const { names, trailingSlash } = parse(path, "open");
      return call("open", path, async () => {
        if (names.length === 0) fail("EISDIR", "open", path);
        const file = await raw(entryKey(names));
        if (file !== undefined && file.kind === "file") {
          if (trailingSlash) fail("ENOTDIR", "open", path);
          return file.content.slice();
        }
        if (await isDirectory(names)) fail("EISDIR", "open", path);
        return missing(names, "open", path);
      });
    },

    async writeFile(path, data) {
      const { names, trailingSlash } = parse(path, "open");
      const value = encodeValue("file", now(), data);
      await call("open", path, async () => {
        if (names.length === 0 || trailingSlash) fail("EISDIR", "open", path);
        const [directory] = await Promise.all([isDirectory(names), ensureParent(names, "open", path)]);
        if (directory) fail("EISDIR", "open", path);
        await put(entryKey(names), value);
      });
    },

    stat: (path) => statOf(path, "stat"),
    lstat: (path) => statOf(path, "lstat"),

    async readdir(path) {
      const { names } = parse(path, "scandir");
      return call("scandir", path, async () => {
        if (!(await isDirectory(names))) {
          if (await has(entryKey(names))) fail("ENOTDIR", "scandir", path);
          return missing(names, "scandir", path);
        }
        const types = new Map<string, DirEntry["type"]>();
        for (const key of await contents(names)) {
          const segments = key.split(":");
          const child = decodeName(segments[0] as string);
          if (child === undefined) continue;
          // A directory (its marker or anything below it) wins over a file of the same name.
          if (segments.length > 1) types.set(child, "directory");
          else if (!types.has(child)) types.set(child, "file");
        }
        return [...types].map(([entry, type]) => ({ name: entry, type }));
      });
    },

    async mkdir(path, mkdirOptions) {
      const { names } = parse(path, "mkdir");
      await call("mkdir", path, async () => {
        if (mkdirOptions?.recursive === true) {
          if (names.length === 0) return;
          if (await has(entryKey(names))) fail("EEXIST", "mkdir", path);
          await makeDirectories(names, "mkdir", path);
          return;
        }
        if (names.length === 0) fail("EEXIST", "mkdir", path);
        const found = await find(names);
        if (found !== undefined) fail("EEXIST", "mkdir", path);
        const parent = names.slice(0, -1);
        if (!(await isDirectory(parent))) {
          if (await has(entryKey(parent))) fail("ENOTDIR", "mkdir", path);
          return missing(names, "mkdir", path);
        }
        await put(directoryKey(names) as string, encodeValue("directory", now()));
      });
    },

    async rm(path, rmOptions) {
      const { names, trailingSlash } = parse(path, "rm");
      await call("rm", path, async () => {
        const found = await find(names);
        if (found === undefined) {
          if (rmOptions?.force === true) return;
          return missing(names, "rm", path);
        }
        if (found.kind === "file") {
          if (trailingSlash) fail("ENOTDIR", "rm", path);
          await remove(entryKey(names));
          return;
        }
        const inside = await contents(names);
        if (inside.length > 0 && rmOptions?.recursive !== true) fail("ENOTEMPTY", "rm", path);
        if (names.length === 0 && rmOptions?.recursive !== true) fail("EPERM", "rm", path);
        const key = entryKey(names);
        await mapConcurrent(inside, UNSTORAGE_TREE_CONCURRENCY, (each) => remove(key === "" ? each : `${key}:${each}`));
        const marker = directoryKey(names);
        if (marker !== undefined) await remove(marker);
      });
    },

    async rename(from, to) {
      const source = parse(from, "rename", to);
      const target = parse(to, "rename", to);
      await call(
        "rename",
        from,
        async () => {
          const fromNames = source.names;
          const toNames = target.names;
          const found = await find(fromNames);
          if (found === undefined) return missing(fromNames, "rename", from, to);
          if (fromNames.length === 0 || toNames.length === 0) fail("EBUSY", "rename", from, to);
          const fromKey = entryKey(fromNames);
          const toKey = entryKey(toNames);
          if (fromKey === toKey) return;
          if (found.kind === "directory" && toKey.startsWith(`${fromKey}:`)) fail("EINVAL", "rename", from, to);
          const [existing] = await Promise.all([find(toNames), ensureParentForRename(toNames, from, to)]);
          if (found.kind === "file") {
            if (source.trailingSlash || target.trailingSlash) fail("ENOTDIR", "rename", from, to);
            if (existing?.kind === "directory") fail("EISDIR", "rename", from, to);
            await put(toKey, encodeValue("file", found.value.mtimeMs, found.value.content));
            await remove(fromKey);
            return;
          }
          if (existing?.kind === "file") fail("ENOTDIR", "rename", from, to);
          if (existing?.kind === "directory") {
            if ((await contents(toNames)).length > 0) fail("ENOTEMPTY", "rename", from, to);
            await remove(directoryKey(toNames) as string);
          }
          // Copy every key of the tree, then delete the old ones: a failure half-way duplicates, never loses.
          const keys = await below(fromKey);
          await mapConcurrent(keys, UNSTORAGE_TREE_CONCURRENCY, async (each) => {
            const value: unknown = await storage.getItemRaw(full(`${fromKey}:${each}`));
            if (value !== null && value !== undefined) await storage.setItemRaw(full(`${toKey}:${each}`), value);
          });
          await mapConcurrent(keys, UNSTORAGE_TREE_CONCURRENCY, (each) => remove(`${fromKey}:${each}`));
        },
        to,
      );
    },

    async realpath(path) {
      const { names, trailingSlash } = parse(path, "realpath");
      return call("realpath", path, async () => {
        const found = await find(names);
        if (found === undefined) return missing(names, "realpath", path);
        if (found.kind === "file" && trailingSlash) fail("ENOTDIR", "realpath", path);
        return pathOf(names);
      });
    },
  };

  /** The destination's parent of a rename must exist (ENOENT) and be a directory (ENOTDIR). */
  async function ensureParentForRename(toNames: readonly string[], from: string, to: string): Promise<void> {
    const parent = toNames.slice(0, -1);
    if (await isDirectory(parent)) return;
    if (await has(entryKey(parent))) fail("ENOTDIR", "rename", from, to);
    return missing(toNames, "rename", from, to);
  }

  return fs;
}

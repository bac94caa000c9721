/**
 * `better-fs-tools/idb`: a memory workspace persisted in IndexedDB (through idb-keyval), for
 * browsers and private modes without OPFS. It restores itself on load and saves changes as
 * per-path records (binary files and symlinks survive): each change before its call resolves
 * (concurrent calls share one transaction), or with `durability: "relaxed"` debounced and on
 * `flush()`.
 *
 * @module
 */
import type { Volume } from "memfs";
import type { FileSystem, FileSystemSync } from "../../contract/types.js";
import { FsError } from "../../contract/errors.js";
import { forwardFileSystem } from "../../contract/forward.js";
import { assertKnownOptions } from "../../contract/options.js";
import { memoryFileSystem } from "../memory/index.js";
import { baseName, parentPath, resolvePath } from "../../contract/path.js";
import { idbRecords, type CreateStore, type IdbRecord, type IdbRecords } from "./store.js";
import { recordsOf, restoreVolume } from "./snapshot.js";
import { storedPaths } from "./stored.js";

export type { CreateStore, IdbRecord } from "./store.js";

/** Default IndexedDB database name. */
export const DEFAULT_IDB_DATABASE = "better-fs-tools";
/** Default object store name. */
export const DEFAULT_IDB_STORE = "files";
/**
 * With `durability: "relaxed"`, changes are saved at most this long after the first unsaved one,
 * in milliseconds: the most a crash can lose. Not reset by later changes, so a busy workspace
 * still saves.
 */
export const DEFAULT_IDB_DEBOUNCE_MS = 250;

/**
 * When a change is in IndexedDB: `"committed"` (the default) before its call resolves, the
 * calls in flight together sharing one transaction; `"relaxed"` debounced
 * ({@link DEFAULT_IDB_DEBOUNCE_MS}), on `flush()` and when the page is hidden, so a crash or a
 * killed browser loses what was written in the last window (the tools say so in each result).
 */
export type IdbDurability = "committed" | "relaxed";

/** Options of {@link idbFileSystem}. */
export interface IdbFileSystemOptions {
  /** IndexedDB database name; one workspace per database. @default DEFAULT_IDB_DATABASE */
  readonly name?: string;
  /** Object store name inside the database. @default DEFAULT_IDB_STORE */
  readonly store?: string;
  /**
   * When a change is saved: before its call resolves (`"committed"`), or debounced
   * (`"relaxed"`: faster, but a crash loses the last `debounceMs`). @default "committed"
   */
  readonly durability?: IdbDurability;
  /** With `durability: "relaxed"`: save delay after the first unsaved change, in milliseconds. @default DEFAULT_IDB_DEBOUNCE_MS */
  readonly debounceMs?: number;
  /** idb-keyval's `createStore` (or a stand-in for tests). Default: `import("idb-keyval")` on first use. */
  readonly createStore?: CreateStore;
  /**
   * Called when a save no call waits for fails: a debounced one (`"relaxed"`), or the one a
   * synchronous change started (`"committed"`). The changes stay pending and are retried by the
   * next save.
   */
  readonly onError?: (error: FsError) => void;
}

/** The IndexedDB-persisted workspace: a {@link FileSystem} with symlinks, plus `ready`, `flush()` and `close()`. */
export interface IdbFileSystem extends FileSystem {
  readonly name: "idb";
  /** `"relaxed"` when made with that option (the tools then say so in each result); absent when committed. */
  readonly durability?: "relaxed";
  readonly capabilities: { readonly symlink: true };
  symlink(target: string, path: string): Promise<void>;
  readlink(path: string): Promise<string>;
  /** Resolves once the stored workspace is loaded; rejects with FsError `EIO` if it cannot be read. Calls wait for it. */
  readonly ready: Promise<void>;
  /**
   * The same calls, synchronous, once `ready` has resolved (before: `EBUSY`). Committed: a change
   * starts its save at once (the sync calls of one task share one transaction, joined by promise
   * calls in flight), so it is in IndexedDB a transaction later, with no call to wait for it;
   * `flush()` waits for it, and a failed save goes to `onError`. Relaxed: as the promise form's.
   */
  readonly sync: Required<FileSystemSync>;
  /** Save every change made so far in one IndexedDB transaction. Rejects with FsError `ENOSPC` (quota) or `EIO`; the changes stay pending. */
  flush(): Promise<void>;
  /** Save, then stop saving (calls after `close()` still work in memory but are not persisted). */
  close(): Promise<void>;
}

const OPTION_KEYS = ["name", "store", "durability", "debounceMs", "createStore", "onError"] as const;

function checkOptions(options: IdbFileSystemOptions): void {
  if (typeof options !== "object" || options === null) throw new TypeError("idbFileSystem: options must be an object");
  assertKnownOptions("idbFileSystem", options, OPTION_KEYS);
  for (const key of ["name", "store"] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      throw new TypeError(`idbFileSystem: option "${key}" must be a non-empty string, got ${JSON.stringify(value)}`);
    }
  }
  const { durability } = options;
  if (durability !== undefined && durability !== "committed" && durability !== "relaxed") {
    throw new TypeError(
      `idbFileSystem: option "durability" must be "committed" or "relaxed", got ${JSON.stringify(durability)}`,
    );
  }
  const { debounceMs } = options;
  if (debounceMs !== undefined && (typeof debounceMs !== "number" || !Number.isFinite(debounceMs) || debounceMs < 0)) {
    throw new TypeError(
      `idbFileSystem: option "debounceMs" must be a non-negative finite number, got ${String(debounceMs)}`,
    );
  }
  for (const key of ["createStore", "onError"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "function") {
      throw new TypeError(`idbFileSystem: option "${key}" must be a function`);
    }
  }
}

/** Where a path's last component really lives: its parent's real path plus its name. */
function physical(volume: Volume, path: string): string {
  const lexical = resolvePath("/", path);
  if (lexical === "/") return lexical;
  try {
    const parent = String(volume.realpathSync(parentPath(lexical)));
    return `${parent === "/" ? "" : parent}/${baseName(lexical)}`;
  } catch {
    return lexical;
  }
}

/**
 * A memory workspace that persists itself in IndexedDB.
 *
 * - Load: every record is read in one transaction and the workspace rebuilt (files with their
 *   bytes, mode and mtime; directories; symlinks). Calls made before that wait for it.
 * - Save: changed paths are collected synchronously (a consistent snapshot) and written in one
 *   read-write transaction, which never leaves a half-written store. By default
 *   (`durability: "committed"`) a change is saved before its call resolves: calls in flight
 *   together (and those made while a save runs) share the next transaction, so what a call
 *   reported written survives a killed browser. A failed save (quota: `ENOSPC`, else `EIO`)
 *   rejects every call of its batch; a `writeFile` whose save failed is taken back in memory
 *   (the file as it was), other changes stay pending for the next save. With
 *   `durability: "relaxed"`, saves run {@link DEFAULT_IDB_DEBOUNCE_MS} after the first unsaved
 *   change, on `flush()`, and when the page is hidden: a crash loses at most that window.
 * - Synchronous calls (`sync`, used by `better-fs-tools/node-fs`'s `*Sync`): committed, each
 *   change starts its save as it returns (the calls of one task share a transaction), so it is
 *   stored a transaction later though no call waits for it; `flush()` does, and a failed save
 *   goes to `onError`. Relaxed: debounced like the rest.
 * - Symlinks, and the memory backend's no-follow form (`noFollow`): the gate calls it with the
 *   paths it checked, and a name swapped for a link since (through this object or its memory
 *   copy) is refused with `ELOOP`, not followed. Another tab's changes reach this instance only
 *   on its next load, so they cannot race a call.
 * - One tab per database: each instance works on its own in-memory copy, so another tab's
 *   changes are seen on the next load, and two tabs changing the same path keep the last save.
 *   Use OPFS (`better-fs-tools/opfs` with `webLocks()`) where several tabs share a workspace.
 *
 * @param options - database, store, durability, debounce (ms), an injected `createStore`.
 * @returns the workspace; calls reject with `FsError` as the memory backend does. Where the
 *   optional peer idb-keyval is not installed (and no `createStore` is given), `ready` and every
 *   call reject with `EIO` whose message says to install it.
 * @throws FsError `ENOTSUP` at creation where `indexedDB` is missing (and no `createStore` is given);
 *   TypeError for an unknown option or a bad value, naming the option.
 * @example
 * ```ts
 * import { idbFileSystem } from "better-fs-tools/idb";
 * const fs = idbFileSystem({ name: "my-workspace" });
 * await fs.ready;
 * await fs.writeFile("/notes.md", new TextEncoder().encode("# kept across reloads\n"));
 * await fs.flush();
 * ```
 */
export function idbFileSystem(options: IdbFileSystemOptions = {}): IdbFileSystem {
  checkOptions(options);
  const dbName = options.name ?? DEFAULT_IDB_DATABASE;
  const storeName = options.store ?? DEFAULT_IDB_STORE;
  const debounceMs = options.debounceMs ?? DEFAULT_IDB_DEBOUNCE_MS;
  const relaxed = options.durability === "relaxed";
  const label = `${dbName}/${storeName}`;
  if (options.createStore === undefined && typeof indexedDB === "undefined") {
    throw new FsError("ENOTSUP", {
      syscall: "idb",
      path: label,
      detail:
        'IndexedDB is not available in this context; use memoryFileSystem from "better-fs-tools/memory" (nothing persists)',
    });
  }
  const records: IdbRecords = idbRecords(dbName, storeName, options.createStore);
  const memory = memoryFileSystem();
  const { volume } = memory;
  /** What the store holds now: path → kind. */
  const stored = storedPaths();
  /**
   * Paths changed since the last save: `tree` (the path and everything below it: removals,
   * renames) or `entry` (the path alone, with new ancestors: a write, a new directory or link).
   */
  const dirty = new Map<string, "tree" | "entry">();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;

  /** Whether the stored workspace is in memory (the sync form answers only then). */
  let isLoaded = false;
  const ready = records.load().then(
    (loaded) => {
      restoreVolume(volume, loaded);
      for (const [path, record] of loaded) stored.set(path, record.kind);
      isLoaded = true;
    },
    (error: unknown) => {
      throw storeError("load", error);
    },
  );
  ready.catch(() => undefined);

  function storeError(syscall: string, error: unknown): FsError {
    const name = (error as { name?: unknown } | null)?.name;
    const message = error instanceof Error ? error.message : String(error);
    return new FsError(name === "QuotaExceededError" ? "ENOSPC" : "EIO", {
      syscall,
      path: label,
      detail: `IndexedDB: ${typeof name === "string" ? `${name}: ` : ""}${message}`,
      cause: error,
    });
  }

  async function save(): Promise<void> {
    if (dirty.size === 0) return;
    const batch = [...dirty];
    dirty.clear();
    const deletes = new Set<string>();
    const puts = new Map<string, IdbRecord>();
    // Ancestors created on the way (mkdir -p, writeFile into new directories) are saved too.
    const wantsAncestor = (ancestor: string) => !stored.has(ancestor);
    for (const [path, extent] of batch) {
      if (stored.has(path)) deletes.add(path);
      const subtree = extent === "tree";
      if (subtree && (path === "/" || stored.get(path) === "directory")) {
        for (const key of stored.under(path)) deletes.add(key);
      }
      recordsOf(volume, path, puts, { subtree, wantsAncestor });
    }
    for (const key of puts.keys()) deletes.delete(key);
    try {
      await records.commit([...deletes], puts);
    } catch (error) {
      for (const [path, extent] of batch) remember(extent, path);
      throw storeError("flush", error);
    }
    for (const key of deletes) stored.delete(key);
    for (const [key, record] of puts) stored.set(key, record.kind);
  }

  function saveNow(): Promise<void> {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const run = chain.then(save);
    chain = run.catch(() => undefined);
    return run;
  }

  /** The save the next changes join: queued behind the one running, started when that one ends. */
  let queued: Promise<void> | undefined;
  /**
   * Committed durability: resolve once the changes marked so far are in IndexedDB. Calls in
   * flight together join one save; a call made while a save runs joins the next.
   */
  function commitSoon(): Promise<void> {
    if (closed) return Promise.resolve();
    if (queued !== undefined) return queued;
    const run = chain.then(() => {
      queued = undefined;
      return save();
    });
    queued = run;
    chain = run.catch(() => undefined);
    return run;
  }

  /** After a change: committed, wait for its save; relaxed, schedule one. */
  function settle(): Promise<void> {
    if (relaxed) return Promise.resolve();
    return commitSoon();
  }

  function schedule(): void {
    if (!relaxed || closed || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      saveNow().catch((error: unknown) => options.onError?.(error as FsError));
    }, debounceMs);
  }

  /** Note a changed path (one marked `tree` stays `tree`). */
  function remember(extent: "tree" | "entry", path: string): void {
    if (dirty.get(path) !== "tree") dirty.set(path, extent);
  }

  function mark(extent: "tree" | "entry", ...paths: string[]): void {
    for (const path of paths) remember(extent, path);
    schedule();
  }

  /**
   * After a synchronous change: committed, start its save now, as a promise call's (calls in
   * the same task join it, since the save reads what is marked only once it runs); nothing
   * waits for it, so a failure goes to `onError` and the change stays pending. Relaxed: the
   * debounce set by `mark` saves it.
   */
  function markSync(extent: "tree" | "entry", ...paths: string[]): void {
    mark(extent, ...paths);
    if (relaxed) return;
    commitSoon().catch((error: unknown) => options.onError?.(error as FsError));
  }

  const onHidden = () => {
    if (typeof document !== "undefined" && document.visibilityState !== "hidden") return;
    if (dirty.size > 0) saveNow().catch((error: unknown) => options.onError?.(error as FsError));
  };
  const target = typeof globalThis.addEventListener === "function" ? globalThis : undefined;
  target?.addEventListener("visibilitychange", onHidden);
  target?.addEventListener("pagehide", onHidden);

  /**
   * Committed durability: the bytes at `path` before a write (`null`: no file there), to take the
   * write back if its save fails. Relaxed: nothing (a failed save is retried, not taken back).
   */
  function committedBefore(path: string): Uint8Array | null | undefined {
    if (relaxed) return undefined;
    try {
      const real = String(volume.realpathSync(path));
      return volume.statSync(real).isFile() ? new Uint8Array(volume.readFileSync(real) as Uint8Array) : undefined;
    } catch {
      return null;
    }
  }

  /**
   * A write whose save failed: put the file back as it was, unless another call changed it
   * since (then that call's own save decides). The path stays marked, so the next save writes
   * whatever the memory copy holds.
   */
  function takeBack(real: string, written: Uint8Array, before: Uint8Array | null | undefined): void {
    if (before === undefined) return;
    try {
      const now = volume.readFileSync(real) as Uint8Array;
      if (now.byteLength !== written.byteLength || !now.every((byte, index) => byte === written[index])) return;
      if (before === null) volume.unlinkSync(real);
      else volume.writeFileSync(real, before);
    } catch {
      // gone or replaced since: nothing to take back
    }
  }

  /** A read of the memory copy, once the stored workspace is loaded. */
  const loaded =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await ready;
      return read(...args);
    };

  /**
   * The calls of `target` (the memory backend, or its no-follow form): each waits for the load,
   * and changes mark what to save.
   */
  function persisted(target: FileSystem) {
    return {
      readFile: loaded((path: string) => target.readFile(path)),
      async readFileView<T>(path: string, use: (bytes: Uint8Array) => T): Promise<T> {
        await ready;
        return (target.readFileView as NonNullable<FileSystem["readFileView"]>)(path, use);
      },
      stat: loaded((path: string) => target.stat(path)),
      lstat: loaded((path: string) => target.lstat(path)),
      readdir: loaded((path: string) => target.readdir(path)),
      realpath: loaded((path: string) => target.realpath(path)),
      readlink: loaded((path: string) => target.readlink!(path)),
      async writeFile(path: string, data: Uint8Array) {
        await ready;
        const before = committedBefore(path);
        await target.writeFile(path, data);
        // The entry written (a link's target, when the path names a link) and the name itself.
        const where = physical(volume, path);
        let real = where;
        try {
          real = String(volume.realpathSync(path));
        } catch {
          // keep the physical path
        }
        mark("entry", where, real);
        try {
          await settle();
        } catch (error) {
          takeBack(real, data, before);
          throw error;
        }
      },
      async mkdir(path: string, mkdirOptions?: { recursive?: boolean }) {
        await ready;
        await target.mkdir(path, mkdirOptions);
        // A new directory is empty, and `mkdir -p` of an existing one changes nothing below it.
        mark("entry", physical(volume, path));
        await settle();
      },
      async rm(path: string, rmOptions?: { recursive?: boolean; force?: boolean }) {
        await ready;
        const where = physical(volume, path);
        await target.rm(path, rmOptions);
        mark("tree", where);
        await settle();
      },
      async rename(from: string, to: string) {
        await ready;
        const source = physical(volume, from);
        const dest = physical(volume, to);
        await target.rename(from, to);
        mark("tree", source, dest);
        await settle();
      },
      async symlink(linkTarget: string, path: string) {
        await ready;
        await target.symlink!(linkTarget, path);
        mark("entry", physical(volume, path));
        await settle();
      },
    };
  }

  /**
   * The synchronous form: the memory copy's, with changes marked for saving as the promise form
   * marks them. Before the stored workspace is loaded a call throws `EBUSY` (await `ready` first).
   */
  const memorySync = memory.sync;
  const whenLoaded = (syscall: string, path: string): void => {
    if (!isLoaded)
      throw new FsError("EBUSY", {
        syscall,
        path,
        detail: "the IndexedDB workspace is still loading; await fs.ready first",
      });
  };
  const sync: Required<FileSystemSync> = {
    readFile: (path) => (whenLoaded("open", path), memorySync.readFile(path)),
    stat: (path) => (whenLoaded("stat", path), memorySync.stat(path)),
    lstat: (path) => (whenLoaded("lstat", path), memorySync.lstat(path)),
    readdir: (path) => (whenLoaded("scandir", path), memorySync.readdir(path)),
    realpath: (path) => (whenLoaded("realpath", path), memorySync.realpath(path)),
    readlink: (path) => (whenLoaded("readlink", path), memorySync.readlink(path)),
    writeFile(path, data) {
      whenLoaded("open", path);
      memorySync.writeFile(path, data);
      const where = physical(volume, path);
      let real = where;
      try {
        real = String(volume.realpathSync(path));
      } catch {
        // keep the physical path
      }
      markSync("entry", where, real);
    },
    mkdir(path, mkdirOptions) {
      whenLoaded("mkdir", path);
      memorySync.mkdir(path, mkdirOptions);
      markSync("entry", physical(volume, path));
    },
    rm(path, rmOptions) {
      whenLoaded("rm", path);
      const where = physical(volume, path);
      memorySync.rm(path, rmOptions);
      markSync("tree", where);
    },
    rename(from, to) {
      whenLoaded("rename", from);
      const source = physical(volume, from);
      const dest = physical(volume, to);
      memorySync.rename(from, to);
      markSync("tree", source, dest);
    },
    symlink(linkTarget, path) {
      whenLoaded("symlink", path);
      memorySync.symlink(linkTarget, path);
      markSync("entry", physical(volume, path));
    },
  };

  const capabilities = Object.freeze({ symlink: true }) as { readonly symlink: true };
  // The no-follow form is the memory backend's, persisted the same way: its check and its act
  // still run in one synchronous step after the load, so a link swapped in since the gate's
  // check is refused (ELOOP), not followed.
  const memoryNoFollow = memory.noFollow as FileSystem;
  const noFollow = forwardFileSystem(memoryNoFollow, {
    name: "idb" as const,
    capabilities,
    ...(relaxed ? { durability: "relaxed" as const } : {}),
    ...persisted(memoryNoFollow),
  });

  // Every call waits for the load; changes mark what to save. The rest is the memory backend's.
  return forwardFileSystem(memory, {
    name: "idb" as const,
    capabilities,
    ...(relaxed ? { durability: "relaxed" as const } : {}),
    ready,
    noFollow,
    sync,
    ...persisted(memory),
    async flush() {
      await ready;
      await saveNow();
    },
    async close() {
      target?.removeEventListener("visibilitychange", onHidden);
      target?.removeEventListener("pagehide", onHidden);
      try {
        await ready;
        await saveNow();
      } finally {
        closed = true;
      }
    },
  });
}

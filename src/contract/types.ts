/**
 * The backend contract: every storage backend (memfs, OPFS, IndexedDB, Node fs, just-bash)
 * implements {@link FileSystem}. Backends deal in bytes and absolute POSIX paths in their own
 * namespace; text, line endings, BOM and UTF-8 validity are the tools' business.
 *
 * @module
 */

import type { FsErrorCode } from "./errors.js";

/** The kind of a directory entry or stat result. `other` covers FIFOs, sockets and devices. */
export type FileType = "file" | "directory" | "symlink" | "other";

/** What `stat`/`lstat` return. */
export interface FileStat {
  /** `symlink` only from `lstat`; `stat` follows links. */
  readonly type: FileType;
  /** Size in bytes (0 for directories where the backend has no figure). */
  readonly size: number;
  /** Last modification time, milliseconds since the Unix epoch. */
  readonly mtimeMs: number;
  /** POSIX permission bits (e.g. `0o644`) where the backend has them. */
  readonly mode?: number;
  /** Last access time, milliseconds since the Unix epoch, where the backend has it (Node does). */
  readonly atimeMs?: number;
  /** Creation time, milliseconds since the Unix epoch, where the backend has it (Node does). */
  readonly birthtimeMs?: number;
}

/** One entry of `readdir`. */
export interface DirEntry {
  /** The entry's name, not a path. */
  readonly name: string;
  /** The entry's own type (a symlink is reported as `symlink`, not followed). */
  readonly type: FileType;
}

/** Optional abilities a backend declares; the conformance suite skips what is not declared. */
export interface FileSystemCapabilities {
  /** `symlink` and `readlink` are implemented and `realpath`/`stat` follow links. */
  readonly symlink?: boolean;
  /** `watch` is implemented. */
  readonly watch?: boolean;
  /** Synchronous access handles are used (OPFS in a Worker). */
  readonly syncAccess?: boolean;
  /**
   * A backslash is an ordinary byte of a name, never a separator (the Node backend on a POSIX
   * host: `a\b.txt` is one name). Absent: the backend refuses paths with a backslash (`EINVAL`),
   * as the gate does unless created with `backslashNames: true`.
   */
  readonly backslashNames?: boolean;
}

/** A change reported by `watch`. */
export interface WatchEvent {
  readonly type: "write" | "remove" | "rename" | "mkdir";
  /** Absolute path that changed. */
  readonly path: string;
}

/**
 * The backend contract. All paths are absolute POSIX paths (`/a/b.txt`) in the backend's own
 * namespace; the tools resolve and check paths (see the gate) before calling a backend.
 * Every method rejects with {@link FsError} on failure. Backends allow many calls in flight.
 */
export interface FileSystem {
  /** Short backend name for messages and descriptions: `memory`, `opfs`, `idb`, `node`... */
  readonly name: string;
  /** Optional abilities; absent means not supported. */
  readonly capabilities: FileSystemCapabilities;
  /** The whole file's bytes. ENOENT if absent, EISDIR for a directory. */
  readFile(path: string): Promise<Uint8Array>;
  /** Replace the file's bytes, creating missing parent directories. EISDIR if `path` is a directory, ENOTDIR if a parent is a file. */
  writeFile(path: string, data: Uint8Array): Promise<void>;
  /** Stat following symlinks. ENOENT if absent. */
  stat(path: string): Promise<FileStat>;
  /** Stat not following a symlink leaf. ENOENT if absent. */
  lstat(path: string): Promise<FileStat>;
  /** Entries of a directory (any order; callers sort). ENOENT if absent, ENOTDIR for a file. */
  readdir(path: string): Promise<DirEntry[]>;
  /** Create a directory. With `recursive`, parents too and no error if it exists; without, EEXIST if it exists and ENOENT if the parent is missing. */
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  /** Remove a file or directory. A non-empty directory needs `recursive` (else ENOTEMPTY); `force` ignores a missing path. */
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  /** Move `from` to `to`, replacing an existing file at `to`. ENOENT if `from` is absent. */
  rename(from: string, to: string): Promise<void>;
  /**
   * The canonical path with every symlink resolved. ENOENT if absent (ENOTDIR when a name on the
   * way is a file). A backend that learns how far a missing path resolved may say so in the
   * error's `resolvedPrefix` (see `ResolvedPrefix`): the gate then needs no lookup of its own.
   */
  realpath(path: string): Promise<string>;
  /**
   * The whole file's bytes without a copy, lent to `use`: the backend calls `use` synchronously,
   * inside this call, with a view of the bytes it holds, and resolves with what `use` returns.
   * `use` must not change the view nor keep it (after `use` returns, a write may change or reuse
   * those bytes), and the view may be part of a larger buffer that holds other files' bytes
   * (`view.buffer`): lend it to trusted code only (the gate's checked `fs` does not offer it; its
   * walks use it for grep). Errors as `readFile` (ENOENT, EISDIR...), and whatever `use` throws.
   * Backends that hold files in memory have it (memory, idb, opfs-mirror); absent: call
   * `readFile`. A wrapper that replaces `readFile` drops it unless it replaces it too.
   */
  readFileView?<T>(path: string, use: (bytes: Uint8Array) => T): Promise<T>;
  /** Create a symlink at `path` pointing to `target` (capability `symlink`). */
  symlink?(target: string, path: string): Promise<void>;
  /** The target of the symlink at `path` (capability `symlink`). EINVAL if not a link. */
  readlink?(path: string): Promise<string>;
  /**
   * The per-path locks tools should use by default over this storage, when it is shared beyond
   * one object (OPFS: Web Locks, so two tabs never interleave a read-modify-write). Absent:
   * in-process locks per backend object. A `Locks` is `{ run(keys, fn) }` (see `memoryLocks`).
   */
  readonly locks?: { run<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> };
  /**
   * The working directory the backend was made for (absolute, in its namespace), e.g.
   * `nodeFileSystem({ cwd })`. Tools, the gate and the shell use it when their own `cwd` option is
   * not given. Absent: the first allowed root, or `/`.
   */
  readonly cwd?: string;
  /**
   * The roots the backend admits (absolute, in its namespace), e.g. `nodeFileSystem({ allowedRoots })`.
   * Tools and the gate use them when their own `allowedRoots` option is not given. Absent: `[cwd]`.
   */
  readonly allowedRoots?: readonly string[];
  /**
   * `"relaxed"` when a change may still be lost after its call resolved (a crash within the
   * backend's save window, e.g. `idbFileSystem({ durability: "relaxed" })`); the tools then say
   * so in each mutation result. Absent: a change is kept once its call resolves.
   */
  readonly durability?: "relaxed";
  /** Watch for changes under `path`; returns a function that stops watching (capability `watch`). */
  watch?(path: string, listener: (event: WatchEvent) => void): () => void;
  /**
   * The no-follow call form: the same storage, called with paths that are already real (as the
   * gate resolved and checked them), where no symlink is followed again. A symlink found in any
   * directory of the path rejects (`ELOOP`, or `EACCES` where the backend catches it by
   * comparing an opened descriptor with the path), and so does one at the last name of a call
   * that would follow it (`readFile`, `writeFile`, `stat`, `readdir`, `mkdir`, `realpath`);
   * `lstat`, `readlink`, `rm`, `rename` and `symlink` act on a link at the last name itself.
   * Missing names are never taken for links. The check and the use are one step: nothing
   * swapped in between is followed (Node: descriptor checks through `/proc/self/fd`; memory:
   * the check and the act run synchronously in one task). Absent: the backend has no links, or
   * cannot promise this (the gate then calls the backend by name). A wrapper (middleware) that
   * forwards it must apply itself to it too, or drop it.
   */
  readonly noFollow?: FileSystem;
  /**
   * The same calls answered synchronously ({@link FileSystemSync}), where the backend holds its
   * files in memory (memory; idb and opfs-mirror once loaded). `better-fs-tools/node-fs` builds
   * its `*Sync` API on it. Absent: the backend has no synchronous form.
   */
  readonly sync?: FileSystemSync;
}

/**
 * The synchronous form of a backend's calls, offered by backends that hold their files in memory
 * (memory, idb and opfs-mirror once loaded). Same paths, results and errors as the promise form,
 * thrown instead of rejected; a durable backend saves a sync write after the call returns (its
 * `flush()` waits for it), and may refuse one its promise form could wait out. Middleware does not carry it (a wrapper would be bypassed): a wrapped backend has
 * none unless the wrapper provides its own.
 */
export interface FileSystemSync {
  readFile(path: string): Uint8Array;
  writeFile(path: string, data: Uint8Array): void;
  stat(path: string): FileStat;
  lstat(path: string): FileStat;
  readdir(path: string): DirEntry[];
  mkdir(path: string, options?: { recursive?: boolean }): void;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): void;
  rename(from: string, to: string): void;
  realpath(path: string): string;
  symlink?(target: string, path: string): void;
  readlink?(path: string): string;
}

/** A backend factory as the conformance suite takes it. */
export type FileSystemFactory = () => Promise<FileSystem>;

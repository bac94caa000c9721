/**
 * The backend contract: every storage backend (memfs, OPFS, IndexedDB, Node fs, just-bash)
 * implements {@link FileSystem}. Backends deal in bytes and absolute POSIX paths in their own
 * namespace; text, line endings, BOM and UTF-8 validity are the tools' business.
 *
 * @module
 */

/** Node-style error codes a backend or the gate may raise. */
export type FsErrorCode =
  | "ENOENT"
  | "EEXIST"
  | "EISDIR"
  | "ENOTDIR"
  | "ENOTEMPTY"
  | "EACCES"
  | "EPERM"
  | "EINVAL"
  | "ENOSPC"
  | "EFBIG"
  | "ELOOP"
  | "ENAMETOOLONG"
  | "EROFS"
  | "EBUSY"
  | "EXDEV"
  | "ENOTSUP"
  | "EIO";

/** Human text for each code, as Node prints it after the code. */
export const FS_ERROR_DESCRIPTIONS: Readonly<Record<FsErrorCode, string>> = Object.freeze({
  ENOENT: "no such file or directory",
  EEXIST: "file already exists",
  EISDIR: "illegal operation on a directory",
  ENOTDIR: "not a directory",
  ENOTEMPTY: "directory not empty",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EINVAL: "invalid argument",
  ENOSPC: "no space left on device",
  EFBIG: "file too large",
  ELOOP: "too many symbolic links encountered",
  ENAMETOOLONG: "name too long",
  EROFS: "read-only file system",
  EBUSY: "resource busy or locked",
  EXDEV: "cross-device link not permitted",
  ENOTSUP: "operation not supported",
  EIO: "i/o error",
});

const FS_ERROR_MARKER = Symbol.for("better-fs-tools.error.FsError");

/** Options of {@link FsError}. */
export interface FsErrorOptions {
  /** The call that failed, Node's name for it: `open`, `stat`, `scandir`, `mkdir`, `rm`, `rename`... */
  syscall: string;
  /** The path the call was given (absolute, in the backend's namespace). */
  path?: string;
  /** The second path of a two-path call (`rename`, `symlink`). */
  dest?: string;
  /** Extra detail appended to the message after ` (...)`, e.g. the quota left. */
  detail?: string;
  /** The underlying error (DOMException, memfs or Node error). */
  cause?: unknown;
}

/**
 * A filesystem error with a Node-style `code`. Its message starts with the code, exactly as Node
 * words it (`ENOENT: no such file or directory, open '/a'`), because just-bash and many agents
 * match on that text.
 *
 * Use {@link FsError.isInstance} rather than `instanceof`: it still matches when two copies of
 * the package are installed.
 *
 * @example
 * ```ts
 * throw new FsError("ENOENT", { syscall: "open", path: "/a" });
 * // message: "ENOENT: no such file or directory, open '/a'"
 * ```
 */
export class FsError extends Error {
  readonly [FS_ERROR_MARKER] = true;
  override readonly name = "FsError";
  readonly code: FsErrorCode;
  readonly syscall: string;
  readonly path: string | undefined;
  readonly dest: string | undefined;

  constructor(code: FsErrorCode, options: FsErrorOptions) {
    const where =
      options.path === undefined
        ? ""
        : options.dest === undefined
          ? ` '${options.path}'`
          : ` '${options.path}' -> '${options.dest}'`;
    const detail = options.detail === undefined ? "" : ` (${options.detail})`;
    super(`${code}: ${FS_ERROR_DESCRIPTIONS[code]}, ${options.syscall}${where}${detail}`, {
      cause: options.cause,
    });
    this.code = code;
    this.syscall = options.syscall;
    this.path = options.path;
    this.dest = options.dest;
  }

  /** True for any `FsError`, from this copy of the package or another. */
  static isInstance(value: unknown): value is FsError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[FS_ERROR_MARKER] === true;
  }
}

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
  /** The canonical path with every symlink resolved. ENOENT if absent. */
  realpath(path: string): Promise<string>;
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
  /** Watch for changes under `path`; returns a function that stops watching (capability `watch`). */
  watch?(path: string, listener: (event: WatchEvent) => void): () => void;
}

/** A backend factory as the conformance suite takes it. */
export type FileSystemFactory = () => Promise<FileSystem>;

/**
 * The OPFS backend's engine: paths, directories, stat, readdir, mkdir, rm and rename over
 * `FileSystemDirectoryHandle`s. How file bytes are read and written is delegated to an
 * {@link OpfsFileIo}: async handles and `createWritable` on the main thread
 * (`opfs-main-io.ts`), sync access handles kept open in a Worker (`opfs-sync-io.ts`).
 *
 * @module
 */
import { type DirEntry, type FileStat, type FileSystem } from "../../contract/types.js";
import { FsError } from "../../contract/errors.js";
import { isDomError, toFsError } from "./errors.js";

/** Suffix of the swap files Chromium creates beside a file while a `createWritable` is open. */
export const OPFS_SWAP_SUFFIX = ".crswap";

/** How file bytes move in and out of OPFS. */
export interface OpfsFileIo {
  /** True when sync access handles are used (capability `syncAccess`). */
  readonly syncAccess: boolean;
  /** The whole file. */
  read(handle: FileSystemFileHandle, path: string): Promise<Uint8Array>;
  /** Replace the whole file; on failure the previous content must be intact. */
  write(handle: FileSystemFileHandle, data: Uint8Array, path: string): Promise<void>;
  /** Size in bytes and modification time in milliseconds since the epoch. */
  stat(handle: FileSystemFileHandle, path: string): Promise<{ size: number; mtimeMs: number }>;
  /**
   * Fast path: the bytes of `path` if a handle to it is already open (no lookup needed: an open
   * sync access handle keeps the file from being removed or moved by anyone else), else `undefined`.
   */
  readOpen?(path: string): Uint8Array | undefined;
  /** Fast path: replace the bytes of `path` if a handle to it is open; `false` when none is. */
  writeOpen?(path: string, data: Uint8Array): boolean;
  /** Close whatever is held open at `path` or below it (before a remove or a move). */
  release(path: string): Promise<void>;
  /** Close everything. */
  close(): Promise<void>;
}

/** Options of {@link createOpfsCore}. */
export interface OpfsCoreOptions {
  /** The workspace root, resolved on first call. */
  readonly getRoot: () => Promise<FileSystemDirectoryHandle>;
  readonly io: OpfsFileIo;
  /** How long a call waits for a file another context holds open, in milliseconds. */
  readonly busyTimeoutMs: number;
  /** Free space figure for ENOSPC messages; default `navigator.storage.estimate()`. */
  readonly estimate?: () => Promise<{ quota?: number; usage?: number }>;
}

/** The backend object the core returns: a {@link FileSystem} plus `close()`. */
export interface OpfsCore extends FileSystem {
  /** Release sync access handles (Worker) and forget cached directory handles. */
  close(): Promise<void>;
}

type Entry =
  | { readonly kind: "file"; readonly handle: FileSystemFileHandle; readonly parent: FileSystemDirectoryHandle }
  | {
      readonly kind: "directory";
      readonly handle: FileSystemDirectoryHandle;
      readonly parent: FileSystemDirectoryHandle | undefined;
    };

/** Split an absolute path into components, resolving `.` and `..` lexically. */
export function pathParts(path: string): string[] {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return parts;
}

function joinParts(parts: readonly string[], count = parts.length): string {
  return "/" + parts.slice(0, count).join("/");
}

const BUSY_FIRST_WAIT_MS = 5;
const BUSY_MAX_WAIT_MS = 100;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Build the OPFS {@link FileSystem} over a root and a file I/O strategy.
 *
 * @param options - root, I/O strategy and busy timeout.
 * @returns the backend; every method rejects with {@link FsError}.
 */
export function createOpfsCore(options: OpfsCoreOptions): OpfsCore {
  const { io } = options;
  const dirCache = new Map<string, FileSystemDirectoryHandle>();
  let rootPromise: Promise<FileSystemDirectoryHandle> | undefined;

  function root(): Promise<FileSystemDirectoryHandle> {
    if (rootPromise === undefined) {
      rootPromise = options.getRoot();
      rootPromise.catch(() => {
        rootPromise = undefined;
      });
    }
    return rootPromise;
  }

  function forget(path: string): void {
    for (const key of dirCache.keys()) {
      if (key === path || key.startsWith(path === "/" ? "/" : path + "/")) dirCache.delete(key);
    }
  }

  /** Walk to a directory; NotFoundError/TypeMismatchError propagate as DOMExceptions. */
  async function dir(parts: readonly string[], count: number, create: boolean): Promise<FileSystemDirectoryHandle> {
    let handle = await root();
    let index = count;
    for (; index > 0; index--) {
      const cached = dirCache.get(joinParts(parts, index));
      if (cached !== undefined) {
        handle = cached;
        break;
      }
    }
    for (; index < count; index++) {
      handle = await handle.getDirectoryHandle(parts[index] as string, { create });
      dirCache.set(joinParts(parts, index + 1), handle);
    }
    return handle;
  }

  /**
   * Run `fn`; when it meets a NotFoundError after using cached handles (a directory, or the root
   * itself, removed by another tab), forget them all, reach the root again and retry once.
   */
  async function fresh<T>(fn: () => Promise<T>): Promise<T> {
    const hadCache = dirCache.size > 0 || rootPromise !== undefined;
    try {
      return await fn();
    } catch (error) {
      if (!hadCache || !isDomError(error, "NotFoundError")) throw error;
      dirCache.clear();
      rootPromise = undefined;
      return fn();
    }
  }

  /** Retry while another context holds the file open (NoModificationAllowedError). */
  async function whenFree<T>(fn: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + options.busyTimeoutMs;
    let waitMs = BUSY_FIRST_WAIT_MS;
    for (;;) {
      try {
        return await fn();
      } catch (error) {
        if (!isDomError(error, "NoModificationAllowedError") || Date.now() + waitMs > deadline) throw error;
        await sleep(waitMs);
        waitMs = Math.min(waitMs * 2, BUSY_MAX_WAIT_MS);
      }
    }
  }

  async function quotaDetail(askedBytes: number): Promise<string> {
    let left = "unknown";
    try {
      const estimate = options.estimate ?? (() => navigator.storage.estimate());
      const { quota, usage } = await estimate();
      if (quota !== undefined && usage !== undefined) left = `${Math.max(0, quota - usage)} bytes`;
    } catch {
      // keep "unknown"
    }
    return `asked ${askedBytes} bytes, quota left ${left}`;
  }

  /** Look up an existing entry (file first, as files are the common case). */
  async function lookup(parts: readonly string[]): Promise<Entry> {
    if (parts.length === 0) return { kind: "directory", handle: await root(), parent: undefined };
    const parent = await dir(parts, parts.length - 1, false);
    const name = parts[parts.length - 1] as string;
    try {
      return { kind: "file", handle: await parent.getFileHandle(name), parent };
    } catch (error) {
      if (!isDomError(error, "TypeMismatchError")) throw error;
      const handle = await parent.getDirectoryHandle(name);
      dirCache.set(joinParts(parts), handle);
      return { kind: "directory", handle, parent };
    }
  }

  async function statOf(path: string, syscall: "stat" | "lstat" | "realpath"): Promise<FileStat> {
    const parts = pathParts(path);
    try {
      return await fresh(async () => {
        const entry = await lookup(parts);
        if (entry.kind === "directory") return { type: "directory", size: 0, mtimeMs: 0 };
        const { size, mtimeMs } = await io.stat(entry.handle, joinParts(parts));
        return { type: "file", size, mtimeMs };
      });
    } catch (error) {
      throw toFsError(error, { syscall, path, typeMismatch: "ENOTDIR" });
    }
  }

  /**
   * After a failed write: remove the file if this call created it (empty, and born during the
   * call), so a failed write of a new file leaves nothing behind. Saves a lookup on every write.
   */
  async function removeIfCreated(
    parent: FileSystemDirectoryHandle,
    name: string,
    handle: FileSystemFileHandle,
    path: string,
    startedMs: number,
  ): Promise<void> {
    try {
      const file = await handle.getFile();
      if (file.size === 0 && file.lastModified >= startedMs) {
        await io.release(path);
        await parent.removeEntry(name);
      }
    } catch {
      // best effort: the write error is what the caller needs
    }
  }

  async function writeInto(
    parent: FileSystemDirectoryHandle,
    name: string,
    data: Uint8Array,
    path: string,
    context: { readonly syscall: string; readonly path: string; readonly dest?: string },
  ): Promise<void> {
    const startedMs = Date.now();
    const handle = await parent.getFileHandle(name, { create: true });
    try {
      await whenFree(() => io.write(handle, data, path));
    } catch (error) {
      await removeIfCreated(parent, name, handle, path, startedMs);
      if (isDomError(error, "QuotaExceededError")) {
        throw toFsError(error, { ...context, detail: await quotaDetail(data.byteLength) });
      }
      throw error;
    }
  }

  /** Copy a directory tree (no swap files) into `target/name`. */
  async function copyTree(
    source: FileSystemDirectoryHandle,
    sourcePath: string,
    target: FileSystemDirectoryHandle,
    name: string,
    targetPath: string,
    context: { readonly syscall: string; readonly path: string; readonly dest?: string },
  ): Promise<void> {
    const created = await target.getDirectoryHandle(name, { create: true });
    for await (const [childName, child] of source.entries()) {
      if (childName.endsWith(OPFS_SWAP_SUFFIX)) continue;
      const childSource = `${sourcePath}/${childName}`;
      const childTarget = `${targetPath}/${childName}`;
      if (child.kind === "directory") {
        await copyTree(child as FileSystemDirectoryHandle, childSource, created, childName, childTarget, context);
      } else {
        const bytes = await whenFree(() => io.read(child as FileSystemFileHandle, childSource));
        await writeInto(created, childName, bytes, childTarget, context);
      }
    }
  }

  async function isEmpty(handle: FileSystemDirectoryHandle): Promise<boolean> {
    for await (const _ of handle.keys()) return false;
    return true;
  }

  const fs: OpfsCore = {
    name: "opfs",
    capabilities: io.syncAccess ? { syncAccess: true } : {},

    async readFile(path) {
      const parts = pathParts(path);
      try {
        const open = io.readOpen?.(joinParts(parts));
        if (open !== undefined) return open;
        return await fresh(async () => {
          if (parts.length === 0) throw new FsError("EISDIR", { syscall: "open", path });
          const parent = await dir(parts, parts.length - 1, false);
          let handle: FileSystemFileHandle;
          try {
            handle = await parent.getFileHandle(parts[parts.length - 1] as string);
          } catch (error) {
            throw isDomError(error, "TypeMismatchError")
              ? new FsError("EISDIR", { syscall: "open", path, cause: error })
              : error;
          }
          return whenFree(() => io.read(handle, joinParts(parts)));
        });
      } catch (error) {
        throw toFsError(error, { syscall: "open", path, typeMismatch: "ENOTDIR" });
      }
    },

    async writeFile(path, data) {
      const parts = pathParts(path);
      try {
        try {
          if (io.writeOpen?.(joinParts(parts), data) === true) return;
        } catch (error) {
          if (isDomError(error, "QuotaExceededError")) {
            throw toFsError(error, { syscall: "open", path, detail: await quotaDetail(data.byteLength) });
          }
          throw error;
        }
        await fresh(async () => {
          if (parts.length === 0) throw new FsError("EISDIR", { syscall: "open", path });
          const parent = await dir(parts, parts.length - 1, true);
          const name = parts[parts.length - 1] as string;
          try {
            await writeInto(parent, name, data, joinParts(parts), { syscall: "open", path });
          } catch (error) {
            // A directory where the file should be.
            throw isDomError(error, "TypeMismatchError")
              ? new FsError("EISDIR", { syscall: "open", path, cause: error })
              : error;
          }
        });
      } catch (error) {
        throw toFsError(error, { syscall: "open", path, typeMismatch: "ENOTDIR" });
      }
    },

    stat: (path) => statOf(path, "stat"),
    lstat: (path) => statOf(path, "lstat"),

    async readdir(path) {
      const parts = pathParts(path);
      try {
        return await fresh(async () => {
          const handle = await dir(parts, parts.length, false);
          const entries: DirEntry[] = [];
          for await (const [name, child] of handle.entries()) {
            if (name.endsWith(OPFS_SWAP_SUFFIX)) continue;
            entries.push({ name, type: child.kind === "directory" ? "directory" : "file" });
          }
          return entries;
        });
      } catch (error) {
        throw toFsError(error, { syscall: "scandir", path, typeMismatch: "ENOTDIR" });
      }
    },

    async mkdir(path, mkdirOptions) {
      const parts = pathParts(path);
      const recursive = mkdirOptions?.recursive === true;
      try {
        await fresh(async () => {
          if (parts.length === 0) {
            if (recursive) return;
            throw new FsError("EEXIST", { syscall: "mkdir", path });
          }
          const name = parts[parts.length - 1] as string;
          const parent = await dir(parts, parts.length - 1, recursive);
          if (!recursive) {
            try {
              await parent.getDirectoryHandle(name);
              throw new FsError("EEXIST", { syscall: "mkdir", path });
            } catch (error) {
              if (isDomError(error, "TypeMismatchError")) throw new FsError("EEXIST", { syscall: "mkdir", path });
              if (!isDomError(error, "NotFoundError")) throw error;
            }
          }
          try {
            dirCache.set(joinParts(parts), await parent.getDirectoryHandle(name, { create: true }));
          } catch (error) {
            if (isDomError(error, "TypeMismatchError")) throw new FsError("EEXIST", { syscall: "mkdir", path });
            throw error;
          }
        });
      } catch (error) {
        throw toFsError(error, { syscall: "mkdir", path, typeMismatch: "ENOTDIR" });
      }
    },

    async rm(path, rmOptions) {
      const parts = pathParts(path);
      const recursive = rmOptions?.recursive === true;
      const force = rmOptions?.force === true;
      const canonical = joinParts(parts);
      try {
        await fresh(async () => {
          if (parts.length === 0) {
            const handle = await root();
            if (!recursive) {
              if (await isEmpty(handle)) throw new FsError("EPERM", { syscall: "rm", path });
              throw new FsError("ENOTEMPTY", { syscall: "rm", path });
            }
            await io.release("/");
            const names: string[] = [];
            for await (const name of handle.keys()) names.push(name);
            for (const name of names) await whenFree(() => handle.removeEntry(name, { recursive: true }));
            dirCache.clear();
            return;
          }
          let parent: FileSystemDirectoryHandle;
          try {
            parent = await dir(parts, parts.length - 1, false);
          } catch (error) {
            if (force && isDomError(error, "NotFoundError")) return;
            throw error;
          }
          const name = parts[parts.length - 1] as string;
          await io.release(canonical);
          try {
            await whenFree(() => parent.removeEntry(name, { recursive }));
          } catch (error) {
            if (force && isDomError(error, "NotFoundError")) {
              // A stale cached parent also says NotFoundError: make sure the entry really is gone.
              await dir(parts, parts.length - 1, false);
              return;
            }
            throw error;
          }
          forget(canonical);
        });
      } catch (error) {
        throw toFsError(error, { syscall: "rm", path, typeMismatch: "ENOTDIR" });
      }
    },

    async rename(from, to) {
      const fromParts = pathParts(from);
      const toParts = pathParts(to);
      const fromPath = joinParts(fromParts);
      const toPath = joinParts(toParts);
      const context = { syscall: "rename", path: from, dest: to } as const;
      try {
        await fresh(async () => {
          const source = await lookup(fromParts);
          if (fromParts.length === 0 || toParts.length === 0) throw new FsError("EBUSY", context);
          if (fromPath === toPath) return;
          if (source.kind === "directory" && toPath.startsWith(fromPath + "/")) throw new FsError("EINVAL", context);
          const toParent = await dir(toParts, toParts.length - 1, false);
          const toName = toParts[toParts.length - 1] as string;
          const fromName = fromParts[fromParts.length - 1] as string;
          let existing: Entry | undefined;
          try {
            existing = await lookup(toParts);
          } catch (error) {
            if (!isDomError(error, "NotFoundError")) throw error;
          }
          if (source.kind === "file" && existing?.kind === "directory") throw new FsError("EISDIR", context);
          if (source.kind === "directory" && existing?.kind === "file") throw new FsError("ENOTDIR", context);
          if (source.kind === "directory" && existing?.kind === "directory") {
            if (!(await isEmpty(existing.handle))) throw new FsError("ENOTEMPTY", context);
            await toParent.removeEntry(toName);
            forget(toPath);
          }
          await io.release(fromPath);
          await io.release(toPath);
          if (source.kind === "file") {
            const move = (
              source.handle as FileSystemFileHandle & {
                move?: (parent: FileSystemDirectoryHandle, name: string) => Promise<void>;
              }
            ).move;
            if (typeof move === "function") {
              await whenFree(() => move.call(source.handle, toParent, toName));
              return;
            }
            const bytes = await whenFree(() => io.read(source.handle, fromPath));
            await writeInto(toParent, toName, bytes, toPath, context);
            await io.release(fromPath);
            await whenFree(() => source.parent.removeEntry(fromName));
            return;
          }
          // Directories: copy the whole tree, then remove the source (never the other way round).
          try {
            await copyTree(source.handle, fromPath, toParent, toName, toPath, context);
          } catch (error) {
            await io.release(toPath);
            await toParent.removeEntry(toName, { recursive: true }).catch(() => undefined);
            forget(toPath);
            // Put back the empty directory the rename was to replace.
            if (existing?.kind === "directory")
              await toParent.getDirectoryHandle(toName, { create: true }).catch(() => undefined);
            throw error;
          }
          await io.release(fromPath);
          await whenFree(() => (source.parent as FileSystemDirectoryHandle).removeEntry(fromName, { recursive: true }));
          forget(fromPath);
        });
      } catch (error) {
        throw toFsError(error, { ...context, typeMismatch: "ENOTDIR" });
      }
    },

    async realpath(path) {
      const parts = pathParts(path);
      await statOf(path, "realpath");
      return joinParts(parts);
    },

    async close() {
      dirCache.clear();
      await io.close();
    },
  };
  return fs;
}

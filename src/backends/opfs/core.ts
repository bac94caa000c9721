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
import { createHandleCache, type DirNode } from "./handles.js";

/** Suffix of the swap files Chromium creates beside a file while a `createWritable` is open. */
export const OPFS_SWAP_SUFFIX = ".crswap";

/**
 * Name of the folder at the workspace root where the Worker backend writes a file's new bytes
 * before moving them onto its name ({@link OpfsCoreOptions.writeThroughTemp}). Hidden from `readdir`; a
 * path through it is refused with `EACCES`.
 */
export const OPFS_TEMP_DIR = ".better-fs-tools-tmp";

/** How file bytes move in and out of OPFS. */
export interface OpfsFileIo {
  /** True when sync access handles are used (capability `syncAccess`). */
  readonly syncAccess: boolean;
  /** The whole file. */
  read(handle: FileSystemFileHandle, path: string): Promise<Uint8Array>;
  /**
   * Replace the whole file; on failure the previous content must be intact. With
   * {@link OpfsCoreOptions.writeThroughTemp}, `handle` is always a new empty temporary file, moved onto
   * its name once this resolves: the bytes must be on disk (flushed) and the file closed.
   */
  write(handle: FileSystemFileHandle, data: Uint8Array, path: string): Promise<void>;
  /** Size in bytes and modification time in milliseconds since the epoch. */
  stat(handle: FileSystemFileHandle, path: string): Promise<{ size: number; mtimeMs: number }>;
  /**
   * Fast path: the bytes of `path` if a handle to it is already open (no lookup needed: an open
   * sync access handle keeps the file from being removed or moved by anyone else), else `undefined`.
   */
  readOpen?(path: string): Uint8Array | undefined;
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
  /**
   * Write files through the temporary folder {@link OPFS_TEMP_DIR}: the bytes go to a new file
   * there, then `FileSystemHandle.move()` replaces the target at once, so a write cut short (the
   * Worker ended) leaves the file as it was. The folder's leftovers are removed on the first
   * write. Unset: files are written in place by `io.write` (which must then be atomic itself).
   * Either way the folder is hidden from `readdir` and paths through it are refused (`EACCES`),
   * so a main-thread backend on the same root never shows it.
   */
  readonly writeThroughTemp?: boolean;
  /** Free space figure for ENOSPC messages; default `navigator.storage.estimate()`. */
  readonly estimate?: () => Promise<{ quota?: number; usage?: number }>;
}

/** The backend object the core returns: a {@link FileSystem} plus `close()`. */
export interface OpfsCore extends FileSystem {
  /** Release sync access handles (Worker) and forget cached directory handles. */
  close(): Promise<void>;
}

type Entry =
  | { readonly kind: "file"; readonly handle: FileSystemFileHandle; readonly parent: DirNode }
  | { readonly kind: "directory"; readonly node: DirNode; readonly parent: DirNode | undefined };

/**
 * What one attempt of a call took from the handle cache: checked when the attempt fails with
 * `NotFoundError`, to tell a name that is not there from a cached handle gone stale.
 */
interface Attempt {
  /** The deepest cached directory each walk of the attempt started below. */
  readonly used: Set<DirNode>;
  /** True on the retry: a `NotFoundError` now means the name is not there. */
  readonly retry: boolean;
}

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

function joinParts(parts: readonly string[]): string {
  return "/" + parts.join("/");
}

const BUSY_FIRST_WAIT_MS = 5;
const BUSY_MAX_WAIT_MS = 100;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Build the OPFS {@link FileSystem} over a root and a file I/O strategy.
 *
 * Paths are resolved through a cache of the directory handles met ({@link createHandleCache}):
 * a call walks the cached directories by name and looks up only the names below them, one
 * handle call each, so a call costs time linear in its path's names. When a call through
 * cached handles meets `NotFoundError`, the deepest cached directory it used is looked up again
 * in its parent: still there, the call is retried once (the name itself is missing); gone
 * (another tab removed it), the whole cache is dropped and the call retried once from the root.
 *
 * @param options - root, I/O strategy and busy timeout.
 * @returns the backend; every method rejects with {@link FsError}.
 */
export function createOpfsCore(options: OpfsCoreOptions): OpfsCore {
  const { io } = options;
  const cache = createHandleCache({ getRoot: options.getRoot });
  const tempDir = OPFS_TEMP_DIR;

  /** {@link pathParts}, refusing a path through the temporary folder (`EACCES`). */
  function parse(path: string, syscall: string): string[] {
    const parts = pathParts(path);
    if (parts[0] === tempDir) {
      throw new FsError("EACCES", {
        syscall,
        path,
        detail: `${tempDir} is reserved for the backend's temporary files`,
      });
    }
    return parts;
  }

  /** True for an entry `readdir` and tree copies skip in the directory `dirPath`. */
  function hidden(dirPath: string, name: string): boolean {
    return name.endsWith(OPFS_SWAP_SUFFIX) || (dirPath === "/" && name === tempDir);
  }

  /** Walk to the directory of the first `count` names; DOMExceptions propagate. */
  function dir(attempt: Attempt, parts: readonly string[], count: number, create: boolean): Promise<DirNode> {
    return cache.walk(count === parts.length ? parts : parts.slice(0, count), create, attempt.used);
  }

  /**
   * Run `fn`; when it meets a NotFoundError after using cached handles, check the cached
   * directories it used (one look-up each) and retry once: with the cache as it is when they
   * are all still there, from an empty cache (and the root reached again) when one is gone.
   */
  async function fresh<T>(fn: (attempt: Attempt) => Promise<T>): Promise<T> {
    const first: Attempt = { used: new Set(), retry: false };
    try {
      return await fn(first);
    } catch (error) {
      if (!isDomError(error, "NotFoundError") || first.used.size === 0) throw error;
      for (const node of first.used) {
        if (!(await cache.confirm(node))) {
          cache.clear();
          break;
        }
      }
      return fn({ used: new Set(), retry: true });
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

  /**
   * Look up an existing entry. Its last name is always looked up (a cached handle is no proof
   * that it is still there): as a directory first where a directory was met, else as a file.
   */
  async function lookup(attempt: Attempt, parts: readonly string[]): Promise<Entry> {
    const parent = await dir(attempt, parts, Math.max(0, parts.length - 1), false);
    if (parts.length === 0) return { kind: "directory", node: parent, parent: undefined };
    const name = parts[parts.length - 1] as string;
    const asFile = async (): Promise<Entry> => {
      const handle = await parent.handle.getFileHandle(name);
      cache.adoptFile(parent, name, handle);
      return { kind: "file", handle, parent };
    };
    const asDirectory = async (): Promise<Entry> => ({
      kind: "directory",
      node: cache.adoptDir(parent, name, await parent.handle.getDirectoryHandle(name)),
      parent,
    });
    const [first, second] = parent.dirs.has(name) ? [asDirectory, asFile] : [asFile, asDirectory];
    try {
      return await first();
    } catch (error) {
      if (!isDomError(error, "TypeMismatchError")) throw error;
    }
    return second();
  }

  async function statOf(path: string, syscall: "stat" | "lstat"): Promise<FileStat> {
    const parts = parse(path, syscall);
    try {
      return await fresh(async (attempt) => {
        const entry = await lookup(attempt, parts);
        if (entry.kind === "directory") return { type: "directory", size: 0, mtimeMs: 0 };
        const { size, mtimeMs } = await io.stat(entry.handle, joinParts(parts));
        return { type: "file", size, mtimeMs };
      });
    } catch (error) {
      throw toFsError(error, { syscall, path, typeMismatch: "ENOTDIR" });
    }
  }

  /**
   * Read through a file handle met earlier, without looking the name up. A stale one shows: the
   * file gone (NotFoundError), a directory there now (Chromium reads it as an empty file, or the
   * open fails). So on an error (bar a busy file) or an empty result the handle is dropped and
   * `undefined` returned: the caller looks the name up.
   */
  async function readKnown(
    parent: DirNode,
    name: string,
    handle: FileSystemFileHandle,
    path: string,
  ): Promise<Uint8Array | undefined> {
    try {
      const bytes = await whenFree(() => io.read(handle, path));
      if (bytes.byteLength > 0) return bytes;
    } catch (error) {
      if (isDomError(error, "NoModificationAllowedError")) throw error;
    }
    if (parent.files.get(name) === handle) parent.files.delete(name);
    // Whatever the stale handle opened (a Worker's sync access handle) must not serve the path.
    await io.release(path);
    return undefined;
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

  let tempFolder: Promise<FileSystemDirectoryHandle> | undefined;

  /**
   * The temporary folder, made on first use after removing what an earlier Worker left in it
   * (files of writes cut short). A file another context still holds open (its write in flight)
   * cannot be removed and is kept.
   */
  function temporaryFolder(name: string): Promise<FileSystemDirectoryHandle> {
    tempFolder ??= (async () => {
      const root = await options.getRoot();
      const folder = await root.getDirectoryHandle(name, { create: true });
      const leftovers: string[] = [];
      for await (const leftover of folder.keys()) leftovers.push(leftover);
      for (const leftover of leftovers) await folder.removeEntry(leftover, { recursive: true }).catch(() => undefined);
      return folder;
    })();
    tempFolder.catch(() => {
      tempFolder = undefined;
    });
    return tempFolder;
  }

  /**
   * Replace `parent/name` through the temporary folder: the bytes go to a new file there
   * (written, flushed and closed by `io.write`), then `move()` puts it onto the name, replacing
   * the old file at once. Any failure before the move leaves the old file untouched and removes
   * the temporary one.
   */
  async function writeReplacing(
    folderName: string,
    parent: FileSystemDirectoryHandle,
    name: string,
    data: Uint8Array,
    path: string,
    context: { readonly syscall: string; readonly path: string; readonly dest?: string },
  ): Promise<FileSystemFileHandle> {
    // A directory at the name: TypeMismatchError, as a create would give (EISDIR).
    try {
      await parent.getFileHandle(name);
    } catch (error) {
      if (!isDomError(error, "NotFoundError")) throw error;
    }
    const folder = await temporaryFolder(folderName);
    const temporaryName = crypto.randomUUID();
    const temporary = await folder.getFileHandle(temporaryName, { create: true });
    try {
      await io.write(temporary, data, `/${folderName}/${temporaryName}`);
      // Our own handle on the old file would make the move fail.
      await io.release(path);
      const move = (
        temporary as FileSystemFileHandle & { move(parent: FileSystemDirectoryHandle, name: string): Promise<void> }
      ).move;
      await whenFree(() => move.call(temporary, parent, name));
    } catch (error) {
      await folder.removeEntry(temporaryName).catch(() => undefined);
      if (isDomError(error, "QuotaExceededError")) {
        throw toFsError(error, { ...context, detail: await quotaDetail(data.byteLength) });
      }
      throw error;
    }
    // The moved handle names `parent/name` now.
    return temporary;
  }

  async function writeInto(
    parent: FileSystemDirectoryHandle,
    name: string,
    data: Uint8Array,
    path: string,
    context: { readonly syscall: string; readonly path: string; readonly dest?: string },
  ): Promise<FileSystemFileHandle> {
    if (options.writeThroughTemp === true) return writeReplacing(tempDir, parent, name, data, path, context);
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
    return handle;
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

  async function isEmpty(handle: FileSystemDirectoryHandle, dirPath: string): Promise<boolean> {
    for await (const name of handle.keys()) if (!hidden(dirPath, name)) return false;
    return true;
  }

  const fs: OpfsCore = {
    name: "opfs",
    capabilities: io.syncAccess ? { syncAccess: true } : {},

    async readFile(path) {
      const parts = parse(path, "open");
      const canonical = joinParts(parts);
      try {
        const open = io.readOpen?.(canonical);
        if (open !== undefined) return open;
        return await fresh(async (attempt) => {
          if (parts.length === 0) throw new FsError("EISDIR", { syscall: "open", path });
          const parent = await dir(attempt, parts, parts.length - 1, false);
          const name = parts[parts.length - 1] as string;
          const known = parent.files.get(name);
          if (known !== undefined) {
            const bytes = await readKnown(parent, name, known, canonical);
            if (bytes !== undefined) return bytes;
          }
          let handle: FileSystemFileHandle;
          try {
            handle = await parent.handle.getFileHandle(name);
          } catch (error) {
            throw isDomError(error, "TypeMismatchError")
              ? new FsError("EISDIR", { syscall: "open", path, cause: error })
              : error;
          }
          cache.adoptFile(parent, name, handle);
          return whenFree(() => io.read(handle, canonical));
        });
      } catch (error) {
        throw toFsError(error, { syscall: "open", path, typeMismatch: "ENOTDIR" });
      }
    },

    async writeFile(path, data) {
      const parts = parse(path, "open");
      const canonical = joinParts(parts);
      try {
        await fresh(async (attempt) => {
          if (parts.length === 0) throw new FsError("EISDIR", { syscall: "open", path });
          const parent = await dir(attempt, parts, parts.length - 1, true);
          const name = parts[parts.length - 1] as string;
          try {
            cache.adoptFile(
              parent,
              name,
              await writeInto(parent.handle, name, data, canonical, { syscall: "open", path }),
            );
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
      const parts = parse(path, "scandir");
      try {
        return await fresh(async (attempt) => {
          const node = await dir(attempt, parts, parts.length, false);
          const entries: DirEntry[] = [];
          const met: Array<readonly [string, FileSystemHandle]> = [];
          for await (const [name, child] of node.handle.entries()) {
            if (hidden(joinParts(parts), name)) continue;
            met.push([name, child]);
            entries.push({ name, type: child.kind === "directory" ? "directory" : "file" });
          }
          cache.adoptListing(node, met);
          return entries;
        });
      } catch (error) {
        throw toFsError(error, { syscall: "scandir", path, typeMismatch: "ENOTDIR" });
      }
    },

    async mkdir(path, mkdirOptions) {
      const parts = parse(path, "mkdir");
      const recursive = mkdirOptions?.recursive === true;
      try {
        await fresh(async (attempt) => {
          if (parts.length === 0) {
            if (recursive) return;
            throw new FsError("EEXIST", { syscall: "mkdir", path });
          }
          const name = parts[parts.length - 1] as string;
          const parent = await dir(attempt, parts, parts.length - 1, recursive);
          if (!recursive) {
            try {
              await parent.handle.getDirectoryHandle(name);
              throw new FsError("EEXIST", { syscall: "mkdir", path });
            } catch (error) {
              if (isDomError(error, "TypeMismatchError")) throw new FsError("EEXIST", { syscall: "mkdir", path });
              if (!isDomError(error, "NotFoundError")) throw error;
            }
          }
          try {
            cache.adoptDir(parent, name, await parent.handle.getDirectoryHandle(name, { create: true }));
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
      const parts = parse(path, "rm");
      const recursive = rmOptions?.recursive === true;
      const force = rmOptions?.force === true;
      const canonical = joinParts(parts);
      try {
        await fresh(async (attempt) => {
          if (parts.length === 0) {
            const { handle } = await dir(attempt, parts, 0, false);
            if (!recursive) {
              if (await isEmpty(handle, "/")) throw new FsError("EPERM", { syscall: "rm", path });
              throw new FsError("ENOTEMPTY", { syscall: "rm", path });
            }
            await io.release("/");
            const names: string[] = [];
            for await (const name of handle.keys()) if (name !== tempDir) names.push(name);
            try {
              for (const name of names) await whenFree(() => handle.removeEntry(name, { recursive: true }));
            } finally {
              cache.forget(parts);
            }
            return;
          }
          // With `force`, a missing entry (or parent) is success; but a NotFoundError through a
          // cached handle may be a stale handle, so only the retry's (fresh) one counts.
          let parent: DirNode;
          try {
            parent = await dir(attempt, parts, parts.length - 1, false);
          } catch (error) {
            if (force && attempt.retry && isDomError(error, "NotFoundError")) return;
            throw error;
          }
          const name = parts[parts.length - 1] as string;
          await io.release(canonical);
          try {
            await whenFree(() => parent.handle.removeEntry(name, { recursive }));
          } catch (error) {
            if (isDomError(error, "NotFoundError")) cache.forget(parts);
            if (force && attempt.retry && isDomError(error, "NotFoundError")) return;
            throw error;
          }
          cache.forget(parts);
        });
      } catch (error) {
        throw toFsError(error, { syscall: "rm", path, typeMismatch: "ENOTDIR" });
      }
    },

    async rename(from, to) {
      const fromParts = parse(from, "rename");
      const toParts = parse(to, "rename");
      const fromPath = joinParts(fromParts);
      const toPath = joinParts(toParts);
      const context = { syscall: "rename", path: from, dest: to } as const;
      try {
        await fresh(async (attempt) => {
          const source = await lookup(attempt, fromParts);
          if (fromParts.length === 0 || toParts.length === 0) throw new FsError("EBUSY", context);
          if (fromPath === toPath) return;
          if (source.kind === "directory" && toPath.startsWith(fromPath + "/")) throw new FsError("EINVAL", context);
          const sourceParent = source.parent as DirNode;
          const toParent = await dir(attempt, toParts, toParts.length - 1, false);
          const toName = toParts[toParts.length - 1] as string;
          const fromName = fromParts[fromParts.length - 1] as string;
          let existing: Entry | undefined;
          try {
            existing = await lookup(attempt, toParts);
          } catch (error) {
            if (!isDomError(error, "NotFoundError")) throw error;
          }
          if (source.kind === "file" && existing?.kind === "directory") throw new FsError("EISDIR", context);
          if (source.kind === "directory" && existing?.kind === "file") throw new FsError("ENOTDIR", context);
          if (source.kind === "directory" && existing?.kind === "directory") {
            if (!(await isEmpty(existing.node.handle, toPath))) throw new FsError("ENOTEMPTY", context);
            await toParent.handle.removeEntry(toName);
            cache.forget(toParts);
          }
          await io.release(fromPath);
          await io.release(toPath);
          // Whatever happens next, neither name keeps a cached handle: move() makes the source's
          // handle name the destination.
          cache.forget(fromParts);
          cache.forget(toParts);
          try {
            if (source.kind === "file") {
              const move = (
                source.handle as FileSystemFileHandle & {
                  move?: (parent: FileSystemDirectoryHandle, name: string) => Promise<void>;
                }
              ).move;
              if (typeof move === "function") {
                await whenFree(() => move.call(source.handle, toParent.handle, toName));
                return;
              }
              const bytes = await whenFree(() => io.read(source.handle, fromPath));
              await writeInto(toParent.handle, toName, bytes, toPath, context);
              await io.release(fromPath);
              await whenFree(() => sourceParent.handle.removeEntry(fromName));
              return;
            }
            // Directories: copy the whole tree, then remove the source (never the other way round).
            try {
              await copyTree(source.node.handle, fromPath, toParent.handle, toName, toPath, context);
            } catch (error) {
              await io.release(toPath);
              await toParent.handle.removeEntry(toName, { recursive: true }).catch(() => undefined);
              // Put back the empty directory the rename was to replace.
              if (existing?.kind === "directory")
                await toParent.handle.getDirectoryHandle(toName, { create: true }).catch(() => undefined);
              throw error;
            }
            await io.release(fromPath);
            await whenFree(() => sourceParent.handle.removeEntry(fromName, { recursive: true }));
          } finally {
            cache.forget(fromParts);
            cache.forget(toParts);
          }
        });
      } catch (error) {
        throw toFsError(error, { ...context, typeMismatch: "ENOTDIR" });
      }
    },

    async realpath(path) {
      const parts = parse(path, "realpath");
      try {
        // Existence is all a realpath needs here (no symlinks): the look-up, not a stat.
        await fresh((attempt) => lookup(attempt, parts));
      } catch (error) {
        throw toFsError(error, { syscall: "realpath", path, typeMismatch: "ENOTDIR" });
      }
      return joinParts(parts);
    },

    async close() {
      cache.clear();
      await io.close();
    },
  };
  return fs;
}

/**
 * A just-bash store as our backend: `justBashFileSystem(ifs?)` wraps any just-bash `IFileSystem`
 * (by default a fresh `InMemoryFs`) as a {@link FileSystem}, so a Worker can hand the model's
 * file tools and a just-bash shell one store.
 *
 * @module
 */
import type { FsStat, IFileSystem } from "just-bash";
import { parentPath, resolvePath, isWithin } from "../contract/path.js";
import { type DirEntry, type FileStat, type FileSystem } from "../contract/types.js";
import { FsError, isFsErrorCode, type FsErrorCode } from "../contract/errors.js";
import { loadJustBash } from "./just-bash-module.js";

/** The backend name {@link justBashFileSystem} reports. */
export const JUST_BASH_FILE_SYSTEM_NAME = "just-bash";

/** The Node-style code of an error from a just-bash store (`code` field, else the message's first word). */
function codeOf(error: unknown): FsErrorCode {
  if (FsError.isInstance(error)) return error.code;
  const code = (error as { code?: unknown } | null)?.code;
  if (isFsErrorCode(code)) return code;
  const message = error instanceof Error ? error.message : String(error);
  const head = /^([A-Z]+):/.exec(message)?.[1];
  if (isFsErrorCode(head)) return head;
  if (/too many (levels of )?symbolic links/i.test(message)) return "ELOOP";
  return "EIO";
}

function typeOf(stat: FsStat): FileStat["type"] {
  if (stat.isSymbolicLink) return "symlink";
  if (stat.isDirectory) return "directory";
  if (stat.isFile) return "file";
  return "other";
}

function toFileStat(stat: FsStat): FileStat {
  return { type: typeOf(stat), size: stat.size, mtimeMs: stat.mtime.getTime(), mode: stat.mode & 0o7777 };
}

/**
 * Wrap a just-bash `IFileSystem` as our {@link FileSystem}.
 *
 * just-bash's stores are lenient where Node is strict (`InMemoryFs.writeFile` over a directory
 * replaces it, a write below a file succeeds); this wrapper checks first, so the result follows
 * our contract and passes the conformance suite: `EISDIR`, `ENOTDIR`, `EEXIST`, `ENOTEMPTY`,
 * `EINVAL` as Node raises them, with Node's messages. Bytes are copied in and out, so callers
 * never share buffers with the store. Symlinks are supported (`capabilities.symlink`).
 *
 * @param ifs - the store; default a fresh `InMemoryFs` (just-bash is then loaded on first call).
 * @returns a {@link FileSystem} named `just-bash`.
 * @throws TypeError when `ifs` is given but is not an `IFileSystem`. Calls reject with
 *   {@link FsError}; an error the store raises without a Node code becomes `EIO`.
 * @example
 * ```ts
 * import { Bash, InMemoryFs } from "just-bash";
 * const store = new InMemoryFs();
 * const fs = justBashFileSystem(store); // for createFsTools({ fs })
 * const bash = new Bash({ fs: store }); // the shell sees the same files
 * ```
 */
export function justBashFileSystem(ifs?: IFileSystem): FileSystem {
  if (
    ifs !== undefined &&
    (ifs === null || typeof ifs.readFileBuffer !== "function" || typeof ifs.lstat !== "function")
  ) {
    throw new TypeError("justBashFileSystem needs a just-bash IFileSystem (e.g. new InMemoryFs()) or nothing");
  }
  let store: IFileSystem | undefined = ifs;
  let loading: Promise<IFileSystem> | undefined;
  async function get(): Promise<IFileSystem> {
    if (store !== undefined) return store;
    loading ??= loadJustBash().then((module) => {
      store = new module.InMemoryFs();
      return store;
    });
    return loading;
  }

  async function lstatOrUndefined(target: IFileSystem, path: string): Promise<FsStat | undefined> {
    try {
      return await target.lstat(path);
    } catch (error) {
      const code = codeOf(error);
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw error;
    }
  }

  async function statOrUndefined(target: IFileSystem, path: string): Promise<FsStat | undefined> {
    try {
      return await target.stat(path);
    } catch (error) {
      const code = codeOf(error);
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw error;
    }
  }

  /** The first ancestor of `path` (top down) that is missing, or throws ENOTDIR where one is a file. */
  async function checkAncestors(
    target: IFileSystem,
    path: string,
    syscall: string,
    dest?: string,
  ): Promise<"present" | "missing"> {
    const names = path.split("/").filter((name) => name !== "");
    let current = "";
    for (const name of names.slice(0, -1)) {
      current = `${current}/${name}`;
      const stat = await statOrUndefined(target, current);
      if (stat === undefined) return "missing";
      if (!stat.isDirectory) throw new FsError("ENOTDIR", { syscall, path, dest });
    }
    return "present";
  }

  /** Rethrow a store error as our FsError for `syscall`, turning a file-in-the-path ENOENT into ENOTDIR. */
  async function rethrow(
    target: IFileSystem,
    error: unknown,
    syscall: string,
    path: string,
    dest?: string,
  ): Promise<never> {
    const code = codeOf(error);
    if (code === "ENOENT") await checkAncestors(target, path, syscall, dest);
    throw new FsError(code, { syscall, path, dest, cause: error });
  }

  const fs: FileSystem = {
    name: JUST_BASH_FILE_SYSTEM_NAME,
    capabilities: Object.freeze({ symlink: true }),

    async readFile(path) {
      const target = await get();
      try {
        const stat = await target.stat(path);
        if (stat.isDirectory) throw new FsError("EISDIR", { syscall: "open", path });
        return (await target.readFileBuffer(path)).slice();
      } catch (error) {
        if (FsError.isInstance(error) && error.cause === undefined) throw error;
        return rethrow(target, error, "open", path);
      }
    },

    async writeFile(path, data) {
      const target = await get();
      const stat = await statOrUndefined(target, path).catch((error: unknown) => rethrow(target, error, "open", path));
      if (stat?.isDirectory) throw new FsError("EISDIR", { syscall: "open", path });
      let destination = path;
      if (stat !== undefined) {
        destination = await target.realpath(path).catch((error: unknown) => rethrow(target, error, "open", path));
      } else {
        await checkAncestors(target, path, "open");
        const link = await lstatOrUndefined(target, path);
        if (link?.isSymbolicLink) {
          // A dangling link: write where it points, as Node does.
          destination = resolvePath(parentPath(path), await target.readlink(path));
        }
      }
      try {
        await target.writeFile(destination, data.slice());
      } catch (error) {
        await rethrow(target, error, "open", path);
      }
    },

    async stat(path) {
      const target = await get();
      try {
        return toFileStat(await target.stat(path));
      } catch (error) {
        return rethrow(target, error, "stat", path);
      }
    },

    async lstat(path) {
      const target = await get();
      try {
        return toFileStat(await target.lstat(path));
      } catch (error) {
        return rethrow(target, error, "lstat", path);
      }
    },

    async readdir(path) {
      const target = await get();
      try {
        if (target.readdirWithFileTypes !== undefined) {
          const entries = await target.readdirWithFileTypes(path);
          return entries.map((entry): DirEntry => ({
            name: entry.name,
            type: entry.isSymbolicLink ? "symlink" : entry.isDirectory ? "directory" : entry.isFile ? "file" : "other",
          }));
        }
        const names = await target.readdir(path);
        const base = resolvePath("/", path);
        return Promise.all(
          names.map(async (name): Promise<DirEntry> => ({
            name,
            type: typeOf(await target.lstat(resolvePath(base, name))),
          })),
        );
      } catch (error) {
        return rethrow(target, error, "scandir", path);
      }
    },

    async mkdir(path, options = {}) {
      const target = await get();
      const existing = await lstatOrUndefined(target, path).catch((error: unknown) =>
        rethrow(target, error, "mkdir", path),
      );
      if (existing !== undefined) {
        const followed = existing.isSymbolicLink ? await statOrUndefined(target, path) : existing;
        if (options.recursive === true && followed?.isDirectory === true) return;
        throw new FsError("EEXIST", { syscall: "mkdir", path });
      }
      const ancestors = await checkAncestors(target, path, "mkdir");
      if (ancestors === "missing" && options.recursive !== true)
        throw new FsError("ENOENT", { syscall: "mkdir", path });
      try {
        await target.mkdir(path, { recursive: options.recursive === true });
      } catch (error) {
        await rethrow(target, error, "mkdir", path);
      }
    },

    async rm(path, options = {}) {
      const target = await get();
      const existing = await lstatOrUndefined(target, path).catch((error: unknown) =>
        rethrow(target, error, "rm", path),
      );
      if (existing === undefined) {
        if (options.force === true) return;
        throw new FsError("ENOENT", { syscall: "rm", path });
      }
      if (existing.isDirectory && options.recursive !== true && (await target.readdir(path)).length > 0) {
        throw new FsError("ENOTEMPTY", { syscall: "rm", path });
      }
      try {
        await target.rm(path, { recursive: existing.isDirectory, force: false });
      } catch (error) {
        await rethrow(target, error, "rm", path);
      }
    },

    async rename(from, to) {
      const target = await get();
      const fail = (code: FsErrorCode): never => {
        throw new FsError(code, { syscall: "rename", path: from, dest: to });
      };
      const source = await lstatOrUndefined(target, from).catch((error: unknown) =>
        rethrow(target, error, "rename", from, to),
      );
      if (source === undefined) fail("ENOENT");
      const fromPath = resolvePath("/", from);
      const toPath = resolvePath("/", to);
      if (fromPath === toPath) return;
      if (source?.isDirectory && isWithin(fromPath, toPath)) fail("EINVAL");
      const destination = await lstatOrUndefined(target, toPath);
      if (destination === undefined) {
        if (
          (await checkAncestors(target, toPath, "rename", to)) === "missing" ||
          (await statOrUndefined(target, parentPath(toPath))) === undefined
        ) {
          fail("ENOENT");
        }
      } else if (destination.isDirectory) {
        if (!source?.isDirectory) fail("EISDIR");
        if ((await target.readdir(toPath)).length > 0) fail("ENOTEMPTY");
        await target.rm(toPath, { recursive: true });
      } else if (source?.isDirectory) {
        fail("ENOTDIR");
      }
      try {
        await target.mv(fromPath, toPath);
      } catch (error) {
        await rethrow(target, error, "rename", from, to);
      }
    },

    async realpath(path) {
      const target = await get();
      try {
        return await target.realpath(path);
      } catch (error) {
        return rethrow(target, error, "realpath", path);
      }
    },

    async symlink(linkTarget, path) {
      const target = await get();
      if ((await lstatOrUndefined(target, path)) !== undefined) {
        throw new FsError("EEXIST", { syscall: "symlink", path: linkTarget, dest: path });
      }
      try {
        await target.symlink(linkTarget, path);
      } catch (error) {
        await rethrow(target, error, "symlink", linkTarget, path);
      }
    },

    async readlink(path) {
      const target = await get();
      try {
        return await target.readlink(path);
      } catch (error) {
        return rethrow(target, error, "readlink", path);
      }
    },
  };
  return fs;
}

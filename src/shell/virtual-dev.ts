/**
 * A virtual `/dev` for the shell: `2>/dev/null` and `> /dev/null` are in almost every command a
 * model writes, and must neither reach the gate (it would refuse them, or ask the user) nor
 * write a file in the backend.
 *
 * @module
 */
import { isWithin } from "../contract/path.js";
import { type DirEntry, type FileStat, type FileSystem } from "../contract/types.js";
import { FsError } from "../contract/errors.js";
import { forwardFileSystem } from "../contract/forward.js";

/** The virtual directory. */
export const VIRTUAL_DEV_DIRECTORY = "/dev";

/**
 * The device files it holds, as just-bash's own default layout has them: reads give nothing
 * (`/dev/zero` gives {@link DEV_ZERO_BYTES} zero bytes), writes are discarded. (`/dev/stdout` and `/dev/stderr` redirects are handled by just-bash itself.)
 */
export const VIRTUAL_DEV_FILES: readonly string[] = Object.freeze(["null", "zero", "stdin", "stdout", "stderr"]);

/**
 * Bytes a read of `/dev/zero` gives: 1 MiB of zeros. just-bash reads a file whole, so the
 * endless device of a real system is cut here; `head -c 10 /dev/zero` gives 10 bytes, and
 * anything asking for more than 1 MiB gets 1 MiB.
 */
export const DEV_ZERO_BYTES = 1_048_576;

const ZERO_PATH = `${VIRTUAL_DEV_DIRECTORY}/zero`;

const FILES = new Set(VIRTUAL_DEV_FILES.map((name) => `${VIRTUAL_DEV_DIRECTORY}/${name}`));
const DIRECTORY_STAT: FileStat = Object.freeze({ type: "directory", size: 0, mtimeMs: 0, mode: 0o755 });
const DEVICE_STAT: FileStat = Object.freeze({ type: "file", size: 0, mtimeMs: 0, mode: 0o666 });

/** Whether `path` (absolute, normalised) is `/dev` or lies under it. */
export function isVirtualDevPath(path: string): boolean {
  return isWithin(VIRTUAL_DEV_DIRECTORY, path);
}

/**
 * `fs` with `/dev` served in memory: `/dev/null` and its siblings read empty (`/dev/zero` reads
 * as {@link DEV_ZERO_BYTES} zero bytes) and swallow writes;
 * `/dev` lists them; anything else under `/dev` is absent (`ENOENT`) and cannot be created
 * (`EPERM`). Every other path goes to `fs` unchanged. Paths must be absolute and normalised.
 *
 * `symlink` and `readlink` exist only where `fs` has them; `watch` and `locks` are carried
 * ({@link forwardFileSystem}).
 *
 * @param fs - the backend (normally the gate's checked `fs`).
 * @returns a {@link FileSystem} with the same name, capabilities and locks.
 */
export function withVirtualDev(fs: FileSystem): FileSystem {
  const missing = (syscall: string, path: string): never => {
    throw new FsError("ENOENT", { syscall, path });
  };
  const denied = (syscall: string, path: string, dest?: string): never => {
    throw new FsError("EPERM", { syscall, path, dest, detail: "/dev is virtual" });
  };
  /** Run a virtual answer as a promise (errors become rejections). */
  const virtual = async <T>(answer: () => T): Promise<T> => answer();
  const statOf = (syscall: string, path: string): FileStat =>
    path === VIRTUAL_DEV_DIRECTORY ? DIRECTORY_STAT : FILES.has(path) ? DEVICE_STAT : missing(syscall, path);

  // A function of the target: a no-follow form `fs` has gets /dev too.
  return forwardFileSystem(fs, (target) => ({
    readFile(path) {
      if (!isVirtualDevPath(path)) return target.readFile(path);
      return virtual(() => {
        if (path === VIRTUAL_DEV_DIRECTORY) throw new FsError("EISDIR", { syscall: "open", path });
        if (path === ZERO_PATH) return new Uint8Array(DEV_ZERO_BYTES);
        return FILES.has(path) ? new Uint8Array(0) : missing("open", path);
      });
    },
    writeFile(path, data) {
      if (!isVirtualDevPath(path)) return target.writeFile(path, data);
      return virtual(() => {
        if (path === VIRTUAL_DEV_DIRECTORY) throw new FsError("EISDIR", { syscall: "open", path });
        if (!FILES.has(path)) denied("open", path);
      });
    },
    stat(path) {
      return isVirtualDevPath(path) ? virtual(() => statOf("stat", path)) : target.stat(path);
    },
    lstat(path) {
      return isVirtualDevPath(path) ? virtual(() => statOf("lstat", path)) : target.lstat(path);
    },
    readdir(path) {
      if (!isVirtualDevPath(path)) return target.readdir(path);
      return virtual(() => {
        if (path !== VIRTUAL_DEV_DIRECTORY) {
          if (FILES.has(path)) throw new FsError("ENOTDIR", { syscall: "scandir", path });
          missing("scandir", path);
        }
        return VIRTUAL_DEV_FILES.map((name): DirEntry => ({ name, type: "file" }));
      });
    },
    async mkdir(path, options) {
      if (!isVirtualDevPath(path)) return target.mkdir(path, options);
      if (path === VIRTUAL_DEV_DIRECTORY && options?.recursive === true) return;
      if (path === VIRTUAL_DEV_DIRECTORY || FILES.has(path)) throw new FsError("EEXIST", { syscall: "mkdir", path });
      denied("mkdir", path);
    },
    async rm(path, options) {
      if (!isVirtualDevPath(path)) return target.rm(path, options);
      denied("rm", path);
    },
    async rename(from, to) {
      if (!isVirtualDevPath(from) && !isVirtualDevPath(to)) return target.rename(from, to);
      denied("rename", from, to);
    },
    async realpath(path) {
      if (!isVirtualDevPath(path)) return target.realpath(path);
      statOf("realpath", path);
      return path;
    },
    // Kept only where `fs` has them (forwardFileSystem drops an optional method the backend lacks).
    async symlink(linkTarget, path) {
      if (isVirtualDevPath(path)) denied("symlink", linkTarget, path);
      return target.symlink!(linkTarget, path);
    },
    async readlink(path) {
      if (!isVirtualDevPath(path)) return target.readlink!(path);
      statOf("readlink", path);
      throw new FsError("EINVAL", { syscall: "readlink", path });
    },
  }));
}

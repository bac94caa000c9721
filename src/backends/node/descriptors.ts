/**
 * Descriptor checks for the Node backend (Linux): an opened descriptor's real path, read from
 * `/proc/self/fd/<fd>`, and names resolved inside an opened directory through
 * `/proc/self/fd/<fd>/<name>` (the kernel resolves the directory from the descriptor, as
 * `openat` would). Node-only (imported by `node.ts`).
 *
 * @module
 */
import { closeSync, constants, open as openCallback, openSync, readlinkSync } from "node:fs";

/**
 * Linux `O_PATH` (`010000000` on every architecture Node runs on; Node's `fs.constants` does not
 * export it): a descriptor that names a file or directory without opening it for I/O, so it
 * needs no read permission and has no side effect on devices or FIFOs.
 */
export const LINUX_O_PATH = 0o10000000;

/**
 * Flags for a directory descriptor that is verified after it opens: `O_PATH | O_DIRECTORY`. A
 * symlink on the way is followed, and the check of the descriptor's real path then refuses it
 * with a message naming where it led (with `O_NOFOLLOW` it would be a bare `ENOTDIR`).
 */
export const DIRECTORY_OPEN_FLAGS = LINUX_O_PATH | constants.O_DIRECTORY;

/**
 * Flags for a directory descriptor opened by name inside an already verified one, with no check
 * after: `O_PATH | O_DIRECTORY | O_NOFOLLOW` (a symlink fails with `ENOTDIR` and is never entered).
 */
export const DIRECTORY_NOFOLLOW_FLAGS = LINUX_O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** Where Linux shows the calling process's open descriptors. */
export const PROC_FD_DIRECTORY = "/proc/self/fd";

/**
 * The path through which the kernel reaches descriptor `fd` itself (a "magic link"): used as a
 * directory, names below it resolve inside the opened directory, whatever its name is now.
 *
 * @param fd - an open descriptor.
 * @returns `/proc/self/fd/<fd>`.
 * @example
 * ```ts
 * descriptorPath(7); // "/proc/self/fd/7"
 * ```
 */
export function descriptorPath(fd: number): string {
  return `${PROC_FD_DIRECTORY}/${fd}`;
}

/**
 * Whether descriptor checks work here: the platform is Linux, `O_PATH` opens `/`, and
 * `/proc/self/fd/<fd>` reads back `/`. Probed once per call (synchronously, about 3 syscalls).
 *
 * @returns `true` on Linux with `/proc` mounted; `false` elsewhere (macOS, Windows, a container
 *   without `/proc`), where the Node backend falls back to checking paths by name.
 * @example
 * ```ts
 * if (!hasDescriptorPaths()) console.warn("directory swaps between check and use are not caught");
 * ```
 */
export function hasDescriptorPaths(): boolean {
  if (process.platform !== "linux") return false;
  let fd: number | undefined;
  try {
    fd = openSync("/", DIRECTORY_NOFOLLOW_FLAGS);
    return readlinkSync(descriptorPath(fd)) === "/";
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Open `host` as a bare descriptor (no FileHandle: `O_PATH` descriptors are closed with
 * `closeSync`, which for them never waits on a disk, saving a thread-pool round trip).
 *
 * @param host - the host path to open (may be `/proc/self/fd/<fd>/<name>`).
 * @param flags - open flags, e.g. {@link DIRECTORY_NOFOLLOW_FLAGS}.
 * @returns the descriptor; the caller closes it with `closeSync`.
 * @throws the Node error of the open (`ENOENT`, `ENOTDIR`, `ELOOP`, `EACCES`...).
 * @example
 * ```ts
 * const fd = await openDescriptor("/", DIRECTORY_NOFOLLOW_FLAGS);
 * closeSync(fd);
 * ```
 */
export function openDescriptor(host: string, flags: number): Promise<number> {
  return new Promise((resolve, reject) =>
    openCallback(host, flags, (error, fd) => (error === null ? resolve(fd) : reject(error))),
  );
}

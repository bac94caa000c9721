/**
 * The Node backend: a {@link FileSystem} over `node:fs`, jailed to its
 * allowed roots by the backend itself, so even a caller that bypasses the gate cannot leave them.
 *
 * @module
 */
import { closeSync, constants, promises as fsp, readlinkSync, realpathSync, statSync, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import nodePath from "node:path";
import { type DirEntry, type FileStat, type FileSystem, type FileType } from "../../contract/types.js";
import { FsError } from "../../contract/errors.js";
import { checkPathInput, isWithin, resolvePath } from "../../contract/path.js";
import { toFsError } from "./errors.js";
import {
  descriptorPath,
  DIRECTORY_NOFOLLOW_FLAGS,
  DIRECTORY_OPEN_FLAGS,
  hasDescriptorPaths,
  openDescriptor,
} from "./descriptors.js";
import { hostRealpath as hostRealpathOf, lookupHostPath, type HostLookup } from "./lookup.js";
import { assertKnownOptions } from "../../contract/options.js";
import { declareNoFollow } from "../../contract/no-follow.js";
import { memoryLocks, type Locks } from "../../contract/locks.js";

/** The backend's name in messages and descriptions. */
export const NODE_FILE_SYSTEM_NAME = "node";

/** Options of {@link nodeFileSystem}. */
export interface NodeFileSystemOptions {
  /**
   * A host directory shown as `/` (the backend's namespace is then that directory, like a
   * chroot; absolute symlink targets are kept inside it). Must exist. Default: `/`, so paths
   * are host paths as they are.
   */
  readonly root?: string;
  /** Working directory in the backend's namespace (absolute). Default: `process.cwd()`, or `/` when `root` is given. */
  readonly cwd?: string;
  /**
   * Directories (absolute, in the namespace) that every call must stay within after symlinks
   * resolve; anything else rejects with `EACCES`. Default: `[cwd]`. Gate allow rules cannot
   * reach past these: list here every directory a rule may admit. A root that does not exist
   * yet admits what will be under it, also when a symlink lies above it (the directories above
   * a root admit `lstat`, `realpath` and `readlink`, so a gate can resolve the root; nothing
   * above a root is read, listed or changed). An empty list throws a TypeError (it would admit nothing).
   */
  readonly allowedRoots?: readonly string[];
}

/** A Node backend; `cwd` and `allowedRoots` are there to hand to the tools and the gate. */
export interface NodeFileSystem extends FileSystem {
  /** The working directory, in the namespace. */
  readonly cwd: string;
  /** The roots the backend is jailed to, in the namespace. */
  readonly allowedRoots: readonly string[];
  /** The host directory shown as `/`. */
  readonly root: string;
}

const KNOWN_OPTIONS = ["root", "cwd", "allowedRoots"];

/**
 * One set of per-path locks for every Node backend of this process, keyed by host path: two
 * backend objects over one directory (two tool sets, two agents) serialize their edits of a file,
 * so the read-before-write check of the second sees the first's write (`ESTALE`) instead of both
 * reporting success with one edit lost. Other processes are not covered (no lock files).
 */
const hostLocks: Locks = memoryLocks();

/** The calls admitted on the directories above an allowed root: lookups that read no content. */
const ANCESTOR_LOOKUPS: ReadonlySet<string> = new Set(["lstat", "realpath", "readlink"]);
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const DEFAULT_FILE_MODE = 0o666;
/** Node's bound on one read (`kIoMaxLength`, 2 GiB - 1 bytes): a longer `read` aborts the process. */
const MAX_READ_BYTES = 2 ** 31 - 1;

function typeOf(stats: Stats | { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FileType {
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isDirectory()) return "directory";
  if (stats.isFile()) return "file";
  return "other";
}

function toFileStat(stats: Stats): FileStat {
  return {
    type: typeOf(stats),
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    mode: stats.mode & 0o7777,
    atimeMs: stats.atimeMs,
    birthtimeMs: stats.birthtimeMs,
  };
}

/**
 * The bytes of an opened regular file whose `fstat` gave `size`: read into one buffer of that
 * size (as Node's `readFile` does for a regular file, without its second `fstat`); a file that
 * reports 0 bytes (procfs, sysfs) is read to its end in chunks by `readFile`, and one over
 * Node's 2 GiB read bound is left to `readFile` too, which refuses it (`ERR_FS_FILE_TOO_LARGE`)
 * where one `read` of that length would abort the process (a native assertion).
 */
async function readOpened(handle: FileHandle, size: number): Promise<Uint8Array> {
  if (size === 0 || size > MAX_READ_BYTES) {
    const data = await handle.readFile();
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  const bytes = new Uint8Array(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === size ? bytes : bytes.subarray(0, filled);
}

function codeOf(error: unknown): string | undefined {
  return typeof error === "object" && error !== null ? ((error as { code?: string }).code ?? undefined) : undefined;
}

function isMissing(error: unknown): boolean {
  const code = codeOf(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * On a POSIX host a backslash is an ordinary byte of a name (`a\b.txt` is one file), as Node and
 * the kernel take it; on Windows it is a separator, and paths holding one are refused.
 */
const BACKSLASH_NAMES = process.platform !== "win32";
const PATH_INPUT = Object.freeze({ backslashNames: BACKSLASH_NAMES });

function absoluteOption(option: string, value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || checkPathInput(value, PATH_INPUT) !== undefined) {
    throw new TypeError(`nodeFileSystem ${option} must be an absolute POSIX path, got ${JSON.stringify(value)}`);
  }
  return resolvePath("/", value);
}

/**
 * A backend over the host filesystem.
 *
 * Safety: every call resolves its path through the host's symlinks first (the parent for calls
 * on a link itself: `lstat`, `readlink`, `rm`, `rename`, `symlink`; a missing path is walked one
 * name at a time, each name looked up once, see `lookupHostPath`) and rejects with `EACCES`
 * unless the real path lies within `allowedRoots` (and `root`); the only calls admitted above a
 * root are `lstat`, `realpath` and `readlink` of its ancestors. The path checked is the path
 * used. On Linux (where `/proc/self/fd` shows an opened descriptor's real path):
 * - `readFile` opens the checked path (`O_NOFOLLOW` on the leaf, so a leaf swapped for a
 *   symlink fails with `ELOOP`), then compares the descriptor's real path with the checked one
 *   and reads and `fstat`s through the descriptor;
 * - every other call opens the checked directory (the parent, or the directory itself for
 *   `readdir`) as a descriptor, verifies its real path the same way, and then names the file
 *   through `/proc/self/fd/<fd>/<name>`, which the kernel resolves inside that directory (as
 *   `openat` would): `stat`/`lstat`, `readlink`, `mkdir`, `symlink`, `rm`, both ends of
 *   `rename`, and `writeFile`'s temporary file and its rename. `writeFile` and `mkdir` with
 *   `recursive` make missing parent directories one at a time, each inside the descriptor of
 *   the one before, walking down from `/` with no symlink followed (a name found to be a link is
 *   refused with `EACCES`), so a deep new path costs one lookup per name; `writeFile` checks the
 *   temporary file's descriptor before writing; `rm` with `recursive` descends by descriptor
 *   (`O_NOFOLLOW`), so a subdirectory swapped for a symlink is unlinked, never entered.
 * A mismatch closes the descriptor and rejects with `EACCES` ("`/x` was swapped for
 * `/host/out` between the check and the open; refused"), before anything is read or changed.
 * Elsewhere (macOS, Windows, no `/proc`) the backend falls back to using checked paths by name:
 * a directory in the middle of a path swapped for a symlink between the check and the use is
 * then not caught (Node has no `openat`).
 *
 * FIFOs, sockets and devices are refused with `ENOTSUP` (opened non-blocking, so a FIFO never
 * hangs). Writes are atomic: the bytes go to a temporary file in the same directory (`O_EXCL`),
 * are flushed to disk, and renamed over the target, so a crash or a full disk mid-write leaves
 * the old content; an existing file keeps its permission bits. Errors are {@link FsError}s
 * naming the caller's path; `realpath` of a missing path rejects with `ENOENT` (or `ENOTDIR`)
 * carrying `resolvedPrefix`, the real existing part and the names after it, so the gate checks a
 * missing path with that one call.
 *
 * The backend carries `locks`: one set per process, keyed by host path, so the tools over two
 * backend objects on one directory serialize their edits of a file (with read-before-write
 * stores, the later edit is refused `ESTALE` instead of both reporting success with one lost).
 * Another process is not covered: give its tools a shared `locks` (e.g. `redisLocks`).
 *
 * Limits: a descriptor pins a directory, not its place in the tree. A directory moved elsewhere
 * (by someone who can write both there and here) after its descriptor was verified is still
 * used where it now is: `writeFile` rechecks the directory after its rename and rejects with
 * `EACCES` ("`/x` moved to `/y` during the call; the new content was renamed into it there"),
 * but the file has then been replaced in the moved directory; other calls do not recheck. A
 * call racing a swap may also fail with `ENOENT`, `ENOTDIR` or `EINVAL` from the check itself.
 * A hard link inside the roots to a file outside is the same file and cannot be told apart.
 * Each call pays an extra `open`, `readlink` and `close` for these checks, and the `fsync` of
 * each write costs milliseconds on a real disk (see BENCHMARKS.md).
 *
 * @param options - see {@link NodeFileSystemOptions}.
 * @returns a {@link NodeFileSystem} with capability `symlink`.
 * @throws TypeError at creation for an unknown option, a path option that is not absolute, an
 *   empty `allowedRoots`, or a `root` that is not an existing directory.
 * @example
 * ```ts
 * import { nodeFileSystem } from "better-fs-tools/node";
 * const fs = nodeFileSystem({ cwd: "/home/me/project" });
 * const tools = createFsTools({ fs, cwd: fs.cwd, allowedRoots: fs.allowedRoots });
 * // or a directory shown as "/": nodeFileSystem({ root: "/tmp/sandbox" })
 * ```
 */
export function nodeFileSystem(options: NodeFileSystemOptions = {}): NodeFileSystem {
  if (typeof options !== "object" || options === null) throw new TypeError("nodeFileSystem needs an options object");
  assertKnownOptions("nodeFileSystem", options, KNOWN_OPTIONS);
  const root = options.root === undefined ? "/" : absoluteOption("root", options.root);
  let hostRoot: string;
  try {
    hostRoot = realpathSync(root);
    if (!statSync(hostRoot).isDirectory()) throw new Error("not a directory");
  } catch {
    throw new TypeError(`nodeFileSystem root must be an existing directory, got ${JSON.stringify(options.root)}`);
  }
  const cwd =
    options.cwd !== undefined
      ? absoluteOption("cwd", options.cwd)
      : options.root !== undefined
        ? "/"
        : resolvePath("/", process.cwd());
  if (options.allowedRoots !== undefined && !Array.isArray(options.allowedRoots)) {
    throw new TypeError("nodeFileSystem allowedRoots must be an array of absolute paths");
  }
  if (options.allowedRoots?.length === 0) {
    throw new TypeError(
      "nodeFileSystem allowedRoots must list at least one absolute path (an empty list would admit nothing); leave it out for [cwd]",
    );
  }
  const allowedRoots = Object.freeze(
    options.allowedRoots === undefined
      ? [cwd]
      : options.allowedRoots.map((value, index) => absoluteOption(`allowedRoots[${index}]`, value)),
  );
  const jailText = allowedRoots.join(", ");

  /** Namespace path → host path (lexical). */
  function toHost(path: string, syscall: string): string {
    const problem = checkPathInput(path, PATH_INPUT);
    if (problem !== undefined || !path.startsWith("/")) {
      throw new FsError(problem?.code ?? "EINVAL", {
        syscall,
        path: typeof path === "string" ? path : String(path),
        detail: problem?.reason ?? "backend paths must be absolute",
      });
    }
    const clean = resolvePath("/", path);
    return hostRoot === "/" ? clean : clean === "/" ? hostRoot : `${hostRoot}${clean}`;
  }

  /** Host path → namespace path, or undefined when outside `root`. */
  function toNamespace(host: string): string | undefined {
    if (!isWithin(hostRoot, host)) return undefined;
    if (hostRoot === "/") return host;
    return host === hostRoot ? "/" : host.slice(hostRoot.length);
  }

  const realRoots = new Map<string, string>();
  /** The roots' real paths once every one is known (they are fixed from then on). */
  let knownRoots: string[] | undefined;
  /** The real host paths of the allowed roots: an array at once when all are known, else a promise. */
  function jailRoots(): string[] | Promise<string[]> {
    if (knownRoots !== undefined) return knownRoots;
    return resolveJailRoots().then((roots) => {
      if (realRoots.size === allowedRoots.length) knownRoots = roots;
      return roots;
    });
  }
  async function resolveJailRoots(): Promise<string[]> {
    return Promise.all(
      allowedRoots.map(async (value) => {
        const cached = realRoots.get(value);
        if (cached !== undefined) return cached;
        const host = toHost(value, "realpath");
        const { real } = await lookupHostPath(host, {
          follow: true,
          descriptorChecks,
          shown: value,
          syscall: "realpath",
        });
        if (await exists(host)) realRoots.set(value, real);
        return real;
      }),
    );
  }

  /** The host forms of the allowed roots as given (before symlinks resolve). */
  const givenRoots = allowedRoots.map((value) => toHost(value, "realpath"));
  /** True for a strict ancestor of an allowed root, as given or resolved. */
  function aboveRoot(host: string, roots: readonly string[]): boolean {
    return [...roots, ...givenRoots].some((rootPath) => rootPath !== host && isWithin(host, rootPath));
  }

  async function exists(host: string): Promise<boolean> {
    try {
      await fsp.lstat(host);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The real host path for a call: resolved (the leaf too when `follow`), inside `root` and the
   * allowed roots, else FsError EACCES.
   */
  async function admit(
    path: string,
    syscall: string,
    follow: boolean,
    dest: string | undefined,
    exact: boolean,
  ): Promise<string> {
    return (await admitLookup(path, syscall, follow, dest, exact)).real;
  }

  /** {@link admit}, with where the lookup stopped when a name was missing (never with `exact`). */
  async function admitLookup(
    path: string,
    syscall: string,
    follow: boolean,
    dest: string | undefined,
    exact: boolean,
  ): Promise<HostLookup> {
    const host = toHost(path, syscall);
    // The no-follow form: the path is taken as real; the descriptor checks below refuse it when
    // a name on the way is (now) a link.
    const lookup = exact
      ? { real: host }
      : await lookupHostPath(host, { follow, descriptorChecks, shown: path, syscall });
    const real = lookup.real;
    const inside = toNamespace(real);
    const known = jailRoots();
    const roots = Array.isArray(known) ? known : await known;
    if (inside === undefined || !roots.some((rootPath) => isWithin(rootPath, real))) {
      // The directories above a root may be looked at (lstat, realpath, readlink), never read or
      // changed: a caller resolving a root that does not exist yet must see the symlinks on its
      // way (a cwd under /var on macOS, a symlinked home), or it would name the root by a path
      // this jail does not admit.
      if (inside !== undefined && ANCESTOR_LOOKUPS.has(syscall) && aboveRoot(real, roots)) return lookup;
      throw new FsError("EACCES", {
        syscall,
        path,
        ...(dest === undefined ? {} : { dest }),
        detail: `${inside ?? real} is outside the allowed roots ${jailText}`,
      });
    }
    return lookup;
  }

  async function call<T>(syscall: string, path: string, run: () => Promise<T>, dest?: string): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toFsError(error, syscall, path, dest);
    }
  }

  /** Whether opened descriptors can be checked (Linux with `/proc`); else names are used as checked. */
  const descriptorChecks = hasDescriptorPaths();

  /** The real host path of `host`, every link followed (`hostRealpath` in `lookup.ts`). */
  function hostRealpath(host: string): Promise<string> {
    return hostRealpathOf(host, descriptorChecks);
  }

  /** A host path as the caller would recognise it: in the namespace, or the host path when outside `root`. */
  function shown(host: string): string {
    return toNamespace(host) ?? host;
  }

  function swapped(
    expected: string,
    actual: string,
    path: string,
    syscall: string,
    dest?: string,
    after?: string,
  ): FsError {
    return new FsError("EACCES", {
      syscall,
      path,
      ...(dest === undefined ? {} : { dest }),
      detail:
        after === undefined
          ? `${shown(expected)} was swapped for ${shown(actual)} between the check and the open; refused`
          : `${shown(expected)} moved to ${shown(actual)} during the call; ${after}`,
    });
  }

  /**
   * Throw EACCES unless the opened descriptor's real path (from `/proc/self/fd`) is `expected`,
   * the path that was checked. Does not close the handle. No-op without descriptor checks.
   * Synchronous on purpose: a `/proc/self/fd` link is read from memory in microseconds and never
   * waits on a disk, so a thread-pool round trip (tens of microseconds) would cost more.
   */
  function verifyDescriptor(fd: number, expected: string, path: string, syscall: string, dest?: string): void {
    if (!descriptorChecks) return;
    const actual = readlinkSync(descriptorPath(fd));
    if (actual !== expected) throw swapped(expected, actual, path, syscall, dest);
  }

  /**
   * Open the checked real directory `realDir` (`O_PATH | O_DIRECTORY`) and verify the descriptor
   * is that directory (a name swapped for a symlink is caught here, with where it led). With
   * `create`, missing directories are made first ({@link makeDirectories}).
   */
  async function openDirectory(
    realDir: string,
    path: string,
    syscall: string,
    create: boolean,
    dest?: string,
  ): Promise<number> {
    let fd: number;
    try {
      fd = await openDescriptor(realDir, DIRECTORY_OPEN_FLAGS);
    } catch (error) {
      if (!create || codeOf(error) !== "ENOENT" || realDir === "/") throw error;
      fd = await makeDirectories(realDir, path, syscall, dest);
    }
    try {
      verifyDescriptor(fd, realDir, path, syscall, dest);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return fd;
  }

  /**
   * Make the missing directories of the checked real directory `realDir` and open it. When its
   * parent exists: one `mkdir` inside the verified parent. Otherwise a walk from `/`: each name
   * is opened inside the directory opened before it (`/proc/self/fd/<fd>/<name>`, no symlink
   * followed) and made there when missing, so a deep new path costs one lookup (and at most one
   * `mkdir`) per name, never a lookup of the whole path per name. A name that is a symlink or a
   * file where the check saw a directory (or nothing) is refused: `EACCES` naming where the link
   * leads, else `ENOTDIR`.
   */
  async function makeDirectories(realDir: string, path: string, syscall: string, dest?: string): Promise<number> {
    let directory: number;
    let names: string[];
    let expected: (index: number) => string;
    try {
      directory = await openDirectory(nodePath.dirname(realDir), path, syscall, false, dest);
      names = [nodePath.basename(realDir)];
      expected = () => realDir;
    } catch (error) {
      if (codeOf(error) !== "ENOENT") throw error;
      directory = await openDescriptor("/", DIRECTORY_NOFOLLOW_FLAGS);
      const all = realDir.split("/").filter((name) => name !== "");
      names = all;
      expected = (index) => `/${all.slice(0, index + 1).join("/")}`;
    }
    // Below a directory this call made, names are surely missing: make them without a look first.
    let made = false;
    try {
      for (const [index, name] of names.entries()) {
        const at = `${descriptorPath(directory)}/${name}`;
        let next: number | undefined;
        if (!made) {
          try {
            next = await openDescriptor(at, DIRECTORY_NOFOLLOW_FLAGS);
          } catch (error) {
            if (codeOf(error) !== "ENOENT") throw await notDirectory(error, at, expected(index), path, syscall, dest);
          }
        }
        if (next === undefined) {
          // Only directories inside a root are made: never a root itself or one above it (a
          // deleted root stays deleted).
          if (!(await insideRoot(expected(index)))) {
            throw new FsError("ENOENT", { syscall, path, ...(dest === undefined ? {} : { dest }) });
          }
          try {
            await fsp.mkdir(at);
            made = true;
          } catch (mkdirError) {
            if (codeOf(mkdirError) !== "EEXIST") throw mkdirError;
            made = false;
          }
          try {
            next = await openDescriptor(at, DIRECTORY_NOFOLLOW_FLAGS);
          } catch (openError) {
            throw await notDirectory(openError, at, expected(index), path, syscall, dest);
          }
        }
        closeSync(directory);
        directory = next;
      }
    } catch (error) {
      closeSync(directory);
      throw error;
    }
    return directory;
  }

  /**
   * The error for `at`, which did not open as a directory with no link followed: for `ENOTDIR`
   * or `ELOOP`, `EACCES` naming where a symlink there leads (it is opened, following it, to see),
   * or `ENOTDIR` for a file; any other error as it is.
   */
  async function notDirectory(
    error: unknown,
    at: string,
    expected: string,
    path: string,
    syscall: string,
    dest?: string,
  ): Promise<unknown> {
    if (codeOf(error) !== "ENOTDIR" && codeOf(error) !== "ELOOP") return error;
    let fd: number;
    try {
      fd = await openDescriptor(at, DIRECTORY_OPEN_FLAGS);
    } catch {
      return new FsError("ENOTDIR", { syscall, path, ...(dest === undefined ? {} : { dest }) });
    }
    try {
      return swapped(expected, readlinkSync(descriptorPath(fd)), path, syscall, dest);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Whether the real host directory `realDir` may be made: it lies strictly inside a root, or it
   * is a root not made yet (never seen existing) or a parent of one (the first write makes a
   * workspace that does not exist yet). A root seen existing and since deleted is never made
   * again, nor anything above it.
   */
  async function insideRoot(realDir: string): Promise<boolean> {
    const roots = await jailRoots();
    if (roots.some((rootPath) => rootPath !== realDir && isWithin(rootPath, realDir))) return true;
    return allowedRoots.some((value, index) => !realRoots.has(value) && isWithin(realDir, roots[index]!));
  }

  /** A checked directory held open: names inside it resolve through its descriptor. */
  interface DirectoryPin {
    /** A host path naming `name` inside the pinned directory (`""`: the directory itself). */
    at(name: string): string;
    /** Throw EACCES (saying `after` happened) unless the directory is still at its checked path. */
    recheck(after: string): Promise<void>;
    close(): Promise<void>;
  }

  async function pinDirectory(
    realDir: string,
    path: string,
    syscall: string,
    create: boolean,
    dest?: string,
  ): Promise<DirectoryPin> {
    if (!descriptorChecks) {
      if (create) {
        if (!(await insideRoot(realDir))) {
          try {
            await fsp.lstat(realDir);
          } catch {
            throw new FsError("ENOENT", { syscall, path, ...(dest === undefined ? {} : { dest }) });
          }
        }
        try {
          await fsp.mkdir(realDir, { recursive: true });
        } catch (error) {
          if (codeOf(error) === "EEXIST") throw new FsError("ENOTDIR", { syscall, path });
          throw error;
        }
      }
      return {
        at: (name) => nodePath.join(realDir, name),
        recheck: async () => undefined,
        close: async () => undefined,
      };
    }
    const fd = await openDirectory(realDir, path, syscall, create, dest);
    const base = descriptorPath(fd);
    return {
      at: (name) => (name === "" ? `${base}/.` : `${base}/${name}`),
      recheck: async (after) => {
        const actual = readlinkSync(base);
        if (actual !== realDir) throw swapped(realDir, actual, path, syscall, dest, after);
      },
      close: async () => closeSync(fd),
    };
  }

  /** Run `work` with the checked real path's parent pinned and the path's last name. */
  async function inParent<T>(
    real: string,
    path: string,
    syscall: string,
    work: (pin: DirectoryPin, name: string) => Promise<T>,
    create = false,
    dest?: string,
  ): Promise<T> {
    const pin = await pinDirectory(nodePath.dirname(real), path, syscall, create, dest);
    try {
      return await work(pin, nodePath.basename(real));
    } finally {
      await pin.close();
    }
  }

  /**
   * Remove the directory at `target` (a path through a pinned parent) and everything in it,
   * descending through descriptors: a subdirectory swapped for a symlink is unlinked, never
   * followed. Missing entries are skipped (another caller removed them).
   */
  async function removeTree(target: string): Promise<void> {
    let fd: number;
    try {
      fd = await openDescriptor(target, DIRECTORY_NOFOLLOW_FLAGS);
    } catch (error) {
      if (codeOf(error) === "ENOTDIR" || codeOf(error) === "ELOOP") return removeEntry(target, false);
      if (codeOf(error) === "ENOENT") return;
      throw error;
    }
    try {
      const base = descriptorPath(fd);
      for (const entry of await fsp.readdir(base, { withFileTypes: true })) {
        const child = `${base}/${entry.name}`;
        if (entry.isDirectory()) await removeTree(child);
        else await removeEntry(child);
      }
    } finally {
      closeSync(fd);
    }
    try {
      await fsp.rmdir(target);
    } catch (error) {
      if (codeOf(error) !== "ENOENT") throw error;
    }
  }

  async function removeEntry(target: string, descend = true): Promise<void> {
    try {
      await fsp.unlink(target);
    } catch (error) {
      if (descend && (codeOf(error) === "EISDIR" || codeOf(error) === "EPERM")) return removeTree(target);
      if (codeOf(error) !== "ENOENT") throw error;
    }
  }

  function refuseSpecial(path: string, syscall: string, stats: Stats): never {
    const kind = stats.isFIFO()
      ? "a FIFO"
      : stats.isSocket()
        ? "a socket"
        : stats.isCharacterDevice() || stats.isBlockDevice()
          ? "a device"
          : "not a regular file";
    throw new FsError("ENOTSUP", { syscall, path, detail: `${kind}; only regular files are read and written` });
  }

  function refuseLink(path: string, syscall: string): never {
    throw new FsError("ELOOP", { syscall, path, detail: "a symbolic link; not followed" });
  }

  /** The methods; `exact`: the no-follow form (paths taken as real, no link followed). */
  const methods = (exact: boolean): FileSystem => ({
    name: NODE_FILE_SYSTEM_NAME,
    capabilities: Object.freeze({ symlink: true, backslashNames: BACKSLASH_NAMES }),

    readFile: (path) =>
      call("open", path, async () => {
        const real = await admit(path, "open", true, undefined, exact);
        const handle = await fsp.open(real, READ_FLAGS);
        try {
          verifyDescriptor(handle.fd, real, path, "open");
          const stats = await handle.stat();
          if (stats.isDirectory()) throw new FsError("EISDIR", { syscall: "open", path });
          if (!stats.isFile()) refuseSpecial(path, "open", stats);
          return await readOpened(handle, stats.size);
        } finally {
          await handle.close();
        }
      }),

    writeFile: (path, data) =>
      call("open", path, async () => {
        const real = await admit(path, "open", true, undefined, exact);
        const directory = nodePath.dirname(real);
        const name = nodePath.basename(real);
        const pin = await pinDirectory(directory, path, "open", true);
        try {
          const target = pin.at(name);
          // A new file gets DEFAULT_FILE_MODE less the process umask (applied by open); an
          // existing file keeps its own bits (set again with chmod, which no umask touches).
          let mode = DEFAULT_FILE_MODE;
          let keepMode = false;
          try {
            const existing = await fsp.lstat(target);
            if (existing.isDirectory()) throw new FsError("EISDIR", { syscall: "open", path });
            if (existing.isFile()) {
              mode = existing.mode & 0o7777;
              keepMode = true;
            } else if (existing.isSymbolicLink()) {
              if (exact) refuseLink(path, "open");
            } else refuseSpecial(path, "open", existing);
          } catch (error) {
            if (!isMissing(error)) throw error;
          }
          const temporaryName = `.bft-${randomBytes(6).toString("hex")}.tmp`;
          const temporary = pin.at(temporaryName);
          const handle = await fsp.open(temporary, TEMP_FLAGS, mode);
          try {
            try {
              verifyDescriptor(handle.fd, nodePath.join(directory, temporaryName), path, "open");
              await handle.writeFile(data);
              if (keepMode) await handle.chmod(mode);
              await handle.sync();
            } finally {
              await handle.close();
            }
            await fsp.rename(temporary, target);
            await pin.recheck("the new content was renamed into it there");
          } catch (error) {
            await fsp.unlink(temporary).catch(() => undefined);
            throw error;
          }
        } finally {
          await pin.close();
        }
      }),

    stat: (path) =>
      call("stat", path, async () => {
        for (let attempt = 0; attempt < 3; attempt += 1) {
          const real = await admit(path, "stat", true, undefined, exact);
          const stats = await inParent(real, path, "stat", (pin, name) => fsp.lstat(pin.at(name)));
          if (!stats.isSymbolicLink()) return toFileStat(stats);
          if (exact) refuseLink(path, "stat");
        }
        throw new FsError("ELOOP", { syscall: "stat", path });
      }),

    lstat: (path) =>
      call("lstat", path, async () => {
        const real = await admit(path, "lstat", false, undefined, exact);
        return toFileStat(await inParent(real, path, "lstat", (pin, name) => fsp.lstat(pin.at(name))));
      }),

    readdir: (path) =>
      call("scandir", path, async () => {
        const real = await admit(path, "scandir", true, undefined, exact);
        if (!descriptorChecks) {
          const entries = await fsp.readdir(real, { withFileTypes: true });
          const after = await fsp.lstat(real);
          if (!after.isDirectory())
            throw new FsError("EACCES", {
              syscall: "scandir",
              path,
              detail: "the directory changed while it was listed",
            });
          return entries.map((entry): DirEntry => ({ name: entry.name, type: typeOf(entry) }));
        }
        const fd = await openDirectory(real, path, "scandir", false);
        try {
          const entries = await fsp.readdir(descriptorPath(fd), { withFileTypes: true });
          return entries.map((entry): DirEntry => ({ name: entry.name, type: typeOf(entry) }));
        } finally {
          closeSync(fd);
        }
      }),

    mkdir: (path, mkdirOptions) =>
      call("mkdir", path, async () => {
        const real = await admit(path, "mkdir", true, undefined, exact);
        const recursive = mkdirOptions?.recursive === true;
        await inParent(
          real,
          path,
          "mkdir",
          async (pin, name) => {
            try {
              await fsp.mkdir(pin.at(name));
            } catch (error) {
              if (!recursive || codeOf(error) !== "EEXIST") throw error;
              if (!(await fsp.lstat(pin.at(name))).isDirectory())
                throw new FsError("EEXIST", { syscall: "mkdir", path });
            }
          },
          recursive,
        );
      }),

    rm: (path, rmOptions) =>
      call("rm", path, async () => {
        const real = await admit(path, "rm", false, undefined, exact);
        if (real === hostRoot)
          throw new FsError("EBUSY", { syscall: "rm", path, detail: "the backend's root cannot be removed" });
        try {
          await inParent(real, path, "rm", async (pin, name) => {
            const target = pin.at(name);
            const stats = await fsp.lstat(target);
            if (!stats.isDirectory()) await fsp.unlink(target);
            else if (rmOptions?.recursive !== true) await fsp.rmdir(target);
            else if (descriptorChecks) await removeTree(target);
            else await fsp.rm(target, { recursive: true, force: true });
          });
        } catch (error) {
          if (isMissing(error) && rmOptions?.force === true) return;
          throw error;
        }
      }),

    rename: (from, to) =>
      call(
        "rename",
        from,
        async () => {
          const realFrom = await admit(from, "rename", false, to, exact);
          const realTo = await admit(to, "rename", false, to, exact);
          if (realFrom === hostRoot || realTo === hostRoot) {
            throw new FsError("EBUSY", {
              syscall: "rename",
              path: from,
              dest: to,
              detail: "the backend's root cannot be moved",
            });
          }
          await inParent(
            realFrom,
            from,
            "rename",
            (fromPin, fromName) =>
              inParent(
                realTo,
                from,
                "rename",
                (toPin, toName) => fsp.rename(fromPin.at(fromName), toPin.at(toName)),
                false,
                to,
              ),
            false,
            to,
          );
        },
        to,
      ),

    realpath: (path) =>
      call("realpath", path, async () => {
        const lookup = await admitLookup(path, "realpath", true, undefined, exact);
        if (lookup.stop !== undefined) {
          // Missing: say how far it resolved, so a gate needs no lookups of its own.
          const existing = toNamespace(lookup.stop.existing);
          throw new FsError(lookup.stop.code, {
            syscall: "realpath",
            path,
            ...(existing === undefined ? {} : { resolvedPrefix: { real: existing, missing: lookup.stop.missing } }),
          });
        }
        const checked = lookup.real;
        const real = await hostRealpath(checked);
        if (exact && real !== checked) refuseLink(path, "realpath");
        const inside = toNamespace(real);
        if (inside === undefined)
          throw new FsError("EACCES", { syscall: "realpath", path, detail: `${real} is outside the root` });
        return inside;
      }),

    symlink: (target, path) =>
      call(
        "symlink",
        target,
        async () => {
          if (typeof target !== "string" || target === "" || target.includes("\0")) {
            throw new FsError("EINVAL", { syscall: "symlink", path: String(target), dest: path });
          }
          const real = await admit(path, "symlink", false, path, exact);
          const hostTarget = target.startsWith("/") ? toHost(target, "symlink") : target;
          await inParent(real, target, "symlink", (pin, name) => fsp.symlink(hostTarget, pin.at(name)), false, path);
        },
        path,
      ),

    readlink: (path) =>
      call("readlink", path, async () => {
        const real = await admit(path, "readlink", false, undefined, exact);
        const target = await inParent(real, path, "readlink", (pin, name) => fsp.readlink(pin.at(name)));
        if (!target.startsWith("/") || hostRoot === "/") return target;
        return toNamespace(target) ?? target;
      }),
  });
  const locks: Locks = {
    run: (keys, fn) =>
      hostLocks.run(
        keys.map((key) => (checkPathInput(key) === undefined && key.startsWith("/") ? toHost(key, "lock") : key)),
        fn,
      ),
  };
  const fs: NodeFileSystem = {
    ...methods(false),
    locks,
    cwd,
    allowedRoots,
    root: hostRoot,
    noFollow: Object.freeze(methods(true)),
  };
  return declareNoFollow(Object.freeze(fs), fs.noFollow as FileSystem);
}

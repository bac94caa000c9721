/**
 * Our backend as a just-bash store: `toJustBashFs(gate)` gives just-bash's `IFileSystem` over a
 * gated {@link FileSystem}, so `cat`, `grep -rn`, `sed -i` and the rest see exactly the files the
 * read, write and edit tools see, and pass the same gate.
 *
 * @module
 */
import type {
  BufferEncoding,
  ByteString,
  CpOptions,
  FileContent,
  FsStat,
  IFileSystem,
  MkdirOptions,
  RmOptions,
} from "just-bash";
import type { Gate } from "../gate/gate.js";
import { isWithin, resolvePath } from "../contract/path.js";
import { type FileStat, type FileSystem } from "../contract/types.js";
import { FsError } from "../contract/errors.js";
import { concatBytes, decodeBytes, encodeText, latin1FromUint8Array, type ByteEncoding } from "./bytes.js";
import { loadJustBash, loadedJustBash, trustedRunnerOf, type TrustedRunner } from "./just-bash-module.js";
import { isVirtualDevPath, withVirtualDev } from "./virtual-dev.js";
import { assertKnownOptions } from "../contract/options.js";

/** How long a `stat`/`lstat` answer is reused by default, in milliseconds. */
export const DEFAULT_STAT_CACHE_MS = 1_000;
/** Permission bits reported for a file whose backend keeps none. */
export const DEFAULT_FILE_MODE = 0o644;
/** Permission bits reported for a directory whose backend keeps none. */
export const DEFAULT_DIRECTORY_MODE = 0o755;

/** Options of {@link toJustBashFs}. */
export interface ToJustBashFsOptions {
  /**
   * How long a `stat`/`lstat` result (or its `ENOENT`) is reused, in milliseconds. Slow backends
   * (OPFS) gain most: just-bash stats the same path many times in one command. Every write,
   * removal or rename made through this adapter clears the cache; changes made by others show
   * after at most this long. `0` turns the cache off.
   * @default 1000
   */
  readonly statCacheMs?: number;
  /**
   * Runs each backend call as trusted host code. Default: just-bash's
   * `DefenseInDepthBox.runTrustedAsync` in Node (its defense layer otherwise blocks host code
   * such as memfs's `process.cwd()` while a script runs), a plain call in browsers. Pass
   * `(work) => DefenseInDepthBox.runTrustedAsync(work)` with the `DefenseInDepthBox` of the
   * just-bash your `Bash` comes from when two copies of just-bash are installed: the default
   * marks calls as trusted only for the copy this package loads (a call blocked anyway fails with
   * an `EIO` that says so).
   */
  readonly trusted?: TrustedRunner;
  /**
   * Called with each `EACCES`/`EPERM` error a backend call rejects with (the gate's refusals).
   * just-bash prints most failures as `No such file or directory`; the runner uses this to add
   * the real reason, and the rule to add, to stderr.
   */
  readonly onRefusal?: (error: FsError) => void;
  /**
   * Called with each file a command read (`cat`, `sed -n`, `head`, `grep`...): its absolute path
   * and the bytes read. The bash tool records these reads in its read-before-write store.
   */
  readonly onRead?: (path: string, bytes: Uint8Array) => void;
  /**
   * Directories just-bash probes when it looks a command up (`$PATH`). A refused path in them
   * counts as absent and is not reported, so the built-in commands are found when the gate
   * keeps the shell out of `/usr/bin`. A `stat`/`lstat`/`exists` of one of
   * {@link DEFAULT_COMMAND_DIRS} or a path under them (`/usr/bin/ls`) is answered "absent" before
   * the gate, whatever `source` is, so an interactive `approve` is never asked about a command
   * lookup (just-bash then runs its built-in). When `source` is a {@link Gate}, lookups in the
   * other directories given here are answered "absent" the same way when they lie outside its
   * allowed roots. @default ["/usr/bin", "/bin"]
   */
  readonly commandDirs?: readonly string[];
}

/** Where just-bash looks commands up by default (its `PATH`). */
export const DEFAULT_COMMAND_DIRS: readonly string[] = Object.freeze(["/usr/bin", "/bin"]);

const OPTION_KEYS = ["statCacheMs", "trusted", "onRefusal", "onRead", "commandDirs"] as const;

/** An absolute path that is not already normal: `//`, a `.` or `..` name, or a trailing `/`. */
const NEEDS_NORMALISING = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

function isRefusal(error: unknown): error is FsError {
  return FsError.isInstance(error) && (error.code === "EACCES" || error.code === "EPERM");
}

/** just-bash's directory entry with types (not exported by name from its root). */
type DirentEntry = Awaited<ReturnType<NonNullable<IFileSystem["readdirWithFileTypes"]>>>[number];

/** just-bash's store with the name of the backend under it. */
export interface JustBashFs extends IFileSystem {
  /** The backend's name (`memory`, `opfs`, `node`...). */
  readonly backendName: string;
}

function isGate(value: Gate | FileSystem): value is Gate {
  const candidate = value as Partial<Gate>;
  return (
    typeof candidate.checkCommand === "function" && typeof candidate.check === "function" && candidate.fs !== undefined
  );
}

function encodingOf(options: { encoding?: BufferEncoding | null } | BufferEncoding | undefined | null): ByteEncoding {
  if (typeof options === "string") return options;
  return options?.encoding ?? "utf8";
}

function bytesOf(
  content: FileContent,
  options: { encoding?: BufferEncoding } | BufferEncoding | undefined,
): Uint8Array {
  return typeof content === "string" ? encodeText(content, encodingOf(options)) : content;
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The `SecurityViolationError` of just-bash's defense layer in `error` or its causes, if any. */
function defenseViolation(error: unknown): Error | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    if ((current as Error).name === "SecurityViolationError") return current as Error;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A backend call that just-bash's defense layer blocked although it ran as trusted: with the
 * default runner, the running `Bash` comes from another copy of just-bash than the one this
 * package loaded (its trusted marks do not count there); with a given `trusted`, that runner did
 * not mark the call. The error then says so and how to fix it, in place of just-bash's advice to
 * report a bug, when a backend (memfs: `process.cwd()`) turned the violation into its own
 * `FsError`: that becomes an `EIO` whose detail gives the reason. A bare violation is left to
 * just-bash, which reports it as a security violation.
 */
function blockedByDefense(error: unknown, given: boolean): FsError | undefined {
  const violation = defenseViolation(error);
  if (violation === undefined) return undefined;
  const why = given
    ? "the trusted option of toJustBashFs did not run the backend call as trusted code of the just-bash that runs the script"
    : "the Bash instance comes from another copy of just-bash than the one better-fs-tools loaded (two copies installed, as npm link or a file: dependency can give), so the bridge cannot mark its backend calls as trusted; install one copy (npm dedupe), or pass toJustBashFs(gate, { trusted: (work) => DefenseInDepthBox.runTrustedAsync(work) }) with the DefenseInDepthBox of the just-bash your Bash comes from";
  // A bare violation is just-bash's to report (it prints it as a security violation).
  if (error === violation) return undefined;
  const blocked = violation.message.split(". ")[0] ?? violation.message;
  const fields = FsError.isInstance(error) ? error : undefined;
  return new FsError("EIO", {
    syscall: fields?.syscall ?? "open",
    path: fields?.path,
    dest: fields?.dest,
    detail: `just-bash's defense layer blocked it (${blocked}): ${why}`,
    cause: error,
  });
}

/**
 * Adapt a gated backend to just-bash's `IFileSystem` (every required method, plus
 * `readFileBytes` and `readdirWithFileTypes`).
 *
 * - Paths from just-bash are normalised lexically (`resolvePath`) and then pass the gate, which
 *   resolves symlinks and refuses what lies outside the allowed roots with `EACCES`.
 * - Errors keep the backend's Node-style messages (`ENOENT: no such file or directory, open
 *   '/a'`), which just-bash turns into `cat: a: No such file or directory`.
 * - Writes are binary-safe: byte strings (`binary`/`latin1`) and `Uint8Array`s reach the
 *   backend byte for byte.
 * - `exists` is false only for `ENOENT`/`ENOTDIR`; a path the gate refuses counts as existing,
 *   so `echo x > /outside` fails as a redirect (`cannot open redirect target`) instead of
 *   aborting the whole script, and the refusal reaches `onRefusal`.
 * - `chmod` and `utimes` are kept by this adapter (our backends store no modes or times):
 *   `stat -c %a` and `ls -l` (times) show them until the adapter is dropped, and a write to the
 *   file resets its time. Hard links (`ln` without `-s`) fail with
 *   `ENOTSUP`; symlinks need a backend with `capabilities.symlink`, else `ENOTSUP` too.
 * - `/dev` is virtual ({@link withVirtualDev}): `/dev/null`, `/dev/stdin`, `/dev/stdout`,
 *   `/dev/stderr` read empty, `/dev/zero` reads as 1 MiB of zero bytes (`DEV_ZERO_BYTES`), and
 *   all swallow writes, without reaching the gate.
 * - Directories report size 0 on every backend, so `ls -l` prints the same on disk and in memory.
 * - `getAllPaths` returns `[]` (just-bash then walks directories for globs).
 *
 * @param source - a {@link Gate} (its checked `gate.fs` is used, with its roots and rules), or a
 *   {@link FileSystem} used as is. This low-level adapter adds no gate of its own: a bare backend
 *   passed here is unchecked (the shell sees all of it), so pass the gate, or wrap the backend
 *   with `createGate({ fs, cwd })`. {@link justBashCommandRunner} does that wrapping itself for a
 *   bare backend (a gate confined to its `cwd`).
 * @param options - see {@link ToJustBashFsOptions}.
 * @returns a fresh adapter with its own stat cache; create one per command run or per session.
 * @throws TypeError for an unknown option, or a `statCacheMs` that is not a number ≥ 0.
 * @example
 * ```ts
 * import { Bash } from "just-bash";
 * const gate = createGate({ fs: memoryFileSystem(), cwd: "/w" });
 * const bash = new Bash({ fs: toJustBashFs(gate), cwd: "/w" });
 * await bash.exec("echo hi > a.txt && cat a.txt"); // stdout "hi\n"; the read tool sees /w/a.txt
 * ```
 */
export function toJustBashFs(source: Gate | FileSystem, options: ToJustBashFsOptions = {}): JustBashFs {
  assertKnownOptions("toJustBashFs", options, OPTION_KEYS);
  const statCacheMs = options.statCacheMs ?? DEFAULT_STAT_CACHE_MS;
  if (typeof statCacheMs !== "number" || !(statCacheMs >= 0)) {
    throw new TypeError(`toJustBashFs statCacheMs must be a number of milliseconds ≥ 0, got ${String(statCacheMs)}`);
  }
  const gated: FileSystem = isGate(source) ? source.fs : source;
  if (gated === undefined || typeof gated.readFile !== "function") {
    throw new TypeError("toJustBashFs needs a Gate or a FileSystem");
  }
  const fs = withVirtualDev(gated);

  // The defense layer of just-bash must let our backend code run; load it now (it is about to be
  // used) so the first call can use its trusted runner.
  const ready: Promise<TrustedRunner> =
    options.trusted !== undefined
      ? Promise.resolve(options.trusted)
      : loadJustBash().then(trustedRunnerOf, () => trustedRunnerOf(undefined));
  let trustedNow: TrustedRunner | undefined =
    options.trusted ?? (loadedJustBash() ? trustedRunnerOf(loadedJustBash()) : undefined);
  function trusted<T>(work: () => Promise<T>, quiet = false): Promise<T> {
    const promise = (
      trustedNow !== undefined
        ? trustedNow(work)
        : ready.then((runner) => {
            trustedNow = runner;
            return runner(work);
          })
    ).catch((error: unknown) => {
      throw blockedByDefense(error, options.trusted !== undefined) ?? error;
    });
    if (onRefusal !== undefined && !quiet) promise.catch(report);
    return promise;
  }
  /** Tell the host about a refusal by the gate, unless it answered a command lookup. */
  function report(error: unknown): void {
    if (isRefusal(error) && !(error.path !== undefined && isCommandLookup(resolvePath("/", error.path))))
      onRefusal?.(error);
  }
  const onRefusal = options.onRefusal;
  if (onRefusal !== undefined && typeof onRefusal !== "function")
    throw new TypeError("toJustBashFs onRefusal must be a function");
  const onRead = options.onRead;
  if (onRead !== undefined && typeof onRead !== "function")
    throw new TypeError("toJustBashFs onRead must be a function");
  if (options.commandDirs !== undefined && !Array.isArray(options.commandDirs)) {
    throw new TypeError("toJustBashFs commandDirs must be an array of absolute paths");
  }
  const commandDirs = (options.commandDirs ?? DEFAULT_COMMAND_DIRS).map((dir) => resolvePath("/", dir));
  const isCommandLookup = (path: string): boolean => commandDirs.some((dir) => isWithin(dir, path));
  // Command lookups never reach the gate: they would only be refused, or put to an interactive
  // user's approve callback once per command. A name in the default command directories
  // (`/usr/bin/ls`) is always absent (just-bash runs its built-in); a name in another `$PATH`
  // directory is absent when it lies outside the gate's roots.
  const roots = isGate(source) ? source.allowedRoots : undefined;
  const isDefaultLookup = (path: string): boolean => DEFAULT_COMMAND_DIRS.some((dir) => isWithin(dir, path));
  const isUnaskedLookup = (path: string): boolean =>
    isDefaultLookup(path) ||
    (roots !== undefined && isCommandLookup(path) && !roots.some((root) => isWithin(root, path)));

  const statCache = new Map<string, { readonly atMs: number; readonly stat: Promise<FileStat> }>();
  const overrides = new Map<string, { mode?: number; mtime?: Date }>();

  function changed(): void {
    statCache.clear();
    realCache.clear();
  }

  function dropOverridesUnder(path: string): void {
    for (const key of [...overrides.keys()]) if (isWithin(path, key)) overrides.delete(key);
  }

  /** A cached `stat` (`follow`) or `lstat`; `quiet` leaves a refusal unreported (the caller handles it). */
  function statOf(path: string, follow: boolean, quiet = false): Promise<FileStat> {
    if (isUnaskedLookup(path))
      return Promise.reject(new FsError("ENOENT", { syscall: follow ? "stat" : "lstat", path }));
    if (statCacheMs === 0) return trusted(() => (follow ? fs.stat(path) : fs.lstat(path)), quiet);
    const key = `${follow ? "s" : "l"}${quiet ? "q" : ""}${path}`;
    const now = Date.now();
    const hit = statCache.get(key);
    if (hit !== undefined && now - hit.atMs <= statCacheMs) return hit.stat;
    const stat = trusted(() => (follow ? fs.stat(path) : fs.lstat(path)), quiet);
    statCache.set(key, { atMs: now, stat });
    // Only answers worth repeating stay: a stat or "not found"; other errors are retried.
    stat.catch((error: unknown) => {
      if (!isNotFound(error) && statCache.get(key)?.stat === stat) statCache.delete(key);
    });
    return stat;
  }

  /** Real paths (or their errors), cached like stats. */
  const realCache = new Map<string, { readonly atMs: number; readonly real: Promise<string | undefined> }>();
  const hasSymlinks = fs.capabilities.symlink === true;

  function realpathOf(path: string): Promise<string | undefined> {
    const now = Date.now();
    const hit = realCache.get(path);
    if (hit !== undefined && now - hit.atMs <= statCacheMs) return hit.real;
    // Not through `trusted`'s refusal report: the stat just before was admitted, and an error
    // here only leaves the identity out.
    const real = (trustedNow ?? ((work: () => Promise<string>) => work()))(() => fs.realpath(path)).then(
      (value) => value,
      () => undefined,
    );
    if (statCacheMs > 0) realCache.set(path, { atMs: now, real });
    return real;
  }

  /**
   * `stat` with a stable identity for just-bash (`mv`/`cp` decide "same file" from `stat`'s):
   * the canonical path, exact on backends without hard links. Without symlinks the normal path
   * is canonical; with them it is the real path (one more cached backend call). `lstat`, which
   * directory walks call for every entry, carries none (just-bash falls back to `realpath`).
   */
  async function statWithIdentity(path: string): Promise<FsStat> {
    if (hasSymlinks && !isVirtualDevPath(path) && !isUnaskedLookup(path)) {
      const own = await statOf(path, false, true).catch(() => undefined);
      if (own?.type === "symlink") {
        // A link whose target is missing or outside the workspace stats as the link itself, so
        // `rm` and `mv` (which just-bash has stat their operands) act on the link, never its
        // target; reading or writing through it is still refused.
        const target = await statOf(path, true, true).catch((error: unknown) => {
          if (isNotFound(error) || isRefusal(error)) return undefined;
          throw error;
        });
        if (target === undefined) return { ...toFsStat(path, own), identity: `path:${path}` };
      }
    }
    const stat = await statOf(path, true);
    const identity = !hasSymlinks || isVirtualDevPath(path) ? path : await realpathOf(path);
    const result = toFsStat(path, stat);
    return identity === undefined ? result : { ...result, identity: `path:${identity}` };
  }

  function toFsStat(path: string, stat: FileStat): FsStat {
    const override = overrides.get(path);
    const isDirectory = stat.type === "directory";
    const baseMode = stat.mode ?? (isDirectory ? DEFAULT_DIRECTORY_MODE : DEFAULT_FILE_MODE);
    return {
      isFile: stat.type === "file",
      isDirectory,
      isSymbolicLink: stat.type === "symlink",
      mode: (override?.mode ?? baseMode) & 0o7777,
      // Directory sizes differ by backend (4096 on disk, 0 in memory); 0 everywhere keeps listings backend-independent.
      size: isDirectory ? 0 : stat.size,
      mtime: override?.mtime ?? new Date(stat.mtimeMs),
    };
  }

  const normal = (path: string): string =>
    path.startsWith("/") && !NEEDS_NORMALISING.test(path) ? path : resolvePath("/", path);

  async function readBytes(path: string): Promise<Uint8Array> {
    const target = normal(path);
    const bytes = await trusted(() => fs.readFile(target));
    if (onRead !== undefined && !isVirtualDevPath(target)) onRead(target, bytes);
    return bytes;
  }

  async function writeBytes(path: string, data: Uint8Array): Promise<void> {
    const target = normal(path);
    if (isVirtualDevPath(target)) return trusted(() => fs.writeFile(target, data));
    try {
      await trusted(() => fs.writeFile(target, data));
    } finally {
      changed();
      const override = overrides.get(target);
      if (override !== undefined) delete override.mtime;
    }
  }

  async function copy(from: string, to: string, recursive: boolean): Promise<void> {
    const stat = await trusted(() => fs.lstat(from));
    if (stat.type === "directory") {
      if (!recursive) throw new FsError("EISDIR", { syscall: "cp", path: from, dest: to });
      await trusted(() => fs.mkdir(to, { recursive: true }));
      const entries = await trusted(() => fs.readdir(from));
      for (const entry of entries) {
        await copy(resolvePath(from, entry.name), resolvePath(to, entry.name), true);
      }
      return;
    }
    if (stat.type === "symlink" && fs.symlink !== undefined && fs.readlink !== undefined) {
      const target = await trusted(() => fs.readlink!(from));
      await trusted(() => fs.symlink!(target, to));
      return;
    }
    const data = await trusted(() => fs.readFile(from));
    await trusted(() => fs.writeFile(to, data));
  }

  async function mustExist(path: string, syscall: string): Promise<void> {
    try {
      await statOf(path, true);
    } catch (error) {
      if (FsError.isInstance(error) && error.code === "ENOENT")
        throw new FsError("ENOENT", { syscall, path, cause: error });
      throw error;
    }
  }

  const adapter: JustBashFs = {
    backendName: fs.name,

    async readFile(path, readOptions) {
      return decodeBytes(await readBytes(path), encodingOf(readOptions));
    },

    async readFileBytes(path) {
      // just-bash's ByteString is a latin1 string behind an opaque type.
      return latin1FromUint8Array(await readBytes(path)) as unknown as ByteString;
    },

    async readFileBuffer(path) {
      return readBytes(path);
    },

    async writeFile(path, content, writeOptions) {
      await writeBytes(path, bytesOf(content, writeOptions));
    },

    async appendFile(path, content, writeOptions) {
      const target = normal(path);
      let existing: Uint8Array = new Uint8Array(0);
      try {
        existing = await trusted(() => fs.readFile(target));
      } catch (error) {
        if (!(FsError.isInstance(error) && error.code === "ENOENT")) throw error;
      }
      await writeBytes(target, concatBytes(existing, bytesOf(content, writeOptions)));
    },

    async exists(path) {
      const target = normal(path);
      try {
        await statOf(target, true);
        return true;
      } catch (error) {
        // Only "not found" is absence. A refused path "exists", so a redirect to it fails with
        // "cannot open redirect target" (just-bash lets a failed redirect write abort the script);
        // except where just-bash looks commands up, so that it falls back to its built-ins.
        return !(isNotFound(error) || isCommandLookup(target));
      }
    },

    async stat(path) {
      return statWithIdentity(normal(path));
    },

    async lstat(path) {
      const target = normal(path);
      return toFsStat(target, await statOf(target, false));
    },

    async mkdir(path, mkdirOptions?: MkdirOptions) {
      try {
        await trusted(() => fs.mkdir(normal(path), { recursive: mkdirOptions?.recursive === true }));
      } finally {
        changed();
      }
    },

    async readdir(path) {
      const entries = await trusted(() => fs.readdir(normal(path)));
      return entries.map((entry) => entry.name).sort();
    },

    async readdirWithFileTypes(path): Promise<DirentEntry[]> {
      const entries = await trusted(() => fs.readdir(normal(path)));
      return entries
        .map((entry) => ({
          name: entry.name,
          isFile: entry.type === "file",
          isDirectory: entry.type === "directory",
          isSymbolicLink: entry.type === "symlink",
        }))
        .sort((first, second) => (first.name < second.name ? -1 : first.name > second.name ? 1 : 0));
    },

    async rm(path, rmOptions?: RmOptions) {
      const target = normal(path);
      try {
        await trusted(() =>
          fs.rm(target, { recursive: rmOptions?.recursive === true, force: rmOptions?.force === true }),
        );
      } finally {
        changed();
        dropOverridesUnder(target);
      }
    },

    async cp(src, dest, cpOptions?: CpOptions) {
      try {
        await copy(normal(src), normal(dest), cpOptions?.recursive === true);
      } finally {
        changed();
      }
    },

    async mv(src, dest) {
      const from = normal(src);
      try {
        await trusted(() => fs.rename(from, normal(dest)));
      } finally {
        changed();
        dropOverridesUnder(from);
      }
    },

    resolvePath(base, path) {
      if (path.startsWith("/")) return normal(path);
      const directory = base === "" ? "/" : normal(base);
      // Fast path for the common `dir` + `name/name` (just-bash calls this for every file it walks).
      let relative = path;
      while (relative.startsWith("./")) relative = relative.slice(2);
      if (relative !== "" && !NEEDS_NORMALISING.test(`/${relative}`))
        return directory === "/" ? `/${relative}` : `${directory}/${relative}`;
      return resolvePath(directory, path);
    },

    getAllPaths() {
      return [];
    },

    async chmod(path, mode) {
      const target = normal(path);
      await mustExist(target, "chmod");
      overrides.set(target, { ...overrides.get(target), mode: mode & 0o7777 });
    },

    async symlink(target, linkPath) {
      const link = normal(linkPath);
      if (fs.symlink === undefined || fs.capabilities.symlink !== true) {
        throw new FsError("ENOTSUP", {
          syscall: "symlink",
          path: target,
          dest: link,
          detail: `the ${fs.name} backend has no symlinks`,
        });
      }
      try {
        await trusted(() => fs.symlink!(target, link));
      } finally {
        changed();
      }
    },

    async link(existingPath, newPath) {
      throw new FsError("ENOTSUP", {
        syscall: "link",
        path: normal(existingPath),
        dest: normal(newPath),
        detail: "hard links are not supported; use cp or ln -s",
      });
    },

    async readlink(path) {
      const target = normal(path);
      if (fs.readlink === undefined || fs.capabilities.symlink !== true) {
        await trusted(() => fs.lstat(target));
        throw new FsError("EINVAL", { syscall: "readlink", path: target });
      }
      return trusted(() => fs.readlink!(target));
    },

    async realpath(path) {
      const target = normal(path);
      return trusted(() => fs.realpath(target), true).catch(async (error: unknown) => {
        // A link whose target is refused is no refusal to note when `mv` or `rm` only asks
        // whether two names are one file: they act on the link itself.
        if (onRefusal !== undefined && (await statOf(target, false).catch(() => undefined))?.type !== "symlink")
          report(error);
        throw error;
      });
    },

    async utimes(path, _atime, mtime) {
      const target = normal(path);
      await mustExist(target, "utime");
      overrides.set(target, { ...overrides.get(target), mtime });
    },
  };
  return adapter;
}

/**
 * `createNodeFs`: an object shaped like `node:fs` (promises, callbacks, sync) over any backend.
 *
 * @module
 */
import { resolvePath } from "../contract/path.js";
import type { FileSystem } from "../contract/types.js";
import { assertKnownOptions } from "../contract/options.js";
import { dataBytes, decode, encodingOf, toBuffer, type Encoding } from "./encoding.js";
import { NodeFsError } from "./errors.js";
import {
  call,
  copyFileOp,
  existsOp,
  fail,
  mkdirOp,
  openContent,
  parseFlags,
  readdirOp,
  renameOp,
  rmdirOp,
  rmOp,
  symlinkOp,
  truncateOp,
  unlinkOp,
  writeFileOp,
  type Flags,
  type Operation,
} from "./operations.js";
import { runAsync, runSync, type CallSite } from "./run.js";
import { constants, Dirent, Stats } from "./stats.js";

/** Options of {@link createNodeFs}. */
export interface CreateNodeFsOptions {
  /** Where relative paths resolve (absolute, in the backend's namespace). Default: `fs.cwd`, else `/`. */
  readonly cwd?: string;
}

/** A path as `node:fs` takes it: a string, a `file:` URL, or bytes. */
export type PathLike = string | URL | Uint8Array;

/** Options of `readFile`. */
export type ReadFileOptions =
  Encoding | { readonly encoding?: Encoding | null; readonly flag?: string | number } | null;
/** Options of `writeFile`/`appendFile` (`mode` is accepted and ignored: backends keep their own). */
export type WriteFileOptions =
  Encoding | { readonly encoding?: Encoding | null; readonly flag?: string | number; readonly mode?: number } | null;
/** Options of `mkdir` (`mode` accepted and ignored). */
export type MakeDirectoryOptions = number | { readonly recursive?: boolean; readonly mode?: number };
/** Options of `readdir`. */
export interface ReaddirOptions {
  readonly withFileTypes?: boolean;
  readonly recursive?: boolean;
  readonly encoding?: Encoding | null;
}
/** Options of `rm`. */
export interface RmOptions {
  readonly recursive?: boolean;
  readonly force?: boolean;
}

/** What `FileHandle.read` resolves with. */
export interface ReadResult<B extends Uint8Array> {
  readonly bytesRead: number;
  readonly buffer: B;
}

/** What `FileHandle.write` resolves with. */
export interface WriteResult<B> {
  readonly bytesWritten: number;
  readonly buffer: B;
}

/**
 * An open file, as `fs.promises.open` gives it. The file's bytes are read at `open` and each
 * write is written through to the backend at once (the whole file: backends store whole files).
 */
export interface FileHandle {
  /** The descriptor number, also valid with the callback and sync APIs. */
  readonly fd: number;
  read<B extends Uint8Array>(
    buffer: B,
    offset?: number,
    length?: number,
    position?: number | null,
  ): Promise<ReadResult<B>>;
  read(options?: {
    buffer?: Uint8Array;
    offset?: number;
    length?: number;
    position?: number | null;
  }): Promise<ReadResult<Uint8Array>>;
  write<B extends Uint8Array>(
    buffer: B,
    offset?: number,
    length?: number,
    position?: number | null,
  ): Promise<WriteResult<B>>;
  write(data: string, position?: number | null, encoding?: Encoding): Promise<WriteResult<string>>;
  readFile(options?: ReadFileOptions): Promise<string | Uint8Array>;
  writeFile(data: string | Uint8Array, options?: WriteFileOptions): Promise<void>;
  appendFile(data: string | Uint8Array, options?: WriteFileOptions): Promise<void>;
  truncate(length?: number): Promise<void>;
  stat(): Promise<Stats>;
  sync(): Promise<void>;
  datasync(): Promise<void>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The open file behind a descriptor: its bytes, position and flags. */
interface OpenFile {
  readonly path: string;
  readonly given: string;
  readonly flags: Flags;
  content: Uint8Array;
  position: number;
  closed: boolean;
}

/** A callback-API call: Node's arguments, then `(error, result) => void`. */
export type NodeFsCallbackCall = (...args: unknown[]) => void;

/**
 * The `node:fs` face {@link createNodeFs} returns: `promises`, the callback calls and the
 * `*Sync` calls, each with Node's arguments.
 */
export interface NodeFs {
  readonly promises: NodeFsPromises;
  readonly constants: typeof constants;
  readonly Stats: typeof Stats;
  readonly Dirent: typeof Dirent;
  readFileSync(path: PathLike | number, options?: ReadFileOptions): string | Uint8Array;
  readFileSync(path: PathLike | number, options: Encoding | { readonly encoding: Encoding }): string;
  writeFileSync(path: PathLike | number, data: string | Uint8Array, options?: WriteFileOptions): void;
  appendFileSync(path: PathLike | number, data: string | Uint8Array, options?: WriteFileOptions): void;
  mkdirSync(path: PathLike, options?: MakeDirectoryOptions): string | undefined;
  readdirSync(path: PathLike, options?: ReaddirOptions | Encoding): string[] | Dirent[];
  statSync(path: PathLike): Stats;
  lstatSync(path: PathLike): Stats;
  renameSync(from: PathLike, to: PathLike): void;
  rmSync(path: PathLike, options?: RmOptions): void;
  rmdirSync(path: PathLike, options?: { readonly recursive?: boolean }): void;
  unlinkSync(path: PathLike): void;
  symlinkSync(target: PathLike, path: PathLike, type?: string): void;
  readlinkSync(path: PathLike): string;
  realpathSync(path: PathLike): string;
  accessSync(path: PathLike, mode?: number): void;
  copyFileSync(from: PathLike, to: PathLike, mode?: number): void;
  truncateSync(path: PathLike, length?: number): void;
  chmodSync(path: PathLike, mode: number | string): void;
  utimesSync(path: PathLike, atime: number | Date, mtime: number | Date): void;
  existsSync(path: PathLike): boolean;
  openSync(path: PathLike, flags?: string | number, mode?: number): number;
  closeSync(fd: number): void;
  fstatSync(fd: number): Stats;
  ftruncateSync(fd: number, length?: number): void;
  readSync(fd: number, buffer: Uint8Array, offset?: number, length?: number, position?: number | null): number;
  writeSync(fd: number, data: string | Uint8Array, offset?: number, length?: number, position?: number | null): number;
  readFile: NodeFsCallbackCall;
  writeFile: NodeFsCallbackCall;
  appendFile: NodeFsCallbackCall;
  mkdir: NodeFsCallbackCall;
  readdir: NodeFsCallbackCall;
  stat: NodeFsCallbackCall;
  lstat: NodeFsCallbackCall;
  rename: NodeFsCallbackCall;
  rm: NodeFsCallbackCall;
  rmdir: NodeFsCallbackCall;
  unlink: NodeFsCallbackCall;
  symlink: NodeFsCallbackCall;
  readlink: NodeFsCallbackCall;
  realpath: NodeFsCallbackCall;
  access: NodeFsCallbackCall;
  copyFile: NodeFsCallbackCall;
  truncate: NodeFsCallbackCall;
  chmod: NodeFsCallbackCall;
  utimes: NodeFsCallbackCall;
  exists(path: PathLike, callback: (exists: boolean) => void): void;
  open: NodeFsCallbackCall;
  close: NodeFsCallbackCall;
  fstat: NodeFsCallbackCall;
  ftruncate: NodeFsCallbackCall;
  read: NodeFsCallbackCall;
  write: NodeFsCallbackCall;
}

/** `fs.promises` of the face. */
export interface NodeFsPromises {
  readFile(path: PathLike | FileHandle, options?: ReadFileOptions): Promise<string | Uint8Array>;
  writeFile(path: PathLike | FileHandle, data: string | Uint8Array, options?: WriteFileOptions): Promise<void>;
  appendFile(path: PathLike | FileHandle, data: string | Uint8Array, options?: WriteFileOptions): Promise<void>;
  mkdir(path: PathLike, options?: MakeDirectoryOptions): Promise<string | undefined>;
  readdir(path: PathLike, options?: ReaddirOptions | Encoding): Promise<string[] | Dirent[]>;
  stat(path: PathLike): Promise<Stats>;
  lstat(path: PathLike): Promise<Stats>;
  rename(from: PathLike, to: PathLike): Promise<void>;
  rm(path: PathLike, options?: RmOptions): Promise<void>;
  rmdir(path: PathLike, options?: { readonly recursive?: boolean }): Promise<void>;
  unlink(path: PathLike): Promise<void>;
  symlink(target: PathLike, path: PathLike, type?: string): Promise<void>;
  readlink(path: PathLike, options?: Encoding | { readonly encoding?: Encoding }): Promise<string>;
  realpath(path: PathLike): Promise<string>;
  access(path: PathLike, mode?: number): Promise<void>;
  copyFile(from: PathLike, to: PathLike, mode?: number): Promise<void>;
  truncate(path: PathLike, length?: number): Promise<void>;
  chmod(path: PathLike, mode: number | string): Promise<void>;
  utimes(path: PathLike, atime: number | Date, mtime: number | Date): Promise<void>;
  open(path: PathLike, flags?: string | number, mode?: number): Promise<FileHandle>;
  readonly constants: typeof constants;
}

const OPTION_KEYS = ["cwd"] as const;

function invalidArg(message: string, code = "ERR_INVALID_ARG_TYPE"): TypeError {
  return Object.assign(new TypeError(message), { code });
}

/** The platform Node names in its file URL errors: the running Node's, else `linux` (the face is POSIX). */
function platformName(): string {
  const platform = (globalThis as { process?: { platform?: unknown } }).process?.platform;
  return typeof platform === "string" && platform !== "win32" ? platform : "linux";
}

/**
 * The path of a `file:` URL, as Node's `fileURLToPath` gives it on POSIX: a host other than
 * empty (`file://localhost/x` parses to an empty host) and an encoded `/` are refused.
 *
 * @throws TypeError `ERR_INVALID_URL_SCHEME` for another scheme, `ERR_INVALID_FILE_URL_HOST`
 *   for a host, `ERR_INVALID_FILE_URL_PATH` for `%2F` in the path; Node's messages.
 */
function filePathOf(url: URL): string {
  if (url.protocol !== "file:") throw invalidArg("The URL must be of scheme file", "ERR_INVALID_URL_SCHEME");
  if (url.hostname !== "") {
    throw invalidArg(`File URL host must be "localhost" or empty on ${platformName()}`, "ERR_INVALID_FILE_URL_HOST");
  }
  if (/%2f/iu.test(url.pathname)) {
    throw invalidArg("File URL path must not include encoded / characters", "ERR_INVALID_FILE_URL_PATH");
  }
  return decodeURIComponent(url.pathname);
}

/**
 * Gives any backend the `node:fs` face: `fs.promises`, the callback API and, where the backend
 * has a synchronous form (`fs.sync`: memory, idb and the OPFS mirror once loaded), the `*Sync`
 * API. Code written against `node:fs` (a module under test, isomorphic-git, other Node libraries)
 * runs over it.
 *
 * Paths may be relative (to `cwd`), `file:` URLs (an empty host or `localhost`, as Node) or
 * bytes. Errors are Node's ({@link NodeFsError}): `code`, `errno`, `syscall`, the `path` (and
 * `dest`) as given, and Node's message. A bad argument is Node's `TypeError` with its `ERR_*`
 * code (a URL with a host: `ERR_INVALID_FILE_URL_HOST`; a NUL byte: `ERR_INVALID_ARG_VALUE`),
 * rejected by the promise calls and thrown by the callback and sync calls. Over a gate
 * (`createNodeFs(gate.fs)`) every call is checked as a tool's is; a refusal is `EACCES` with the
 * gate's reason after Node's message.
 *
 * What differs from Node: `mode`, `chmod` and `utimes` are accepted and change nothing
 * (backends keep their own permissions and times); `Stats` times other than `mtime` are the
 * backend's `atimeMs`/`birthtimeMs` where it reports them, else `mtimeMs`;
 * hard links and watchers are not offered; an open file's bytes are read at `open`, and each
 * write through its handle writes the whole file.
 *
 * @param fs - the backend (or a gate's checked `gate.fs`).
 * @param options - `cwd` for relative paths.
 * @returns the face; its sync calls throw `ENOTSUP` (saying why) on a backend with no `sync`.
 * @throws TypeError at creation for an unknown option or a relative `cwd`.
 * @example
 * ```ts
 * import { memoryFileSystem } from "better-fs-tools/memory";
 * import { createNodeFs } from "better-fs-tools/node-fs";
 * const fs = createNodeFs(memoryFileSystem(), { cwd: "/w" });
 * await fs.promises.mkdir("/w", { recursive: true });
 * await fs.promises.writeFile("a.txt", "hi");
 * fs.readFileSync("a.txt", "utf8"); // "hi"
 * ```
 */
export function createNodeFs(fs: FileSystem, options: CreateNodeFsOptions = {}): NodeFs {
  if (typeof fs !== "object" || fs === null || typeof fs.readFile !== "function") {
    throw new TypeError("createNodeFs needs a FileSystem (a backend, or a gate's gate.fs)");
  }
  assertKnownOptions("createNodeFs", options, OPTION_KEYS);
  const cwd = options.cwd ?? fs.cwd ?? "/";
  if (typeof cwd !== "string" || !cwd.startsWith("/")) {
    throw new TypeError(`createNodeFs cwd must be an absolute path, got ${JSON.stringify(cwd)}`);
  }

  /** The path as given (for messages) and resolved (for the backend). */
  function pathOf(path: unknown, name = "path"): { given: string; absolute: string } {
    let given: string;
    if (typeof path === "string") given = path;
    else if (path instanceof URL) given = filePathOf(path);
    else if (path instanceof Uint8Array) given = new TextDecoder().decode(path);
    else throw invalidArg(`The "${name}" argument must be of type string or an instance of Buffer or URL.`);
    if (given.includes("\0")) {
      throw invalidArg(
        `The argument '${name}' must be a string, Uint8Array, or URL without null bytes.`,
        "ERR_INVALID_ARG_VALUE",
      );
    }
    return { given, absolute: given === "" ? "" : resolvePath(cwd, given) };
  }

  // ---- descriptors ----
  const open = new Map<number, OpenFile>();
  let nextFd = 3;
  function fileOf(fd: unknown, syscall: string): OpenFile {
    const file = typeof fd === "number" ? open.get(fd) : undefined;
    if (file === undefined || file.closed) throw new NodeFsError({ code: "EBADF", syscall });
    return file;
  }
  function* openOp(absolute: string, given: string, flagsArg: unknown): Operation<number> {
    const flags = parseFlags(flagsArg, "r");
    if (absolute === "") fail("ENOENT");
    const content = yield* openContent(absolute, flags);
    if (flags.create && content.byteLength === 0) {
      const exists = yield* existsOp(absolute);
      if (!exists || flags.truncate) yield* call("writeFile", absolute, content);
    }
    const fd = nextFd++;
    open.set(fd, {
      path: absolute,
      given,
      flags,
      content,
      position: flags.append ? content.byteLength : 0,
      closed: false,
    });
    return fd;
  }
  function readAt(file: OpenFile, buffer: Uint8Array, offset: number, length: number, position: number | null): number {
    if (!file.flags.read) throw new NodeFsError({ code: "EBADF", syscall: "read" });
    const start = position === null || position < 0 ? file.position : position;
    const slice = file.content.subarray(start, Math.min(file.content.byteLength, start + length));
    buffer.set(slice, offset);
    if (position === null || position < 0) file.position += slice.byteLength;
    return slice.byteLength;
  }
  function* writeAt(file: OpenFile, data: Uint8Array, position: number | null): Operation<number> {
    if (!file.flags.write) throw new NodeFsError({ code: "EBADF", syscall: "write" });
    const start = file.flags.append
      ? file.content.byteLength
      : position === null || position < 0
        ? file.position
        : position;
    const end = start + data.byteLength;
    const next = new Uint8Array(Math.max(end, file.content.byteLength));
    next.set(file.content);
    next.set(data, start);
    yield* call("writeFile", file.path, next);
    file.content = next;
    if (file.flags.append || position === null || position < 0) file.position = end;
    return data.byteLength;
  }
  function* truncateFd(file: OpenFile, length: number): Operation<void> {
    const next = new Uint8Array(length);
    next.set(file.content.subarray(0, Math.min(length, file.content.byteLength)));
    yield* call("writeFile", file.path, next);
    file.content = next;
  }
  function* fstatOp(file: OpenFile): Operation<Stats> {
    return new Stats(yield* call("stat", file.path), file.path);
  }

  /** Byte-buffer arguments of read/write: (buffer, offset, length, position) or an options object. */
  function bufferArgs(
    buffer: Uint8Array,
    offsetOrOptions: unknown,
    length: unknown,
    position: unknown,
  ): { offset: number; length: number; position: number | null } {
    if (typeof offsetOrOptions === "object" && offsetOrOptions !== null) {
      const given = offsetOrOptions as { offset?: number; length?: number; position?: number | null };
      const offset = given.offset ?? 0;
      return { offset, length: given.length ?? buffer.byteLength - offset, position: given.position ?? null };
    }
    const offset = typeof offsetOrOptions === "number" ? offsetOrOptions : 0;
    return {
      offset,
      length: typeof length === "number" ? length : buffer.byteLength - offset,
      position: typeof position === "number" || typeof position === "bigint" ? Number(position) : null,
    };
  }

  // ---- the calls, each as (arguments) → { site, operation } ----
  type Plan<T> = { readonly site: CallSite; readonly operation: Operation<T> };
  const plans = {
    readFile(path: PathLike | number, options?: ReadFileOptions): Plan<string | Uint8Array> {
      const encoding = encodingOf(options);
      const flag = typeof options === "object" && options !== null ? options.flag : undefined;
      if (typeof path === "number") {
        const fd = path;
        return {
          site: { syscall: "read" },
          operation: (function* () {
            const file = fileOf(fd, "read");
            const bytes = file.content.slice(file.position);
            file.position = file.content.byteLength;
            return encoding === undefined ? toBuffer(bytes) : decode(bytes, encoding);
          })(),
        };
      }
      const { given, absolute } = pathOf(path);
      return {
        site: { syscall: "open", path: given },
        operation: (function* () {
          if (absolute === "") fail("ENOENT");
          const flags = parseFlags(flag, "r");
          const bytes =
            flags.create || flags.write ? yield* openContent(absolute, flags) : yield* call("readFile", absolute);
          return encoding === undefined ? toBuffer(bytes) : decode(bytes, encoding);
        })(),
      };
    },
    writeFile(path: PathLike | number, data: unknown, options?: WriteFileOptions, append = false): Plan<void> {
      const encoding = encodingOf(options);
      const bytes = dataBytes(data, encoding);
      const flag = typeof options === "object" && options !== null ? options.flag : undefined;
      if (typeof path === "number") {
        const fd = path;
        return {
          site: { syscall: "write" },
          operation: (function* () {
            yield* writeAt(fileOf(fd, "write"), bytes, null);
          })(),
        };
      }
      const { given, absolute } = pathOf(path);
      return {
        site: { syscall: "open", path: given },
        operation: (function* () {
          if (absolute === "") fail("ENOENT");
          yield* writeFileOp(absolute, bytes, parseFlags(flag, append ? "a" : "w"));
        })(),
      };
    },
    appendFile(path: PathLike | number, data: unknown, options?: WriteFileOptions): Plan<void> {
      return plans.writeFile(path, data, options, true);
    },
    mkdir(path: PathLike, options?: MakeDirectoryOptions): Plan<string | undefined> {
      const { given, absolute } = pathOf(path);
      const recursive = typeof options === "object" && options !== null && options.recursive === true;
      return {
        site: { syscall: "mkdir", path: given },
        operation: (function* () {
          if (absolute === "") fail("ENOENT");
          return yield* mkdirOp(absolute, recursive);
        })(),
      };
    },
    readdir(path: PathLike, options?: ReaddirOptions | Encoding | null): Plan<string[] | Dirent[]> {
      const { given, absolute } = pathOf(path);
      const object = typeof options === "object" && options !== null ? options : {};
      encodingOf(options);
      return {
        site: { syscall: "scandir", path: given },
        operation: (function* () {
          if (absolute === "") fail("ENOENT");
          const entries = yield* readdirOp(absolute, object.recursive === true);
          if (object.withFileTypes === true)
            return entries.map(({ entry, parent }) => new Dirent(entry.name, entry.type, parent));
          return entries.map(({ name }) => name);
        })(),
      };
    },
    stat(path: PathLike): Plan<Stats> {
      const { given, absolute } = pathOf(path);
      return {
        site: { syscall: "stat", path: given },
        operation: (function* () {
          if (absolute === "") fail("ENOENT");
          return new Stats(yield* call("stat", absolute), absolute);
        })(),
      };
    },
    lstat(path: PathLike): Plan<Stats> {
      const { given, absolute } = pathOf(path);
      return {
        site: { syscall: "lstat", path: given },
        operation: (function* () {
          if (absolute === "") fail("ENOENT");
          return new Stats(yield* call("lstat", absolute), absolute);
        })(),
      };
    },
    rename(from: PathLike, to: PathLike): Plan<void> {
      const source = pathOf(from, "oldPath");
      const dest = pathOf(to, "newPath");
      return {
        site: { syscall: "rename", path: source.given, dest: dest.given },
        operation: renameOp(source.absolute, dest.absolute),
      };
    },
    rm(path: PathLike, options?: RmOptions): Plan<void> {
      const { given, absolute } = pathOf(path);
      return {
        site: { syscall: "rm", path: given },
        operation: rmOp(absolute, options?.recursive === true, options?.force === true),
      };
    },
    rmdir(path: PathLike, options?: { readonly recursive?: boolean }): Plan<void> {
      const { given, absolute } = pathOf(path);
      return { site: { syscall: "rmdir", path: given }, operation: rmdirOp(absolute, options?.recursive === true) };
    },
    unlink(path: PathLike): Plan<void> {
      const { given, absolute } = pathOf(path);
      return { site: { syscall: "unlink", path: given }, operation: unlinkOp(absolute) };
    },
    symlink(target: PathLike, path: PathLike): Plan<void> {
      const link = pathOf(path);
      const to = pathOf(target, "target");
      return {
        site: { syscall: "symlink", path: to.given, dest: link.given },
        operation: symlinkOp(to.given, link.absolute),
      };
    },
    readlink(path: PathLike): Plan<string> {
      const { given, absolute } = pathOf(path);
      return {
        site: { syscall: "readlink", path: given },
        operation: (function* () {
          return yield* call("readlink", absolute);
        })(),
      };
    },
    realpath(path: PathLike): Plan<string> {
      const { given, absolute } = pathOf(path);
      return {
        site: { syscall: "realpath", path: given },
        operation: (function* () {
          if (absolute === "") fail("ENOENT");
          return yield* call("realpath", absolute);
        })(),
      };
    },
    access(path: PathLike): Plan<void> {
      const { given, absolute } = pathOf(path);
      return {
        site: { syscall: "access", path: given },
        operation: (function* () {
          if (absolute === "") fail("ENOENT");
          yield* call("stat", absolute);
        })(),
      };
    },
    copyFile(from: PathLike, to: PathLike, mode?: number): Plan<void> {
      const source = pathOf(from, "src");
      const dest = pathOf(to, "dest");
      return {
        site: { syscall: "copyfile", path: source.given, dest: dest.given },
        operation: copyFileOp(source.absolute, dest.absolute, ((mode ?? 0) & constants.COPYFILE_EXCL) !== 0),
      };
    },
    truncate(path: PathLike, length?: number): Plan<void> {
      const { given, absolute } = pathOf(path);
      return { site: { syscall: "open", path: given }, operation: truncateOp(absolute, length ?? 0) };
    },
    chmod(path: PathLike): Plan<void> {
      return { ...plans.stat(path), site: { syscall: "chmod", path: pathOf(path).given } } as unknown as Plan<void>;
    },
    utimes(path: PathLike): Plan<void> {
      return { ...plans.stat(path), site: { syscall: "utime", path: pathOf(path).given } } as unknown as Plan<void>;
    },
    exists(path: PathLike): Plan<boolean> {
      const { absolute } = pathOf(path);
      return {
        site: { syscall: "access" },
        operation:
          absolute === ""
            ? (function* () {
                return false;
              })()
            : existsOp(absolute),
      };
    },
    open(path: PathLike, flags?: string | number): Plan<number> {
      const { given, absolute } = pathOf(path);
      return { site: { syscall: "open", path: given }, operation: openOp(absolute, given, flags) };
    },
    close(fd: number): Plan<void> {
      return {
        site: { syscall: "close" },
        operation: (function* () {
          fileOf(fd, "close").closed = true;
          open.delete(fd);
        })(),
      };
    },
    fstat(fd: number): Plan<Stats> {
      return {
        site: { syscall: "fstat" },
        operation: (function* () {
          return yield* fstatOp(fileOf(fd, "fstat"));
        })(),
      };
    },
    ftruncate(fd: number, length?: number): Plan<void> {
      return {
        site: { syscall: "ftruncate" },
        operation: (function* () {
          yield* truncateFd(fileOf(fd, "ftruncate"), length ?? 0);
        })(),
      };
    },
    read(fd: number, buffer: Uint8Array, offset?: unknown, length?: unknown, position?: unknown): Plan<number> {
      return {
        site: { syscall: "read" },
        operation: (function* () {
          const args = bufferArgs(buffer, offset, length, position);
          return readAt(fileOf(fd, "read"), buffer, args.offset, args.length, args.position);
        })(),
      };
    },
    write(fd: number, data: unknown, offset?: unknown, length?: unknown, position?: unknown): Plan<number> {
      return {
        site: { syscall: "write" },
        operation: (function* () {
          const file = fileOf(fd, "write");
          if (typeof data === "string") {
            // write(fd, string, position?, encoding?)
            const bytes = dataBytes(data, encodingOf(typeof length === "string" ? length : undefined));
            return yield* writeAt(file, bytes, typeof offset === "number" ? offset : null);
          }
          const bytes = dataBytes(data, undefined);
          const args = bufferArgs(bytes, offset, length, position);
          return yield* writeAt(file, bytes.subarray(args.offset, args.offset + args.length), args.position);
        })(),
      };
    },
  };
  type Plans = typeof plans;

  // ---- FileHandle ----
  function handleOf(fd: number): FileHandle {
    const run = <T>(plan: Plan<T>) => runAsync(fs, plan.site, plan.operation);
    const handle: FileHandle = {
      fd,
      async read(bufferOrOptions?: unknown, offset?: number, length?: number, position?: number | null) {
        const buffer =
          bufferOrOptions instanceof Uint8Array
            ? bufferOrOptions
            : ((bufferOrOptions as { buffer?: Uint8Array } | undefined)?.buffer ?? toBuffer(new Uint8Array(16384)));
        const rest =
          bufferOrOptions instanceof Uint8Array
            ? [offset, length, position]
            : [bufferOrOptions ?? {}, undefined, undefined];
        const bytesRead = await run(plans.read(fd, buffer, ...rest));
        return { bytesRead, buffer };
      },
      async write(data: unknown, offset?: unknown, length?: unknown, position?: unknown) {
        const bytesWritten = await run(plans.write(fd, data, offset, length, position));
        return { bytesWritten, buffer: data };
      },
      readFile: (options) => run(plans.readFile(fd, options)),
      // The whole file replaced in one backend write: a failure leaves it as it was.
      writeFile: (data, options) =>
        run({
          site: { syscall: "write" },
          operation: (function* () {
            const file = fileOf(fd, "write");
            if (!file.flags.write) throw new NodeFsError({ code: "EBADF", syscall: "write" });
            const bytes = dataBytes(data, encodingOf(options));
            yield* call("writeFile", file.path, bytes);
            file.content = bytes.slice();
            file.position = bytes.byteLength;
          })(),
        }),
      appendFile: (data, options) => {
        const file = fileOf(fd, "write");
        file.position = file.content.byteLength;
        return run(plans.writeFile(fd, data, options));
      },
      truncate: (length) => run(plans.ftruncate(fd, length)),
      stat: () => run(plans.fstat(fd)),
      sync: async () => undefined,
      datasync: async () => undefined,
      close: () => run(plans.close(fd)),
      [Symbol.asyncDispose]: async () => {
        if (open.has(fd)) await run(plans.close(fd));
      },
    } as FileHandle;
    return handle;
  }

  // ---- the three APIs ----
  type PlanName = keyof Plans;
  const PROMISE_NAMES: readonly PlanName[] = [
    "readFile",
    "writeFile",
    "appendFile",
    "mkdir",
    "readdir",
    "stat",
    "lstat",
    "rename",
    "rm",
    "rmdir",
    "unlink",
    "symlink",
    "readlink",
    "realpath",
    "access",
    "copyFile",
    "truncate",
    "chmod",
    "utimes",
  ];
  const plan = (name: PlanName, args: readonly unknown[]): Plan<unknown> =>
    (plans[name] as (...rest: readonly unknown[]) => Plan<unknown>)(...args);
  const promises: Record<string, unknown> = { constants };
  for (const name of PROMISE_NAMES) {
    promises[name] = (...args: unknown[]) => {
      // A FileHandle in place of a path: its descriptor.
      if (
        typeof args[0] === "object" &&
        args[0] !== null &&
        typeof (args[0] as FileHandle).fd === "number" &&
        !(args[0] instanceof URL) &&
        !(args[0] instanceof Uint8Array)
      ) {
        args[0] = (args[0] as FileHandle).fd;
      }
      try {
        const planned = plan(name, args);
        return runAsync(fs, planned.site, planned.operation);
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  promises.open = async (path: PathLike, flags?: string | number) => {
    const planned = plans.open(path, flags);
    return handleOf(await runAsync(fs, planned.site, planned.operation));
  };

  const face: Record<string, unknown> = { promises: Object.freeze(promises), constants, Stats, Dirent };
  const CALLBACK_NAMES: readonly PlanName[] = [
    ...PROMISE_NAMES,
    "open",
    "close",
    "fstat",
    "ftruncate",
    "read",
    "write",
  ];
  for (const name of CALLBACK_NAMES) {
    face[name] = (...args: unknown[]) => {
      const callback = args.pop();
      if (typeof callback !== "function") throw invalidArg('The "cb" argument must be of type function.');
      const done = callback as (error: unknown, ...results: unknown[]) => void;
      let planned: Plan<unknown>;
      try {
        planned = plan(name, args);
      } catch (error) {
        // A bad argument (Node's `ERR_*` TypeErrors) is thrown at the call, as Node throws it.
        if (error instanceof TypeError && String((error as { code?: unknown }).code).startsWith("ERR_")) throw error;
        queueMicrotask(() => done(error));
        return;
      }
      runAsync(fs, planned.site, planned.operation).then(
        (result) => {
          if (name === "read") done(null, result, args[1]);
          else if (name === "write") done(null, result, args[1]);
          else if (result === undefined) done(null);
          else done(null, result);
        },
        (error: unknown) => done(error),
      );
    };
    face[`${name}Sync`] = (...args: unknown[]) => {
      const planned = plan(name, args);
      return runSync(fs, planned.site, planned.operation);
    };
  }
  face.exists = (path: PathLike, callback: (exists: boolean) => void) => {
    const planned = plans.exists(path);
    void runAsync(fs, planned.site, planned.operation).then(callback, () => callback(false));
  };
  face.existsSync = (path: PathLike) => {
    try {
      const planned = plans.exists(path);
      return runSync(fs, planned.site, planned.operation);
    } catch (error) {
      if (error instanceof NodeFsError && error.code === "ENOTSUP") throw error;
      return false;
    }
  };
  return face as unknown as NodeFs;
}

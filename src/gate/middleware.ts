/**
 * Backend middleware: functions from a {@link FileSystem} to a FileSystem that observe or
 * restrict every call (logging, read-only, a byte quota). Combine them with {@link compose};
 * the gate sits in front of the result, so every call a tool, bash or host code makes passes
 * the gate first and then each middleware in order.
 *
 * @module
 */
import { type DirEntry, type FileSystem } from "../contract/types.js";
import { FsError } from "../contract/errors.js";
import { assertKnownOptions } from "../contract/options.js";
import { forwardFileSystem } from "../contract/forward.js";

/** A middleware: takes the next backend, returns one that wraps it. */
export type FileSystemMiddleware = (next: FileSystem) => FileSystem;

function assertOptions(factory: string, options: object | undefined, known: readonly string[]): void {
  if (options !== undefined) assertKnownOptions(factory, options, known);
}

/**
 * Combine middlewares into one. The first listed is the outermost: it sees each call first.
 *
 * @param middlewares - applied right to left, so `compose(a, b)(fs)` is `a(b(fs))`.
 * @returns a middleware; `compose()` returns the backend unchanged.
 * @throws TypeError when an argument is not a function.
 * @example
 * ```ts
 * const fs = compose(withFilesystemLogging(), readOnly())(memoryFileSystem());
 * await fs.writeFile("/a", bytes); // logged, then rejected with EROFS
 * ```
 */
export function compose(...middlewares: readonly FileSystemMiddleware[]): FileSystemMiddleware {
  middlewares.forEach((middleware, index) => {
    if (typeof middleware !== "function") {
      throw new TypeError(`compose argument ${index} must be a middleware function (next) => FileSystem`);
    }
  });
  return (backend) => middlewares.reduceRight((next, middleware) => middleware(next), backend);
}

/** The backend methods {@link withFilesystemLogging} reports. */
export type FilesystemLogMethod =
  | "readFile"
  | "writeFile"
  | "stat"
  | "lstat"
  | "readdir"
  | "mkdir"
  | "rm"
  | "rename"
  | "realpath"
  | "symlink"
  | "readlink"
  | "watch";

/**
 * One argument of a logged call: a path (or a symlink's target) as a string, the content of a
 * `writeFile` as its text (valid UTF-8) or as `{ bytes }` (its size in bytes, for other content),
 * or the options object of `mkdir`/`rm` as given.
 */
export type FilesystemLogArgument =
  string | { readonly bytes: number } | { readonly recursive?: boolean; readonly force?: boolean };

/** What {@link withFilesystemLogging} hands its `destination`: one backend call, before it runs. */
export interface FilesystemLogEntry {
  /** The method called. */
  readonly method: FilesystemLogMethod;
  /**
   * Its arguments, in order. Reads give the path only: nothing a call returns is ever logged.
   * `watch` gives its path (not the listener).
   */
  readonly args: readonly FilesystemLogArgument[];
}

/** Options of {@link withFilesystemLogging}. */
export interface FilesystemLoggingOptions {
  /**
   * Receives each call as `{ method, args }`, before the call runs. Default: one line per call to
   * `console.error` (stderr in Node, the console in browsers), as {@link formatFilesystemLogEntry}
   * writes it.
   */
  readonly destination?: (entry: FilesystemLogEntry) => void;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** How `writeFile` content is logged: the whole text, or its size for content that is not UTF-8. */
function describeContent(data: Uint8Array): FilesystemLogArgument {
  try {
    return utf8.decode(data);
  } catch {
    return { bytes: data.byteLength };
  }
}

/**
 * The line the default destination of {@link withFilesystemLogging} writes for an entry: the
 * method and its arguments, strings JSON-quoted, content that is not UTF-8 as `<N bytes, not UTF-8>`.
 *
 * @param entry - a logged call.
 * @returns one line, e.g. `fs.writeFile("/w/a.txt", "hi")`.
 * @example
 * ```ts
 * formatFilesystemLogEntry({ method: "rm", args: ["/w/d", { recursive: true }] });
 * // 'fs.rm("/w/d", {"recursive":true})'
 * ```
 */
export function formatFilesystemLogEntry(entry: FilesystemLogEntry): string {
  const shown = entry.args.map((arg) =>
    typeof arg === "string"
      ? JSON.stringify(arg)
      : "bytes" in arg
        ? `<${arg.bytes} bytes, not UTF-8>`
        : JSON.stringify(arg),
  );
  return `fs.${entry.method}(${shown.join(", ")})`;
}

/**
 * Log every call, before it runs, as `{ method, args }`. `writeFile` logs the whole content
 * (its text, or `{ bytes }` for content that is not UTF-8); `readFile` (text and binary reads
 * alike, and `readFileView`, logged as `readFile`) logs the path only, and nothing a call
 * returns is ever logged.
 *
 * @param options - `destination`, a function of one {@link FilesystemLogEntry}; default: a line
 *   per call to `console.error` ({@link formatFilesystemLogEntry}).
 * @returns a middleware.
 * @throws TypeError for an unknown option or a `destination` that is not a function.
 * @example
 * ```ts
 * const entries: FilesystemLogEntry[] = [];
 * const fs = withFilesystemLogging({ destination: (entry) => entries.push(entry) })(backend);
 * await fs.writeFile("/w/a.txt", new TextEncoder().encode("hi"));
 * // entries: [{ method: "writeFile", args: ["/w/a.txt", "hi"] }]
 * ```
 */
export function withFilesystemLogging(options: FilesystemLoggingOptions = {}): FileSystemMiddleware {
  assertOptions("withFilesystemLogging", options, ["destination"]);
  if (options.destination !== undefined && typeof options.destination !== "function") {
    throw new TypeError("withFilesystemLogging destination must be a function of one entry ({ method, args })");
  }
  const destination =
    options.destination ?? ((entry: FilesystemLogEntry) => console.error(formatFilesystemLogEntry(entry)));
  const log = (method: FilesystemLogMethod, ...args: FilesystemLogArgument[]) =>
    destination(Object.freeze({ method, args: Object.freeze(args) }));
  const flags = (value: { recursive?: boolean; force?: boolean } | undefined): FilesystemLogArgument[] =>
    value === undefined ? [] : [{ ...value }];
  const wrap = (next: FileSystem): FileSystem =>
    forwardFileSystem(next, {
      // The no-follow form is logged the same way (the gate's checked calls go there).
      noFollow: next.noFollow === undefined ? undefined : wrap(next.noFollow),
      readFile: (path) => {
        log("readFile", path);
        return next.readFile(path);
      },
      readFileView: (path, use) => {
        log("readFile", path);
        return (next.readFileView as NonNullable<FileSystem["readFileView"]>)(path, use);
      },
      writeFile: (path, data) => {
        log("writeFile", path, describeContent(data));
        return next.writeFile(path, data);
      },
      stat: (path) => {
        log("stat", path);
        return next.stat(path);
      },
      lstat: (path) => {
        log("lstat", path);
        return next.lstat(path);
      },
      readdir: (path) => {
        log("readdir", path);
        return next.readdir(path);
      },
      mkdir: (path, mkdirOptions) => {
        log("mkdir", path, ...flags(mkdirOptions));
        return next.mkdir(path, mkdirOptions);
      },
      rm: (path, rmOptions) => {
        log("rm", path, ...flags(rmOptions));
        return next.rm(path, rmOptions);
      },
      rename: (from, to) => {
        log("rename", from, to);
        return next.rename(from, to);
      },
      realpath: (path) => {
        log("realpath", path);
        return next.realpath(path);
      },
      symlink: (target, path) => {
        log("symlink", target, path);
        return (next.symlink as NonNullable<FileSystem["symlink"]>)(target, path);
      },
      readlink: (path) => {
        log("readlink", path);
        return (next.readlink as NonNullable<FileSystem["readlink"]>)(path);
      },
      watch: (path, listener) => {
        log("watch", path);
        return (next.watch as NonNullable<FileSystem["watch"]>)(path, listener);
      },
    });
  return wrap;
}

/**
 * Refuse every change: `writeFile`, `mkdir`, `rm`, `rename` and `symlink` reject with FsError
 * `EROFS` (`EROFS: read-only file system, open '/a'`) without reaching the backend; reads pass.
 *
 * @returns a middleware.
 * @example
 * ```ts
 * const fs = readOnly()(backend);
 * await fs.writeFile("/a", bytes); // rejects: EROFS: read-only file system, open '/a'
 * ```
 */
export function readOnly(): FileSystemMiddleware {
  const refuse = (syscall: string, path: string, dest?: string) =>
    Promise.reject(new FsError("EROFS", dest === undefined ? { syscall, path } : { syscall, path, dest }));
  const wrap = (next: FileSystem): FileSystem =>
    forwardFileSystem(next, {
      noFollow: next.noFollow === undefined ? undefined : wrap(next.noFollow),
      writeFile: (path) => refuse("open", path),
      mkdir: (path) => refuse("mkdir", path),
      rm: (path) => refuse("rm", path),
      rename: (from, to) => refuse("rename", from, to),
      symlink: (_target, path) => refuse("symlink", path),
    });
  return wrap;
}

/** Options of {@link withQuota}. */
export interface QuotaOptions {
  /** Most bytes of file content the backend may hold (under `root`), in bytes. */
  readonly maxBytes: number;
  /** The directory whose files count, measured once on the first change. @default "/" */
  readonly root?: string;
}

/**
 * A byte quota on file content. The bytes already under `root` are counted on the first
 * change; then each `writeFile` counts its new size less the size it replaces, `rm` gives back
 * what it removed, and `rename` over a file gives back the replaced file. A write that would go
 * over the quota rejects with FsError `ENOSPC` before reaching the backend, so the previous
 * content stays intact; its message names the bytes asked and the bytes left:
 * `ENOSPC: no space left on device, open '/w/a.bin' (quota: writing 600 bytes needs 600 more, 400 of 1000 bytes left)`.
 * Concurrent writes reserve their bytes before they run, so they cannot overshoot together.
 * Changes made to the backend around this middleware are not seen.
 *
 * @param options - `maxBytes` (bytes, a non-negative integer), `root` (default `/`).
 * @returns a middleware.
 * @throws TypeError at creation for a missing or invalid `maxBytes`, a `root` that is not
 *   absolute, or an unknown option.
 * @example
 * ```ts
 * const fs = withQuota({ maxBytes: 10 * 1024 * 1024 })(memoryFileSystem());
 * ```
 */
export function withQuota(options: QuotaOptions): FileSystemMiddleware {
  assertOptions("withQuota", options, ["maxBytes", "root"]);
  const maxBytes = options?.maxBytes;
  if (typeof maxBytes !== "number" || !Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new TypeError(`withQuota maxBytes must be a non-negative integer (bytes), got ${JSON.stringify(maxBytes)}`);
  }
  const root = options.root ?? "/";
  if (typeof root !== "string" || !root.startsWith("/")) {
    throw new TypeError(`withQuota root must be an absolute path, got ${JSON.stringify(root)}`);
  }
  return (next) => {
    let used: Promise<number> | undefined;
    let usedBytes = 0;
    const measure = async () => {
      if (used === undefined) {
        used = sizeOf(next, root).then((bytes) => {
          usedBytes += bytes;
          return usedBytes;
        });
      }
      await used;
    };
    const fileSize = async (target: FileSystem, path: string): Promise<number> => {
      try {
        const stat = await target.lstat(path);
        return stat.type === "file" ? stat.size : 0;
      } catch {
        return 0;
      }
    };
    // The no-follow form shares the count: both reach the same storage.
    const wrap = (target: FileSystem): FileSystem =>
      forwardFileSystem(target, {
        noFollow: target.noFollow === undefined ? undefined : wrap(target.noFollow),
        writeFile: async (path, data) => {
          await measure();
          const previous = await fileSize(target, path);
          const growth = data.byteLength - previous;
          const left = maxBytes - usedBytes;
          if (growth > left) {
            throw new FsError("ENOSPC", {
              syscall: "open",
              path,
              detail: `quota: writing ${data.byteLength} bytes needs ${growth} more, ${Math.max(left, 0)} of ${maxBytes} bytes left`,
            });
          }
          usedBytes += growth;
          try {
            await target.writeFile(path, data);
          } catch (error) {
            usedBytes -= growth;
            throw error;
          }
        },
        rm: async (path, rmOptions) => {
          await measure();
          const freed = await sizeOf(target, path);
          await target.rm(path, rmOptions);
          usedBytes -= freed;
        },
        rename: async (from, to) => {
          await measure();
          const replaced = from === to ? 0 : await fileSize(target, to);
          await target.rename(from, to);
          usedBytes -= replaced;
        },
      });
    return wrap(next);
  };
}

/** Bytes of file content at `path` (a file, or every file under a directory); 0 when absent. */
async function sizeOf(fs: FileSystem, path: string): Promise<number> {
  let stat;
  try {
    stat = await fs.lstat(path);
  } catch {
    return 0;
  }
  if (stat.type === "file") return stat.size;
  if (stat.type !== "directory") return 0;
  let entries: DirEntry[];
  try {
    entries = await fs.readdir(path);
  } catch {
    return 0;
  }
  const base = path === "/" ? "" : path;
  let total = 0;
  for (const entry of entries) total += await sizeOf(fs, `${base}/${entry.name}`);
  return total;
}

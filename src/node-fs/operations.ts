/**
 * The `node:fs` calls, written once as generators over the backend's calls: each `yield` is one
 * backend call, which the promise API awaits and the sync API answers from `fs.sync`. Paths here
 * are absolute; errors are converted to Node's by the caller (see `run`).
 *
 * @module
 */
import { FsError } from "../contract/errors.js";
import { baseName, joinPath, parentPath } from "../contract/path.js";
import type { DirEntry, FileStat, FileSystemSync } from "../contract/types.js";
import { NodeFsError } from "./errors.js";

/** One backend call: its method and arguments. */
export interface Call {
  readonly method: keyof FileSystemSync;
  readonly args: readonly unknown[];
}

/** A `node:fs` call as a generator of backend calls. */
export type Operation<T> = Generator<Call, T, unknown>;

/** The backend call `method(...args)`, typed by what it returns. */
export function* call<M extends keyof FileSystemSync>(
  method: M,
  ...args: Parameters<NonNullable<FileSystemSync[M]>>
): Generator<Call, ReturnType<NonNullable<FileSystemSync[M]>>, unknown> {
  return (yield { method, args }) as ReturnType<NonNullable<FileSystemSync[M]>>;
}

/** `stat`/`lstat` of `path`, or undefined when it is missing (ENOENT, ENOTDIR). */
export function* probe(method: "stat" | "lstat", path: string): Operation<FileStat | undefined> {
  try {
    return yield* call(method, path);
  } catch (error) {
    if (FsError.isInstance(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) return undefined;
    throw error;
  }
}

/** A Node error with `code` for the call in progress (its syscall and paths are set by the runner). */
export function fail(code: FsError["code"] | "EBADF"): never {
  if (code === "EBADF") throw new NodeFsError({ code, syscall: "" });
  throw new FsError(code, { syscall: "" });
}

/** Node's write flags, parsed. */
export interface Flags {
  readonly read: boolean;
  readonly write: boolean;
  readonly create: boolean;
  readonly exclusive: boolean;
  readonly truncate: boolean;
  readonly append: boolean;
}

const FLAGS: Readonly<Record<string, Flags>> = {
  r: { read: true, write: false, create: false, exclusive: false, truncate: false, append: false },
  "r+": { read: true, write: true, create: false, exclusive: false, truncate: false, append: false },
  w: { read: false, write: true, create: true, exclusive: false, truncate: true, append: false },
  "w+": { read: true, write: true, create: true, exclusive: false, truncate: true, append: false },
  wx: { read: false, write: true, create: true, exclusive: true, truncate: true, append: false },
  "wx+": { read: true, write: true, create: true, exclusive: true, truncate: true, append: false },
  a: { read: false, write: true, create: true, exclusive: false, truncate: false, append: true },
  "a+": { read: true, write: true, create: true, exclusive: false, truncate: false, append: true },
  ax: { read: false, write: true, create: true, exclusive: true, truncate: false, append: true },
  "ax+": { read: true, write: true, create: true, exclusive: true, truncate: false, append: true },
};

/**
 * Node's flags (`"r"`, `"w+"`, `"ax"`, `"rs+"`... or the `O_*` numbers) parsed.
 *
 * @throws TypeError (`code: "ERR_INVALID_ARG_VALUE"`) for a flag Node does not know.
 */
export function parseFlags(flag: unknown, fallback: string): Flags {
  if (typeof flag === "number") {
    const access = flag & 3;
    return {
      read: access !== 1,
      write: access !== 0,
      create: (flag & 0o100) !== 0,
      exclusive: (flag & 0o200) !== 0,
      truncate: (flag & 0o1000) !== 0,
      append: (flag & 0o2000) !== 0,
    };
  }
  const name = (flag === undefined || flag === null ? fallback : String(flag)).replace("s", "").replace(/^x(.)/, "$1x");
  const parsed = FLAGS[name] ?? FLAGS[name.replace("xa", "ax").replace("xw", "wx")];
  if (parsed === undefined) {
    const error = new TypeError(`The value "${String(flag)}" is invalid for option "flags"`);
    Object.assign(error, { code: "ERR_INVALID_ARG_VALUE" });
    throw error;
  }
  return parsed;
}

/**
 * The bytes a file holds before a write with `flags`: its content (append, or a read-write open
 * without truncation), nothing (truncate or a new file). Refuses as `open` does: ENOENT without
 * `create`, EEXIST with `exclusive`, EISDIR for a directory, ENOENT/ENOTDIR for a missing parent.
 */
export function* openContent(path: string, flags: Flags): Operation<Uint8Array> {
  const stat = yield* probe("stat", path);
  if (stat !== undefined) {
    if (flags.exclusive) fail("EEXIST");
    if (stat.type === "directory" && (flags.write || flags.create)) fail("EISDIR");
    if (stat.type === "directory") return new Uint8Array(0);
    if (flags.truncate) return new Uint8Array(0);
    return yield* call("readFile", path);
  }
  if (!flags.create) fail("ENOENT");
  // Node does not create parents: the backend would.
  const parent = yield* probe("stat", parentPath(path));
  if (parent === undefined) fail("ENOENT");
  if (parent.type !== "directory") fail("ENOTDIR");
  return new Uint8Array(0);
}

/** `writeFile`/`appendFile` with Node's flags. */
export function* writeFileOp(path: string, data: Uint8Array, flags: Flags): Operation<void> {
  const before = yield* openContent(path, flags);
  if (!flags.append || before.byteLength === 0) {
    yield* call("writeFile", path, data);
    return;
  }
  const joined = new Uint8Array(before.byteLength + data.byteLength);
  joined.set(before, 0);
  joined.set(data, before.byteLength);
  yield* call("writeFile", path, joined);
}

/** `mkdir`: with `recursive`, the first directory created (or undefined), as Node returns it. */
export function* mkdirOp(path: string, recursive: boolean): Operation<string | undefined> {
  if (!recursive) {
    const parent = yield* probe("stat", parentPath(path));
    if (parent === undefined && path !== "/") fail("ENOENT");
    if (parent !== undefined && parent.type !== "directory") fail("ENOTDIR");
    yield* call("mkdir", path);
    return undefined;
  }
  let first: string | undefined;
  for (let at = path; ; at = parentPath(at)) {
    const stat = yield* probe("stat", at);
    if (stat !== undefined) {
      if (stat.type !== "directory") fail(at === path ? "EEXIST" : "ENOTDIR");
      break;
    }
    first = at;
    if (at === "/") break;
  }
  if (first !== undefined) yield* call("mkdir", path, { recursive: true });
  return first;
}

/** `readdir` entries, sorted by name; with `recursive`, every entry below, with paths relative to `path`. */
export function* readdirOp(
  path: string,
  recursive: boolean,
): Operation<{ readonly name: string; readonly entry: DirEntry; readonly parent: string }[]> {
  const sorted = (entries: DirEntry[]) =>
    entries.slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const top = sorted(yield* call("readdir", path));
  const out: { name: string; entry: DirEntry; parent: string }[] = [];
  const walk = function* (directory: string, prefix: string, entries: DirEntry[]): Operation<void> {
    for (const entry of entries) {
      out.push({ name: prefix + entry.name, entry, parent: directory });
      if (recursive && entry.type === "directory") {
        const below = joinPath(directory, entry.name);
        yield* walk(below, `${prefix}${entry.name}/`, sorted(yield* call("readdir", below)));
      }
    }
  };
  yield* walk(path, "", top);
  return out;
}

/** `rmdir`: an empty directory only (ENOTDIR for a file, ENOTEMPTY when not empty). */
export function* rmdirOp(path: string, recursive: boolean): Operation<void> {
  const stat = yield* call("lstat", path);
  if (stat.type !== "directory") fail("ENOTDIR");
  if (!recursive && (yield* call("readdir", path)).length > 0) fail("ENOTEMPTY");
  yield* call("rm", path, { recursive });
}

/** `unlink`: anything but a directory (EISDIR, as on Linux... Node reports EPERM on macOS). */
export function* unlinkOp(path: string): Operation<void> {
  const stat = yield* call("lstat", path);
  if (stat.type === "directory") fail("EISDIR");
  yield* call("rm", path);
}

/** `rm`: Node's `fs.rm` (a directory needs `recursive`, else EISDIR... Node: ERR_FS_EISDIR). */
export function* rmOp(path: string, recursive: boolean, force: boolean): Operation<void> {
  const stat = yield* probe("lstat", path);
  if (stat === undefined) {
    if (force) return;
    fail("ENOENT");
  }
  if (stat.type === "directory" && !recursive) fail("EISDIR");
  yield* call("rm", path, { recursive, force });
}

/** `copyFile`: the bytes of `from` at `to`; with `exclusive`, EEXIST when `to` exists. */
export function* copyFileOp(from: string, to: string, exclusive: boolean): Operation<void> {
  const data = yield* call("readFile", from);
  yield* writeFileOp(to, data, {
    read: false,
    write: true,
    create: true,
    exclusive,
    truncate: true,
    append: false,
  });
}

/** `truncate`: the file cut (or zero-padded) to `length` bytes. */
export function* truncateOp(path: string, length: number): Operation<void> {
  const data = yield* call("readFile", path);
  const next = new Uint8Array(length);
  next.set(data.subarray(0, Math.min(length, data.byteLength)));
  yield* call("writeFile", path, next);
}

/** `symlink`, refusing a link over an existing name (EEXIST) or in a missing directory (ENOENT). */
export function* symlinkOp(target: string, path: string): Operation<void> {
  const parent = yield* probe("stat", parentPath(path));
  if (parent === undefined) fail("ENOENT");
  yield* call("symlink", target, path);
}

/** `rename`, as Node: into a missing directory is ENOENT (the backend would create it). */
export function* renameOp(from: string, to: string): Operation<void> {
  const parent = yield* probe("stat", parentPath(to));
  if (parent === undefined) {
    yield* call("lstat", from);
    fail("ENOENT");
  }
  yield* call("rename", from, to);
}

/** `exists`: whether `path` names something (a dangling link does not count, as Node). */
export function* existsOp(path: string): Operation<boolean> {
  try {
    yield* call("stat", path);
    return true;
  } catch {
    return false;
  }
}

export { baseName };

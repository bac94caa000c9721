/**
 * `Stats`, `Dirent` and `constants` as `node:fs` has them, built from the contract's
 * `FileStat` and `DirEntry`.
 *
 * @module
 */
import type { FileStat, FileType } from "../contract/types.js";

/** The `node:fs` constants this face uses (Linux values, as Node has them). */
export const constants = Object.freeze({
  F_OK: 0,
  R_OK: 4,
  W_OK: 2,
  X_OK: 1,
  O_RDONLY: 0,
  O_WRONLY: 1,
  O_RDWR: 2,
  O_CREAT: 0o100,
  O_EXCL: 0o200,
  O_TRUNC: 0o1000,
  O_APPEND: 0o2000,
  S_IFMT: 0o170000,
  S_IFREG: 0o100000,
  S_IFDIR: 0o040000,
  S_IFLNK: 0o120000,
  S_IFIFO: 0o010000,
  COPYFILE_EXCL: 1,
  COPYFILE_FICLONE: 2,
  COPYFILE_FICLONE_FORCE: 4,
});

/** Permission bits when the backend has none: 0o644 for files, 0o755 for directories, 0o777 for links. */
const DEFAULT_PERMISSIONS: Readonly<Record<FileType, number>> = {
  file: 0o644,
  directory: 0o755,
  symlink: 0o777,
  other: 0o644,
};
const TYPE_BITS: Readonly<Record<FileType, number>> = {
  file: constants.S_IFREG,
  directory: constants.S_IFDIR,
  symlink: constants.S_IFLNK,
  other: constants.S_IFIFO,
};

/** A stable inode number for a path (FNV-1a), so tools that compare `ino` (git's index) see one file. */
function inodeOf(path: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < path.length; index += 1) {
    hash ^= path.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The kind tests `Stats` and `Dirent` share, answered from the entry's type. */
abstract class TypedEntry {
  readonly #type: FileType;

  constructor(type: FileType) {
    this.#type = type;
  }
  isFile(): boolean {
    return this.#type === "file";
  }
  isDirectory(): boolean {
    return this.#type === "directory";
  }
  isSymbolicLink(): boolean {
    return this.#type === "symlink";
  }
  isFIFO(): boolean {
    return this.#type === "other";
  }
  isBlockDevice(): boolean {
    return false;
  }
  isCharacterDevice(): boolean {
    return false;
  }
  isSocket(): boolean {
    return false;
  }
}

/** A time as Node's `Stats` gives it: the milliseconds rounded, as Node's `dateFromMs` does. */
function dateOf(ms: number): Date {
  return new Date(Math.round(ms));
}

/**
 * What `stat`/`lstat`/`fstat` return, as Node's `fs.Stats`: the fields (`mode` with the type
 * bits, `size`, the times as numbers and `Date`s, a stable `ino` per path) and the `is*` methods.
 * `atime` and `birthtime` are the backend's `atimeMs`/`birthtimeMs` where it has them (Node's
 * backend does), else `mtimeMs`; `ctime` is always `mtimeMs` (no backend reports a change time).
 */
export class Stats extends TypedEntry {
  readonly dev = 1;
  readonly ino: number;
  readonly mode: number;
  readonly nlink = 1;
  readonly uid = 0;
  readonly gid = 0;
  readonly rdev = 0;
  readonly size: number;
  readonly blksize = 4096;
  readonly blocks: number;
  readonly atimeMs: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly birthtimeMs: number;
  readonly atime: Date;
  readonly mtime: Date;
  readonly ctime: Date;
  readonly birthtime: Date;

  /**
   * @param stat - the backend's stat.
   * @param path - the absolute path it is of (for `ino`).
   */
  constructor(stat: FileStat, path: string) {
    super(stat.type);
    this.ino = inodeOf(path);
    this.mode = TYPE_BITS[stat.type] | (stat.mode ?? DEFAULT_PERMISSIONS[stat.type]);
    this.size = stat.size;
    this.blocks = Math.ceil(stat.size / 512);
    this.mtimeMs = this.ctimeMs = stat.mtimeMs;
    this.atimeMs = stat.atimeMs ?? stat.mtimeMs;
    this.birthtimeMs = stat.birthtimeMs ?? stat.mtimeMs;
    this.atime = dateOf(this.atimeMs);
    this.mtime = dateOf(this.mtimeMs);
    this.ctime = dateOf(this.ctimeMs);
    this.birthtime = dateOf(this.birthtimeMs);
  }
}

/** One entry of `readdir(path, { withFileTypes: true })`, as Node's `fs.Dirent`. */
export class Dirent extends TypedEntry {
  readonly name: string;
  /** The directory the entry is in (absolute). */
  readonly parentPath: string;
  /** Same as `parentPath` (Node's older name). */
  readonly path: string;

  constructor(name: string, type: FileType, parentPath: string) {
    super(type);
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
  }
}

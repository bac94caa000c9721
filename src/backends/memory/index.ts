/**
 * `better-fs-tools/memory`: an in-memory backend over memfs. Works in Node and in browsers with
 * no bundler configuration (the package ships a browser build with memfs's Node built-ins
 * replaced by small browser versions).
 *
 * @module
 */
import { Volume, type IProcess } from "memfs";
import { FsError } from "../../contract/errors.js";
import type {
  DirEntry,
  FileStat,
  FileSystem,
  FileSystemCapabilities,
  FileSystemSync,
  FileType,
} from "../../contract/types.js";
import { toMemoryFsError } from "./errors.js";
import { baseName, parentPath, resolvePath } from "../../contract/path.js";
import { assertKnownOptions } from "../../contract/options.js";
import { declareNoFollow } from "../../contract/no-follow.js";

/** The backend's name, as `FileSystem.name` reports it. */
export const MEMORY_FILE_SYSTEM_NAME = "memory";

/** Options of {@link memoryFileSystem}. */
export interface MemoryFileSystemOptions {
  /**
   * Initial files: path (absolute, or relative to `cwd`) → content, a string (written as UTF-8)
   * or bytes. Missing parent directories are created. The caller's arrays are copied.
   */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** Absolute directory that relative `files` keys resolve against. @default "/" */
  readonly cwd?: string;
}

/** The memfs backend: a {@link FileSystem} with symlinks, plus the memfs volume behind it. */
export interface MemoryFileSystem extends FileSystem {
  readonly name: typeof MEMORY_FILE_SYSTEM_NAME;
  readonly capabilities: { readonly symlink: true };
  readFileView<T>(path: string, use: (bytes: Uint8Array) => T): Promise<T>;
  /** The same calls, synchronous (see `FileSystemSync`). */
  readonly sync: Required<FileSystemSync>;
  symlink(target: string, path: string): Promise<void>;
  readlink(path: string): Promise<string>;
  /**
   * Escape hatch: the memfs `Volume` holding the files (for snapshots with `toJSON()`, or to hand
   * to a library that takes a Node-style `fs`). Changes made through it are seen by the backend.
   * In the browser build, memfs streams (`createReadStream`, `createWriteStream`) are unavailable.
   */
  readonly volume: Volume;
}

const OPTION_KEYS = ["files", "cwd"] as const satisfies ReadonlyArray<keyof MemoryFileSystemOptions>;
const CAPABILITIES: FileSystemCapabilities & { readonly symlink: true } = Object.freeze({ symlink: true });
const PERMISSION_BITS = 0o7777;
const encoder = new TextEncoder();

/**
 * The process memfs consults: it asks for the user and group ids on every path walk, which in
 * Node are two system calls each time; they are read once per volume here. The platform is
 * always POSIX, and relative paths (refused before they reach memfs) would resolve against `/`.
 */
function volumeProcess(): IProcess {
  const host = (globalThis as { process?: Partial<IProcess> }).process;
  const uid = host?.getuid?.() ?? 0;
  const gid = host?.getgid?.() ?? 0;
  return {
    cwd: () => "/",
    platform: "linux",
    env: {},
    emitWarning: host?.emitWarning?.bind(host) ?? (() => {}),
    getuid: () => uid,
    getgid: () => gid,
  };
}

function checkOptions(options: MemoryFileSystemOptions): { files: [string, Uint8Array][]; cwd: string } {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("memoryFileSystem needs an options object or no argument");
  }
  assertKnownOptions("memoryFileSystem", options, OPTION_KEYS);
  const cwd = options.cwd ?? "/";
  if (typeof cwd !== "string" || !cwd.startsWith("/") || cwd.includes("\0")) {
    throw new TypeError(`memoryFileSystem option "cwd" must be an absolute path string, got ${JSON.stringify(cwd)}`);
  }
  const files = options.files ?? {};
  if (typeof files !== "object" || files === null || Array.isArray(files)) {
    throw new TypeError(
      'memoryFileSystem option "files" must be an object mapping paths to string or Uint8Array contents',
    );
  }
  const resolved: [string, Uint8Array][] = [];
  for (const [key, value] of Object.entries(files)) {
    if (key === "" || key.includes("\0")) {
      throw new TypeError(`memoryFileSystem option "files" has an invalid path ${JSON.stringify(key)}`);
    }
    const path = resolvePath(cwd, key);
    if (path === "/")
      throw new TypeError(`memoryFileSystem option "files" path ${JSON.stringify(key)} names the root, not a file`);
    if (typeof value === "string") resolved.push([path, encoder.encode(value)]);
    else if (value instanceof Uint8Array) resolved.push([path, value.slice()]);
    else
      throw new TypeError(`memoryFileSystem option "files[${JSON.stringify(key)}]" must be a string or a Uint8Array`);
  }
  return { files: resolved, cwd: resolvePath("/", cwd) };
}

/**
 * Create an in-memory backend over memfs. Each call makes a new, independent volume.
 *
 * Paths are absolute POSIX paths (a relative path or a NUL byte is EINVAL). Every method rejects with {@link FsError} (Node-style `code`
 * and message) and never leaves a partial change: `rm` of a non-empty directory without
 * `recursive` is refused (ENOTEMPTY), `rename` of a file over a directory (EISDIR) or of a
 * directory into itself (EINVAL) is refused, `symlink` never replaces an existing path (EEXIST),
 * and `rm` of a symlink removes the link, never what it points to.
 *
 * @param options - initial `files` and the `cwd` their relative keys resolve against.
 * @returns the backend, with `capabilities.symlink` and the memfs `volume`.
 * @throws TypeError at creation for an unknown option key, a relative `cwd`, or a `files` value
 *   that is neither a string nor a `Uint8Array` (the message names the option).
 * @throws FsError at creation when two `files` entries conflict (a file used as a directory).
 *
 * @example
 * ```ts
 * import { memoryFileSystem } from "better-fs-tools/memory";
 *
 * const fs = memoryFileSystem({ files: { "/w/README.md": "# hi\n", "/w/logo.png": pngBytes } });
 * await fs.writeFile("/w/notes/a.txt", new TextEncoder().encode("a")); // creates /w/notes
 * new TextDecoder().decode(await fs.readFile("/w/README.md")); // "# hi\n"
 * ```
 */
export function memoryFileSystem(options: MemoryFileSystemOptions = {}): MemoryFileSystem {
  const checked = checkOptions(options);
  const memfsProcess = volumeProcess();
  const uid = memfsProcess.getuid?.() ?? 0;
  const gid = memfsProcess.getgid?.() ?? 0;
  const volume = Volume.fromJSON({}, "/", { process: memfsProcess });

  /**
   * The memfs node at `path` (symlinks in the middle followed, the last one too with
   * `followLeaf`), read from memfs's path walk with no error or stats object built; `null` when
   * certainly missing; `undefined` when unsure (memfs's own call then says what is wrong).
   */
  function nodeAt(path: string, followLeaf: boolean): MemfsNode | null | undefined {
    if (typeof path !== "string" || !path.startsWith("/") || path.includes("\0")) return undefined;
    const found = volume._core.walk(path, followLeaf, false, true);
    if (found.ok && found.value !== null) return found.value.getNode();
    return certainlyMissing(path) ? null : undefined;
  }

  /** `stat` (`followLeaf`) or `lstat` of `path`. */
  function statOf(syscall: "stat" | "lstat", path: string): FileStat {
    const node = nodeAt(path, syscall === "stat");
    if (node === null) throw missingError(syscall, path);
    if (node !== undefined) return nodeStat(node);
    return run(syscall, path, () => toFileStat(syscall === "stat" ? volume.statSync(path) : volume.lstatSync(path)));
  }

  /** The type of `path` without following a final symlink, or undefined when absent. */
  function kindOf(path: string): FileType | undefined {
    const node = nodeAt(path, false);
    if (node !== undefined) return node === null ? undefined : nodeType(node);
    try {
      return typeOf(volume.lstatSync(path));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw error;
    }
  }

  /** The type of `path` following symlinks, or undefined when absent (or a dangling link). */
  function targetKindOf(path: string): FileType | undefined {
    const node = nodeAt(path, true);
    if (node !== undefined) return node === null ? undefined : nodeType(node);
    try {
      return typeOf(volume.statSync(path));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP") return undefined;
      throw error;
    }
  }

  /**
   * Whether `path` is certainly missing, asked of memfs's path walk, which builds no error object
   * (a failed memfs call builds two, memfs's and ours, with their stack traces, which made a
   * lookup of a missing path ten times the cost of a found one). `false` when unsure (a file in
   * the middle of the path, a permission refusal, a loop): the real call then says what is wrong.
   * Missing means: the parent resolves to a searchable directory that has no entry of that name.
   */
  function certainlyMissing(path: string): boolean {
    if (typeof path !== "string" || !path.startsWith("/") || path.includes("\0")) return false;
    const name = baseName(path);
    if (name === "" || name === "." || name === "..") return false;
    const parent = volume._core.walk(parentPath(path), true, false, true);
    if (!parent.ok || parent.value === null) return false;
    const directory = parent.value.getNode();
    if (!directory.isDirectory() || !directory.canExecute(uid, gid)) return false;
    // Present (a dangling link included): memfs's own call says what it is.
    return parent.value.getChild(name) === undefined;
  }

  /** Runs a lookup that fails with ENOENT for a missing path, without asking memfs to build its error. */
  function lookup<T>(syscall: string, path: string, body: () => T): T {
    if (certainlyMissing(path)) throw missingError(syscall, path);
    return run(syscall, path, body);
  }

  /** Runs a memfs call, converting its errors to `FsError` with our syscall and paths. */
  function run<T>(
    syscall: string,
    path: string,
    body: () => T,
    dest?: string,
    absolute = dest === undefined ? [path] : [path, dest],
  ): T {
    // memfs would resolve a relative path against the host's working directory.
    for (const checked of absolute) {
      if (typeof checked !== "string" || !checked.startsWith("/") || checked.includes("\0")) {
        throw new FsError("EINVAL", { syscall, path, dest, detail: "paths must be absolute, without NUL bytes" });
      }
    }
    try {
      return body();
    } catch (error) {
      throw toMemoryFsError(error, { syscall, path, dest });
    }
  }

  function writeFileSync(path: string, data: Uint8Array, syscall = "open"): void {
    run(syscall, path, () => {
      const parent = parentPath(path);
      if (targetKindOf(parent) !== "directory") {
        try {
          volume.mkdirSync(parent, { recursive: true });
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          // A file (or a link to one) in the way of the parents: Node reports ENOTDIR on open.
          if (code === "EEXIST" || code === "ENOTDIR") throw new FsError("ENOTDIR", { syscall, path, cause: error });
          throw error;
        }
      }
      volume.writeFileSync(path, data);
    });
  }

  for (const [path, data] of checked.files) writeFileSync(path, data);

  /**
   * The link at `path`, walked name by name from `/` straight through memfs's child maps (each
   * name looked up once; memfs's own walk also rebuilds the path and stamps every directory's
   * `atime` with a new `Date`). Undefined when the walk meets anything but searchable
   * directories on the way, or a symlink anywhere, or a name that is missing: the general way
   * (memfs's call) then answers, with the right error.
   */
  function plainLink(path: string): MemfsLink | undefined {
    if (typeof path !== "string" || !path.startsWith("/") || path.includes("\0")) return undefined;
    let link: MemfsLink | undefined = volume._core.root;
    let start = 1;
    while (start <= path.length) {
      let end = path.indexOf("/", start);
      if (end < 0) end = path.length;
      if (end > start) {
        const name = path.slice(start, end);
        if (name === "." || name === "..") return undefined;
        const node: MemfsNode = link.getNode();
        if (!node.isDirectory() || !node.canExecute(uid, gid)) return undefined;
        link = link.children.get(name);
        if (link === undefined || link.getNode().isSymlink()) return undefined;
      }
      start = end + 1;
    }
    return link;
  }

  /** A view of a readable file's stored bytes at `link`, or undefined to go the general way. */
  function viewPlainFile(link: MemfsLink | undefined): Uint8Array | undefined {
    const node = link?.getNode();
    if (node === undefined || !node.isFile() || !node.canRead(uid, gid)) return undefined;
    // A plain Uint8Array (not memfs's Buffer class) over the node's storage.
    return new Uint8Array(node.buf.buffer, node.buf.byteOffset, node.getSize());
  }

  /** A copy of a readable file's bytes at `link` (one native copy), or undefined to go the general way. */
  function readPlainFile(link: MemfsLink | undefined): Uint8Array | undefined {
    return viewPlainFile(link)?.slice();
  }

  /** The entries of a readable directory at `link`, sorted by name as memfs sorts them, or undefined. */
  function listPlainDirectory(link: MemfsLink | undefined): DirEntry[] | undefined {
    const node = link?.getNode();
    if (link === undefined || node === undefined || !node.isDirectory() || !node.canRead(uid, gid)) return undefined;
    const entries: DirEntry[] = [];
    for (const [name, child] of link.children) {
      if (child === undefined || name === "." || name === "..") continue;
      entries.push({ name, type: nodeType(child.getNode()) });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * The no-follow check, synchronous: walk `path` name by name from `/` (each name looked up
   * once) and reject with `ELOOP` at a symlink in a directory of the path, or at the last name
   * when `followLeaf`. A missing name ends the walk (the call itself then reports it).
   */
  function refuseLinks(syscall: string, path: string, followLeaf: boolean): void {
    if (typeof path !== "string" || !path.startsWith("/") || path.includes("\0")) return;
    const root = volume._core.walk("/", true, false, true);
    if (!root.ok || root.value === null) return;
    let link: MemfsLink | undefined = root.value;
    const names = path.split("/").filter((name) => name !== "");
    for (let index = 0; index < names.length && link !== undefined; index += 1) {
      const node = link.getNode();
      if (!node.isDirectory()) return;
      link = link.getChild(names[index] as string);
      if (link === undefined) return;
      const last = index === names.length - 1;
      if (link.getNode().isSymlink() && (!last || followLeaf)) {
        const at = `/${names.slice(0, index + 1).join("/")}`;
        throw new FsError("ELOOP", { syscall, path, detail: `${at} is a symbolic link; not followed` });
      }
    }
  }

  /**
   * A path that ends in `/` names a directory: where it names a file (or a link to one), the
   * call fails with `ENOTDIR`, as on Node (memfs would act on the file). `writeFile` keeps its
   * `EISDIR`. Missing paths and directories go on as usual.
   */
  function refuseSlashOnFile(syscall: string, ...paths: string[]): void {
    for (const path of paths) {
      if (typeof path !== "string" || path.length < 2 || !path.endsWith("/")) continue;
      const kind = targetKindOf(path.replace(/\/+$/, "") || "/");
      if (kind !== undefined && kind !== "directory") throw new FsError("ENOTDIR", { syscall, path });
    }
  }

  /** The calls answered synchronously (every one does all its work in one step, with no await). */
  const sync: Required<FileSystemSync> = {
    readFile(path) {
      refuseSlashOnFile("open", path);
      const plain = readPlainFile(plainLink(path));
      if (plain !== undefined) return plain;
      return run("open", path, () => {
        const data = volume.readFileSync(path);
        if (typeof data === "string") return encoder.encode(data);
        // memfs returns a fresh copy; small ones may sit in a shared pool, so copy those out.
        if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength) return new Uint8Array(data.buffer);
        return new Uint8Array(data);
      });
    },

    writeFile(path, data) {
      writeFileSync(path, data);
    },

    stat(path) {
      refuseSlashOnFile("stat", path);
      return statOf("stat", path);
    },

    lstat(path) {
      refuseSlashOnFile("lstat", path);
      return statOf("lstat", path);
    },

    readdir(path) {
      refuseSlashOnFile("scandir", path);
      const plain = listPlainDirectory(plainLink(path));
      if (plain !== undefined) return plain;
      return run("scandir", path, () =>
        (volume.readdirSync(path, { withFileTypes: true }) as (MemfsTyped & { name: unknown })[]).map(
          (entry): DirEntry => ({ name: String(entry.name), type: typeOf(entry) }),
        ),
      );
    },

    mkdir(path, mkdirOptions) {
      run("mkdir", path, () => {
        const recursive = mkdirOptions?.recursive === true;
        if (recursive) {
          const existing = targetKindOf(path);
          if (existing === "directory") return;
          // memfs accepts a recursive mkdir over a file; Node refuses it.
          if (existing !== undefined || kindOf(path) !== undefined)
            throw new FsError("EEXIST", { syscall: "mkdir", path });
        }
        volume.mkdirSync(path, { recursive });
      });
    },

    rm(path, rmOptions) {
      refuseSlashOnFile("rm", path);
      run("rm", path, () => {
        const kind = kindOf(path);
        if (kind === undefined) {
          if (rmOptions?.force === true) return;
          throw new FsError("ENOENT", { syscall: "rm", path });
        }
        if (kind !== "directory") {
          volume.unlinkSync(path);
          return;
        }
        if (rmOptions?.recursive === true) {
          volume.rmSync(path, { recursive: true, force: false });
          return;
        }
        if (volume.readdirSync(path).length > 0) throw new FsError("ENOTEMPTY", { syscall: "rm", path });
        volume.rmdirSync(path);
      });
    },

    rename(from, to) {
      refuseSlashOnFile("rename", from, to);
      run(
        "rename",
        from,
        () => {
          const source = kindOf(from);
          if (source === undefined) throw new FsError("ENOENT", { syscall: "rename", path: from, dest: to });
          if (from === to) return;
          if (to.startsWith(`${from}/`)) throw new FsError("EINVAL", { syscall: "rename", path: from, dest: to });
          const target = kindOf(to);
          if (target === "directory" && source !== "directory") {
            throw new FsError("EISDIR", { syscall: "rename", path: from, dest: to });
          }
          if (target !== undefined && target !== "directory" && source === "directory") {
            throw new FsError("ENOTDIR", { syscall: "rename", path: from, dest: to });
          }
          if (target === "directory" && volume.readdirSync(to).length > 0) {
            throw new FsError("ENOTEMPTY", { syscall: "rename", path: from, dest: to });
          }
          if (target === "directory") volume.rmdirSync(to);
          if (source === "symlink") {
            // memfs renames what a link points to; move the link itself.
            const linkTarget = String(volume.readlinkSync(from));
            if (target !== undefined) volume.unlinkSync(to);
            volume.symlinkSync(linkTarget, to);
            volume.unlinkSync(from);
            return;
          }
          volume.renameSync(from, to);
        },
        to,
      );
    },

    realpath(path) {
      refuseSlashOnFile("realpath", path);
      // memfs's realpath is its walk's link path: take it from one walk, with no error built.
      if (typeof path === "string" && path.startsWith("/") && !path.includes("\0")) {
        const found = volume._core.walk(path, true, false, true);
        if (found.ok && found.value !== null) return found.value.getPath() || "/";
      }
      return lookup("realpath", path, () => String(volume.realpathSync(path)));
    },

    symlink(target, path) {
      run(
        "symlink",
        target,
        () => {
          if (kindOf(path) !== undefined) throw new FsError("EEXIST", { syscall: "symlink", path: target, dest: path });
          volume.symlinkSync(target, path);
        },
        path,
        [path], // the target may be relative (to the link's directory)
      );
    },

    readlink(path) {
      refuseSlashOnFile("readlink", path);
      return run("readlink", path, () => {
        const kind = kindOf(path);
        if (kind === undefined) throw new FsError("ENOENT", { syscall: "readlink", path });
        if (kind !== "symlink") throw new FsError("EINVAL", { syscall: "readlink", path });
        return String(volume.readlinkSync(path));
      });
    },
  };

  const fs: MemoryFileSystem = {
    name: MEMORY_FILE_SYSTEM_NAME,
    capabilities: CAPABILITIES as MemoryFileSystem["capabilities"],
    volume,
    sync,

    async readFile(path) {
      return sync.readFile(path);
    },

    async readFileView(path, use) {
      refuseSlashOnFile("open", path);
      const view = viewPlainFile(plainLink(path));
      return use(view ?? (await fs.readFile(path)));
    },

    async writeFile(path, data) {
      sync.writeFile(path, data);
    },

    async stat(path) {
      return sync.stat(path);
    },

    async lstat(path) {
      return sync.lstat(path);
    },

    async readdir(path) {
      return sync.readdir(path);
    },

    async mkdir(path, mkdirOptions) {
      sync.mkdir(path, mkdirOptions);
    },

    async rm(path, rmOptions) {
      sync.rm(path, rmOptions);
    },

    async rename(from, to) {
      sync.rename(from, to);
    },

    async realpath(path) {
      return sync.realpath(path);
    },

    async symlink(target, path) {
      sync.symlink(target, path);
    },

    async readlink(path) {
      return sync.readlink(path);
    },
  };
  // The no-follow form: the check and the call run synchronously in one task (the memory
  // backend's calls do all their work before their first await), so nothing can swap a name for
  // a link in between.
  const noFollow: FileSystem = Object.freeze({
    name: MEMORY_FILE_SYSTEM_NAME,
    capabilities: CAPABILITIES,
    async readFile(path: string) {
      refuseSlashOnFile("open", path);
      // A walk that meets no link at all is the check and the lookup in one.
      const plain = readPlainFile(plainLink(path));
      if (plain !== undefined) return plain;
      refuseLinks("open", path, true);
      return fs.readFile(path);
    },
    async readFileView<T>(path: string, use: (bytes: Uint8Array) => T) {
      refuseSlashOnFile("open", path);
      const view = viewPlainFile(plainLink(path));
      if (view !== undefined) return use(view);
      refuseLinks("open", path, true);
      return use(await fs.readFile(path));
    },
    async writeFile(path: string, data: Uint8Array) {
      refuseLinks("open", path, true);
      return fs.writeFile(path, data);
    },
    async stat(path: string) {
      refuseLinks("stat", path, true);
      return fs.stat(path);
    },
    async lstat(path: string) {
      refuseLinks("lstat", path, false);
      return fs.lstat(path);
    },
    async readdir(path: string) {
      refuseSlashOnFile("scandir", path);
      const plain = listPlainDirectory(plainLink(path));
      if (plain !== undefined) return plain;
      refuseLinks("scandir", path, true);
      return fs.readdir(path);
    },
    async mkdir(path: string, mkdirOptions?: { recursive?: boolean }) {
      refuseLinks("mkdir", path, true);
      return fs.mkdir(path, mkdirOptions);
    },
    async rm(path: string, rmOptions?: { recursive?: boolean; force?: boolean }) {
      refuseLinks("rm", path, false);
      return fs.rm(path, rmOptions);
    },
    async rename(from: string, to: string) {
      refuseLinks("rename", from, false);
      refuseLinks("rename", to, false);
      return fs.rename(from, to);
    },
    async realpath(path: string) {
      refuseLinks("realpath", path, true);
      return fs.realpath(path);
    },
    async symlink(target: string, path: string) {
      refuseLinks("symlink", path, false);
      return fs.symlink(target, path);
    },
    async readlink(path: string) {
      refuseLinks("readlink", path, false);
      return fs.readlink(path);
    },
  });
  return declareNoFollow(Object.assign(fs, { noFollow }), noFollow);
}

/**
 * The ENOENT a lookup of a missing path rejects with, built without a stack trace: it answers a
 * question (the gate and the tools probe for missing paths all the time) rather than reports a
 * fault, and capturing the stack (async frames included) was most of the cost of such a lookup.
 * Where `Error.stackTraceLimit` is not a writable number (not V8), the error is built as usual.
 */
function missingError(syscall: string, path: string): FsError {
  const errorConstructor = Error as { stackTraceLimit?: unknown };
  const limit = errorConstructor.stackTraceLimit;
  if (typeof limit !== "number") return new FsError("ENOENT", { syscall, path });
  try {
    errorConstructor.stackTraceLimit = 0;
  } catch {
    return new FsError("ENOENT", { syscall, path });
  }
  try {
    return new FsError("ENOENT", { syscall, path });
  } finally {
    errorConstructor.stackTraceLimit = limit;
  }
}

type MemfsLink = NonNullable<ReturnType<Volume["_core"]["getLink"]>>;
type MemfsNode = ReturnType<MemfsLink["getNode"]>;

function nodeType(node: MemfsNode): FileType {
  if (node.isSymlink()) return "symlink";
  if (node.isDirectory()) return "directory";
  if (node.isFile()) return "file";
  return "other";
}

/** What memfs's `Stats.build` would give for these fields, without building the rest (four `Date`s). */
function nodeStat(node: MemfsNode): FileStat {
  return {
    type: nodeType(node),
    size: node.getSize(),
    mtimeMs: node.mtime.getTime(),
    mode: node.mode & PERMISSION_BITS,
  };
}

interface MemfsTyped {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

function typeOf(value: MemfsTyped): FileType {
  if (value.isSymbolicLink()) return "symlink";
  if (value.isDirectory()) return "directory";
  if (value.isFile()) return "file";
  return "other";
}

function toFileStat(
  stats: MemfsTyped & { size: number | bigint; mtimeMs: number | bigint; mode: number | bigint },
): FileStat {
  return {
    type: typeOf(stats),
    size: Number(stats.size),
    mtimeMs: Number(stats.mtimeMs),
    mode: Number(stats.mode) & PERMISSION_BITS,
  };
}

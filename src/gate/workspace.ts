/**
 * The workspace handle for host code: read, write and list workspace-relative paths through the
 * same gate the tools use, so host code cannot reach further than a model's tool call.
 *
 * @module
 */
import { createGate, gateRefusal, type Gate, type PermissionOptions } from "./gate.js";
import { type FileSystem } from "../contract/types.js";
import { FsError } from "../contract/errors.js";
import { assertKnownOptions } from "../contract/options.js";
import { compareCodeUnits } from "../contract/path.js";

/**
 * Default cap of {@link Workspace.readFile} and {@link Workspace.readBinaryFile}, in bytes:
 * 256 KiB, the same as the `read` tool's. Pass `maxBytes` per call to read more
 * (`Number.POSITIVE_INFINITY` for no cap).
 */
export const DEFAULT_WORKSPACE_MAX_READ_BYTES = 256 * 1024;

/** Options of {@link createWorkspace}. */
export interface WorkspaceOptions {
  /** The backend (a middleware stack is fine: `compose(...)(backend)`). */
  readonly fs: FileSystem;
  /**
   * The workspace directory (absolute, in the backend's namespace); relative paths resolve against
   * it. Default: the backend's `cwd` (and then its `allowedRoots`), for a backend that declares
   * one, such as `nodeFileSystem({ cwd })`.
   */
  readonly root?: string;
  /** Further roots the handle may use without a rule (absolute). Default: `[root]`, or the backend's `allowedRoots` when `root` comes from it. An empty list throws a TypeError (it would admit nothing). */
  readonly allowedRoots?: readonly string[];
  /** Allow rules and `approve` for paths outside the roots, as for the tools. */
  readonly permissions?: PermissionOptions;
}

/** Options of a workspace read. */
export interface WorkspaceReadOptions {
  /** Refuse files larger than this, in bytes; `Infinity` for no cap. @default DEFAULT_WORKSPACE_MAX_READ_BYTES (256 KiB) */
  readonly maxBytes?: number;
}

/** The handle {@link createWorkspace} returns. Every path is workspace-relative (or absolute inside the roots). */
export interface Workspace {
  /** The workspace root (absolute). */
  readonly root: string;
  /** The gate every call passes (shared with tools built from the same options, if you wish). */
  readonly gate: Gate;
  /**
   * The file as UTF-8 text (a leading BOM is dropped).
   * @throws FsError `ENOENT` (also while the root does not exist), `EISDIR`, `EACCES` when the
   *   gate refuses, `EFBIG` over `maxBytes`, `EINVAL` for content that is not valid UTF-8;
   *   TypeError when the backend lacks a method the read needs (named, with how to add it).
   */
  readFile(path: string, options?: WorkspaceReadOptions): Promise<string>;
  /** The file's bytes; errors as {@link Workspace.readFile} bar the UTF-8 check. */
  readBinaryFile(path: string, options?: WorkspaceReadOptions): Promise<Uint8Array>;
  /**
   * Write text (as UTF-8) or bytes, creating missing parents.
   * @returns the number of bytes written.
   * @throws FsError `EACCES` when the gate refuses, `EISDIR`, `ENOTDIR`, and whatever the
   *   middleware raises (`EROFS`, `ENOSPC`).
   */
  writeFile(path: string, content: string | Uint8Array): Promise<{ readonly bytesWritten: number }>;
  /**
   * Names in a directory, sorted by UTF-16 code unit; no argument lists the root.
   * @throws FsError `ENOENT` (also while the root does not exist), `ENOTDIR`, `EACCES`.
   */
  listDir(path?: string): Promise<string[]>;
}

const KNOWN_OPTIONS = ["fs", "root", "allowedRoots", "permissions"];
const encoder = new TextEncoder();
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Create a workspace handle for host code over `fs`, confined to `root` by the gate.
 *
 * @param options - `fs`, `root` (default: the backend's `cwd`), and optionally `allowedRoots` and `permissions`.
 * @returns a {@link Workspace}.
 * @throws TypeError at creation for a missing `fs`, a `root` that is not absolute, no `root` over a
 *   backend that declares no `cwd`, an empty `allowedRoots`, or an unknown option.
 * @example
 * ```ts
 * const workspace = createWorkspace({ fs: memoryFileSystem(), root: "/w" });
 * await workspace.writeFile("notes/a.md", "# A\n"); // { bytesWritten: 4 }
 * await workspace.readFile("notes/a.md"); // "# A\n"
 * await workspace.listDir(); // ["notes"]
 * await workspace.readFile("../etc/hosts"); // rejects: FsError EACCES (outside the workspace)
 * ```
 */
export function createWorkspace(options: WorkspaceOptions): Workspace {
  if (typeof options !== "object" || options === null) throw new TypeError("createWorkspace needs an options object");
  assertKnownOptions("createWorkspace", options, KNOWN_OPTIONS);
  if (typeof options.fs !== "object" || options.fs === null) {
    throw new TypeError("createWorkspace needs an fs option (a FileSystem)");
  }
  if (options.root === undefined && typeof options.fs.cwd !== "string") {
    throw new TypeError(
      `createWorkspace needs a root (an absolute path): the backend "${options.fs.name}" declares no cwd to default to`,
    );
  }
  if (options.root !== undefined && (typeof options.root !== "string" || !options.root.startsWith("/"))) {
    throw new TypeError(`createWorkspace root must be an absolute path, got ${JSON.stringify(options.root)}`);
  }
  const gate = createGate({
    fs: options.fs,
    cwd: options.root,
    allowedRoots: options.allowedRoots ?? (options.root === undefined ? undefined : [options.root]),
    permissions: options.permissions,
  });
  const root = gate.cwd;

  async function requireRoot(syscall: string, path: string): Promise<void> {
    try {
      const stat = await gate.backend.stat(root);
      if (stat.type === "directory") return;
    } catch (error) {
      // A backend without stat says so (a TypeError naming the method); otherwise the root is missing.
      if (error instanceof TypeError) throw error;
    }
    throw new FsError("ENOENT", { syscall, path, detail: `the workspace root ${root} does not exist yet` });
  }

  function maxBytesOf(readOptions: WorkspaceReadOptions | undefined): number {
    const maxBytes = readOptions?.maxBytes ?? DEFAULT_WORKSPACE_MAX_READ_BYTES;
    if (maxBytes === Number.POSITIVE_INFINITY) return maxBytes;
    if (typeof maxBytes !== "number" || !Number.isSafeInteger(maxBytes) || maxBytes < 0) {
      throw new TypeError(
        `maxBytes must be a non-negative integer (bytes) or Infinity (no cap), got ${JSON.stringify(maxBytes)}`,
      );
    }
    return maxBytes;
  }

  async function readBinaryFile(path: string, readOptions?: WorkspaceReadOptions): Promise<Uint8Array> {
    const maxBytes = maxBytesOf(readOptions);
    await requireRoot("open", path);
    const checked = await gate.check(path, "read");
    if (!checked.ok) throw gateRefusal(checked.error, "open", path);
    const size = await gate.noFollow.stat(checked.path).then(
      (stat) => (stat.type === "file" ? stat.size : 0),
      () => 0, // readFile below reports what is wrong
    );
    if (size > maxBytes) {
      throw new FsError("EFBIG", {
        syscall: "open",
        path,
        detail: `the file is ${size} bytes, over maxBytes ${maxBytes}`,
      });
    }
    const data = await gate.noFollow.readFile(checked.path);
    if (data.byteLength > maxBytes) {
      throw new FsError("EFBIG", {
        syscall: "open",
        path,
        detail: `the file is ${data.byteLength} bytes, over maxBytes ${maxBytes}`,
      });
    }
    return data;
  }

  return Object.freeze({
    root,
    gate,
    readBinaryFile,
    async readFile(path: string, readOptions?: WorkspaceReadOptions): Promise<string> {
      const data = await readBinaryFile(path, readOptions);
      try {
        return utf8.decode(data);
      } catch {
        throw new FsError("EINVAL", {
          syscall: "open",
          path,
          detail: "the file is not valid UTF-8; use readBinaryFile",
        });
      }
    },
    async writeFile(path: string, content: string | Uint8Array): Promise<{ readonly bytesWritten: number }> {
      if (typeof content !== "string" && !(content instanceof Uint8Array)) {
        throw new TypeError(`writeFile content must be a string or a Uint8Array, got ${typeof content}`);
      }
      const data = typeof content === "string" ? encoder.encode(content) : content;
      await gate.fs.writeFile(path, data);
      return { bytesWritten: data.byteLength };
    },
    async listDir(path = "."): Promise<string[]> {
      await requireRoot("scandir", path);
      const entries = await gate.fs.readdir(path);
      return entries.map((entry) => entry.name).sort(compareCodeUnits);
    },
  });
}

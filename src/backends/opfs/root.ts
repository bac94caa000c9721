/**
 * Reaching the OPFS workspace root: the origin's root from `navigator.storage.getDirectory()`,
 * then a subdirectory (created if missing), or a handle the caller passed in.
 *
 * @module
 */
import { FsError } from "../../contract/errors.js";
import { pathParts } from "./core.js";
import { toFsError } from "./errors.js";

/** Where the workspaces of an origin live by default. */
export const DEFAULT_OPFS_ROOT = "/better-fs-tools";

/** The words a "no OPFS here" error ends with in a browser context without OPFS: the fallback to use. */
export const OPFS_FALLBACK_HINT =
  'the Origin Private File System (navigator.storage.getDirectory) is not available in this context; use idbFileSystem from "better-fs-tools/idb" instead';

/** The words a "no OPFS here" error ends with in Node (or Bun, Deno), where no browser storage exists. */
export const OPFS_NODE_HINT =
  'the Origin Private File System (navigator.storage.getDirectory) exists only in browsers; in Node use nodeFileSystem from "better-fs-tools/node" (files on disk) or memoryFileSystem from "better-fs-tools/memory"';

/** True in Node and the runtimes that present themselves as it (Bun, Deno): `process.versions.node` is set. */
function isNodeLike(): boolean {
  const runtime = (globalThis as { process?: { versions?: { node?: unknown } } }).process;
  return typeof runtime?.versions?.node === "string";
}

/** True when `navigator.storage.getDirectory` exists in this context (it may still refuse). */
export function hasOpfsApi(): boolean {
  return typeof navigator !== "undefined" && typeof navigator.storage?.getDirectory === "function";
}

/** The error raised where OPFS is missing or refused (opaque origins, some private modes). */
export function opfsUnavailableError(root: string, cause?: unknown): FsError {
  const detail = !hasOpfsApi() && isNodeLike() ? OPFS_NODE_HINT : OPFS_FALLBACK_HINT;
  return new FsError("ENOTSUP", { syscall: "opfs", path: root, detail, cause });
}

/** A string for messages naming a root option. */
export function describeRoot(root: string | FileSystemDirectoryHandle): string {
  return typeof root === "string" ? "/" + pathParts(root).join("/") : `<handle ${root.name || "/"}>`;
}

/**
 * Resolve the workspace root.
 *
 * @param root - a path under the origin's OPFS root (created on demand), or a directory handle.
 * @returns the directory handle.
 * @throws FsError `ENOTSUP` (naming the `idb` fallback) where OPFS is absent or refused;
 *   `ENOTDIR` when a component of `root` is a file.
 */
export async function resolveOpfsRoot(root: string | FileSystemDirectoryHandle): Promise<FileSystemDirectoryHandle> {
  if (typeof root !== "string") return root;
  const label = describeRoot(root);
  if (!hasOpfsApi()) throw opfsUnavailableError(label);
  let handle: FileSystemDirectoryHandle;
  try {
    handle = await navigator.storage.getDirectory();
  } catch (error) {
    throw opfsUnavailableError(label, error);
  }
  try {
    for (const part of pathParts(root)) handle = await handle.getDirectoryHandle(part, { create: true });
  } catch (error) {
    throw toFsError(error, { syscall: "opfs", path: label, typeMismatch: "ENOTDIR" });
  }
  return handle;
}

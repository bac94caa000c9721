/**
 * Backends written by hand may lack a method of the contract. {@link withMissingMethods} gives
 * such a backend stand-ins that fail with a message naming the method and how to add it, so a
 * call reports what to fix instead of `x is not a function` from deep inside a tool.
 *
 * @module
 */
import type { FileSystem } from "./types.js";

/** The methods every backend needs, each with the shape it must have. */
const REQUIRED: Readonly<Record<string, string>> = Object.freeze({
  readFile: "readFile(path) → Promise<Uint8Array> (the file's bytes; text and binary reads both use it)",
  writeFile: "writeFile(path, data: Uint8Array) → Promise<void> (creating missing parent directories)",
  stat: "stat(path) → Promise<FileStat> (following symlinks)",
  lstat: "lstat(path) → Promise<FileStat> (a symlink itself, not its target)",
  readdir: "readdir(path) → Promise<DirEntry[]> (names with their types)",
  mkdir: "mkdir(path, { recursive }) → Promise<void>",
  rm: "rm(path, { recursive, force }) → Promise<void>",
  rename: "rename(from, to) → Promise<void>",
  realpath: "realpath(path) → Promise<string> (every symlink resolved)",
});

/** The message of a call to a method `backend` lacks. */
export function missingMethodMessage(backend: { readonly name?: unknown }, method: string): string {
  const named = typeof backend.name === "string" && backend.name !== "" ? ` "${backend.name}"` : "";
  return (
    `The backend${named} has no ${method} method, which every FileSystem needs ` +
    `(${Object.keys(REQUIRED).join(", ")}). Add ${REQUIRED[method] ?? method} to it, ` +
    "or build it on a backend that has every method with forwardFileSystem(backend, overrides)."
  );
}

/**
 * `backend` itself when it has every required method; otherwise a frozen copy whose own methods
 * are bound to it and whose missing ones reject with a TypeError naming the method and the fix
 * (`The backend "remote" has no readFile method, ... Add readFile(path) → Promise<Uint8Array> ...`).
 *
 * @param backend - a FileSystem, possibly incomplete.
 * @returns a FileSystem whose every required method exists.
 * @example
 * ```ts
 * const fs = withMissingMethods({ ...partial, name: "remote" });
 * await fs.readFile("/a"); // rejects: TypeError The backend "remote" has no readFile method, ...
 * ```
 */
export function withMissingMethods<F extends FileSystem>(backend: F): F {
  const missing = Object.keys(REQUIRED).filter(
    (method) => typeof (backend as unknown as Record<string, unknown>)[method] !== "function",
  );
  if (missing.length === 0) return backend;
  const copy: Record<string, unknown> = {};
  // Own fields, and the contract's members wherever they live (a class keeps methods on its prototype).
  const members = [
    ...Object.keys(REQUIRED),
    "name",
    "capabilities",
    "readFileView",
    "symlink",
    "readlink",
    "watch",
    "locks",
    "cwd",
  ];
  for (const key of new Set([...Object.keys(backend), ...members, "allowedRoots"])) {
    const value: unknown = (backend as unknown as Record<string, unknown>)[key];
    if (value === undefined) continue;
    copy[key] = typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(backend) : value;
  }
  for (const method of missing) {
    copy[method] = () => Promise.reject(new TypeError(missingMethodMessage(backend, method)));
  }
  return Object.freeze(copy) as unknown as F;
}

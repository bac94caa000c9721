/**
 * Which objects' no-follow forms ({@link FileSystem.noFollow}) the gate trusts: those a backend
 * or {@link forwardFileSystem} declared for that very object. A copy made by spreading a backend
 * (`{ ...backend, writeFile }`) carries the field but is not declared, so the gate does not call
 * around the copy's own methods; it calls the copy by name instead.
 *
 * @module
 */
import type { FileSystem } from "./types.js";

const DECLARED = new WeakMap<FileSystem, FileSystem>();

/**
 * Declare `view` as the no-follow form of `owner` (the object whose `noFollow` field it is).
 *
 * @param owner - the backend or wrapper.
 * @param view - its no-follow form.
 * @returns `owner`.
 * @example
 * ```ts
 * declareNoFollow(fs, fs.noFollow);
 * ```
 */
export function declareNoFollow<T extends FileSystem>(owner: T, view: FileSystem): T {
  DECLARED.set(owner, view);
  return owner;
}

/**
 * The no-follow form of `fs` when it was declared for `fs` itself and is still its `noFollow`.
 *
 * @param fs - a backend.
 * @returns the trusted no-follow form, or `undefined` (then use `fs` by name).
 * @example
 * ```ts
 * trustedNoFollow(memoryFileSystem()); // its noFollow form
 * trustedNoFollow({ ...memoryFileSystem() }); // undefined
 * ```
 */
export function trustedNoFollow(fs: FileSystem): FileSystem | undefined {
  const view = fs.noFollow;
  return view !== undefined && DECLARED.get(fs) === view ? view : undefined;
}

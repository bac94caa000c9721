/**
 * Which objects' no-follow forms ({@link FileSystem.noFollow}) the gate trusts: those a backend
 * or {@link forwardFileSystem} declared for that very object, and a copy made by spreading one
 * (`{ ...backend, cwd }`) whose methods are all still the backend's own. A copy that replaces a
 * method (`{ ...backend, writeFile: logged }`) carries the field but is not trusted: its form
 * would call around the copy's own method. Such a copy, and a `forwardFileSystem` wrapper with
 * plain-object overrides of a backend that had a form, have *lost* it ({@link lostNoFollow}); the
 * gate refuses them at creation when links are possible, naming the way to wrap instead.
 *
 * @module
 */
import type { FileSystem } from "./types.js";

/** Owner → its declared no-follow form. */
const DECLARED = new WeakMap<FileSystem, FileSystem>();
/** Declared no-follow form → its owner, to recognise a spread copy of the owner. */
const OWNERS = new WeakMap<FileSystem, FileSystem>();
/** Wrappers made from a backend with a trusted form, without a form of their own. */
const LOST = new WeakSet<FileSystem>();

/** Every method of the contract (a spread copy is the owner when all of these are the owner's). */
const CONTRACT_METHODS = [
  "readFile",
  "readFileView",
  "writeFile",
  "stat",
  "lstat",
  "readdir",
  "mkdir",
  "rm",
  "rename",
  "realpath",
  "symlink",
  "readlink",
  "watch",
] as const satisfies ReadonlyArray<keyof FileSystem>;

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
  OWNERS.set(view, owner);
  return owner;
}

/**
 * Mark `wrapper` as made from a backend that had a trusted no-follow form and dropped it (its
 * overrides were not applied to the form). See {@link lostNoFollow}.
 *
 * @param wrapper - the wrapper.
 * @returns `wrapper`.
 * @example
 * ```ts
 * markNoFollowLost(wrapper);
 * lostNoFollow(wrapper); // true
 * ```
 */
export function markNoFollowLost<T extends FileSystem>(wrapper: T): T {
  LOST.add(wrapper);
  return wrapper;
}

/**
 * How a spread copy `fs` of the owner of its `noFollow` field relates to the owner: `unchanged`
 * (every method the owner's), `partial` (some left out, none replaced), `replaced` (a method of
 * its own), or `undefined` when `fs.noFollow` is no declared form.
 */
function copyOf(fs: FileSystem): "unchanged" | "partial" | "replaced" | undefined {
  const view = fs.noFollow;
  if (view === undefined) return undefined;
  const owner = OWNERS.get(view);
  if (owner === undefined || DECLARED.get(owner) !== view) return undefined;
  let partial = false;
  for (const method of CONTRACT_METHODS) {
    if (fs[method] === owner[method]) continue;
    if (fs[method] !== undefined) return "replaced";
    partial = true;
  }
  return partial ? "partial" : "unchanged";
}

/**
 * The no-follow form of `fs` when it was declared for `fs` itself and is still its `noFollow`, or
 * when `fs` is a spread copy of its owner with every method unchanged (`{ ...backend, cwd }`).
 *
 * @param fs - a backend.
 * @returns the trusted no-follow form, or `undefined` (then use `fs` by name).
 * @example
 * ```ts
 * trustedNoFollow(memoryFileSystem()); // its noFollow form
 * trustedNoFollow({ ...memoryFileSystem(), cwd: "/w" }); // the same form: no method changed
 * trustedNoFollow({ ...memoryFileSystem(), readFile: logged }); // undefined
 * ```
 */
export function trustedNoFollow(fs: FileSystem): FileSystem | undefined {
  const view = fs.noFollow;
  if (view === undefined) return undefined;
  if (DECLARED.get(fs) === view) return view;
  return copyOf(fs) === "unchanged" ? view : undefined;
}

/**
 * Whether `fs` wraps a backend that had a no-follow form but has none it can be trusted with: a
 * spread copy that replaced a method (it still carries the backend's `noFollow` field; a copy
 * that only leaves methods out is not counted: it is called by name, and a call of a missing
 * method fails naming it), or a
 * {@link forwardFileSystem} wrapper given plain-object overrides. The gate would fall back to
 * check-then-use on it, which a link planted between the check and the call escapes.
 *
 * @param fs - a backend.
 * @returns true when the form was lost; false for a trusted form and for backends that never had one.
 * @example
 * ```ts
 * lostNoFollow({ ...memoryFileSystem(), writeFile: logged }); // true
 * lostNoFollow(forwardFileSystem(memoryFileSystem(), (target) => ({ writeFile: logged(target) }))); // false
 * ```
 */
export function lostNoFollow(fs: FileSystem): boolean {
  if (trustedNoFollow(fs) !== undefined) return false;
  return LOST.has(fs) || copyOf(fs) === "replaced";
}

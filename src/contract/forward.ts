/**
 * One forwarding wrapper for every wrapper of one backend (middleware, the IndexedDB workspace,
 * the shell's virtual `/dev`, the playground's observed backend): {@link forwardFileSystem}.
 *
 * @module
 */
import type { FileSystem } from "./types.js";
import { declareNoFollow, lostNoFollow, markNoFollowLost, trustedNoFollow } from "./no-follow.js";

/** The methods every backend has. */
export const REQUIRED_METHODS = [
  "readFile",
  "writeFile",
  "stat",
  "lstat",
  "readdir",
  "mkdir",
  "rm",
  "rename",
  "realpath",
] as const satisfies ReadonlyArray<keyof FileSystem>;

/** The methods a backend may lack; a wrapper has one exactly when the backend it wraps has it. */
export const OPTIONAL_METHODS = ["readFileView", "symlink", "readlink", "watch"] as const satisfies ReadonlyArray<
  keyof FileSystem
>;

/** The methods that return a promise (all but `watch`), for wrappers that count or time calls. */
export const PROMISE_METHODS = [
  ...REQUIRED_METHODS,
  "readFileView",
  "symlink",
  "readlink",
] as const satisfies ReadonlyArray<keyof FileSystem>;

/** The fields that are not methods: carried as they are (`locks`, `noFollow`, `cwd`, `allowedRoots`, `durability` only when present). */
const FIELDS = [
  "name",
  "capabilities",
  "locks",
  "noFollow",
  "cwd",
  "allowedRoots",
  "durability",
] as const satisfies ReadonlyArray<keyof FileSystem>;

/**
 * Members never carried: the synchronous form would go around the wrapper. A wrapper that can
 * keep its promise for them gives its own (an override).
 */
type NotCarried = "sync";
type OptionalMethod = (typeof OPTIONAL_METHODS)[number];
type Listed = (typeof REQUIRED_METHODS)[number] | OptionalMethod | (typeof FIELDS)[number] | NotCarried;
/** Fails to compile when the contract gains a member the lists above do not name. */
const EVERY_MEMBER_LISTED: [Exclude<keyof FileSystem, Listed>] extends [never] ? true : never = true;
void EVERY_MEMBER_LISTED;

/** What {@link forwardFileSystem} may replace: any member of the contract, plus fields of the wrapper's own. */
export type FileSystemOverrides = Partial<FileSystem>;

/**
 * Overrides written as a function of the target: {@link forwardFileSystem} calls it once with the
 * backend and once with the backend's no-follow form, so the wrapper keeps the gate's protection
 * against symlink swaps. Reach the storage through `target`, never through a captured backend.
 */
export type FileSystemOverridesOf<O extends FileSystemOverrides> = (target: FileSystem) => O;

/** The keys of `O` given a value (an override of type `undefined` leaves the forwarded member). */
type GivenKeys<O> = { [K in keyof O]-?: [O[K]] extends [undefined] ? never : K }[keyof O];

/**
 * The type {@link forwardFileSystem} returns: the contract members of `N` (optional methods
 * present exactly where `N` has them, overridden or not), with the overrides' types replacing
 * the required members they give, plus any extra fields of `O`.
 */
export type ForwardedFileSystem<N extends FileSystem, O extends FileSystemOverrides> = Omit<
  Pick<N, Exclude<keyof FileSystem, NotCarried>>,
  Exclude<GivenKeys<O>, OptionalMethod>
> &
  Pick<O, Exclude<GivenKeys<O>, OptionalMethod>>;

const METHODS: ReadonlySet<string> = new Set<string>([...REQUIRED_METHODS, ...OPTIONAL_METHODS]);

/**
 * A backend that forwards every call to `next` except where `overrides` replace it.
 *
 * - Every method of the contract, required and optional (`symlink`, `readlink`, `watch`), is
 *   forwarded bound to `next`, so backends whose methods use `this` work.
 * - `name`, `capabilities` and `locks` (the storage's own locks, e.g. OPFS's Web Locks, which the
 *   tools use by default) are carried; `locks` only when `next` has it.
 * - An optional method `next` lacks stays absent (no stub), and an override of one is dropped
 *   there too: a wrapper never claims an ability its backend has not got. `readFileView` is
 *   dropped where `readFile` is overridden and it is not (it would read around the override).
 * - `noFollow` (the backend's no-follow call form, which the gate calls with the paths it
 *   checked so that a link swapped in after the check is not followed): with `overrides` written
 *   as a function of the target (`(target) => ({ writeFile: ... })`), the function is applied to
 *   `next` and to `next.noFollow` alike and the wrapper keeps a trusted form: the safe way. With
 *   a plain object the form is carried only when no method is overridden, or when `overrides`
 *   gives its own (a wrapper applied to `next.noFollow` too); else it is dropped (carried past an
 *   override it would let calls around the wrapper) and the gate refuses the wrapper at creation
 *   when links are possible (a `TypeError` naming the function form).
 * - An override that is `undefined` leaves the forwarded member in place. Fields outside the
 *   contract (`flush`, `ready`...) are copied onto the result as given.
 * - Fields of `next` outside the contract (memfs's `volume`, OPFS's `close`) are not carried.
 *
 * The result is a new frozen object; `next` and `overrides` are not changed. Overrides are
 * plain functions: to reach the backend they call `target` (the function form) or `next` themselves.
 *
 * @param next - the backend to wrap.
 * @param overrides - members to replace (and extra fields to add), or a function from the target
 *   (`next`, then its no-follow form) to them.
 * @returns the wrapper, typed as `next`'s contract members with the overrides applied.
 * @throws TypeError at creation when `next` is not an object with every required method, when
 *   `overrides` is neither an object nor a function (or the function returns no object), or
 *   when an override of a method is not a function.
 * @example
 * ```ts
 * const logged = forwardFileSystem(backend, (target) => ({
 *   writeFile: (path, data) => {
 *     console.log("write", path, data.byteLength);
 *     return target.writeFile(path, data);
 *   },
 * }));
 * await logged.readFile("/a.txt"); // backend.readFile("/a.txt")
 * logged.locks === backend.locks; // true
 * ```
 */
export function forwardFileSystem<N extends FileSystem, O extends FileSystemOverrides>(
  next: N,
  overrides: O | FileSystemOverridesOf<O>,
): ForwardedFileSystem<N, O> {
  if (typeof overrides === "function") return forwardOf(next, overrides);
  return forwardObject(next, overrides);
}

/** The function form: the overrides applied to `next` and to its trusted no-follow form alike. */
function forwardOf<N extends FileSystem, O extends FileSystemOverrides>(
  next: N,
  overridesOf: FileSystemOverridesOf<O>,
): ForwardedFileSystem<N, O> {
  const make = (target: FileSystem): O => {
    const made = overridesOf(target);
    if (typeof made !== "object" || made === null) {
      throw new TypeError("forwardFileSystem: the overrides function must return an object of overrides");
    }
    if (made.noFollow !== undefined) {
      throw new TypeError(
        "forwardFileSystem: an overrides function must not give noFollow (it is applied to the no-follow form itself)",
      );
    }
    return made;
  };
  const view = trustedNoFollow(next);
  const own = make(next);
  if (view === undefined) return forwardObject(next, own);
  const wrappedView = forwardObject(view, make(view)) as unknown as FileSystem;
  return forwardObject(next, { ...own, noFollow: wrappedView }) as unknown as ForwardedFileSystem<N, O>;
}

function forwardObject<N extends FileSystem, O extends FileSystemOverrides>(
  next: N,
  overrides: O,
): ForwardedFileSystem<N, O> {
  if (typeof next !== "object" || next === null) {
    throw new TypeError("forwardFileSystem: next must be a FileSystem object");
  }
  for (const method of REQUIRED_METHODS) {
    if (typeof next[method] !== "function") {
      throw new TypeError(`forwardFileSystem: next.${method} must be a function (next is not a FileSystem)`);
    }
  }
  if (typeof overrides !== "object" || overrides === null) {
    throw new TypeError("forwardFileSystem: overrides must be an object, or a function of the target returning one");
  }
  const wrapped: Record<string, unknown> = { name: next.name, capabilities: next.capabilities };
  if (next.locks !== undefined) wrapped.locks = next.locks;
  if (next.cwd !== undefined) wrapped.cwd = next.cwd;
  if (next.allowedRoots !== undefined) wrapped.allowedRoots = next.allowedRoots;
  if (next.durability !== undefined) wrapped.durability = next.durability;
  for (const method of [...REQUIRED_METHODS, ...OPTIONAL_METHODS]) {
    const own: unknown = next[method];
    if (typeof own === "function") wrapped[method] = own.bind(next);
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (METHODS.has(key) && typeof value !== "function") {
      throw new TypeError(`forwardFileSystem: override "${key}" must be a function, got ${typeof value}`);
    }
    // An optional method the backend lacks stays absent (required ones are always in `wrapped`).
    if (METHODS.has(key) && !(key in wrapped)) continue;
    wrapped[key] = value;
  }
  // A view of the bytes would go around a replaced readFile: it stays only where it is replaced too.
  if (overrides.readFile !== undefined && overrides.readFileView === undefined) delete wrapped.readFileView;
  const overridesMethod = Object.entries(overrides).some(([key, value]) => value !== undefined && METHODS.has(key));
  const carried = trustedNoFollow(next);
  const view = overrides.noFollow ?? (overridesMethod ? undefined : carried);
  delete wrapped.noFollow;
  if (view !== undefined && carried !== undefined) wrapped.noFollow = view;
  const result = Object.freeze(wrapped) as ForwardedFileSystem<N, O>;
  if (view !== undefined && carried !== undefined) declareNoFollow(result as unknown as FileSystem, view);
  // Lost here, or already lost below: a wrapper of a wrapper that lost the form has lost it too.
  else if (carried !== undefined || lostNoFollow(next)) markNoFollowLost(result as unknown as FileSystem);
  return result;
}

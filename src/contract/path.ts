/**
 * The one path canonicaliser. Paths come in workspace-relative or absolute (POSIX); they go out
 * absolute, with `.` and `..` resolved lexically and, through {@link resolveRealPath}, every
 * existing symlink resolved component by component.
 *
 * Nothing here decodes, unquotes or normalises Unicode: `%2e%2e`, `"data"`, `data ` and `．．`
 * are literal names, distinct from `..` and `data`. What is refused up front (see
 * {@link checkPathInput}): an empty path, NUL bytes, backslashes (unless the caller takes them
 * as name bytes, for a backend that declares `capabilities.backslashNames`: never as a
 * separator), and paths or names longer than {@link MAX_PATH_BYTES} / {@link MAX_NAME_BYTES}.
 *
 * @module
 */
import { type FileSystem } from "./types.js";
import { FsError, type FsErrorCode, type ResolvedPrefix } from "./errors.js";

/** A repeated `/`, a `.` or `..` name, or a trailing `/`: what {@link resolvePath} would change. */
const NOT_NORMALISED = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

/** Longest accepted path, in UTF-8 bytes (Linux `PATH_MAX`). */
export const MAX_PATH_BYTES = 4096;
/** Longest accepted single name (path component), in UTF-8 bytes (Linux `NAME_MAX`). */
export const MAX_NAME_BYTES = 255;
/** Most symlinks followed while resolving one path before ELOOP (Linux's limit). */
export const MAX_SYMLINK_HOPS = 40;

/** UTF-8 length of a string in bytes, without encoding it (a lone surrogate counts 3, as TextEncoder's U+FFFD). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Options of {@link checkPathInput}. */
export interface PathInputOptions {
  /**
   * Take a backslash as an ordinary name byte (`a\b.txt` is one name; `..\x` is a name, not
   * `..`), for a backend that declares `capabilities.backslashNames`. Default `false`: refused.
   */
  readonly backslashNames?: boolean;
}

/** Why a path was refused before any lookup. */
export interface PathInputProblem {
  readonly code: Extract<FsErrorCode, "EINVAL" | "ENAMETOOLONG">;
  /** A sentence saying what is wrong and what to do, e.g. `backslashes are not allowed (use / to separate directories)`. */
  readonly reason: string;
}

/**
 * Check a path as given by a caller (model, bash or host) before it is resolved.
 *
 * @param input - the path as given; anything not a string is refused.
 * @param options - see {@link PathInputOptions}: whether a backslash is a name byte.
 * @returns `undefined` when the path may be resolved, else the problem: `EINVAL` for a
 *   non-string, an empty or blank path, a NUL byte or a backslash (unless
 *   `options.backslashNames`); `ENAMETOOLONG` for a path
 *   over {@link MAX_PATH_BYTES} bytes or a name over {@link MAX_NAME_BYTES} bytes.
 * @example
 * ```ts
 * checkPathInput("a\\b"); // { code: "EINVAL", reason: "backslashes are not allowed (use / to separate directories)" }
 * checkPathInput("src/a.ts"); // undefined
 * checkPathInput("a\\b", { backslashNames: true }); // undefined (one name, `a\b`)
 * ```
 */
export function checkPathInput(input: unknown, options?: PathInputOptions): PathInputProblem | undefined {
  if (typeof input !== "string") {
    return { code: "EINVAL", reason: `a path must be a string, got ${input === null ? "null" : typeof input}` };
  }
  if (input.trim() === "") return { code: "EINVAL", reason: "the path is empty" };
  if (input.includes("\0")) return { code: "EINVAL", reason: "NUL bytes are not allowed in paths" };
  if (options?.backslashNames !== true && input.includes("\\")) {
    return { code: "EINVAL", reason: "backslashes are not allowed (use / to separate directories)" };
  }
  // At most 3 UTF-8 bytes per UTF-16 code unit: short paths need no counting.
  if (input.length * 3 <= MAX_NAME_BYTES) return undefined;
  const bytes = utf8Length(input);
  if (bytes > MAX_PATH_BYTES) {
    return { code: "ENAMETOOLONG", reason: `the path is ${bytes} bytes long; the limit is ${MAX_PATH_BYTES} bytes` };
  }
  for (const name of input.split("/")) {
    if (name.length * 3 <= MAX_NAME_BYTES) continue;
    const nameBytes = utf8Length(name);
    if (nameBytes > MAX_NAME_BYTES) {
      return {
        code: "ENAMETOOLONG",
        reason: `a name in the path is ${nameBytes} bytes long; the limit is ${MAX_NAME_BYTES} bytes`,
      };
    }
  }
  return undefined;
}

/**
 * Resolve `path` against `cwd` lexically: `.` and empty names dropped, `..` removes the name
 * before it (and stays at `/` at the top, as POSIX does). No filesystem access.
 *
 * @param cwd - absolute directory for relative paths.
 * @param path - absolute or relative POSIX path (not checked: call {@link checkPathInput} first).
 * @returns an absolute path with no `.`/`..`, no repeated or trailing `/` (`/` itself for the root).
 * @example
 * ```ts
 * resolvePath("/w", "src/../a.txt"); // "/w/a.txt"
 * resolvePath("/w", "../../etc/passwd"); // "/etc/passwd" (the gate then refuses it)
 * resolvePath("/w", "report..final.md"); // "/w/report..final.md"
 * ```
 */
export function resolvePath(cwd: string, path: string): string {
  // Most paths are already plain (no `.`, `..`, empty names or trailing `/`): join them as they are.
  if (path.startsWith("/")) {
    if (!NOT_NORMALISED.test(path)) return path;
  } else if (
    path !== "" &&
    path !== "." &&
    path !== ".." &&
    !NOT_NORMALISED.test(`/${path}`) &&
    (cwd === "/" || (cwd.startsWith("/") && !NOT_NORMALISED.test(cwd)))
  ) {
    return cwd === "/" ? `/${path}` : `${cwd}/${path}`;
  }
  const names: string[] = [];
  const full = path.startsWith("/") ? path : `${cwd}/${path}`;
  for (const name of full.split("/")) {
    if (name === "" || name === ".") continue;
    if (name === "..") names.pop();
    else names.push(name);
  }
  return `/${names.join("/")}`;
}

/**
 * Whether `path` is `root` or lies under it, compared name by name (`/w` never admits `/w-evil`).
 * Both must be absolute and normalised (as {@link resolvePath} returns them).
 *
 * @example
 * ```ts
 * isWithin("/w", "/w/a"); // true
 * isWithin("/w", "/w-evil/a"); // false
 * isWithin("/", "/anything"); // true
 * ```
 */
export function isWithin(root: string, path: string): boolean {
  if (root === "/") return path.startsWith("/");
  return path === root || path.startsWith(`${root}/`);
}

/** The parent of an absolute normalised path (`/` for `/` and for `/a`). */
export function parentPath(path: string): string {
  const index = path.lastIndexOf("/");
  return index <= 0 ? "/" : path.slice(0, index);
}

/** Compare strings by UTF-16 code units (stable across locales), for sorting paths. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The last name of an absolute normalised path (`""` for `/`). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Join an absolute directory and a name or relative path, then resolve lexically. */
export function joinPath(directory: string, relative: string): string {
  return resolvePath(directory, relative);
}

/**
 * `path` relative to `from` when it is `from` or under it (`.` for `from` itself), else `undefined`.
 *
 * @example
 * ```ts
 * relativeTo("/w", "/w/src/a.ts"); // "src/a.ts"
 * relativeTo("/w", "/etc/hosts"); // undefined
 * ```
 */
export function relativeTo(from: string, path: string): string | undefined {
  if (!isWithin(from, path)) return undefined;
  if (path === from) return ".";
  return from === "/" ? path.slice(1) : path.slice(from.length + 1);
}

/** Options of {@link resolveRealPath}. */
export interface ResolveRealPathOptions {
  /**
   * Resolve a symlink at the last name too (default `true`). `false` for calls that act on a
   * link itself: `lstat`, `readlink`, `rm`, `rename`, `symlink`.
   */
  readonly followLeaf?: boolean;
  /**
   * A memo shared by the resolutions of one tool call (see {@link createResolutionCache}): each
   * directory is resolved once, and the last name is looked up with one `lstat` in its real
   * directory (none when that directory does not exist).
   */
  readonly cache?: ResolutionCache;
  /**
   * Names whose lookup the backend may refuse with `EACCES` and that are then taken as plain
   * directories (the gate passes the directories above its allowed roots, which a jailed
   * backend such as Node's refuses to look at, so that a root that does not exist yet resolves).
   */
  readonly passThrough?: (path: string) => boolean;
}

/** A resolved path and whether it existed when it was resolved. */
export interface RealPathLookup {
  /** The real absolute path (as {@link resolveRealPath} returns it). */
  readonly path: string;
  /** Whether that path existed (for `followLeaf: false`, the name itself, link or not); `undefined` when the lookup did not learn it. */
  readonly exists: boolean | undefined;
}

/**
 * A per-call memo of path resolutions. Pass one to the gate's checks of the paths of one tool
 * call (`gate.check(path, access, { cache })`) so a directory shared by many paths is resolved
 * once and a missing name costs one failed lookup (none under a missing directory).
 *
 * It holds what the backend said while the call's paths were checked: create one per call and
 * drop it after, never keep it across calls (files change). It is tied to the first backend it
 * is used with; resolutions on another backend do not use it.
 */
export interface ResolutionCache {
  /**
   * Whether a real absolute path existed when a resolution through this cache looked at it
   * (a directory resolved on the way, or a checked path); `undefined` when none looked.
   */
  exists(realPath: string): boolean | undefined;
}

interface DirectoryLookup {
  readonly path: string;
  readonly exists: boolean;
  /** Symlinks followed to resolve it (they count towards {@link MAX_SYMLINK_HOPS}). */
  readonly hops: number;
}

interface CacheState {
  fs: FileSystem | undefined;
  readonly directories: Map<string, Promise<DirectoryLookup>>;
  readonly seen: Map<string, boolean>;
}

const CACHE_STATES = new WeakMap<ResolutionCache, CacheState>();

/**
 * Create an empty {@link ResolutionCache} for the path checks of one tool call.
 *
 * @returns a cache to pass as `cache` to `gate.check` or {@link resolveRealPath}.
 * @example
 * ```ts
 * const cache = createResolutionCache();
 * const checks = await Promise.all(paths.map((path) => gate.check(path, "write", { cache })));
 * cache.exists("/w/src"); // true once a check resolved /w/src
 * ```
 */
export function createResolutionCache(): ResolutionCache {
  const state: CacheState = { fs: undefined, directories: new Map(), seen: new Map() };
  const cache: ResolutionCache = Object.freeze({ exists: (realPath: string) => state.seen.get(realPath) });
  CACHE_STATES.set(cache, state);
  return cache;
}

/** A backend's real path, normalised (most already are: then returned as is). */
function normaliseReal(real: string): string {
  return real.startsWith("/") && !NOT_NORMALISED.test(real) ? real : resolvePath("/", real);
}

/** Whether `name` is one plain name: not empty, not `.` or `..`, no `/` or NUL. */
function isPlainName(name: unknown): name is string {
  return typeof name === "string" && name !== "" && name !== "." && name !== ".." && !/[/\0]/.test(name);
}

/**
 * The real path of a missing `path` as a backend's `realpath` rejection gives it
 * ({@link ResolvedPrefix}: the real existing part and the names after it), or `undefined` when
 * the error carries none that can be used: it must be an `ENOENT`/`ENOTDIR` FsError naming
 * `path` itself (an error passed on by a wrapper that maps paths names another path), with an
 * absolute normalised `real` and at least one plain name.
 */
function resolvedFromError(error: unknown, path: string): ResolvedPrefix | undefined {
  if (!FsError.isInstance(error) || (error.code !== "ENOENT" && error.code !== "ENOTDIR") || error.path !== path) {
    return undefined;
  }
  const prefix = error.resolvedPrefix;
  if (typeof prefix !== "object" || prefix === null) return undefined;
  const { real, missing } = prefix;
  if (typeof real !== "string" || !real.startsWith("/") || real.includes("\0") || NOT_NORMALISED.test(real)) {
    return undefined;
  }
  if (!Array.isArray(missing) || missing.length === 0 || !missing.every(isPlainName)) return undefined;
  return prefix;
}

/** `real` followed by `names` (plain), joined once. */
function appendNames(real: string, names: readonly string[]): string {
  return `${real === "/" ? "" : real}/${names.join("/")}`;
}

function isMissing(error: unknown): boolean {
  return FsError.isInstance(error)
    ? error.code === "ENOENT" || error.code === "ENOTDIR"
    : typeof error === "object" &&
        error !== null &&
        ["ENOENT", "ENOTDIR"].includes((error as { code?: string }).code ?? "");
}

/**
 * Resolve every symlink in an absolute normalised path, component by component, through the
 * backend: `realpath` of the whole path when it exists, else the real parent plus the last name,
 * where a last name that is a dangling symlink is followed through `readlink` (so a link to a
 * file not yet created outside the workspace resolves to that outside path). Names that do not
 * exist yet are kept as given. A symlink target's `..` is resolved lexically against the real
 * directory holding the link. When the backend's `realpath` rejection carries a
 * `resolvedPrefix` for the path ({@link ResolvedPrefix}, as the Node backend's does), a missing
 * path costs that one call; otherwise O(log n) more `realpath` calls find the deepest existing
 * directory.
 *
 * @param fs - the backend; `readlink` is used when present.
 * @param path - absolute, normalised (from {@link resolvePath}).
 * @param options - `followLeaf` (default `true`) and a per-call `cache`.
 * @returns the real absolute path; the gate checks and then uses exactly this path.
 * @throws FsError `ELOOP` after {@link MAX_SYMLINK_HOPS} links, and any backend error other
 *   than `ENOENT`/`ENOTDIR` (e.g. `EACCES`, `EIO`).
 * @example
 * ```ts
 * // /w/link -> /etc
 * await resolveRealPath(fs, "/w/link/hosts"); // "/etc/hosts"
 * await resolveRealPath(fs, "/w/link", { followLeaf: false }); // "/w/link"
 * ```
 */
export function resolveRealPath(fs: FileSystem, path: string, options: ResolveRealPathOptions = {}): Promise<string> {
  return lookupRealPath(fs, path, options).then((found) => found.path);
}

/**
 * {@link resolveRealPath}, also telling whether the path existed.
 *
 * @param fs - the backend; `readlink` is used when present.
 * @param path - absolute, normalised (from {@link resolvePath}).
 * @param options - `followLeaf` (default `true`) and a per-call `cache`.
 * @returns the real path and `exists` (`undefined` only for `followLeaf: false` without a cache).
 * @throws as {@link resolveRealPath}.
 * @example
 * ```ts
 * await lookupRealPath(fs, "/w/new.txt"); // { path: "/w/new.txt", exists: false }
 * ```
 */
export function lookupRealPath(
  fs: FileSystem,
  path: string,
  options: ResolveRealPathOptions = {},
): Promise<RealPathLookup> {
  const followLeaf = options.followLeaf !== false;
  const state = options.cache === undefined ? undefined : CACHE_STATES.get(options.cache);
  const passThrough = options.passThrough ?? NEVER;
  if (state !== undefined) {
    state.fs ??= fs;
    if (state.fs === fs) return lookupCached(fs, state, path, followLeaf, passThrough);
  }
  // Not async itself: the lookup's own promise is returned, one hop fewer per check.
  return resolveWithin(fs, path, followLeaf, { count: 0 }, path, passThrough);
}

const NEVER = (): boolean => false;

function isRefused(error: unknown): boolean {
  return FsError.isInstance(error)
    ? error.code === "EACCES"
    : typeof error === "object" && error !== null && (error as { code?: string }).code === "EACCES";
}

async function lookupCached(
  fs: FileSystem,
  state: CacheState,
  path: string,
  followLeaf: boolean,
  passThrough: (path: string) => boolean,
): Promise<RealPathLookup> {
  if (path === "/") return { path: "/", exists: true };
  const parent = await cachedDirectory(fs, state, parentPath(path), path, passThrough);
  const found = await lookupName(fs, parent, baseName(path), followLeaf, path, passThrough);
  state.seen.set(found.path, found.exists);
  return { path: found.path, exists: found.exists };
}

/**
 * Resolve `path`: one `realpath` when it exists (its parent, without `followLeaf`), or when its
 * rejection says how far the path resolved ({@link resolvedFromError}); else the deepest
 * existing directory through O(log n) `realpath` calls ({@link deepestExisting}), then an
 * `lstat` of the next name (`readlink` for a dangling link, whose target is then resolved) and
 * no lookup below the first missing name.
 */
async function resolveWithin(
  fs: FileSystem,
  path: string,
  followLeaf: boolean,
  hops: { count: number },
  original: string,
  passThrough: (path: string) => boolean,
): Promise<RealPathLookup> {
  if (path === "/") return { path: "/", exists: true };
  if (!followLeaf) {
    const parent = await resolveWithin(fs, parentPath(path), true, hops, original, passThrough);
    return { path: joinPath(parent.path, baseName(path)), exists: undefined };
  }
  try {
    return { path: normaliseReal(await fs.realpath(path)), exists: true };
  } catch (error) {
    // The backend said how far the path resolved (the Node backend does): nothing left to look up.
    const resolved = resolvedFromError(error, path);
    if (resolved !== undefined) return { path: appendNames(resolved.real, resolved.missing), exists: false };
    if (!isMissing(error) && !(isRefused(error) && passThrough(path))) throw error;
  }
  // The common case, a new name in an existing directory: one more realpath, of the parent.
  const parent = parentPath(path);
  if (parent !== "/") {
    let realParent: string | undefined;
    try {
      realParent = normaliseReal(await fs.realpath(parent));
    } catch (error) {
      if (!isMissing(error) && !(isRefused(error) && passThrough(parent))) throw error;
    }
    if (realParent !== undefined) return lookupLast(fs, realParent, baseName(path), hops, original, passThrough);
  }
  const names = path.split("/").filter((name) => name !== "");
  // The deepest directory that exists, found with O(log n) realpath calls; below it, names are
  // looked up one at a time, and none below the first missing one.
  const start = await deepestExisting(fs, names, names.length - 1, passThrough);
  let current = start.real;
  for (let index = start.index; index < names.length; index += 1) {
    const candidate = joinPath(current, names[index] as string);
    current = candidate;
    let type: string;
    try {
      type = (await fs.lstat(candidate)).type;
    } catch (error) {
      if (isMissing(error)) {
        // Nothing below a missing name is looked up: the rest is joined once.
        const rest = names.slice(index + 1);
        return { path: rest.length === 0 ? candidate : appendNames(candidate, rest), exists: false };
      }
      if (!(isRefused(error) && passThrough(candidate))) throw error;
      continue;
    }
    if (type !== "symlink") continue;
    if (fs.readlink === undefined) {
      // A backend without readlink: its realpath follows the link, or the link dangles.
      try {
        current = normaliseReal(await fs.realpath(candidate));
      } catch (error) {
        if (!isMissing(error)) throw error;
        const rest = names.slice(index + 1);
        return { path: rest.length === 0 ? candidate : appendNames(candidate, rest), exists: false };
      }
      continue;
    }
    // A dangling link (a live one would have made an earlier realpath succeed): its target
    // and the names after it, resolved the same way.
    hops.count += 1;
    if (hops.count > MAX_SYMLINK_HOPS) throw new FsError("ELOOP", { syscall: "realpath", path: original });
    const target = resolvePath(parentPath(candidate), await fs.readlink(candidate));
    const rest = names.slice(index + 1);
    return resolveWithin(
      fs,
      rest.length === 0 ? target : joinPath(target, rest.join("/")),
      true,
      hops,
      original,
      passThrough,
    );
  }
  return { path: current, exists: true };
}

/**
 * The longest prefix of `names` that exists (`index` names; 0 is `/`) and its real path, given
 * that the prefix of `missing` names does not. Prefixes exist or not in order (every directory
 * above an existing path exists), so a search finds the boundary: `realpath` of the prefixes
 * one, two, four... names above `missing` until one exists, then halving the interval left.
 * That is O(log n) calls, each linear in the names on the backends we ship, where looking each
 * name up in turn would cost the square of the depth. A prefix the backend refuses to look at
 * (`EACCES`) that `passThrough` admits counts as an existing plain directory.
 */
async function deepestExisting(
  fs: FileSystem,
  names: readonly string[],
  missing: number,
  passThrough: (path: string) => boolean,
): Promise<{ readonly index: number; readonly real: string }> {
  const prefix = (count: number) => `/${names.slice(0, count).join("/")}`;
  const probe = async (count: number): Promise<string | undefined> => {
    const lexical = prefix(count);
    try {
      return normaliseReal(await fs.realpath(lexical));
    } catch (error) {
      if (isMissing(error)) return undefined;
      if (isRefused(error) && passThrough(lexical)) return lexical;
      throw error;
    }
  };
  let high = missing;
  let low = 0;
  let lowReal = "/";
  for (let step = 1; high > 0; step *= 2) {
    const count = Math.max(0, high - step);
    if (count === 0) break;
    const real = await probe(count);
    if (real !== undefined) {
      low = count;
      lowReal = real;
      break;
    }
    high = count;
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const real = await probe(middle);
    if (real === undefined) high = middle;
    else {
      low = middle;
      lowReal = real;
    }
  }
  return { index: low, real: lowReal };
}

/** The last name of a path in its real (existing) directory: `lstat`, and a dangling link followed. */
async function lookupLast(
  fs: FileSystem,
  parent: string,
  name: string,
  hops: { count: number },
  original: string,
  passThrough: (path: string) => boolean,
): Promise<RealPathLookup> {
  const candidate = joinPath(parent, name);
  if (fs.readlink === undefined) return { path: candidate, exists: false };
  let type: string;
  try {
    type = (await fs.lstat(candidate)).type;
  } catch (error) {
    if (isMissing(error)) return { path: candidate, exists: false };
    throw error;
  }
  if (type !== "symlink") return { path: candidate, exists: true };
  hops.count += 1;
  if (hops.count > MAX_SYMLINK_HOPS) throw new FsError("ELOOP", { syscall: "realpath", path: original });
  const target = await fs.readlink(candidate);
  return resolveWithin(fs, resolvePath(parent, target), true, hops, original, passThrough);
}

/** The real directory for a lexical one, memoised in the cache (a rejection is memoised too). */
function cachedDirectory(
  fs: FileSystem,
  state: CacheState,
  directory: string,
  original: string,
  passThrough: (path: string) => boolean,
): Promise<DirectoryLookup> {
  let found = state.directories.get(directory);
  if (found === undefined) {
    found = resolveDirectory(fs, state, directory, original, passThrough);
    state.directories.set(directory, found);
  }
  return found;
}

/**
 * A directory not yet in the cache: one `realpath` when it exists or when its rejection says how
 * far it resolved (every directory of that chain is then noted in the cache), else (or when its
 * parent is already in the cache) its real parent plus one `lstat` of its name.
 */
async function resolveDirectory(
  fs: FileSystem,
  state: CacheState,
  directory: string,
  original: string,
  passThrough: (path: string) => boolean,
): Promise<DirectoryLookup> {
  if (directory === "/") return { path: "/", exists: true, hops: 0 };
  const parentDirectory = parentPath(directory);
  let found: DirectoryLookup | undefined;
  if (!state.directories.has(parentDirectory)) {
    try {
      found = { path: normaliseReal(await fs.realpath(directory)), exists: true, hops: 0 };
    } catch (error) {
      const resolved = resolvedFromError(error, directory);
      if (resolved !== undefined) {
        // One call told the whole chain: the existing part, then each missing directory below it.
        let partial = resolved.real;
        state.seen.set(partial, true);
        for (const name of resolved.missing) {
          partial = appendNames(partial, [name]);
          state.seen.set(partial, false);
        }
        found = { path: partial, exists: false, hops: 0 };
      } else if (!isMissing(error) && !(isRefused(error) && passThrough(directory))) throw error;
    }
  }
  if (found === undefined) {
    const parent = await cachedDirectory(fs, state, parentDirectory, original, passThrough);
    found = await lookupName(fs, parent, baseName(directory), true, original, passThrough);
  }
  state.seen.set(found.path, found.exists);
  return found;
}

/**
 * Look up one name in a resolved directory: one `lstat` (none when the directory is missing);
 * a symlink is followed through `realpath`, and a dangling one through `readlink`.
 */
async function lookupName(
  fs: FileSystem,
  parent: DirectoryLookup,
  name: string,
  followLeaf: boolean,
  original: string,
  passThrough: (path: string) => boolean,
): Promise<DirectoryLookup> {
  const candidate = joinPath(parent.path, name);
  if (!parent.exists) return { path: candidate, exists: false, hops: parent.hops };
  let type: string;
  try {
    type = (await fs.lstat(candidate)).type;
  } catch (error) {
    if (isMissing(error)) return { path: candidate, exists: false, hops: parent.hops };
    if (isRefused(error) && passThrough(candidate)) return { path: candidate, exists: true, hops: parent.hops };
    throw error;
  }
  if (type !== "symlink" || !followLeaf) return { path: candidate, exists: true, hops: parent.hops };
  try {
    return { path: normaliseReal(await fs.realpath(candidate)), exists: true, hops: parent.hops };
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  // A dangling link (rare): follow its target without the cache, which also rules out a
  // directory waiting on its own resolution through a link that points under itself.
  if (fs.readlink === undefined) return { path: candidate, exists: false, hops: parent.hops };
  const hops = { count: parent.hops + 1 };
  if (hops.count > MAX_SYMLINK_HOPS) throw new FsError("ELOOP", { syscall: "realpath", path: original });
  const target = await fs.readlink(candidate);
  const found = await resolveWithin(fs, resolvePath(parent.path, target), true, hops, original, passThrough);
  return { path: found.path, exists: found.exists ?? false, hops: hops.count };
}

/**
 * The one path canonicaliser. Paths come in workspace-relative or absolute (POSIX); they go out
 * absolute, with `.` and `..` resolved lexically and, through {@link resolveRealPath}, every
 * existing symlink resolved component by component.
 *
 * Nothing here decodes, unquotes or normalises Unicode: `%2e%2e`, `"data"`, `data ` and `．．`
 * are literal names, distinct from `..` and `data`. What is refused up front (see
 * {@link checkPathInput}): an empty path, NUL bytes, backslashes, and paths or names longer
 * than {@link MAX_PATH_BYTES} / {@link MAX_NAME_BYTES}.
 *
 * @module
 */
import { FsError, type FileSystem, type FsErrorCode } from "./types.js";

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
 * @returns `undefined` when the path may be resolved, else the problem: `EINVAL` for a
 *   non-string, an empty or blank path, a NUL byte or a backslash; `ENAMETOOLONG` for a path
 *   over {@link MAX_PATH_BYTES} bytes or a name over {@link MAX_NAME_BYTES} bytes.
 * @example
 * ```ts
 * checkPathInput("a\\b"); // { code: "EINVAL", reason: "backslashes are not allowed (use / to separate directories)" }
 * checkPathInput("src/a.ts"); // undefined
 * ```
 */
export function checkPathInput(input: unknown): PathInputProblem | undefined {
  if (typeof input !== "string") {
    return { code: "EINVAL", reason: `a path must be a string, got ${input === null ? "null" : typeof input}` };
  }
  if (input.trim() === "") return { code: "EINVAL", reason: "the path is empty" };
  if (input.includes("\0")) return { code: "EINVAL", reason: "NUL bytes are not allowed in paths" };
  if (input.includes("\\")) {
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
}

function isMissing(error: unknown): boolean {
  return FsError.isInstance(error)
    ? error.code === "ENOENT" || error.code === "ENOTDIR"
    : typeof error === "object" && error !== null && ["ENOENT", "ENOTDIR"].includes((error as { code?: string }).code ?? "");
}

/**
 * Resolve every symlink in an absolute normalised path, component by component, through the
 * backend: `realpath` of the whole path when it exists, else the real parent plus the last name,
 * where a last name that is a dangling symlink is followed through `readlink` (so a link to a
 * file not yet created outside the workspace resolves to that outside path). Names that do not
 * exist yet are kept as given. A symlink target's `..` is resolved lexically against the real
 * directory holding the link.
 *
 * @param fs - the backend; `readlink` is used when present.
 * @param path - absolute, normalised (from {@link resolvePath}).
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
export async function resolveRealPath(
  fs: FileSystem,
  path: string,
  options: ResolveRealPathOptions = {},
): Promise<string> {
  const hops = { count: 0 };
  return resolveWithin(fs, path, options.followLeaf !== false, hops, path);
}

async function resolveWithin(
  fs: FileSystem,
  path: string,
  followLeaf: boolean,
  hops: { count: number },
  original: string,
): Promise<string> {
  if (path === "/") return "/";
  if (followLeaf) {
    try {
      const real = await fs.realpath(path);
      return resolvePath("/", real);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
  const parent = await resolveWithin(fs, parentPath(path), true, hops, original);
  const candidate = joinPath(parent, baseName(path));
  if (!followLeaf || fs.readlink === undefined) return candidate;
  let type: string;
  try {
    type = (await fs.lstat(candidate)).type;
  } catch (error) {
    if (isMissing(error)) return candidate;
    throw error;
  }
  if (type !== "symlink") return candidate;
  hops.count += 1;
  if (hops.count > MAX_SYMLINK_HOPS) {
    throw new FsError("ELOOP", { syscall: "realpath", path: original });
  }
  const target = await fs.readlink(candidate);
  return resolveWithin(fs, resolvePath(parent, target), true, hops, original);
}

/**
 * How the unstorage backend lays a tree out in a key-value store: a path's names become one
 * key, each name escaped so that no name can reach the separators and special characters
 * unstorage and its drivers give a meaning (`:` `/` `\` `?` `#` `$` `*` `%`), and a directory is
 * a marker key below its own key.
 *
 * @module
 */
import { FsError } from "../../contract/errors.js";

/** The last segment of a directory's marker key: `a:b:%` marks the directory `/a/b`. No escaped name is a bare `%`. */
export const DIRECTORY_MARKER = "%";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A path parsed for the store: its names and whether it ended in `/` (it must then be a directory). */
export interface StorePath {
  /** The names, `.` and `..` resolved lexically; empty for the root. */
  readonly names: readonly string[];
  /** The path as given ended in `/` (after a name). */
  readonly trailingSlash: boolean;
}

/**
 * Parse an absolute path for the store.
 *
 * @param path - absolute POSIX path.
 * @param syscall - the call, for the error.
 * @returns the names and the trailing-slash flag.
 * @throws FsError `EINVAL` for a relative path, a NUL byte or a name that is not valid Unicode (a lone surrogate).
 */
export function parseStorePath(path: string, syscall: string, dest?: string): StorePath {
  if (typeof path !== "string" || !path.startsWith("/") || path.includes("\0")) {
    throw new FsError("EINVAL", {
      syscall,
      path,
      ...(dest === undefined ? {} : { dest }),
      detail: "paths must be absolute, without NUL bytes",
    });
  }
  if (LONE_SURROGATE.test(path)) {
    throw new FsError("EINVAL", {
      syscall,
      path,
      ...(dest === undefined ? {} : { dest }),
      detail: "names must be valid Unicode (no lone surrogates)",
    });
  }
  const names: string[] = [];
  for (const name of path.split("/")) {
    if (name === "" || name === ".") continue;
    if (name === "..") names.pop();
    else names.push(name);
  }
  return { names, trailingSlash: names.length > 0 && path.length > 1 && path.endsWith("/") };
}

/**
 * The characters a workspace's key prefix (unstorage `base`, Redis `prefix`) may hold: letters,
 * digits, `_` `.` `~` `-`. None of them is a separator, so the keys of one prefix are never the
 * keys of another (`team-a:w` would name the directory `w` of the workspace `team-a`).
 */
export const STORE_PREFIX_PATTERN = /^[A-Za-z0-9_.~-]+$/;

/** The allowed characters of a key prefix, for option errors. */
export const STORE_PREFIX_CHARACTERS = "letters, digits, _ . ~ -";

/** Names that escape to themselves: the common case costs one test. */
const PLAIN_NAME = /^[A-Za-z0-9_.~-]+$/;

/** Escape one name: `encodeURIComponent`, plus `*` `!` `'` `(` `)` (glob and quoting characters). */
export function encodeName(name: string): string {
  if (PLAIN_NAME.test(name)) return name;
  return encodeURIComponent(name).replace(/[*!'()]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The name an escaped segment stands for; `undefined` for a segment no name encodes to (a foreign key). */
export function decodeName(segment: string): string | undefined {
  try {
    const name = decodeURIComponent(segment);
    return encodeName(name) === segment ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The key of the entry at `names` (the file's key; a directory's marker sits below it). `""` for the root. */
export function entryKey(names: readonly string[]): string {
  return names.map(encodeName).join(":");
}

/**
 * The entry key of every leading part of `names`: `[key of names[0], key of names[0..1], ...]`,
 * each name escaped once (a deep path costs linear work, not quadratic).
 */
export function prefixKeys(names: readonly string[]): string[] {
  const keys: string[] = [];
  let key = "";
  for (const name of names) {
    key = key === "" ? encodeName(name) : `${key}:${encodeName(name)}`;
    keys.push(key);
  }
  return keys;
}

/** The marker key below an entry key. */
export function markerOf(key: string): string {
  return `${key}:${DIRECTORY_MARKER}`;
}

/** The marker key of the directory at `names`; `undefined` for the root, which always exists. */
export function directoryKey(names: readonly string[]): string | undefined {
  return names.length === 0 ? undefined : `${entryKey(names)}:${DIRECTORY_MARKER}`;
}

/** The path for `names`: `/a/b`, or `/`. */
export function pathOf(names: readonly string[]): string {
  return `/${names.join("/")}`;
}

/**
 * Node's errors for the `node:fs` face: `code`, `errno`, `syscall`, `path`, `dest`, and Node's
 * message (`ENOENT: no such file or directory, open 'a.txt'`).
 *
 * @module
 */
import { FS_ERROR_DESCRIPTIONS, FsError, isFsErrorCode } from "../contract/errors.js";

/** Linux errno numbers, negated as Node reports them (`err.errno === -2` for ENOENT). */
export const ERRNO: Readonly<Record<string, number>> = Object.freeze({
  EPERM: -1,
  ENOENT: -2,
  EIO: -5,
  EBADF: -9,
  EACCES: -13,
  EBUSY: -16,
  EEXIST: -17,
  EXDEV: -18,
  ENOTDIR: -20,
  EISDIR: -21,
  EINVAL: -22,
  EFBIG: -27,
  ENOSPC: -28,
  EROFS: -30,
  ENAMETOOLONG: -36,
  ENOSYS: -38,
  ENOTEMPTY: -39,
  ELOOP: -40,
  ENOTSUP: -95,
});

const EXTRA_DESCRIPTIONS: Readonly<Record<string, string>> = {
  EBADF: "bad file descriptor",
  ENOSYS: "function not implemented",
};

/** The fields of {@link NodeFsError}. */
export interface NodeFsErrorFields {
  /** Node's code: `ENOENT`, `EEXIST`, `EBADF`... */
  readonly code: string;
  /** Node's name of the call: `open`, `scandir`, `mkdir`, `rename`... */
  readonly syscall: string;
  /** The path as the caller gave it. */
  readonly path?: string;
  /** The second path of a two-path call, as given. */
  readonly dest?: string;
  /** A reason added after Node's message in parentheses (the gate's, naming the rule to add). */
  readonly detail?: string;
  /** The error this one reports. */
  readonly cause?: unknown;
}

/**
 * An error as `node:fs` throws it: `err.code`, `err.errno` (negative), `err.syscall`, `err.path`
 * and `err.dest` as Node sets them, and Node's message. `name` is `"Error"` (inherited), as on Node's.
 *
 * @example
 * ```ts
 * const error = new NodeFsError({ code: "ENOENT", syscall: "open", path: "a.txt" });
 * error.message; // "ENOENT: no such file or directory, open 'a.txt'"
 * error.errno; // -2
 * ```
 */
export class NodeFsError extends Error {
  // `name` is Error.prototype's ("Error"), as on Node's errors: not an own field.
  readonly code: string;
  readonly errno: number;
  readonly syscall: string;
  declare readonly path?: string;
  declare readonly dest?: string;

  constructor(fields: NodeFsErrorFields) {
    const description = isFsErrorCode(fields.code)
      ? FS_ERROR_DESCRIPTIONS[fields.code]
      : (EXTRA_DESCRIPTIONS[fields.code] ?? "unknown error");
    const where =
      fields.path === undefined
        ? ""
        : fields.dest === undefined
          ? ` '${fields.path}'`
          : ` '${fields.path}' -> '${fields.dest}'`;
    const detail = fields.detail === undefined ? "" : ` (${fields.detail})`;
    super(`${fields.code}: ${description}, ${fields.syscall}${where}${detail}`, { cause: fields.cause });
    this.code = fields.code;
    this.errno = ERRNO[fields.code] ?? -1;
    this.syscall = fields.syscall;
    if (fields.path !== undefined) this.path = fields.path;
    if (fields.dest !== undefined) this.dest = fields.dest;
  }
}

/**
 * The Node error for what a backend threw during a call: an {@link FsError} keeps its code (and
 * its `detail` field) and takes the call's syscall and the caller's paths; anything else is returned as is.
 *
 * @param error - what the backend (or the gate) threw.
 * @param syscall - Node's name of the call.
 * @param path - the path as the caller gave it.
 * @param dest - the second path, as given.
 * @returns a {@link NodeFsError}, or `error` unchanged when it is not an `FsError`.
 */
export function toNodeError(error: unknown, syscall: string, path?: string, dest?: string): unknown {
  if (error instanceof NodeFsError) return error;
  if (!FsError.isInstance(error)) return error;
  const detail = error.detail;
  return new NodeFsError({
    code: error.code,
    syscall,
    ...(path === undefined ? {} : { path }),
    ...(dest === undefined ? {} : { dest }),
    ...(detail === undefined ? {} : { detail }),
    cause: error,
  });
}

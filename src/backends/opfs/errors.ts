/**
 * DOMException → {@link FsError} for the OPFS backend: the one place that knows which browser
 * error name means which errno.
 *
 * @module
 */
import { FsError, type FsErrorCode } from "../../contract/errors.js";

/** Where an error happened, for the message. */
export interface OpfsErrorContext {
  readonly syscall: string;
  readonly path: string;
  readonly dest?: string;
  /** What `TypeMismatchError` means here: a directory where a file was expected, or the reverse. */
  readonly typeMismatch?: "EISDIR" | "ENOTDIR" | "EEXIST";
  /** Extra detail for the message (e.g. quota figures). */
  readonly detail?: string;
}

/** The DOMException (or TypeError) name of a thrown value, or `undefined`. */
export function errorName(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const name = (error as { name?: unknown }).name;
  return typeof name === "string" ? name : undefined;
}

/** The errno an OPFS error name stands for. */
export function codeOfDomError(name: string | undefined, typeMismatch: FsErrorCode = "ENOTDIR"): FsErrorCode {
  switch (name) {
    case "NotFoundError":
      return "ENOENT";
    case "TypeMismatchError":
      return typeMismatch;
    case "InvalidModificationError":
      return "ENOTEMPTY";
    case "NoModificationAllowedError":
      return "EBUSY";
    case "QuotaExceededError":
      return "ENOSPC";
    case "NotAllowedError":
    case "SecurityError":
      return "EACCES";
    case "TypeError":
      // "Name is not allowed": `.`, `..`, or a name with `/` or `\`.
      return "EINVAL";
    default:
      return "EIO";
  }
}

/**
 * Convert anything an OPFS call threw into an {@link FsError}; an `FsError` passes through.
 *
 * @param error - what was thrown.
 * @param context - the call and path(s) for the message.
 * @returns the `FsError` to reject with (the original is its `cause`).
 */
export function toFsError(error: unknown, context: OpfsErrorContext): FsError {
  if (FsError.isInstance(error)) return error;
  const name = errorName(error);
  const code = codeOfDomError(name, context.typeMismatch);
  const detail =
    context.detail ??
    (code === "EIO" || code === "EINVAL" || code === "EACCES"
      ? `${name ?? "Error"}: ${error instanceof Error ? error.message : String(error)}`
      : undefined);
  return new FsError(code, {
    syscall: context.syscall,
    path: context.path,
    ...(context.dest === undefined ? {} : { dest: context.dest }),
    ...(detail === undefined ? {} : { detail }),
    cause: error,
  });
}

/** True when `error` is a DOMException (or similar) with this name. */
export function isDomError(error: unknown, name: string): boolean {
  return errorName(error) === name;
}

/**
 * The one place memfs errors become {@link FsError}s (used by `memory.ts`).
 *
 * @module
 */
import { FsError, isFsErrorCode } from "../../contract/errors.js";

/** Where the failing call came from: our syscall name and the paths the caller gave. */
export interface MemoryErrorContext {
  readonly syscall: string;
  readonly path: string;
  readonly dest?: string | undefined;
}

/**
 * Convert anything memfs throws into an {@link FsError} worded with our syscall and the caller's
 * paths (memfs names some calls differently, e.g. `read` for a directory opened as a file).
 * An `FsError` passes through unchanged; a Node-style error keeps its `code` when it is one of
 * ours; anything else becomes `EIO` with the original message as detail.
 *
 * @param error - what memfs (or our own checks) threw.
 * @param context - the syscall and paths to report.
 * @returns the error to reject with; the original is its `cause`.
 */
export function toMemoryFsError(error: unknown, context: MemoryErrorContext): FsError {
  if (FsError.isInstance(error)) return error;
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  const options = { syscall: context.syscall, path: context.path, dest: context.dest, cause: error };
  if (isFsErrorCode(code)) return new FsError(code, options);
  const detail = error instanceof Error ? error.message : String(error);
  return new FsError("EIO", { ...options, detail });
}

/**
 * Turning backend errors into tool errors the model can act on.
 *
 * @module
 */
import { FsError } from "../../contract/errors.js";
import type { ToolError } from "../../contract/errors.js";

/**
 * The tool error for a failed backend call. A backend that throws a plain `Error` (not an
 * {@link FsError}) gives `EIO` with its message; an abort is rethrown.
 *
 * @param error - what the backend threw.
 * @param path - absolute path concerned.
 * @param displayPath - the path as the model sees it.
 * @returns `ENOENT`: `File not found: a.txt. Check the path: list its directory or search for the file name.`;
 *   `EISDIR`: `a is a directory, not a file; list it to see what it contains.` (worded without
 *   tool names, so they hold in every signature dialect); other codes: the
 *   backend's message, prefixed with the path.
 * @throws the original error when it is an abort (`AbortError`, `TimeoutError`).
 */
export function toolErrorFromFs(error: unknown, path: string, displayPath: string): ToolError {
  if (!FsError.isInstance(error)) {
    const name = typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined;
    if (name === "AbortError" || name === "TimeoutError") throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { code: "EIO", path, message: `${displayPath}: ${message}` };
  }
  switch (error.code) {
    case "ENOENT":
      return {
        code: "ENOENT",
        path,
        message: `File not found: ${displayPath}. Check the path: list its directory or search for the file name.`,
      };
    case "EISDIR":
      return {
        code: "EISDIR",
        path,
        message: `${displayPath} is a directory, not a file; list it to see what it contains.`,
      };
    case "ENOTDIR":
      return { code: "ENOTDIR", path, message: `${displayPath}: a component of this path is a file, not a directory.` };
    case "EROFS":
      return { code: "EROFS", path, message: `${displayPath} is on a read-only file system and cannot be changed.` };
    default:
      return { code: error.code, path, message: `${displayPath}: ${error.message}` };
  }
}

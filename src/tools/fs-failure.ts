/**
 * Turning backend errors into tool errors the model can act on.
 *
 * @module
 */
import { FsError } from "../fs/types.js";
import type { ToolError } from "./result.js";

/**
 * The tool error for a failed backend call, or rethrow when `error` is not an {@link FsError}
 * (a bug or an abort, which must not be dressed up as an expected failure).
 *
 * @param error - what the backend threw.
 * @param path - absolute path concerned.
 * @param displayPath - the path as the model sees it.
 * @returns `ENOENT`: `File not found: a.txt. Check the path with list or glob.`; `EISDIR`:
 *   `a is a directory, not a file. Use list to see what it contains.`; other codes: the
 *   backend's message, prefixed with the path.
 * @throws the original error when it is not an FsError.
 */
export function toolErrorFromFs(error: unknown, path: string, displayPath: string): ToolError {
  if (!FsError.isInstance(error)) throw error;
  switch (error.code) {
    case "ENOENT":
      return { code: "ENOENT", path, message: `File not found: ${displayPath}. Check the path with list or glob.` };
    case "EISDIR":
      return {
        code: "EISDIR",
        path,
        message: `${displayPath} is a directory, not a file. Use list to see what it contains.`,
      };
    case "ENOTDIR":
      return { code: "ENOTDIR", path, message: `${displayPath}: a component of this path is a file, not a directory.` };
    case "EROFS":
      return { code: "EROFS", path, message: `${displayPath} is on a read-only file system and cannot be changed.` };
    default:
      return { code: error.code, path, message: `${displayPath}: ${error.message}` };
  }
}

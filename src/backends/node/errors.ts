/**
 * Node `fs` errors to {@link FsError}, in one function. Node-only (imported by `node.ts`).
 *
 * @module
 */
import { FsError, isFsErrorCode, type FsErrorCode } from "../../contract/errors.js";

/** Node error codes with no {@link FsErrorCode} of the same name, and the code they become. */
export const NODE_ERROR_CODE_MAP: Readonly<Record<string, FsErrorCode>> = Object.freeze({
  EOPNOTSUPP: "ENOTSUP",
  ENXIO: "ENOTSUP",
  ENODEV: "ENOTSUP",
  EDQUOT: "ENOSPC",
  EMLINK: "ENOSPC",
  ETXTBSY: "EBUSY",
  EMFILE: "EBUSY",
  ENFILE: "EBUSY",
  EBADF: "EIO",
  ERR_FS_EISDIR: "EISDIR",
  ERR_FS_FILE_TOO_LARGE: "EFBIG",
});

/**
 * Turn an error from `node:fs` into an {@link FsError} naming the caller's path (not the host
 * path), keeping the Node error as `cause`. An `FsError` passes through unchanged.
 *
 * @param error - what `node:fs` threw.
 * @param syscall - our name for the call (`open`, `stat`, `scandir`, `rename`...).
 * @param path - the path as the caller gave it, in the backend's namespace.
 * @param dest - the second path of `rename`/`symlink`.
 * @returns an FsError whose code is Node's when it is an {@link FsErrorCode}, else from
 *   {@link NODE_ERROR_CODE_MAP} (`ERR_FS_FILE_TOO_LARGE`, a file over 2 GiB, is `EFBIG`), else
 *   `EFBIG` for a `RangeError` (a buffer too large to allocate), else `EIO`.
 * @example
 * ```ts
 * toFsError(nodeError, "open", "/a.txt"); // FsError "ENOENT: no such file or directory, open '/a.txt'"
 * ```
 */
export function toFsError(error: unknown, syscall: string, path: string, dest?: string): FsError {
  if (FsError.isInstance(error)) return error;
  const nodeCode = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  const known = typeof nodeCode === "string" ? nodeCode : "";
  // A RangeError from `node:fs` is a buffer or string too large for V8 (a file of gigabytes).
  const code: FsErrorCode = isFsErrorCode(known)
    ? known
    : (NODE_ERROR_CODE_MAP[known] ?? (error instanceof RangeError ? "EFBIG" : "EIO"));
  const detail =
    code === "EIO" && known !== "EIO" ? (error instanceof Error ? error.message : String(error)) : undefined;
  return new FsError(code, {
    syscall,
    path,
    ...(dest === undefined ? {} : { dest }),
    ...(detail === undefined ? {} : { detail }),
    cause: error,
  });
}

/**
 * A content hash of workspace files for cache keys.
 *
 * @module
 */
import picomatch from "picomatch";
import { sha256Digest, type Digest } from "../contract/digest.js";
import { compareCodeUnits, resolvePath } from "../contract/path.js";
import type { FileSystem } from "../contract/types.js";
import { mapConcurrent } from "../contract/concurrency.js";
import { walkFiles } from "../contract/walk.js";
import { assertKnownOptions } from "../contract/options.js";

/** Files read at once while hashing, and directories read at once while finding them. */
export const HASH_FILES_CONCURRENCY = 16;

/** Options of {@link hashFiles}. */
export interface HashFilesOptions {
  /** The directory the globs are relative to (absolute). @default "/" */
  readonly cwd?: string;
  /** The digest of the final record. @default sha256Digest() */
  readonly digest?: Digest;
}

const encoder = new TextEncoder();

/**
 * A stable digest of the files matching `globs`: their paths (relative to `cwd`) and contents,
 * in sorted path order, so the same files with the same bytes always give the same hex string,
 * whatever the backend's listing order. Symlinks are not followed (a link is neither hashed nor
 * walked); dot files match. No file matching gives the digest of the empty record.
 *
 * The record hashed has one line per file, `"<path as JSON>" <bytes> <digest of the content>`,
 * so no two file sets share a record, and no more than {@link HASH_FILES_CONCURRENCY} files are
 * held in memory at once.
 *
 * @param fs - the backend (pass `gate.fs` to hash through the gate).
 * @param globs - picomatch globs relative to `cwd` (`["src/**\/*.ts", "package.json"]`); a file
 *   matching any is included.
 * @param options - `cwd` (default `/`), `digest` (default SHA-256 via WebCrypto).
 * @returns the digest's hex string.
 * @throws TypeError (the promise rejects, before any file is read) when `globs` is not an array
 *   of strings, or for an unknown option (an `OptionError`:
 *   `hashFiles got an unknown option "cdw". Known options: cwd, digest`); FsError from the backend when a
 *   directory or file cannot be read (a missing `cwd` gives the empty record's digest).
 * @example
 * ```ts
 * const key = await hashFiles(fs, ["src/**", "package.json"], { cwd: "/w" });
 * // "5f0c…" (64 hex characters); unchanged until a matching file's path or bytes change
 * ```
 */
export async function hashFiles(
  fs: FileSystem,
  globs: readonly string[],
  options: HashFilesOptions = {},
): Promise<string> {
  if (!Array.isArray(globs) || globs.some((glob) => typeof glob !== "string" || glob === "")) {
    throw new TypeError("hashFiles globs must be an array of non-empty glob strings");
  }
  assertKnownOptions("hashFiles", options, ["cwd", "digest"]);
  const cwd = resolvePath("/", options.cwd ?? "/");
  const digest = options.digest ?? sha256Digest();
  const isMatch = picomatch([...globs], { dot: true, windows: false });
  const files: string[] = [];
  if (await exists(fs, cwd)) {
    await walkFiles({
      fs,
      root: cwd,
      concurrency: HASH_FILES_CONCURRENCY,
      onEntry: (_path, relative, entry) => {
        if (entry.type === "file" && isMatch(relative)) files.push(relative);
      },
    });
  }
  files.sort(compareCodeUnits);
  const lines = await mapConcurrent(files, HASH_FILES_CONCURRENCY, async (relative) => {
    const content = await fs.readFile(cwd === "/" ? `/${relative}` : `${cwd}/${relative}`);
    return `${JSON.stringify(relative)} ${content.byteLength} ${await digest(content)}\n`;
  });
  return digest(encoder.encode(lines.join("")));
}

/** Whether `path` exists (a missing `cwd` hashes as no files); other errors propagate. */
async function exists(fs: FileSystem, path: string): Promise<boolean> {
  try {
    await fs.stat(path);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return false;
    throw error;
  }
}

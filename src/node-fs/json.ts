/**
 * `fromJSON`/`toJSON`: a tree of files as a plain object, as memfs's `vol.fromJSON`/`toJSON`
 * have it, over any backend.
 *
 * @module
 */
import { joinPath, relativeTo, resolvePath } from "../contract/path.js";
import type { FileSystem } from "../contract/types.js";

/** A tree: path (absolute, or relative to the `cwd` given) → content (text as UTF-8, bytes), or `null` for an empty directory. */
export type DirectoryJSON = Readonly<Record<string, string | Uint8Array | null>>;

/**
 * Writes a tree into `fs`: each file with its content, each `null` entry as an empty directory
 * (missing parents are created).
 *
 * @param fs - the backend.
 * @param tree - path → content (see {@link DirectoryJSON}).
 * @param cwd - where relative paths resolve (absolute). Default `/`.
 * @returns when every entry is written.
 * @throws (rejects) the backend's `FsError` for an entry it refuses (a file where a directory is needed: ENOTDIR).
 * @example
 * ```ts
 * const fs = memoryFileSystem();
 * await fromJSON(fs, { "src/a.ts": "export {}\n", "empty": null }, "/w");
 * await toJSON(fs, "/w"); // { "/w/empty": null, "/w/src/a.ts": "export {}\n" }
 * ```
 */
export async function fromJSON(fs: FileSystem, tree: DirectoryJSON, cwd = "/"): Promise<void> {
  const encoder = new TextEncoder();
  for (const [path, content] of Object.entries(tree)) {
    const absolute = resolvePath(cwd, path);
    if (content === null) await fs.mkdir(absolute, { recursive: true });
    else await fs.writeFile(absolute, typeof content === "string" ? encoder.encode(content) : content);
  }
}

/**
 * The tree under `directory` as an object: each file's text (UTF-8) and each empty directory as
 * `null`, keyed by absolute path (or by path relative to `relativeTo` when given), sorted by path.
 * Symlinks are listed by their target (`readlink`), not followed.
 *
 * @param fs - the backend.
 * @param directory - where to start (absolute). Default `/`.
 * @param options - `relativeTo`: an absolute directory whose relative paths are the keys.
 * @returns the tree.
 * @throws (rejects) the backend's `FsError` (ENOENT when `directory` is missing).
 */
export async function toJSON(
  fs: FileSystem,
  directory = "/",
  options: { readonly relativeTo?: string } = {},
): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  const decoder = new TextDecoder();
  const key = (path: string) =>
    options.relativeTo === undefined ? path : (relativeTo(options.relativeTo, path) ?? path);
  const walk = async (at: string): Promise<void> => {
    const entries = (await fs.readdir(at)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (entries.length === 0 && at !== directory) out[key(at)] = null;
    for (const entry of entries) {
      const path = joinPath(at, entry.name);
      if (entry.type === "directory") await walk(path);
      else if (entry.type === "symlink" && fs.readlink !== undefined) out[key(path)] = await fs.readlink(path);
      else if (entry.type === "file") out[key(path)] = decoder.decode(await fs.readFile(path));
    }
  };
  await walk(directory);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Path forms the tools refuse before resolving, because taken literally they would name another
 * file than the model meant: a `file:` URL, a `~` home prefix, and (for a file to change) a
 * trailing `/`.
 *
 * @module
 */
import type { ToolError } from "../../contract/errors.js";

/**
 * The refusal of a path written as a `file:` URL or with a `~` home prefix, which the tools would
 * otherwise take as a relative name (`/w/file:/x`, `/w/~/x`, as Node's `fs` does with such
 * strings). Neither is resolved: the working directory's host and the home directory mean
 * nothing in a virtual workspace, so the model is told the path to give instead.
 *
 * @param given - the path as the model gave it.
 * @returns `EINPUT` with a message naming the path to use (`"file:///w/a.txt" is a URL; give the
 *   path itself: "/w/a.txt".`), or undefined when the path has neither form. A name that only
 *   starts with `~` (`~draft.txt`) passes, and `./~/x` reaches a directory really named `~`.
 * @example
 * ```ts
 * pathFormError("~/notes.md")?.message;
 * // '"~/notes.md": "~" (a home directory) is not expanded here. Give the path relative to the working directory ("notes.md") or absolute; for a directory really named "~", write "./~/notes.md".'
 * ```
 */
export function pathFormError(given: string): ToolError | undefined {
  if (/^file:/i.test(given)) {
    const rest = given.slice(5);
    const path = rest.startsWith("//")
      ? rest.slice(rest.indexOf("/", 2) < 0 ? rest.length : rest.indexOf("/", 2))
      : rest;
    let decoded = path;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      // Keep it as written: the hint only shows it.
    }
    const instead = decoded === "" ? "/" : decoded;
    return {
      code: "EINPUT",
      message: `${JSON.stringify(given)} is a URL; give the path itself: ${JSON.stringify(instead)}.`,
    };
  }
  if (given === "~" || given.startsWith("~/")) {
    const rest = given.slice(2);
    const relative = rest === "" ? "." : rest;
    return {
      code: "EINPUT",
      message:
        `${JSON.stringify(given)}: "~" (a home directory) is not expanded here. Give the path relative to the working ` +
        `directory (${JSON.stringify(relative)}) or absolute; for a directory really named "~", write ${JSON.stringify(`./${given}`)}.`,
    };
  }
  return undefined;
}

/**
 * The refusal of a path to a file that ends in `/` (`newdir/`), which names a directory: as
 * Node's `writeFile("newdir/")` fails with `EISDIR` instead of making a file `newdir`.
 *
 * @param given - the path as the model gave it.
 * @param verb - what the tool was asked to do (`write`, `edit`, `update`), used in the message.
 * @param path - the resolved absolute path, carried in the error.
 * @returns `EISDIR` with a message saying to drop the `/` or to name a file inside the directory,
 *   or undefined when the path does not end in `/` (nor in `/.`).
 * @example
 * ```ts
 * trailingSlashError("newdir/", "write", "/w/newdir")?.message;
 * // 'Cannot write "newdir/": a path ending in "/" names a directory, not a file. To make a file in it, name the file ("newdir/file.txt"; missing directories are created); for the file "newdir" itself, leave out the final "/".'
 * ```
 */
export function trailingSlashError(given: string, verb: string, path?: string): ToolError | undefined {
  if (!given.endsWith("/") && !given.endsWith("/.")) return undefined;
  const bare = given.replace(/\/\.?$/, "").replace(/\/+$/, "");
  const inside = `${given.endsWith("/.") ? given.slice(0, -1) : given}file.txt`;
  return {
    code: "EISDIR",
    ...(path === undefined ? {} : { path }),
    message:
      `Cannot ${verb} ${JSON.stringify(given)}: a path ending in "/" names a directory, not a file. ` +
      (verb === "write"
        ? `To make a file in it, name the file (${JSON.stringify(inside)}; missing directories are created)` +
          (bare === "" ? "." : `; for the file ${JSON.stringify(bare)} itself, leave out the final "/".`)
        : bare === ""
          ? "Give a file's path."
          : `For the file ${JSON.stringify(bare)} itself, leave out the final "/".`),
  };
}

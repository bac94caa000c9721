/**
 * The place a bash tool stands on when it is given a runner and no `fs`
 * (`createBashTool({ runner: nodeCommandRunner(), env })`): a stand-in backend in the runner's
 * namespace that knows no files. The runner reaches its files itself; the tool only needs a cwd,
 * its roots and the `runBash` rules.
 *
 * @module
 */
import { FsError } from "../../contract/errors.js";
import { resolvePath } from "../../contract/path.js";
import type { CommandRunner } from "../../contract/runner.js";
import type { FileSystem } from "../../contract/types.js";

/**
 * A backend with no files for a runner-only bash tool: `realpath` gives the path back (no link
 * is known), `stat` says every path is a directory (the runner reports a missing one itself),
 * and every other call rejects with `ENOTSUP` naming the fix (pass `fs`). Its `cwd` is the
 * runner's (default `/`).
 *
 * @param runner - the bash tool's runner.
 * @returns a frozen {@link FileSystem} named `runner`.
 * @example
 * ```ts
 * const place = runnerPlace(nodeCommandRunner({ cwd: "/p" }));
 * place.cwd; // "/p"
 * await place.readFile("/p/a"); // rejects: ENOTSUP ... (give the bash tool an fs ...)
 * ```
 */
export function runnerPlace(runner: CommandRunner): FileSystem {
  const cwd = typeof runner.cwd === "string" && runner.cwd.startsWith("/") ? resolvePath("/", runner.cwd) : "/";
  const refuse = (syscall: string) => async (path: string) => {
    throw new FsError("ENOTSUP", {
      syscall,
      path,
      detail: `this bash tool has a ${runner.name} runner and no fs: give it an fs option to save or read files`,
    });
  };
  return Object.freeze({
    name: "runner",
    capabilities: Object.freeze({}),
    cwd,
    readFile: refuse("open"),
    writeFile: refuse("open"),
    stat: async () => ({ type: "directory" as const, size: 0, mtimeMs: 0 }),
    lstat: async () => ({ type: "directory" as const, size: 0, mtimeMs: 0 }),
    readdir: refuse("scandir"),
    mkdir: refuse("mkdir"),
    rm: refuse("rm"),
    rename: refuse("rename"),
    realpath: async (path: string) => resolvePath("/", path),
  });
}

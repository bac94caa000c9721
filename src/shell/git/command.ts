/**
 * The `git` command of the just-bash shell: a just-bash lazy custom command whose module (and
 * isomorphic-git) load on the first `git` a script runs.
 *
 * @module
 */
import type { LazyCommand } from "just-bash";
import type { FileSystem } from "../../contract/types.js";
import type { TrustedRunner } from "../just-bash-module.js";

/**
 * The `git` command for a just-bash `Bash`, over `fs` (the runner passes its gate's checked
 * `gate.fs`, so git reads and writes only what the tools may). See `runGit` for what it does.
 *
 * @param fs - the files git works on.
 * @param trusted - runs backend work as trusted host code (just-bash's defense layer in Node).
 * @returns a lazy command named `git`.
 * @example
 * ```ts
 * const bash = new Bash({ fs: toJustBashFs(gate), customCommands: [gitCommand(gate.fs, (work) => work())] });
 * ```
 */
export function gitCommand(fs: FileSystem, trusted: TrustedRunner): LazyCommand {
  return {
    name: "git",
    load: async () => {
      const { runGit } = await import("./git.js");
      return {
        name: "git",
        async execute(args, context) {
          const env: Record<string, string> = {};
          for (const [key, value] of context.env) if (key.startsWith("GIT_")) env[key] = value;
          return trusted(() => runGit(args, { fs, cwd: context.cwd, env }));
        },
      };
    },
  };
}

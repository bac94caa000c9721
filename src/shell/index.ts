/**
 * `better-fs-tools/shell`: the bridge to just-bash and the command runners.
 *
 * - {@link toJustBashFs}: our backend (through the gate) as just-bash's `IFileSystem`;
 * - {@link justBashFileSystem}: a just-bash store as our backend (one store for tools and shell);
 * - {@link justBashCommandRunner}: runs commands in just-bash (browser, Worker, Node), loading it
 *   on the first command only;
 * - {@link shellEnv}: the commands' environment, from a function the host gives;
 * - {@link CommandRunner}: the contract runners implement (the real-bash `nodeCommandRunner`
 *   lives in `better-fs-tools/node`);
 * - {@link createBashTool} (also in the root entry): the `bash` tool;
 * - {@link runGit}: git (isomorphic-git, loaded on first use, over `better-fs-tools/node-fs`),
 *   also the `git` command of the just-bash shell.
 *
 * Nothing here imports just-bash eagerly: it is loaded with a dynamic `import()`.
 *
 * @example In a browser or a Worker: the model's file tools and its shell share one store.
 * ```ts
 * import { createFsTools } from "better-fs-tools";
 * import { opfsFileSystem } from "better-fs-tools/opfs";
 * const fs = opfsFileSystem({ root: "/project" });
 * const tools = createFsTools({ fs, cwd: "/" }); // tools.bash runs just-bash over the same gate
 * await tools.bash.execute({ command: "grep -rn TODO src | head" });
 * ```
 *
 * @example In Node, a real bash limited by allow rules, with part of the host's environment.
 * ```ts
 * import { createBashTool } from "better-fs-tools";
 * import { nodeFileSystem, nodeCommandRunner } from "better-fs-tools/node";
 * import { shellEnv } from "better-fs-tools/shell";
 * const fs = nodeFileSystem({ cwd: "/home/me/project" });
 * const bash = createBashTool({
 *   fs, cwd: fs.cwd,
 *   runner: nodeCommandRunner({ cwd: fs.cwd }),
 *   env: shellEnv(() => process.env, { include: ["PATH", "HOME", "LANG"] }),
 *   permissions: { allow: [{ tool: "runBash", command: "git status" }, { tool: "runBash", command: "npm run *" }] },
 * });
 * ```
 *
 * What differs from a real bash in the just-bash runner: there are no processes, network or
 * package installs; a path the gate refuses is reported by most commands as `No such file or
 * directory`, so the runner appends the gate's reason (`bash: refused: EACCES: ...`, with the
 * allow rule to add) to stderr; `chmod`/`touch -d` last for one command; hard links are
 * refused (`ENOTSUP`); a command stopped at its timeout loses its output; a backend write error
 * other than a refusal (a read-only or full store) met by a redirect stops the script there.
 *
 * @module
 */
export {
  DEFAULT_COMMAND_DIRS,
  DEFAULT_DIRECTORY_MODE,
  DEFAULT_FILE_MODE,
  DEFAULT_STAT_CACHE_MS,
  toJustBashFs,
} from "./to-just-bash-fs.js";
export type { JustBashFs, ToJustBashFsOptions } from "./to-just-bash-fs.js";
export { JUST_BASH_FILE_SYSTEM_NAME, justBashFileSystem } from "./just-bash-file-system.js";
export { DEV_ZERO_BYTES, VIRTUAL_DEV_DIRECTORY, VIRTUAL_DEV_FILES } from "./virtual-dev.js";
export { justBashCommandRunner } from "./just-bash-runner.js";
export type { ExecutionLimits, JustBashCommandRunnerOptions } from "./just-bash-runner.js";
export { DEFAULT_SECRET_ENV_PATTERNS, shellEnv } from "./shell-env.js";
export type { ShellEnvOptions, ShellEnvSource } from "./shell-env.js";
export type { ShellEnv } from "../contract/runner.js";
export { ABORT_EXIT_CODE, TIMEOUT_EXIT_CODE } from "../contract/runner.js";
export type { CommandOutput, CommandRunner, CommandRunOptions } from "../contract/runner.js";
export { loadJustBash } from "./just-bash-module.js";
export type { JustBashModule, TrustedRunner } from "./just-bash-module.js";
export { createBashTool } from "./defaults.js";
export {
  DEFAULT_BASH_MAX_OUTPUT_BYTES,
  DEFAULT_BASH_MAX_TIMEOUT_MS,
  DEFAULT_BASH_TIMEOUT_MS,
} from "../tools/bash/index.js";
export type { BashInput, BashToolOptions, BashToolSettings } from "../tools/bash/index.js";
export { GIT_SUBCOMMANDS, runGit } from "./git/git.js";
export type { GitOutput, RunGitOptions } from "./git/git.js";
export { loadIsomorphicGit } from "./git/load.js";
export type { IsomorphicGit } from "./git/load.js";

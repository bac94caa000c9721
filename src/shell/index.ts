/**
 * `better-fs-tools/shell`: the bridge to just-bash and the command runners.
 *
 * - {@link toJustBashFs}: our backend (through the gate) as just-bash's `IFileSystem`;
 * - {@link justBashFileSystem}: a just-bash store as our backend (one store for tools and shell);
 * - {@link justBashCommandRunner}: runs commands in just-bash (browser, Worker, Node), loading it
 *   on the first command only;
 * - {@link shellEnv}: the commands' environment, from a function the host gives;
 * - {@link CommandRunner}: the contract runners implement (the real-bash `nodeCommandRunner`
 *   lives in `better-fs-tools/node`).
 *
 * Nothing here imports just-bash eagerly: it is loaded with a dynamic `import()`.
 *
 * @module
 */
export { toJustBashFs, DEFAULT_STAT_CACHE_MS, DEFAULT_FILE_MODE, DEFAULT_DIRECTORY_MODE } from "./to-just-bash-fs.js";
export type { ToJustBashFsOptions, JustBashFs } from "./to-just-bash-fs.js";
export { justBashFileSystem, JUST_BASH_FILE_SYSTEM_NAME } from "./just-bash-file-system.js";
export { justBashCommandRunner, describeJustBash } from "./just-bash-runner.js";
export type { JustBashCommandRunnerOptions, ExecutionLimits } from "./just-bash-runner.js";
export { shellEnv, DEFAULT_SECRET_ENV_PATTERNS } from "./shell-env.js";
export type { ShellEnv, ShellEnvOptions, ShellEnvSource } from "./shell-env.js";
export { ABORT_EXIT_CODE, TIMEOUT_EXIT_CODE } from "./runner.js";
export type { CommandOutput, CommandRunner, CommandRunOptions } from "./runner.js";
export { loadJustBash } from "./just-bash-module.js";
export type { JustBashModule, TrustedRunner } from "./just-bash-module.js";
export { createBashTool, DEFAULT_BASH_MAX_OUTPUT_BYTES, DEFAULT_BASH_MAX_TIMEOUT_MS, DEFAULT_BASH_TIMEOUT_MS } from "../tools/bash.js";
export type { BashInput, BashToolOptions, BashToolSettings } from "../tools/bash.js";

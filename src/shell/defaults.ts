/**
 * The bash tool and the tool set with just-bash as their default runner: what the package's
 * entries export as `createBashTool` and `createFsTools`. The tools layer itself has no runner
 * (it imports no shell code); this module supplies one.
 *
 * @module
 */
import type { Gate } from "../gate/gate.js";
import {
  createBashTool as createCoreBashTool,
  type BashInput,
  type BashToolOptions,
  type FallbackRunner,
} from "../tools/bash/index.js";
import { createFsTools as createCoreFsTools, type FsToolsOf, type FsToolsOptions } from "../tools/kit/fs-tools.js";
import type { ShellResult } from "../tools/kit/result.js";
import type { CoreTool } from "../tools/kit/tool.js";
import { describeJustBash, justBashCommandRunner } from "./just-bash-runner.js";

/** just-bash over the tools' own gate: confined (every file access passes the gate). */
export const JUST_BASH_FALLBACK: FallbackRunner = Object.freeze({
  create: (gate: Gate) => justBashCommandRunner({ fs: gate }),
  describe: (backendName: string | undefined) => describeJustBash(backendName),
});

/**
 * Create the `bash` tool: commands run through `options.runner`, by default just-bash over the
 * tools' backend behind the tools' gate (browser, Worker and Node; just-bash loads on the first
 * command). Everything else is {@link createCoreBashTool}'s.
 *
 * @param options - the shared context options plus the bash settings (`runner`, `env`,
 *   `maxOutputBytes` in bytes, `defaultTimeoutMs` and `maxTimeoutMs` in milliseconds).
 * @returns a tool named `bash` giving stdout, stderr and the exit code.
 * @throws TypeError at creation for an unknown option or a bad value (named).
 * @example
 * ```ts
 * const bash = createBashTool({ fs: memoryFileSystem(), cwd: "/w" });
 * const result = await bash.execute({ command: "echo hi > a.txt && cat a.txt" });
 * result.stdout; // "hi\n"
 * ```
 */
export function createBashTool(options: BashToolOptions): CoreTool<BashInput, ShellResult> {
  return createCoreBashTool(options, JUST_BASH_FALLBACK);
}

/**
 * Create every core tool over one backend with shared state (see the tools layer's
 * `createFsTools`); `bash` runs in just-bash unless `bash.runner` is given.
 *
 * @param options - the shared context and each tool's settings under its name.
 * @returns `{ read, write, edit, list, glob, grep, apply_patch, bash }`.
 * @throws TypeError at creation for an unknown option or a bad value (named).
 * @example
 * ```ts
 * const tools = createFsTools({ fs: memoryFileSystem({ files: { "/w/a.txt": "x\n" } }), cwd: "/w" });
 * await tools.read.execute({ path: "a.txt" });
 * ```
 */
export function createFsTools<const O extends FsToolsOptions>(options: O): FsToolsOf<O> {
  return createCoreFsTools(options, JUST_BASH_FALLBACK);
}

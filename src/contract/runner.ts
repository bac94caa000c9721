/**
 * The command runner contract: what the bash tool (and the sandbox and AI SDK adapters) call to
 * run one command line. Two runners ship: {@link justBashCommandRunner} (just-bash, a bash
 * written in JavaScript, over any `FileSystem`; browser, Worker and Node) and
 * `nodeCommandRunner` (a real `/bin/bash` child process; Node only, from `better-fs-tools/node`).
 *
 * A runner never throws for a command that fails, times out or prints too much: those are
 * results. It throws only for programmer errors (bad options) or when its engine cannot load.
 *
 * @module
 */

/** The environment of one command: called before every command (see `shellEnv`). */
export type ShellEnv = () => Readonly<Record<string, string>>;

/** What one run is given. */
export interface CommandRunOptions {
  /** The command line, run as `bash -c` would run it. */
  readonly command: string;
  /** Absolute working directory, in the runner's namespace (the backend's for just-bash, the host's for Node). */
  readonly cwd: string;
  /** The whole environment of the command (nothing is inherited from the host). */
  readonly env: Readonly<Record<string, string>>;
  /** Wall-clock limit in milliseconds; past it the command is stopped and `timedOut` is true. */
  readonly timeoutMs: number;
  /** Stops the command early (the result then has exit code 130 unless it had already ended). */
  readonly abortSignal?: AbortSignal;
  /** Text given on standard input; without it stdin is empty (closed). */
  readonly stdin?: string;
  /**
   * Called with each file the command read, when the runner sees its reads (just-bash does; a
   * real shell does not): the absolute path in the runner's namespace and the bytes read. The
   * bash tool records them as reads for read-before-write.
   */
  readonly onRead?: (path: string, bytes: Uint8Array) => void;
}

/** What one run gives back. */
export interface CommandOutput {
  /** Standard output, decoded as UTF-8 (invalid bytes become U+FFFD). */
  readonly stdout: string;
  /** Standard error, decoded as UTF-8. */
  readonly stderr: string;
  /** Exit code: 0 for success; 124 when the timeout stopped it (as `timeout(1)`); 130 when aborted. */
  readonly exitCode: number;
  /** True when the command was stopped because it ran past `timeoutMs`. */
  readonly timedOut: boolean;
  /**
   * Bytes the runner itself dropped from stdout and stderr because of its own memory cap (the
   * Node runner keeps at most `maxOutputBytes` per stream). 0 or absent when nothing was dropped.
   */
  readonly droppedBytes?: number;
}

/**
 * Runs command lines. Small on purpose: a name, a sentence for the tool description, `run`, and
 * whether its file access is confined by the gate (`confined`).
 *
 * @example
 * ```ts
 * const runner: CommandRunner = justBashCommandRunner({ fs: gate });
 * const out = await runner.run({ command: "ls", cwd: "/w", env: {}, timeoutMs: 10_000 });
 * out.stdout; // "a.txt\n"
 * ```
 */
export interface CommandRunner {
  /** Short name for messages: `just-bash`, `node`. */
  readonly name: string;
  /**
   * Whether every file access of the commands goes through the gate. `true` for the just-bash
   * runner (its files are the gated backend); `false` for a real shell such as
   * `nodeCommandRunner` (the commands reach whatever the host user can) or a remote sandbox.
   * The bash tool fails closed for an unconfined runner: a command runs only when a `runBash`
   * allow rule admits it or `approve` says yes. Optional; absent means `false` (unconfined).
   */
  readonly confined?: boolean;
  /**
   * The working directory the runner was made for (absolute, in its namespace), e.g.
   * `nodeCommandRunner({ cwd })` or `justBashCommandRunner({ fs, cwd })`. The bash tool and
   * `toSandboxSession` start commands there when their own `cwd` is not given.
   */
  readonly cwd?: string;
  /** One sentence naming the engine and what it sees, for the tool description the model reads. */
  describe(): string;
  /** Run one command line. Rejects only for programmer errors or when the engine cannot load. */
  run(options: CommandRunOptions): Promise<CommandOutput>;
}

/** Exit code of a command stopped by its timeout (as `timeout(1)` reports it). */
export const TIMEOUT_EXIT_CODE = 124;
/** Exit code of a command stopped by an abort signal (as bash reports SIGINT). */
export const ABORT_EXIT_CODE = 130;

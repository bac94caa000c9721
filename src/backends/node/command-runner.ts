/**
 * `nodeCommandRunner`: runs command lines in a real `/bin/bash` child process (Node only;
 * exported from `better-fs-tools/node`).
 *
 * @module
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { resolvePath } from "../../contract/path.js";
import {
  ABORT_EXIT_CODE,
  TIMEOUT_EXIT_CODE,
  type CommandOutput,
  type CommandRunner,
  type CommandRunOptions,
} from "../../contract/runner.js";
import { assertKnownOptions } from "../../contract/options.js";

/** Most bytes kept per stream (stdout, stderr) in memory by default: 16 MiB. The rest is counted and dropped. */
export const DEFAULT_NODE_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** After SIGTERM, how long the process group gets before SIGKILL, in milliseconds. */
export const DEFAULT_KILL_GRACE_MS = 500;
/** After bash exits, how long background children may keep its output pipes open before they are killed, in milliseconds. */
export const DEFAULT_EXIT_DRAIN_MS = 200;

/** Options of {@link nodeCommandRunner}. */
export interface NodeCommandRunnerOptions {
  /**
   * Default working directory, used when a run gives none (absolute; a host path unless `root` is
   * given, then a path under it). Declared as the runner's `cwd`, so the bash tool starts there.
   * @default `process.cwd()`, or `/` when `root` is given
   */
  readonly cwd?: string;
  /**
   * The host directory that stands for `/` in the tools' namespace (the `root` of
   * `nodeFileSystem`): a run's `cwd` is joined to it. Default: `/` (run paths are host paths).
   */
  readonly root?: string;
  /** The shell binary, run as `<shell> -c <command>`. @default "/bin/bash" */
  readonly shell?: string;
  /** Bytes kept per stream; output past it is dropped and counted in `droppedBytes`. @default 16 MiB */
  readonly maxOutputBytes?: number;
  /** Milliseconds between SIGTERM and SIGKILL when a run is stopped. @default 500 */
  readonly killGraceMs?: number;
}

const OPTION_KEYS = ["cwd", "root", "shell", "maxOutputBytes", "killGraceMs"] as const;

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new TypeError(`nodeCommandRunner ${name} must be an integer ≥ 0, got ${String(value)}`);
  }
  return value;
}

/** A byte sink that keeps at most `limit` bytes and counts the rest. */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  dropped = 0;
  constructor(private readonly limit: number) {}
  push(chunk: Buffer): void {
    const room = this.limit - this.kept;
    if (room >= chunk.length) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
      return;
    }
    if (room > 0) {
      this.chunks.push(chunk.subarray(0, room));
      this.kept += room;
    }
    this.dropped += chunk.length - Math.max(room, 0);
  }
  text(): string {
    return new TextDecoder("utf-8", { ignoreBOM: true }).decode(Buffer.concat(this.chunks));
  }
}

/**
 * A {@link CommandRunner} on a real bash process: `<shell> -c <command>` in `cwd`, with exactly
 * the environment the run gives (nothing inherited from `process.env`; build it with
 * `shellEnv`), stdin closed (or the run's `stdin` text, then closed), in its own process group.
 *
 * - Timeout: past `timeoutMs` the whole process group gets SIGTERM, then SIGKILL after
 *   `killGraceMs`; the result has exit code 124 and `timedOut: true`.
 * - `abortSignal`: the same, with exit code 130.
 * - Background children still holding the output pipes {@link DEFAULT_EXIT_DRAIN_MS} after bash
 *   exits are killed with the group.
 * - Output: at most `maxOutputBytes` per stream is kept; `droppedBytes` counts the rest.
 * - A process that dies by a signal reports 128 + the signal number, as bash does.
 * - A shell that cannot start (missing binary or cwd) gives exit code 127 and the reason on stderr.
 *
 * This runs real programs with the host's rights: give it only to trusted models or behind
 * `runBash` allow rules (see the bash tool), and never in a browser.
 *
 * @param options - see {@link NodeCommandRunnerOptions}.
 * @returns a runner named `node`, with `confined: false`: the bash tool runs its commands only
 *   when a `runBash` allow rule admits them or `approve` says yes.
 * @throws TypeError at creation for an unknown option, a relative `cwd` or `root`, or a negative or
 *   non-integer `maxOutputBytes`/`killGraceMs`.
 * @example
 * ```ts
 * import { nodeCommandRunner } from "better-fs-tools/node";
 * const runner = nodeCommandRunner({ cwd: "/home/me/project" });
 * const out = await runner.run({ command: "git status --short", cwd: "/home/me/project", env: { PATH: "/usr/bin:/bin" }, timeoutMs: 10_000 });
 * ```
 */
export function nodeCommandRunner(options: NodeCommandRunnerOptions = {}): CommandRunner {
  if (typeof options !== "object" || options === null) throw new TypeError("nodeCommandRunner needs an options object");
  assertKnownOptions("nodeCommandRunner", options, OPTION_KEYS);
  if (options.cwd !== undefined && (typeof options.cwd !== "string" || !options.cwd.startsWith("/"))) {
    throw new TypeError(`nodeCommandRunner cwd must be an absolute path, got ${JSON.stringify(options.cwd)}`);
  }
  const shell = options.shell ?? "/bin/bash";
  if (typeof shell !== "string" || shell === "")
    throw new TypeError("nodeCommandRunner shell must be a non-empty path");
  const maxOutputBytes = positiveInteger("maxOutputBytes", options.maxOutputBytes, DEFAULT_NODE_MAX_OUTPUT_BYTES);
  const killGraceMs = positiveInteger("killGraceMs", options.killGraceMs, DEFAULT_KILL_GRACE_MS);
  const root = options.root === undefined ? "/" : options.root;
  if (typeof root !== "string" || !root.startsWith("/")) {
    throw new TypeError(`nodeCommandRunner root must be an absolute path, got ${JSON.stringify(options.root)}`);
  }
  const defaultCwd = options.cwd ?? (options.root === undefined ? resolvePath("/", process.cwd()) : "/");
  /** The host path of a run's cwd (which is in the tools' namespace). */
  const hostCwd = (cwd: string | undefined): string => {
    const inNamespace = resolvePath("/", cwd || defaultCwd);
    return root === "/" ? inNamespace : resolvePath(root, `.${inNamespace}`);
  };

  return {
    name: "node",
    // A real bash reaches every file the host user can: the bash tool fails closed for it.
    confined: false,
    cwd: defaultCwd,

    describe() {
      return `Commands run in a real ${shell} process on the host machine (Node.js), with the host's programs and files; each command starts a fresh shell.`;
    },

    run(run: CommandRunOptions): Promise<CommandOutput> {
      return new Promise<CommandOutput>((resolve) => {
        const stdout = new CappedBuffer(maxOutputBytes);
        const stderr = new CappedBuffer(maxOutputBytes);
        let stopReason: "timeout" | "abort" | undefined;
        let settled = false;
        let exited = false;
        const timers: ReturnType<typeof setTimeout>[] = [];

        const child = spawn(shell, ["-c", run.command], {
          cwd: hostCwd(run.cwd),
          env: { ...run.env },
          detached: true,
          stdio: [run.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
          windowsHide: true,
        });

        const killGroup = (signal: NodeJS.Signals): void => {
          if (child.pid === undefined) return;
          try {
            process.kill(-child.pid, signal);
          } catch {
            // The group is already gone.
          }
        };
        const stop = (reason: "timeout" | "abort"): void => {
          if (stopReason !== undefined || settled || exited) return;
          stopReason = reason;
          killGroup("SIGTERM");
          timers.push(setTimeout(() => killGroup("SIGKILL"), killGraceMs));
        };
        const onAbort = (): void => stop("abort");

        const finish = (exitCode: number, extraError?: string): void => {
          if (settled) return;
          settled = true;
          for (const timer of timers) clearTimeout(timer);
          run.abortSignal?.removeEventListener("abort", onAbort);
          const dropped = stdout.dropped + stderr.dropped;
          resolve({
            stdout: stdout.text(),
            stderr: stderr.text() + (extraError ?? ""),
            exitCode:
              stopReason === "timeout" ? TIMEOUT_EXIT_CODE : stopReason === "abort" ? ABORT_EXIT_CODE : exitCode,
            timedOut: stopReason === "timeout",
            ...(dropped > 0 ? { droppedBytes: dropped } : {}),
          });
        };

        child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
        child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
        if (run.stdin !== undefined && child.stdin !== null) {
          child.stdin.on("error", () => {
            // The command exited without reading its input.
          });
          child.stdin.end(run.stdin);
        }

        child.on("error", (error: NodeJS.ErrnoException) => {
          finish(127, `${shell}: cannot start in ${hostCwd(run.cwd)}: ${error.message}\n`);
        });

        let exitCode = 0;
        child.on("exit", (code, signal) => {
          exited = true;
          exitCode = code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0));
          // Background children may still hold the pipes: give them a moment, then end the group.
          timers.push(
            setTimeout(() => {
              killGroup("SIGKILL");
            }, DEFAULT_EXIT_DRAIN_MS),
          );
        });
        child.on("close", () => finish(exitCode));

        if (run.abortSignal?.aborted) stop("abort");
        else run.abortSignal?.addEventListener("abort", onAbort, { once: true });
        timers.push(setTimeout(() => stop("timeout"), Math.max(1, run.timeoutMs)));
      });
    },
  };
}

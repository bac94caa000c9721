/**
 * `justBashCommandRunner`: runs command lines in just-bash (a bash interpreter written in
 * JavaScript) over one of our backends, through the gate. Works in browsers, Workers and Node;
 * just-bash is imported on the first `run`, never before.
 *
 * @module
 */
import type { BashOptions } from "just-bash";
import { createGate, type Gate } from "../gate/gate.js";
import type { FileSystem } from "../contract/types.js";
import { loadJustBash, trustedRunnerOf } from "./just-bash-module.js";
import {
  ABORT_EXIT_CODE,
  TIMEOUT_EXIT_CODE,
  type CommandOutput,
  type CommandRunner,
  type CommandRunOptions,
} from "../contract/runner.js";
import { DEFAULT_COMMAND_DIRS, toJustBashFs } from "./to-just-bash-fs.js";
import { assertKnownOptions } from "../contract/options.js";
import { justBashFileSystem } from "./just-bash-file-system.js";
import { gitCommand } from "./git/command.js";

/** Options of {@link justBashCommandRunner}. */
export interface JustBashCommandRunnerOptions {
  /**
   * The files the shell sees, always through a gate:
   * - a {@link Gate}: its checked `gate.fs` is used, with the gate's own roots, rules and
   *   `approve` (pass the tools' gate so the shell and the tools agree);
   * - a {@link FileSystem} (a bare backend, or any other): the runner confines it with a gate of
   *   its own, `createGate({ fs, cwd })`, whose only root is `cwd` and which has no rules, so a
   *   command reaching outside `cwd` (`cat /secret/key`) is refused (`No such file or
   *   directory`, then `bash: refused: EACCES: ...` on stderr).
   * Default: a fresh in-memory store ({@link justBashFileSystem}), empty, of this runner alone.
   */
  readonly fs?: Gate | FileSystem;
  /**
   * Default working directory (absolute, in the backend's namespace), declared as the runner's
   * `cwd`. Default: the gate's `cwd`, else the backend's own (`fs.cwd`), else `/`. For a bare
   * backend it is also the root of the runner's own gate: without it (and without roots the
   * backend declares), that gate admits the whole backend.
   */
  readonly cwd?: string;
  /**
   * just-bash execution limits (`maxCommandCount`, `maxOutputSize`, ...). `maxExecutionTimeMs`
   * is replaced by each run's `timeoutMs` when that is lower.
   */
  readonly limits?: ExecutionLimits;
  /** Passed to {@link toJustBashFs}: how long stats are reused within one run, in milliseconds. @default 1000 */
  readonly statCacheMs?: number;
}

const OPTION_KEYS = ["fs", "cwd", "limits", "statCacheMs"] as const;

/** just-bash's execution limits (`maxCommandCount`, `maxOutputSize`, `maxExecutionTimeMs`...). */
export type ExecutionLimits = NonNullable<BashOptions["executionLimits"]>;

/** just-bash's message when its execution deadline stops a script. */
const DEADLINE_MESSAGE = /exceeded (?:its )?execution deadline/;
/** just-bash's lines for a stopped script, replaced by one line of ours. */
const STOP_MESSAGES = /^bash: (?:execution aborted|\S+ exceeded (?:its )?execution deadline(?: \(\d+ms\))?)\n/gm;

/**
 * The sentence a just-bash runner gives for tool descriptions.
 *
 * @param backendName - the backend's name (`memory`, `opfs`...), when known.
 */
export function describeJustBash(backendName?: string): string {
  return (
    "Commands run in just-bash, a bash interpreter written in JavaScript with the usual tools " +
    "(ls, cat, grep, sed, awk, find, sort, head, tail, wc, jq, diff...) and git (init, add, commit, status, diff, log, checkout), over the same files as the " +
    `other tools${backendName === undefined ? "" : ` (${backendName} storage)`}; there are no real processes, no network and no package installs.`
  );
}

/** Refusals noted at the end of stderr, at most this many (then a count of the rest). */
export const MAX_REFUSAL_NOTES = 5;

/** The gate's refusals as stderr lines: just-bash itself prints them as "No such file or directory". */
function refusalNotes(refusals: ReadonlySet<string>): string {
  if (refusals.size === 0) return "";
  const shown = [...refusals].slice(0, MAX_REFUSAL_NOTES).map((message) => `bash: refused: ${message}\n`);
  const more = refusals.size - MAX_REFUSAL_NOTES;
  return shown.join("") + (more > 0 ? `bash: refused: ${more} more path${more === 1 ? "" : "s"}\n` : "");
}

function isGate(value: Gate | FileSystem): value is Gate {
  const candidate = value as Partial<Gate>;
  return typeof candidate.checkCommand === "function" && typeof candidate.check === "function";
}

/**
 * A {@link CommandRunner} on just-bash over our files, always through a gate: the {@link Gate}
 * passed as `fs`, or for a bare backend a gate of the runner's own confined to `cwd` (so
 * `justBashCommandRunner({ fs, cwd: "/w" })` cannot read `/secret/key`). Each run gets a fresh shell (variables,
 * functions and `cd` do not carry over, files do) and a fresh stat cache; scripts run as real
 * bash would run them (leading whitespace kept, so heredocs work). `HOME` is the default `cwd`
 * unless the run's env sets it. The gate's refusals are appended to stderr as
 * `bash: refused: <reason>` lines (at most {@link MAX_REFUSAL_NOTES}), since just-bash's commands
 * print them as `No such file or directory`. A backend error just-bash lets escape (a failed
 * redirect write) ends the run with exit code 1 and the error on stderr.
 *
 * Timeouts: a run past `timeoutMs` is stopped by just-bash's execution deadline (which also
 * stops busy loops) or by an abort at the next statement, and reports exit code 124 with
 * `timedOut: true` and `bash: stopped: timed out after N ms` on stderr (just-bash drops the
 * output of a stopped script). `abortSignal` stops it the same way with exit code 130 and
 * `bash: stopped: aborted`.
 *
 * @param options - see {@link JustBashCommandRunnerOptions}.
 * @returns a runner named `just-bash`, with `confined: true`.
 * @throws TypeError at creation for an unknown option, an `fs` that is neither a Gate nor a
 *   FileSystem (`null`, a string: `justBashCommandRunner needs an fs option (a Gate, or a
 *   FileSystem)`), a relative `cwd` or a `limits` that is not an object. Without `fs` nothing is
 *   thrown: `justBashCommandRunner({})` works on a fresh, empty in-memory store of its own, which
 *   no other tool sees (pass the tools' gate or backend to share their files). `run` rejects only
 *   when just-bash cannot be loaded.
 * @example
 * ```ts
 * const gate = createGate({ fs: memoryFileSystem(), cwd: "/w" });
 * const runner = justBashCommandRunner({ fs: gate });
 * const out = await runner.run({ command: "echo hi | tr a-z A-Z", cwd: "/w", env: {}, timeoutMs: 5_000 });
 * out.stdout; // "HI\n"
 * ```
 */
export function justBashCommandRunner(options: JustBashCommandRunnerOptions = {}): CommandRunner {
  if (typeof options !== "object" || options === null)
    throw new TypeError("justBashCommandRunner needs an options object");
  assertKnownOptions("justBashCommandRunner", options, OPTION_KEYS);
  const given = options.fs === undefined ? justBashFileSystem() : options.fs;
  if (given === null || typeof given !== "object") {
    throw new TypeError("justBashCommandRunner needs an fs option (a Gate, or a FileSystem)");
  }
  if (options.cwd !== undefined && (typeof options.cwd !== "string" || !options.cwd.startsWith("/"))) {
    throw new TypeError(`justBashCommandRunner cwd must be an absolute path, got ${JSON.stringify(options.cwd)}`);
  }
  if (!isGate(given) && typeof given.readFile !== "function") {
    throw new TypeError("justBashCommandRunner needs an fs option (a Gate, or a FileSystem)");
  }
  // A bare backend is never used unchecked: it gets a gate of its own, confined to cwd (the
  // given one, else the backend's own cwd and roots, else "/").
  const source: Gate = isGate(given)
    ? given
    : createGate({ fs: given, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  const defaultCwd = options.cwd ?? source.cwd;
  if (options.limits !== undefined && (typeof options.limits !== "object" || options.limits === null)) {
    throw new TypeError("justBashCommandRunner limits must be an object of just-bash ExecutionLimits");
  }
  const limits: ExecutionLimits = { ...options.limits };
  const backendName = source.backend.name;
  // Validates statCacheMs now rather than on the first run.
  toJustBashFs(source, { statCacheMs: options.statCacheMs, trusted: (work) => work() });

  return {
    name: "just-bash",
    // Every file call goes through the gate (the one given, or the runner's own).
    confined: true,
    cwd: defaultCwd,

    describe() {
      return describeJustBash(backendName);
    },

    async run(run: CommandRunOptions): Promise<CommandOutput> {
      const module = await loadJustBash();
      const cwd = run.cwd || defaultCwd;
      const refusals = new Set<string>();
      const fs = toJustBashFs(source, {
        statCacheMs: options.statCacheMs,
        trusted: trustedRunnerOf(module),
        onRefusal: (error) => refusals.add(error.message),
        ...(run.onRead === undefined ? {} : { onRead: run.onRead }),
        commandDirs: [
          ...new Set([
            ...(run.env.PATH ?? "").split(":").filter((dir) => dir.startsWith("/")),
            ...DEFAULT_COMMAND_DIRS,
          ]),
        ],
      });
      if (run.abortSignal?.aborted)
        return { stdout: "", stderr: "bash: aborted before it started\n", exitCode: ABORT_EXIT_CODE, timedOut: false };
      const cwdStat = await fs.stat(cwd).catch(() => undefined);
      if (cwdStat === undefined || !cwdStat.isDirectory) {
        return { stdout: "", stderr: `bash: cd: ${cwd}: No such file or directory\n`, exitCode: 1, timedOut: false };
      }
      const deadlineMs = Math.max(1, Math.min(run.timeoutMs, limits.maxExecutionTimeMs ?? Number.POSITIVE_INFINITY));
      const bash = new module.Bash({
        fs,
        cwd,
        // HOME is the workspace unless the run says otherwise (just-bash would use "/", usually refused).
        env: { HOME: defaultCwd, ...run.env },
        executionLimits: { ...limits, maxExecutionTimeMs: deadlineMs },
        // git (isomorphic-git over the same gate), loaded on the first `git` a script runs.
        customCommands: [gitCommand(source.fs, trustedRunnerOf(module))],
      });
      const controller = new AbortController();
      let timerFired = false;
      let abortedByCaller = false;
      const timer = setTimeout(() => {
        timerFired = true;
        controller.abort();
      }, deadlineMs);
      const onAbort = (): void => {
        abortedByCaller = true;
        controller.abort();
      };
      run.abortSignal?.addEventListener("abort", onAbort, { once: true });
      const startedAt = Date.now();
      try {
        let result: { stdout: string; stderr: string; exitCode: number };
        try {
          result = await bash.exec(run.command, {
            signal: controller.signal,
            rawScript: true,
            ...(run.stdin === undefined ? {} : { stdin: run.stdin }),
          });
        } catch (error) {
          // just-bash lets some backend errors escape (a failed redirect write): the script stops there.
          const message = error instanceof Error ? error.message : String(error);
          result = {
            stdout: "",
            stderr: `bash: ${message} (the script stopped here; its earlier output is lost)\n`,
            exitCode: 1,
          };
        }
        const stopped =
          result.exitCode === TIMEOUT_EXIT_CODE &&
          (timerFired ||
            abortedByCaller ||
            DEADLINE_MESSAGE.test(result.stderr) ||
            Date.now() - startedAt >= deadlineMs);
        const timedOut = stopped && !abortedByCaller;
        // Our timer and just-bash's deadline race; whichever wins, say the same thing.
        const stderr = stopped
          ? `${result.stderr.replace(STOP_MESSAGES, "")}bash: stopped: ${timedOut ? `timed out after ${deadlineMs} ms` : "aborted"}\n`
          : result.stderr;
        return {
          stdout: result.stdout,
          stderr: stderr + refusalNotes(refusals),
          exitCode: stopped && abortedByCaller ? ABORT_EXIT_CODE : result.exitCode,
          timedOut,
        };
      } finally {
        clearTimeout(timer);
        run.abortSignal?.removeEventListener("abort", onAbort);
      }
    },
  };
}

/**
 * The `bash` tool: run a command line and get its stdout, stderr and exit code. By default the
 * command runs in just-bash over the tools' own files (through the same gate), so `cat` sees
 * what `write` wrote and `read` sees what `echo >` wrote; a host can pass another runner (the
 * real `/bin/bash` of `nodeCommandRunner`, a sandbox).
 *
 * @module
 */
import { askApprove, createGate, type Gate } from "../../gate/gate.js";
import type { CommandOutput, CommandRunner, ShellEnv } from "../../contract/runner.js";
import type { FileSystem } from "../../contract/types.js";
import type { PerCall, ToolContext, ToolContextOptions } from "../kit/context.js";
import { recordSeen } from "../kit/freshness.js";
import { runnerPlace } from "./runner-place.js";
import { defineCoreTool } from "../kit/define.js";
import { positiveIntegerOption, type InputSpec } from "../kit/input.js";
import { optionValueError } from "../../contract/options.js";
import { offloadOutput } from "../kit/offload.js";
import { errorResult, textParts, type ShellResult } from "../kit/result.js";
import { type ToolError } from "../../contract/errors.js";
import { encodeUtf8, formatBytes, formatCount, plural } from "../kit/text.js";
import { coreTool, ToolInputError, type CoreTool, type JsonSchema, type ToolCall } from "../kit/tool.js";

/** Default command timeout: 2 minutes, in milliseconds. */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
/** Longest timeout a call may ask for by default: 10 minutes, in milliseconds. */
export const DEFAULT_BASH_MAX_TIMEOUT_MS = 600_000;
/** Output shown to the model by default: 30,000 bytes (UTF-8) of stdout and stderr together. */
export const DEFAULT_BASH_MAX_OUTPUT_BYTES = 30_000;

/** The `bash` tool's own options (besides {@link ToolContextOptions}). */
export interface BashToolSettings {
  /**
   * Runs the commands. Default (the `createBashTool` of the package's entries): just-bash over
   * the tools' backend, through the tools' gate (in browsers, Workers and Node; just-bash is
   * loaded on the first command).
   */
  readonly runner?: CommandRunner;
  /**
   * The commands' environment: a fixed object, or a {@link ShellEnv} (from `shellEnv`) read
   * before each command. Nothing comes from `process.env` unless the host passes it. @default {}
   */
  readonly env?: ShellEnv | Readonly<Record<string, string>>;
  /**
   * Bytes (UTF-8) of output the model sees. Longer output is cut in the middle (the start and
   * the end are kept) with a marker saying how much was removed, and saved whole under
   * `tool-outputs/` for a ranged read. @default DEFAULT_BASH_MAX_OUTPUT_BYTES
   */
  readonly maxOutputBytes?: number;
  /** Timeout of a call that gives none, in milliseconds. @default DEFAULT_BASH_TIMEOUT_MS */
  readonly defaultTimeoutMs?: number;
  /** Largest `timeout` a call may ask for, in milliseconds. @default DEFAULT_BASH_MAX_TIMEOUT_MS */
  readonly maxTimeoutMs?: number;
}

/**
 * The runner a bash tool uses when its options give none, made once per gate. The tools layer
 * has no runner of its own: the package's entries pass just-bash's (src/shell/defaults.ts).
 */
export interface FallbackRunner {
  /** Make the runner for one gate (called at the first command over that gate). */
  create(gate: Gate): CommandRunner;
  /** The engine sentence of the tool description, for a backend of this name. */
  describe(backendName: string | undefined): string;
}

/** Options of {@link createBashTool}. */
export interface BashToolOptions extends Omit<ToolContextOptions, "fs">, BashToolSettings {
  /**
   * The backend (as every tool's `fs`): the gate checks the `cwd` input against it and long
   * output is saved to it. Optional with a `runner`: the tool then stands in the runner's place
   * (its `cwd`), checks commands only, and cannot save long output.
   */
  readonly fs?: PerCall<FileSystem>;
}

/** Input of the `bash` tool. */
export interface BashInput {
  /** The command line, run as `bash -c` runs it. */
  readonly command: string;
  /** Timeout in milliseconds. @default the tool's `defaultTimeoutMs` */
  readonly timeout?: number;
  /** Working directory, relative to the tool's cwd or absolute. @default the tool's cwd */
  readonly cwd?: string;
}

/** The keys of {@link BashToolSettings}. */
export const BASH_SETTING_KEYS = ["runner", "env", "maxOutputBytes", "defaultTimeoutMs", "maxTimeoutMs"] as const;

/** The fields of {@link BashInput}. */
export const BASH_INPUT_SPEC: InputSpec = {
  command: { type: "string", required: true, nonEmpty: true, description: "The bash command line to run." },
  timeout: { type: "integer", min: 1, description: "Timeout in milliseconds; the command is stopped after it." },
  cwd: {
    type: "string",
    nonEmpty: true,
    description: "Working directory for this command, relative to the default one or absolute.",
  },
};

function positiveInteger(name: string, value: unknown, fallback: number): number {
  return positiveIntegerOption("createBashTool", name, value, fallback);
}

/** The model-facing text of an output: stdout, then stderr under a `[stderr]` line. */
function renderBody(out: Pick<CommandOutput, "stdout" | "stderr">): string {
  const withNewline = (text: string): string => (text === "" || text.endsWith("\n") ? text : `${text}\n`);
  let body = withNewline(out.stdout);
  if (out.stderr !== "") body += `[stderr]\n${withNewline(out.stderr)}`;
  return body;
}

function countLines(bytes: Uint8Array, from: number, to: number): number {
  let lines = 0;
  for (let index = from; index < to; index++) if (bytes[index] === 10) lines++;
  return lines;
}

/** Where to cut `bytes` to keep about `keepBytes`: half at the start, half at the end, on line ends when near. */
function middleCut(bytes: Uint8Array, keepBytes: number): { headEnd: number; tailStart: number } {
  const half = Math.floor(keepBytes / 2);
  let headEnd = half;
  while (headEnd > 0 && ((bytes[headEnd] ?? 0) & 0xc0) === 0x80) headEnd--;
  const lineEnd = bytes.lastIndexOf(10, headEnd - 1);
  if (lineEnd >= half / 2) headEnd = lineEnd + 1;
  let tailStart = bytes.length - (keepBytes - half);
  while (tailStart < bytes.length && ((bytes[tailStart] ?? 0) & 0xc0) === 0x80) tailStart++;
  const lineStart = bytes.indexOf(10, tailStart);
  if (lineStart >= 0 && lineStart + 1 - tailStart <= (keepBytes - half) / 2) tailStart = lineStart + 1;
  return { headEnd, tailStart: Math.max(tailStart, headEnd) };
}

const decoder = new TextDecoder();

/** Cut `text` in the middle to at most about `maxBytes`, with `marker(removedBytes, removedLines, headLines)` between. */
function cutMiddle(
  text: string,
  maxBytes: number,
  marker: (removedBytes: number, removedLines: number, headLines: number) => string,
): { text: string; cut: boolean } {
  if (text.length * 3 <= maxBytes) return { text, cut: false };
  const bytes = encodeUtf8(text);
  if (bytes.length <= maxBytes) return { text, cut: false };
  const { headEnd, tailStart } = middleCut(bytes, maxBytes);
  const head = decoder.decode(bytes.subarray(0, headEnd));
  const tail = decoder.decode(bytes.subarray(tailStart));
  const note = marker(tailStart - headEnd, countLines(bytes, headEnd, tailStart), countLines(bytes, 0, headEnd));
  return { text: `${head}${head === "" || head.endsWith("\n") ? "" : "\n"}${note}\n${tail}`, cut: true };
}

function shortMarker(removedBytes: number, removedLines: number): string {
  return `[… ${formatBytes(removedBytes)} (${plural(removedLines, "line")}) removed …]`;
}

/**
 * Create the `bash` tool.
 *
 * Each call: the `cwd` input (if any) is resolved against the tool's cwd and checked by the gate
 * (`listDir`); the command is checked by `gate.checkCommand` (`runBash` allow rules by prefix or
 * glob, else the `approve` callback, else refused, with the rule to add in the message); then the
 * runner runs it with the environment, the timeout and the call's abort signal.
 *
 * With no `runBash` rules, what runs depends on the runner's `confined` flag: a confined runner
 * (the default just-bash one, whose files all pass the gate) runs every command; an unconfined
 * one (`nodeCommandRunner`, a sandbox, any runner without `confined: true`) fails closed: each
 * command goes to `approve` (a yes is remembered per command line), and without `approve` it is
 * refused with `EDENIED`: `Permission denied: the command "ls" would run with the node runner,
 * which is not confined to the workspace, and interactive permission prompts are not available
 * in this execution context. Add an allow rule for "runBash" to the permissions config. A model
 * cannot change the permissions: use the file tools or a command the rules allow, or ask the user
 * to allow this one.`
 *
 * Result: `stdout`, `stderr`, `exitCode`, and one text part: stdout, then `[stderr]` and stderr,
 * then `[exit code N]`. A non-zero exit is still `ok: true` (the command ran). Output over
 * `maxOutputBytes` is cut in the middle with `[… 1.2 MiB (1,302,345 bytes) (20,000 lines)
 * removed from the middle; the full output (…) is saved in tool-outputs/call_7.txt: read that
 * file in ranges (from line 20, 500 lines at a time), or search it …]` naming the file under
 * `tool-outputs/` that holds all of it (`outputPath`). Failures (`ok: false`): `ETIMEDOUT` (stopped at the timeout, exit code 124),
 * `EDENIED` (command or cwd refused), `ENOENT`/`ENOTDIR` (cwd missing),
 * `EIO` (the runner could not start, e.g. just-bash failed to load: `The command could not be
 * run: ...`; or anything else threw a plain `Error`, such as an `env` function: its message),
 * `EINPUT` (the input does not fit; `validate` runs first, also when `execute` is called
 * directly: `bash input timeout must be ≤ 600000 (milliseconds), got 900000`). On a timeout the
 * partial output is kept where the runner keeps it (the Node runner does; just-bash drops it).
 *
 * @param options - the shared context options plus {@link BashToolSettings}.
 * @returns a {@link CoreTool} named `bash` whose description names the runner and the cwd.
 * @throws TypeError at creation for an unknown option, a non-positive or non-integer number
 *   option, a `defaultTimeoutMs` over `maxTimeoutMs`, a runner without `run`/`describe`, neither
 *   a `runner` nor an `fs`, an `env` that is neither a function nor an object, or an `env`
 *   object with a value that is not a string (`createBashTool env.A must be a string, got number`). `execute` rethrows the abort reason when the
 *   call's abort signal fires.
 * @example
 * ```ts
 * const bash = createBashTool({ fs: memoryFileSystem(), cwd: "/w" });
 * const result = await bash.execute({ command: "echo hi > a.txt && cat a.txt" });
 * result.stdout; // "hi\n"; result.parts[0].text === "hi\n[exit code 0]"
 * ```
 */
export function createBashTool(
  givenOptions: BashToolOptions,
  fallback?: FallbackRunner,
): CoreTool<BashInput, ShellResult> {
  const options = withRunnerPlace(givenOptions);
  const tool = defineCoreTool<ToolContextOptions & BashToolSettings, BashInput, ShellResult, BashSetup>({
    factory: "createBashTool",
    name: "bash",
    kind: "shell",
    spec: BASH_INPUT_SPEC,
    settings: BASH_SETTING_KEYS,
    setup: (options) => setupBash(options, fallback),
    description: (setup) => setup.description,
    schema: (schema, { maxTimeoutMs, defaultTimeoutMs }): JsonSchema => ({
      ...schema,
      properties: {
        ...(schema["properties"] as Record<string, JsonSchema>),
        timeout: {
          type: "integer",
          minimum: 1,
          maximum: maxTimeoutMs,
          description: `Timeout in milliseconds (default ${defaultTimeoutMs}, at most ${maxTimeoutMs}); the command is stopped after it.`,
        },
      },
    }),
    check(input: BashInput, { maxTimeoutMs }) {
      if (input.timeout !== undefined && input.timeout > maxTimeoutMs) {
        throw new ToolInputError(`bash input timeout must be ≤ ${maxTimeoutMs} (milliseconds), got ${input.timeout}`);
      }
    },
    run: (input: BashInput, ctx, setup): Promise<ShellResult> => setup.run(input, ctx),
  })(options as ToolContextOptions & BashToolSettings);
  return coreTool({
    ...tool,
    execute(input: BashInput, call?: ToolCall): Promise<ShellResult> {
      // The host's signal (AI SDK) is the call's signal when the call gives none, so an abort
      // through it still rejects with its reason (guardExecute rethrows the call's own reason).
      const hostSignal = call?.host?.abortSignal;
      const withSignal =
        call !== undefined && call.abortSignal === undefined && hostSignal !== undefined
          ? { ...call, abortSignal: hostSignal }
          : call;
      return tool.execute(input, withSignal);
    },
  });
}

/**
 * The options with the runner's place filled in: no `fs` with a runner gives the runner's
 * stand-in backend ({@link runnerPlace}), and no `cwd` gives the runner's declared `cwd`.
 * Given options win.
 */
function withRunnerPlace(options: BashToolOptions): BashToolOptions {
  if (typeof options !== "object" || options === null) return options;
  const runner: unknown = options.runner;
  if (typeof runner !== "object" || runner === null || typeof (runner as CommandRunner).run !== "function") {
    return options;
  }
  const { cwd } = runner as CommandRunner;
  const placed: { fs?: FileSystem; cwd?: string } = {};
  if (options.fs === undefined) placed.fs = runnerPlace(runner as CommandRunner);
  if (options.cwd === undefined && typeof cwd === "string" && cwd.startsWith("/")) placed.cwd = cwd;
  return placed.fs === undefined && placed.cwd === undefined ? options : { ...options, ...placed };
}

type BashSetup = ReturnType<typeof setupBash>;

/**
 * Record the files a command read in the store, each under the real path the gate gives it, with
 * the bytes last read (a file read and then rewritten by the command stays stale).
 */
async function recordReads(ctx: ToolContext, reads: ReadonlyMap<string, Uint8Array>): Promise<void> {
  if (ctx.state === undefined) return;
  for (const [path, bytes] of reads) {
    const checked = await ctx.gate.check(path, "read");
    if (checked.ok) await recordSeen(ctx, checked.path, bytes);
  }
}

/** The working directory the tools' gate will have when no `cwd` is given (the backend's, else the first root, else `/`). */
function placeOf(fs: FileSystem | undefined, allowedRoots: readonly string[] | undefined): string {
  const fallback = allowedRoots?.[0] ?? "/";
  if (fs === undefined) return fallback;
  try {
    return createGate({ fs, ...(allowedRoots === undefined ? {} : { allowedRoots }) }).cwd;
  } catch {
    // A bad option: the shared option check names it next.
    return fallback;
  }
}

/** The bash tool's settings, checked and resolved, with its description and body. */
function setupBash(options: ToolContextOptions & BashToolSettings, fallback: FallbackRunner | undefined) {
  const maxOutputBytes = positiveInteger("maxOutputBytes", options.maxOutputBytes, DEFAULT_BASH_MAX_OUTPUT_BYTES);
  const maxTimeoutMs = positiveInteger("maxTimeoutMs", options.maxTimeoutMs, DEFAULT_BASH_MAX_TIMEOUT_MS);
  const defaultTimeoutMs = positiveInteger(
    "defaultTimeoutMs",
    options.defaultTimeoutMs,
    Math.min(DEFAULT_BASH_TIMEOUT_MS, maxTimeoutMs),
  );
  if (defaultTimeoutMs > maxTimeoutMs) {
    optionValueError(
      "createBashTool",
      "defaultTimeoutMs",
      `(${defaultTimeoutMs}) must not exceed maxTimeoutMs (${maxTimeoutMs})`,
    );
  }
  const runner = options.runner;
  if (
    runner !== undefined &&
    (typeof runner !== "object" ||
      runner === null ||
      typeof runner.run !== "function" ||
      typeof runner.describe !== "function")
  ) {
    optionValueError("createBashTool", "runner", "must be a CommandRunner ({ name, describe(), run() })");
  }
  if (runner === undefined && fallback === undefined) {
    throw new TypeError(
      "createBashTool needs a runner: justBashCommandRunner (better-fs-tools/shell) or nodeCommandRunner (better-fs-tools/node)",
    );
  }
  if (runner === undefined && options.fs === undefined) {
    optionValueError(
      "createBashTool",
      "runner",
      "must be given when fs is not: pass a runner (justBashCommandRunner from better-fs-tools/shell, nodeCommandRunner from better-fs-tools/node) or an fs for the default just-bash to run over",
    );
  }
  const env = options.env;
  if (env !== undefined && typeof env !== "function" && (typeof env !== "object" || env === null)) {
    optionValueError(
      "createBashTool",
      "env",
      "must be an object of strings or a function returning one (see shellEnv)",
    );
  }
  if (typeof env === "object" && env !== null) {
    const bad = Object.entries(env).find(([, value]) => typeof value !== "string");
    if (bad !== undefined) {
      optionValueError(
        "createBashTool",
        `env.${bad[0]}`,
        `must be a string, got ${typeof bad[1] === "object" ? (bad[1] === null ? "null" : "an object") : typeof bad[1]}`,
      );
    }
  }
  // The default runner (just-bash over the tools' gate) is confined; a given runner says so itself.
  const confined = runner === undefined || runner.confined === true;
  const commandRules = (options.permissions?.allow ?? []).filter((rule) => rule.tool === "runBash");
  const approve = options.permissions?.approve;
  const approvedCommands = new Set<string>();

  /**
   * An unconfined runner (a real shell) fails closed: with no `runBash` rule configured (the gate
   * then admits every command), a command runs only when `approve` says yes.
   */
  async function checkUnconfined(
    command: string,
  ): Promise<{ readonly ok: true } | { readonly ok: false; readonly error: ToolError }> {
    if (confined || commandRules.length > 0) return { ok: true };
    const shown = JSON.stringify(command);
    const runnerName = runner?.name ?? "bash";
    if (approve !== undefined) {
      if (approvedCommands.has(command)) return { ok: true };
      const answer = await askApprove(approve, {
        tool: "runBash",
        command,
        reason: `run the command ${shown} with the ${runnerName} runner, which is not confined to the workspace`,
      });
      if (answer === true) {
        approvedCommands.add(command);
        return { ok: true };
      }
      if (typeof answer === "object") {
        return {
          ok: false,
          error: {
            code: "EDENIED",
            message: `Permission denied: the command ${shown} is not allowed and the approve callback failed (${answer.failed}), so it was refused.`,
          },
        };
      }
      return {
        ok: false,
        error: {
          code: "EDENIED",
          message: `Permission denied: the command ${shown} is not allowed and the user did not approve it.`,
        },
      };
    }
    return {
      ok: false,
      error: {
        code: "EDENIED",
        message:
          `Permission denied: the command ${shown} would run with the ${runnerName} runner, which is not confined to the workspace, ` +
          `and interactive permission prompts are not available in this execution context. Add an allow rule for "runBash" to the permissions config. A model cannot change the permissions: use the file tools or a command the rules allow, or ask the user to allow this one.`,
      },
    };
  }

  const defaultRunners = new WeakMap<Gate, CommandRunner>();
  const runnerFor = (gate: Gate): CommandRunner => {
    if (runner !== undefined) return runner;
    let made = defaultRunners.get(gate);
    if (made === undefined) {
      made = (fallback as FallbackRunner).create(gate);
      defaultRunners.set(gate, made);
    }
    return made;
  };

  const fixedFs = typeof options.fs === "function" ? undefined : options.fs;
  const cwd = options.cwd ?? placeOf(fixedFs, options.allowedRoots);
  const engine =
    runner?.describe() ??
    (fallback as FallbackRunner).describe(typeof options.fs === "function" ? undefined : options.fs.name);
  const description =
    `Run a bash command line and get its stdout, stderr and exit code. ${engine} ` +
    `Working directory: ${cwd} (every call starts there; cd does not carry over; pass cwd to run elsewhere). ` +
    `Timeout: ${formatCount(defaultTimeoutMs)} ms unless you pass timeout (at most ${formatCount(maxTimeoutMs)} ms). ` +
    `Output over ${formatCount(maxOutputBytes)} bytes is cut in the middle and saved whole under tool-outputs/, to read in ranges.`;

  async function finish(ctx: ToolContext, out: CommandOutput, timeoutMs: number): Promise<ShellResult> {
    const body = renderBody(out);
    let outputPath: string | undefined;
    const shown = await (async () => {
      const bytes = encodeUtf8(body);
      if (body.length * 3 <= maxOutputBytes || bytes.length <= maxOutputBytes) return body;
      const saved = await offloadOutput(ctx, body, { thresholdBytes: 1, previewBytes: 1 });
      outputPath = saved.path;
      const where =
        outputPath === undefined
          ? "the full output could not be saved"
          : `the full output (${formatBytes(bytes.length)}) is saved in ${ctx.gate.display(outputPath)}`;
      return cutMiddle(
        body,
        maxOutputBytes,
        (removedBytes, removedLines, headLines) =>
          `[… ${formatBytes(removedBytes)} (${plural(removedLines, "line")}) removed from the middle; ${where}` +
          (outputPath === undefined
            ? ""
            : `: read that file in ranges (from line ${headLines + 1}, 500 lines at a time), or search it`) +
          " …]",
      ).text;
    })();
    const dropped =
      out.droppedBytes !== undefined && out.droppedBytes > 0
        ? `[the runner dropped ${formatBytes(out.droppedBytes)} of output past its memory cap]\n`
        : "";
    const stdout = cutMiddle(out.stdout, maxOutputBytes, shortMarker).text;
    const stderr = cutMiddle(out.stderr, maxOutputBytes, shortMarker).text;
    const fields = { stdout, stderr, exitCode: out.exitCode, ...(outputPath === undefined ? {} : { outputPath }) };
    if (out.timedOut) {
      const message =
        `The command timed out after ${formatCount(timeoutMs)} ms and was stopped (exit code ${out.exitCode}). ` +
        `Pass a larger timeout (at most ${formatCount(maxTimeoutMs)} ms), or split the work into shorter commands.`;
      return {
        kind: "shell",
        ok: false,
        parts: textParts(`${shown}${dropped}[${message}]`),
        error: { code: "ETIMEDOUT", message },
        ...fields,
        timedOut: true,
      };
    }
    return { kind: "shell", ok: true, parts: textParts(`${shown}${dropped}[exit code ${out.exitCode}]`), ...fields };
  }

  async function run(input: BashInput, ctx: ToolContext): Promise<ShellResult> {
    const call = ctx.call;
    const { gate } = ctx;
    let directory = gate.cwd;
    if (input.cwd !== undefined) {
      const checked = await gate.check(input.cwd, "list");
      if (!checked.ok) return errorResult("shell", checked.error);
      directory = checked.path;
      const display = gate.display(directory);
      try {
        const stat = await gate.fs.stat(directory);
        if (stat.type !== "directory") {
          return errorResult("shell", {
            code: "ENOTDIR",
            path: directory,
            message: `Cannot run in ${display}: it is not a directory.`,
          });
        }
      } catch {
        return errorResult("shell", {
          code: "ENOENT",
          path: directory,
          message: `Cannot run in ${display}: no such directory.`,
        });
      }
    }
    const allowed = await gate.checkCommand(input.command);
    if (!allowed.ok) return errorResult("shell", allowed.error);
    const unconfined = await checkUnconfined(input.command);
    if (!unconfined.ok) return errorResult("shell", unconfined.error);

    const abortSignal = call?.abortSignal ?? call?.host?.abortSignal;
    const timeoutMs = input.timeout ?? defaultTimeoutMs;
    const environment = typeof env === "function" ? env() : { ...env };
    // With a read-before-write store, files the command read count as read (cat, sed -n, head...).
    const reads = new Map<string, Uint8Array>();
    let out: CommandOutput;
    try {
      out = await runnerFor(gate).run({
        command: input.command,
        cwd: directory,
        env: environment,
        timeoutMs,
        ...(abortSignal === undefined ? {} : { abortSignal }),
        ...(ctx.state === undefined
          ? {}
          : {
              onRead: (path: string, bytes: Uint8Array) => {
                reads.delete(path);
                reads.set(path, bytes);
              },
            }),
      });
    } catch (error) {
      if (abortSignal?.aborted) throw abortSignal.reason;
      const reason = error instanceof Error ? error.message : String(error);
      return errorResult("shell", { code: "EIO", message: `The command could not be run: ${reason}` });
    }
    if (abortSignal?.aborted) throw abortSignal.reason;
    await recordReads(ctx, reads);
    return finish(ctx, out, timeoutMs);
  }

  return { description, maxTimeoutMs, defaultTimeoutMs, run };
}

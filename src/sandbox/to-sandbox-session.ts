/**
 * `toSandboxSession`: one of our backends and a command runner as an AI SDK 7
 * `Experimental_SandboxSession`, so AI SDK tools and harnesses that take `experimental_sandbox`
 * run on memfs, OPFS or IndexedDB in a browser.
 *
 * @module
 */
import type {
  Experimental_SandboxDirectoryEntry as SandboxDirectoryEntry,
  Experimental_SandboxFileStat as SandboxFileStat,
  Experimental_SandboxProcess as SandboxProcess,
  Experimental_SandboxSession as SandboxSession,
} from "ai";
import { createGate, type Gate } from "../gate/gate.js";
import { resolvePath } from "../contract/path.js";
import { type FileSystem } from "../contract/types.js";
import { FsError } from "../contract/errors.js";
import type { CommandRunner } from "../contract/runner.js";
import { assertKnownOptions } from "../contract/options.js";

/** Default limit for one `run`/`spawn`, in milliseconds (10 minutes). */
export const DEFAULT_SANDBOX_TIMEOUT_MS = 600_000;

/** Options of {@link toSandboxSession}. */
export interface ToSandboxSessionOptions {
  /**
   * The files: a {@link Gate} (its checked `gate.fs` is used, with its roots and rules), or a
   * backend, which is then confined to `cwd` by a gate of its own (`createGate({ fs, cwd })`):
   * no session call reads or writes outside `cwd` unless you pass a gate that allows it.
   */
  readonly fs: Gate | FileSystem;
  /**
   * Runs `run` and `spawn` commands; it must see the same files through the same gate, e.g.
   * `justBashCommandRunner({ fs: gate })`. A runner is confined by its own construction, not by
   * this session.
   */
  readonly runner: CommandRunner;
  /**
   * Base directory: relative paths and commands start here (absolute).
   * @default the runner's `cwd`, else the gate's (or the backend's own), else `/`
   */
  readonly cwd?: string;
  /** What the model should know about this environment. Default: the runner's description and the base directory. */
  readonly description?: string;
  /** Environment given to every command, under each call's own `env`. @default {} */
  readonly env?: Readonly<Record<string, string>>;
  /** Limit for one command, in milliseconds. @default 600000 */
  readonly timeoutMs?: number;
}

/** A spawned process with writable standard input (`spawn({ stdin: true })`). */
type WritableSandboxProcess = SandboxProcess & { readonly stdin: WritableStream<Uint8Array> };

const OPTION_KEYS = ["fs", "runner", "cwd", "description", "env", "timeoutMs"];

function isMissing(error: unknown): boolean {
  return FsError.isInstance(error) && error.code === "ENOENT";
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function onceStream(data: Promise<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const bytes = await data;
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

function checkEncoding(encoding: string | undefined, method: string): void {
  if (encoding !== undefined && !/^utf-?8$/i.test(encoding)) {
    throw new FsError("ENOTSUP", { syscall: method, detail: `encoding ${encoding}: only utf-8 is supported` });
  }
}

/**
 * Make an AI SDK `Experimental_SandboxSession` over a backend and a runner.
 *
 * Every file call goes through a gate: the one you pass, or one confined to `cwd`. A refused
 * path rejects with FsError `EACCES` naming the path and the allowed roots.
 *
 * Reads resolve to `null` for a missing file; `readTextFile` takes 1-based inclusive
 * `startLine`/`endLine`; writes create parents and reject a directory (FsError `EISDIR`); `stat`
 * follows symlinks and resolves `null` when absent; `listDirectory` does not follow them,
 * resolves `null` when absent and rejects (`ENOTDIR`) for a file; `deleteFile` resolves `false`
 * when absent and rejects (`EISDIR`) for a directory. `run` and `spawn` run through the runner
 * with `workingDirectory`, `env` and `abortSignal`; `spawn` with `stdin: true` collects standard
 * input until it is closed, then runs the command (runners are not interactive).
 *
 * @param options - see {@link ToSandboxSessionOptions}.
 * @returns a session object; nothing is read until a method is called.
 * @throws TypeError for an unknown option, a missing `fs`/`runner`, or a relative `cwd`; a failed
 *   call rejects with {@link FsError} (`EISDIR`, `ENOTDIR`, `EACCES` from the gate...).
 * @experimental the AI SDK type is experimental.
 * @example
 * ```ts
 * const gate = createGate({ fs: memoryFileSystem({ files: { "/w/a.txt": "hi\n" } }), cwd: "/w" });
 * const session = toSandboxSession({ fs: gate, runner: justBashCommandRunner({ fs: gate }) });
 * await generateText({ model, tools, experimental_sandbox: session, prompt });
 * ```
 */
export function toSandboxSession(options: ToSandboxSessionOptions): SandboxSession {
  if (typeof options !== "object" || options === null) throw new TypeError("toSandboxSession needs an options object");
  assertKnownOptions("toSandboxSession", options, OPTION_KEYS);
  const { runner } = options;
  const source = options.fs;
  const isGate = typeof (source as Partial<Gate> | undefined)?.check === "function";
  if (!isGate && typeof (source as Partial<FileSystem> | undefined)?.readFile !== "function") {
    throw new TypeError("toSandboxSession needs an fs option (a Gate or a FileSystem)");
  }
  if (typeof runner?.run !== "function")
    throw new TypeError("toSandboxSession needs a runner option (a CommandRunner)");
  const givenCwd = options.cwd ?? (typeof runner.cwd === "string" ? runner.cwd : undefined);
  if (givenCwd !== undefined && (typeof givenCwd !== "string" || !givenCwd.startsWith("/"))) {
    throw new TypeError(`toSandboxSession cwd must be an absolute path, got ${JSON.stringify(givenCwd)}`);
  }
  // No cwd given nor declared by the runner: the gate's, else the backend's own place (else "/").
  const gate: Gate = isGate
    ? (source as Gate)
    : createGate({ fs: source as FileSystem, ...(givenCwd === undefined ? {} : { cwd: givenCwd }) });
  const cwd = givenCwd ?? gate.cwd;
  const fs: FileSystem = gate.fs;
  const timeoutMs = options.timeoutMs ?? DEFAULT_SANDBOX_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError(
      `toSandboxSession timeoutMs must be a positive integer of milliseconds, got ${String(options.timeoutMs)}`,
    );
  }
  const baseEnv = { ...options.env };
  const description =
    options.description ?? `${runner.describe()} The working directory is ${cwd}; relative paths resolve against it.`;
  const at = (path: string) => resolvePath(cwd, path);

  async function readBytes(path: string): Promise<Uint8Array | null> {
    try {
      return await fs.readFile(at(path));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async function writeBytes(path: string, data: Uint8Array): Promise<void> {
    await fs.writeFile(at(path), data);
  }

  function start(
    command: string,
    workingDirectory: string | undefined,
    env: Record<string, string> | undefined,
    abortSignal: AbortSignal | undefined,
    stdin: Promise<string> | undefined,
  ) {
    const controller = new AbortController();
    const onAbort = () => controller.abort(abortSignal?.reason);
    if (abortSignal?.aborted) controller.abort(abortSignal.reason);
    else abortSignal?.addEventListener("abort", onAbort, { once: true });
    const output = (async () => {
      const input = stdin === undefined ? undefined : await stdin;
      try {
        return await runner.run({
          command,
          cwd: workingDirectory === undefined ? cwd : at(workingDirectory),
          env: { ...baseEnv, ...env },
          timeoutMs,
          abortSignal: controller.signal,
          ...(input === undefined ? {} : { stdin: input }),
        });
      } finally {
        abortSignal?.removeEventListener("abort", onAbort);
      }
    })();
    return { output, controller };
  }

  const encoder = new TextEncoder();

  const session: SandboxSession = {
    description,

    async run({ command, workingDirectory, env, abortSignal }) {
      const { output } = start(command, workingDirectory, env, abortSignal, undefined);
      const result = await output;
      if (abortSignal?.aborted) throw abortSignal.reason ?? new Error("aborted");
      return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
    },

    spawn: (async ({
      command,
      workingDirectory,
      env,
      abortSignal,
      stdin,
    }: {
      command: string;
      workingDirectory?: string;
      env?: Record<string, string>;
      abortSignal?: AbortSignal;
      stdin?: boolean;
    }): Promise<SandboxProcess | WritableSandboxProcess> => {
      let stdinText: Promise<string> | undefined;
      let stdinStream: WritableStream<Uint8Array> | undefined;
      if (stdin === true) {
        const decoder = new TextDecoder();
        let text = "";
        let closed!: (value: string) => void;
        stdinText = new Promise<string>((resolve) => {
          closed = resolve;
        });
        stdinStream = new WritableStream<Uint8Array>({
          write(chunk) {
            text += decoder.decode(chunk, { stream: true });
          },
          close() {
            closed(text + decoder.decode());
          },
          abort() {
            closed(text);
          },
        });
      }
      const { output, controller } = start(command, workingDirectory, env, abortSignal, stdinText);
      const settled = output.then(
        (result) => result,
        () => ({ stdout: "", stderr: "", exitCode: 1, timedOut: false }),
      );
      const process: SandboxProcess = {
        stdout: onceStream(settled.then((result) => encoder.encode(result.stdout))),
        stderr: onceStream(settled.then((result) => encoder.encode(result.stderr))),
        async wait() {
          const result = await output;
          if (abortSignal?.aborted) throw abortSignal.reason ?? new Error("aborted");
          return { exitCode: result.exitCode };
        },
        async kill() {
          controller.abort(new Error("killed"));
          await settled;
        },
      };
      return stdinStream === undefined ? process : { ...process, stdin: stdinStream };
    }) as SandboxSession["spawn"],

    async readFile({ path }) {
      const bytes = await readBytes(path);
      return bytes === null ? null : onceStream(Promise.resolve(bytes));
    },

    readBinaryFile: ({ path }) => readBytes(path),

    async readTextFile({ path, encoding, startLine, endLine }) {
      checkEncoding(encoding, "readTextFile");
      const bytes = await readBytes(path);
      if (bytes === null) return null;
      const text = new TextDecoder().decode(bytes);
      if (startLine === undefined && endLine === undefined) return text;
      const lines = text.split("\n");
      if (lines.at(-1) === "") lines.pop();
      const first = Math.max(1, startLine ?? 1);
      const last = Math.min(lines.length, endLine ?? lines.length);
      if (first > last) return "";
      const selected = lines.slice(first - 1, last).join("\n");
      return last < lines.length || text.endsWith("\n") ? `${selected}\n` : selected;
    },

    async writeFile({ path, content }) {
      await writeBytes(path, await collect(content));
    },

    writeBinaryFile: ({ path, content }) => writeBytes(path, content),

    async writeTextFile({ path, content, encoding }) {
      checkEncoding(encoding, "writeTextFile");
      await writeBytes(path, encoder.encode(content));
    },

    async stat({ path }): Promise<SandboxFileStat | null> {
      try {
        const stat = await fs.stat(at(path));
        return { type: stat.type === "file" || stat.type === "directory" ? stat.type : "other", size: stat.size };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async listDirectory({ path }): Promise<SandboxDirectoryEntry[] | null> {
      try {
        const entries = await fs.readdir(at(path));
        return entries.map((entry) => ({ name: entry.name, type: entry.type }));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async deleteFile({ path }) {
      const target = at(path);
      let type;
      try {
        type = (await fs.lstat(target)).type;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
      if (type === "directory") throw new FsError("EISDIR", { syscall: "unlink", path: target });
      await fs.rm(target);
      return true;
    },
  };
  return session;
}

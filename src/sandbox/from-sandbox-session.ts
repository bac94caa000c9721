/**
 * `fromSandboxSession`: any AI SDK 7 `Experimental_SandboxSession` (a remote one included) as
 * our {@link FileSystem} and {@link CommandRunner}, so the tools and the gate run against it.
 *
 * A session has no rename, mkdir, recursive delete, symlink or readlink: those are done through
 * its `run` with POSIX commands (`mv`, `mkdir`, `rm -r`, `rmdir`, `ln -s`, `readlink`), after the
 * same checks the other backends make, so the error codes match the contract. A session has no
 * modification time: `mtimeMs` is 0.
 *
 * @module
 */
import type { Experimental_SandboxSession as SandboxSession } from "ai";
import { baseName, isWithin, parentPath, resolvePath } from "../contract/path.js";
import { type DirEntry, type FileStat, type FileSystem } from "../contract/types.js";
import { FsError, type FsErrorCode } from "../contract/errors.js";
import {
  ABORT_EXIT_CODE,
  TIMEOUT_EXIT_CODE,
  type CommandOutput,
  type CommandRunner,
  type CommandRunOptions,
} from "../contract/runner.js";
import { assertKnownOptions } from "../contract/options.js";

/** Symlinks followed in one `realpath` before `ELOOP`. */
export const MAX_SANDBOX_SYMLINK_HOPS = 40;

/** What {@link fromSandboxSession} returns. */
export interface SandboxBackend {
  /** The session's files as a backend (name `sandbox`, symlinks through `run`). */
  readonly fs: FileSystem;
  /** The session's `run` as a command runner. */
  readonly runner: CommandRunner;
}

/** Options of {@link fromSandboxSession}. */
export interface FromSandboxSessionOptions {
  /** Working directory for relative paths the session reports (absolute). @default "/" */
  readonly cwd?: string;
}

/** Quote one argument for a POSIX shell. */
function quote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * Wrap an AI SDK sandbox session as a backend and a runner.
 *
 * @param session - any `Experimental_SandboxSession`.
 * @param options - see {@link FromSandboxSessionOptions}.
 * @returns `{ fs, runner }`; every `fs` method rejects with {@link FsError} (Node codes and
 *   messages: `ENOENT: no such file or directory, open '/a'`); a failed helper command rejects
 *   with `EIO` carrying its stderr.
 * @throws TypeError when `session` lacks a method of the interface.
 * @experimental the AI SDK type is experimental.
 * @example
 * ```ts
 * const { fs, runner } = fromSandboxSession(remoteSession);
 * const tools = createFsTools({ fs, cwd: "/workspace" });
 * ```
 */
export function fromSandboxSession(session: SandboxSession, options: FromSandboxSessionOptions = {}): SandboxBackend {
  for (const method of ["run", "readBinaryFile", "writeBinaryFile", "stat", "listDirectory", "deleteFile"] as const) {
    if (typeof session?.[method] !== "function") {
      throw new TypeError(`fromSandboxSession needs an Experimental_SandboxSession: ${method} is missing`);
    }
  }
  assertKnownOptions("fromSandboxSession", options, ["cwd"]);
  const base = options.cwd ?? "/";

  const fail = (code: FsErrorCode, syscall: string, path: string, dest?: string, detail?: string): FsError =>
    new FsError(code, {
      syscall,
      path,
      ...(dest === undefined ? {} : { dest }),
      ...(detail === undefined ? {} : { detail }),
    });

  async function typeOf(path: string): Promise<"file" | "directory" | "other" | undefined> {
    try {
      return (await session.stat({ path }))?.type;
    } catch {
      return undefined;
    }
  }

  /** Why `path` cannot be reached: ENOTDIR when an ancestor is a file, else ENOENT. */
  async function missingCode(path: string): Promise<FsErrorCode> {
    for (let dir = parentPath(path); ; dir = parentPath(dir)) {
      const type = await typeOf(dir);
      if (type !== undefined) return type === "directory" ? "ENOENT" : "ENOTDIR";
      if (dir === "/") return "ENOENT";
    }
  }

  async function sh(command: string, syscall: string, path: string, dest?: string): Promise<void> {
    const result = await session.run({ command, workingDirectory: "/" });
    if (result.exitCode !== 0) throw fail("EIO", syscall, path, dest, `${command}: ${result.stderr.trim()}`);
  }

  async function lstat(path: string): Promise<FileStat> {
    if (path !== "/") {
      let entries;
      try {
        entries = await session.listDirectory({ path: parentPath(path) });
      } catch {
        throw fail("ENOTDIR", "lstat", path);
      }
      const entry = entries?.find((candidate) => candidate.name === baseName(path));
      if (entry === undefined) throw fail(entries === null ? await missingCode(path) : "ENOENT", "lstat", path);
      if (entry.type === "symlink") return { type: "symlink", size: 0, mtimeMs: 0 };
    }
    return stat(path, "lstat");
  }

  async function stat(path: string, syscall = "stat"): Promise<FileStat> {
    const result = await session.stat({ path });
    if (result === null) throw fail(await missingCode(path), syscall, path);
    return { type: result.type, size: result.size, mtimeMs: 0 };
  }

  async function readlink(path: string): Promise<string> {
    const type = (
      await lstat(path).catch((error: unknown) => {
        if (FsError.isInstance(error)) throw fail(error.code, "readlink", path);
        throw error;
      })
    ).type;
    if (type !== "symlink") throw fail("EINVAL", "readlink", path);
    const result = await session.run({ command: `readlink -- ${quote(path)}`, workingDirectory: "/" });
    if (result.exitCode !== 0) throw fail("EIO", "readlink", path, undefined, result.stderr.trim());
    return result.stdout.replace(/\n$/, "");
  }

  async function realpath(path: string): Promise<string> {
    let resolved = "/";
    let rest = path.split("/").filter((name) => name !== "");
    let hops = 0;
    while (rest.length > 0) {
      const [name, ...tail] = rest;
      rest = tail;
      const next = resolvePath(resolved, name ?? "");
      const info = await lstat(next).catch((error: unknown) => {
        if (FsError.isInstance(error)) throw fail(error.code, "realpath", path);
        throw error;
      });
      if (info.type === "symlink") {
        if (++hops > MAX_SANDBOX_SYMLINK_HOPS) throw fail("ELOOP", "realpath", path);
        const target = await readlink(next);
        rest = [...target.split("/").filter((part) => part !== ""), ...rest];
        if (target.startsWith("/")) resolved = "/";
      } else {
        resolved = next;
      }
    }
    return resolved;
  }

  const fs: FileSystem = {
    name: "sandbox",
    capabilities: { symlink: true },

    async readFile(path) {
      let data: Uint8Array | null;
      try {
        data = await session.readBinaryFile({ path });
      } catch (error) {
        if ((await typeOf(path)) === "directory") throw fail("EISDIR", "open", path);
        if (FsError.isInstance(error)) throw error;
        throw new FsError("EIO", { syscall: "open", path, cause: error });
      }
      if (data === null) {
        if ((await typeOf(path)) === "directory") throw fail("EISDIR", "open", path);
        throw fail(await missingCode(path), "open", path);
      }
      return data;
    },

    async writeFile(path, data) {
      try {
        await session.writeBinaryFile({ path, content: data.slice() });
      } catch (error) {
        if ((await typeOf(path)) === "directory") throw fail("EISDIR", "open", path);
        if ((await missingCode(path)) === "ENOTDIR") throw fail("ENOTDIR", "open", path);
        if (FsError.isInstance(error)) throw error;
        throw new FsError("EIO", { syscall: "open", path, cause: error });
      }
    },

    stat: (path) => stat(path),
    lstat,

    async readdir(path): Promise<DirEntry[]> {
      let entries;
      try {
        entries = await session.listDirectory({ path });
      } catch (error) {
        if ((await typeOf(path)) !== "directory") throw fail("ENOTDIR", "scandir", path);
        throw new FsError("EIO", { syscall: "scandir", path, cause: error });
      }
      if (entries === null) {
        throw fail((await typeOf(path)) === undefined ? await missingCode(path) : "ENOTDIR", "scandir", path);
      }
      return entries.map((entry) => ({ name: entry.name, type: entry.type }));
    },

    async mkdir(path, options = {}) {
      const existing = await typeOf(path);
      if (existing === "directory") {
        if (options.recursive === true) return;
        throw fail("EEXIST", "mkdir", path);
      }
      if (existing !== undefined) throw fail("EEXIST", "mkdir", path);
      const parent = await typeOf(parentPath(path));
      if (parent !== undefined && parent !== "directory") throw fail("ENOTDIR", "mkdir", path);
      if (parent === undefined) {
        const code = await missingCode(path);
        if (code === "ENOTDIR" || options.recursive !== true) throw fail(code, "mkdir", path);
      }
      await sh(`mkdir ${options.recursive === true ? "-p " : ""}-- ${quote(path)}`, "mkdir", path);
    },

    async rm(path, options = {}) {
      let type;
      try {
        type = (await lstat(path)).type;
      } catch (error) {
        if (FsError.isInstance(error) && error.code === "ENOENT" && options.force === true) return;
        if (FsError.isInstance(error)) throw fail(error.code, "rm", path);
        throw error;
      }
      if (type !== "directory") {
        await session.deleteFile({ path });
        return;
      }
      if (options.recursive === true) {
        await sh(`rm -rf -- ${quote(path)}`, "rm", path);
        return;
      }
      const entries = await session.listDirectory({ path });
      if ((entries?.length ?? 0) > 0) throw fail("ENOTEMPTY", "rm", path);
      await sh(`rmdir -- ${quote(path)}`, "rm", path);
    },

    async rename(from, to) {
      const source = await lstat(from).catch((error: unknown) => {
        if (FsError.isInstance(error)) throw fail(error.code, "rename", from, to);
        throw error;
      });
      if (from === to) return;
      if (source.type === "directory" && isWithin(from, to)) throw fail("EINVAL", "rename", from, to);
      const target = await typeOf(to);
      if (target === "directory") {
        if (source.type !== "directory") throw fail("EISDIR", "rename", from, to);
        const entries = await session.listDirectory({ path: to });
        if ((entries?.length ?? 0) > 0) throw fail("ENOTEMPTY", "rename", from, to);
        await sh(`rmdir -- ${quote(to)}`, "rename", from, to);
      } else if (target !== undefined) {
        if (source.type === "directory") throw fail("ENOTDIR", "rename", from, to);
        // Some shells' mv refuses to replace a file it cannot prove distinct (no inode numbers).
        await session.deleteFile({ path: to });
      }
      const parent = await typeOf(parentPath(to));
      if (parent !== "directory")
        throw fail(parent === undefined ? await missingCode(to) : "ENOTDIR", "rename", from, to);
      await sh(`mv -f -- ${quote(from)} ${quote(to)}`, "rename", from, to);
    },

    realpath,

    async symlink(target, path) {
      try {
        await lstat(path);
        throw fail("EEXIST", "symlink", target, path);
      } catch (error) {
        if (!(FsError.isInstance(error) && error.code === "ENOENT")) throw error;
      }
      await sh(`ln -s -- ${quote(target)} ${quote(path)}`, "symlink", target, path);
    },

    readlink,
  };

  const runner: CommandRunner = {
    name: "sandbox",
    // Commands run in the sandbox with its own file access, not through our gate.
    confined: false,
    describe: () => session.description,
    async run(run: CommandRunOptions): Promise<CommandOutput> {
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new Error(`timed out after ${run.timeoutMs} ms`));
      }, run.timeoutMs);
      const onAbort = () => controller.abort(run.abortSignal?.reason);
      run.abortSignal?.addEventListener("abort", onAbort, { once: true });
      const workingDirectory = resolvePath(base, run.cwd);
      try {
        if (run.stdin === undefined) {
          const result = await session.run({
            command: run.command,
            workingDirectory,
            env: { ...run.env },
            abortSignal: controller.signal,
          });
          return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode, timedOut: false };
        }
        const process = await session.spawn({
          command: run.command,
          workingDirectory,
          env: { ...run.env },
          abortSignal: controller.signal,
          stdin: true,
        });
        const writer = process.stdin.getWriter();
        await writer.write(new TextEncoder().encode(run.stdin));
        await writer.close();
        const [stdout, stderr, exit] = await Promise.all([
          new Response(process.stdout).text(),
          new Response(process.stderr).text(),
          process.wait(),
        ]);
        return { stdout, stderr, exitCode: exit.exitCode, timedOut: false };
      } catch (error) {
        if (controller.signal.aborted) {
          return timedOut
            ? {
                stdout: "",
                stderr: `command timed out after ${run.timeoutMs} ms\n`,
                exitCode: TIMEOUT_EXIT_CODE,
                timedOut: true,
              }
            : { stdout: "", stderr: "command aborted\n", exitCode: ABORT_EXIT_CODE, timedOut: false };
        }
        throw error;
      } finally {
        clearTimeout(timer);
        run.abortSignal?.removeEventListener("abort", onAbort);
      }
    },
  };
  return { fs, runner };
}

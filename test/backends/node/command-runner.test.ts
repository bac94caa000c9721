import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeCommandRunner as fromNodeEntry } from "../../../src/backends/node/index.js";
import { nodeCommandRunner } from "../../../src/backends/node/command-runner.js";
import type { CommandRunner } from "../../../src/contract/runner.js";

let dir: string;
let runner: CommandRunner;
const PATH = "/usr/local/bin:/usr/bin:/bin";

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "bft-node-runner-"));
  runner = nodeCommandRunner({ cwd: dir, killGraceMs: 100 });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Whether a process runs (a zombie, killed but not yet reaped by its new parent, does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

describe("nodeCommandRunner", () => {
  it("is exported from the better-fs-tools/node entry", () => {
    expect(fromNodeEntry).toBe(nodeCommandRunner);
    expect(runner.name).toBe("node");
    expect(runner.describe()).toBe(
      "Commands run in a real /bin/bash process on the host machine (Node.js), with the host's programs and files; each command starts a fresh shell.",
    );
  });

  it("runs bash in cwd with stdout, stderr and the exit code", async () => {
    const out = await runner.run({
      command: 'echo "$0 $PWD"; echo oops >&2; exit 4',
      cwd: dir,
      env: { PATH },
      timeoutMs: 10_000,
    });
    expect(out).toEqual({ stdout: `/bin/bash ${dir}\n`, stderr: "oops\n", exitCode: 4, timedOut: false });
  });

  it("uses exactly the environment it is given", async () => {
    const out = await runner.run({
      command: 'echo "${HOME-unset} ${ONLY}"',
      cwd: dir,
      env: { PATH, ONLY: "this" },
      timeoutMs: 10_000,
    });
    expect(out.stdout).toBe("unset this\n");
  });

  it("closes stdin, or gives it the run's text", async () => {
    expect((await runner.run({ command: "cat; echo end", cwd: dir, env: { PATH }, timeoutMs: 10_000 })).stdout).toBe(
      "end\n",
    );
    expect(
      (await runner.run({ command: "tr a-z A-Z", cwd: dir, env: { PATH }, timeoutMs: 10_000, stdin: "abc\n" })).stdout,
    ).toBe("ABC\n");
  });

  it("a timeout kills the whole process group, background children too", async () => {
    const pidFile = join(dir, "child.pid");
    const out = await runner.run({
      command: `sleep 30 & echo $! > ${pidFile}; echo started; wait`,
      cwd: dir,
      env: { PATH },
      timeoutMs: 2_000,
    });
    expect(out).toEqual({ stdout: "started\n", stderr: "", exitCode: 124, timedOut: true });
    const child = Number((await readFile(pidFile, "utf8")).trim());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(child)).toBe(false);
  });

  it("an abort signal stops the command with exit code 130", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1_000);
    const out = await runner.run({
      command: "echo a; sleep 30",
      cwd: dir,
      env: { PATH },
      timeoutMs: 10_000,
      abortSignal: controller.signal,
    });
    expect(out).toEqual({ stdout: "a\n", stderr: "", exitCode: 130, timedOut: false });
  });

  it("keeps at most maxOutputBytes per stream and counts the rest", async () => {
    const capped = nodeCommandRunner({ cwd: dir, maxOutputBytes: 10 });
    const out = await capped.run({
      command: "printf '0123456789abcdef'; printf 'xyz' >&2",
      cwd: dir,
      env: { PATH },
      timeoutMs: 10_000,
    });
    expect(out).toEqual({ stdout: "0123456789", stderr: "xyz", exitCode: 0, timedOut: false, droppedBytes: 6 });
  });

  it("reports death by a signal as 128 + the signal number", async () => {
    const out = await runner.run({ command: "kill -9 $$", cwd: dir, env: { PATH }, timeoutMs: 10_000 });
    expect({ exitCode: out.exitCode, timedOut: out.timedOut }).toEqual({ exitCode: 137, timedOut: false });
  });

  it("a missing cwd gives exit code 127 and the reason", async () => {
    const out = await runner.run({ command: "true", cwd: join(dir, "missing"), env: { PATH }, timeoutMs: 10_000 });
    expect(out.exitCode).toBe(127);
    expect(out.stderr).toBe(`/bin/bash: cannot start in ${join(dir, "missing")}: spawn /bin/bash ENOENT\n`);
  });

  it("maps the run's cwd under root (nodeFileSystem's namespace)", async () => {
    const rooted = nodeCommandRunner({ cwd: "/", root: dir });
    await rm(join(dir, "sub"), { recursive: true, force: true });
    await (await import("node:fs/promises")).mkdir(join(dir, "sub"));
    expect((await rooted.run({ command: "pwd", cwd: "/sub", env: { PATH }, timeoutMs: 10_000 })).stdout).toBe(
      `${join(dir, "sub")}\n`,
    );
  });

  it("throws TypeError at creation for bad options", () => {
    expect(() => nodeCommandRunner({ cwd: "relative" })).toThrow(
      new TypeError('nodeCommandRunner cwd must be an absolute path, got "relative"'),
    );
    expect(() => nodeCommandRunner({ cwd: "/", maxOutputBytes: -1 })).toThrow(
      new TypeError("nodeCommandRunner maxOutputBytes must be an integer ≥ 0, got -1"),
    );
    expect(() => nodeCommandRunner({ cwd: "/", timeout: 1 } as never)).toThrow(
      new TypeError(
        'nodeCommandRunner got an unknown option "timeout". Known options: cwd, root, shell, maxOutputBytes, killGraceMs',
      ),
    );
  });
});

describe("nodeCommandRunner defaults", () => {
  it("with no options runs in process.cwd() and declares it", async () => {
    const plain = nodeCommandRunner();
    expect(plain.cwd).toBe(process.cwd());
    expect(await plain.run({ command: "pwd", cwd: "", env: { PATH }, timeoutMs: 10_000 })).toEqual({
      stdout: `${process.cwd()}\n`,
      stderr: "",
      exitCode: 0,
      timedOut: false,
    });
    expect(nodeCommandRunner({ cwd: dir }).cwd).toBe(dir);
    expect(nodeCommandRunner({ root: dir }).cwd).toBe("/");
  });
});

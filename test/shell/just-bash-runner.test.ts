import { describe, expect, it } from "vitest";
import { forwardFileSystem } from "../../src/contract/forward.js";
import { createGate } from "../../src/gate/gate.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { justBashCommandRunner } from "../../src/shell/just-bash-runner.js";

function setup(files: Record<string, string> = { "/w/a.txt": "alpha\n" }) {
  const fs = memoryFileSystem({ files });
  const gate = createGate({ fs, cwd: "/w" });
  return { fs, gate, runner: justBashCommandRunner({ fs: gate }) };
}

describe("justBashCommandRunner", () => {
  it("names itself and its backend", () => {
    const { runner } = setup();
    expect(runner.name).toBe("just-bash");
    expect(runner.describe()).toBe(
      "Commands run in just-bash, a bash interpreter written in JavaScript with the usual tools (ls, cat, grep, sed, awk, find, sort, head, tail, wc, jq, diff...) and git (init, add, commit, status, diff, log, checkout), over the same files as the other tools (memory storage); there are no real processes, no network and no package installs.",
    );
  });

  it("runs in the run's cwd with its env and stdin; shell state does not carry over", async () => {
    const { runner } = setup({ "/w/sub/b.txt": "b\n" });
    const env = { NAME: "ada" };
    expect(
      await runner.run({
        command: 'X=1; cd sub; echo "$NAME $PWD"; cat',
        cwd: "/w",
        env,
        timeoutMs: 5_000,
        stdin: "in\n",
      }),
    ).toEqual({
      stdout: "ada /w/sub\nin\n",
      stderr: "",
      exitCode: 0,
      timedOut: false,
    });
    expect((await runner.run({ command: 'echo "[$X] $PWD"', cwd: "/w", env: {}, timeoutMs: 5_000 })).stdout).toBe(
      "[] /w\n",
    );
    expect(
      (await runner.run({ command: 'echo "$HOME"; cd; pwd', cwd: "/w/sub", env: {}, timeoutMs: 5_000 })).stdout,
    ).toBe("/w\n/w\n");
    expect(
      (await runner.run({ command: 'echo "$HOME"', cwd: "/w", env: { HOME: "/w/sub" }, timeoutMs: 5_000 })).stdout,
    ).toBe("/w/sub\n");
  });

  it("keeps heredoc indentation (scripts run as bash runs them)", async () => {
    const { runner } = setup();
    const out = await runner.run({ command: "cat <<EOF\n  indented\nEOF", cwd: "/w", env: {}, timeoutMs: 5_000 });
    expect(out.stdout).toBe("  indented\n");
  });

  it("a missing cwd gives exit code 1 and says so", async () => {
    const { runner } = setup();
    expect(await runner.run({ command: "ls", cwd: "/w/nope", env: {}, timeoutMs: 5_000 })).toEqual({
      stdout: "",
      stderr: "bash: cd: /w/nope: No such file or directory\n",
      exitCode: 1,
      timedOut: false,
    });
  });

  it("a timeout stops sleeps and busy loops with exit code 124", async () => {
    const { runner } = setup();
    expect(await runner.run({ command: "sleep 10", cwd: "/w", env: {}, timeoutMs: 200 })).toEqual({
      stdout: "",
      stderr: "bash: stopped: timed out after 200 ms\n",
      exitCode: 124,
      timedOut: true,
    });
    expect(await runner.run({ command: "while true; do :; done", cwd: "/w", env: {}, timeoutMs: 200 })).toEqual({
      stdout: "",
      stderr: "bash: stopped: timed out after 200 ms\n",
      exitCode: 124,
      timedOut: true,
    });
  });

  it("an abort signal stops the command with exit code 130", async () => {
    const { runner } = setup();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(
      await runner.run({ command: "sleep 10", cwd: "/w", env: {}, timeoutMs: 5_000, abortSignal: controller.signal }),
    ).toEqual({
      stdout: "",
      stderr: "bash: stopped: aborted\n",
      exitCode: 130,
      timedOut: false,
    });
  });

  it("reports the gate's refusals on stderr; a refused redirect does not stop the script", async () => {
    const { fs, runner } = setup({ "/w/a.txt": "a\n", "/etc/passwd": "root\n" });
    const out = await runner.run({
      command: "cat /etc/passwd; echo hi > /etc/x; echo after",
      cwd: "/w",
      env: {},
      timeoutMs: 5_000,
    });
    const reason = (path: string, rule: string) =>
      `(Permission denied: ${path} is outside the workspace and interactive permission prompts are not available in this execution context. Add an allow rule for "${rule}" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.)`;
    expect(out).toEqual({
      stdout: "after\n",
      stderr:
        "cat: /etc/passwd: No such file or directory\n" +
        "bash: /etc/x: cannot open redirect target\n" +
        `bash: refused: EACCES: permission denied, open '/etc/passwd' ${reason("/etc/passwd", "readFile")}\n` +
        `bash: refused: EACCES: permission denied, stat '/etc/x' ${reason("/etc/x", "listDir")}\n`,
      exitCode: 0,
      timedOut: false,
    });
    expect((await fs.readdir("/etc")).map((entry) => entry.name)).toEqual(["passwd"]);
  });

  it("confines a bare backend to its cwd with a gate of its own (the tools' bundle cannot be bypassed)", async () => {
    const { createFsTools } = await import("../../src/shell/defaults.js");
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n", "/secret/key": "hunter2\n" } });
    const tools = createFsTools({ fs, cwd: "/w", bash: { runner: justBashCommandRunner({ fs, cwd: "/w" }) } });
    const result = await tools.bash.execute({ command: "cat /secret/key; cat a.txt" });
    expect(result.stdout).toBe("a\n");
    expect(result.stderr).toBe(
      "cat: /secret/key: No such file or directory\n" +
        "bash: refused: EACCES: permission denied, open '/secret/key' (Permission denied: /secret/key is outside the workspace and interactive permission prompts are not available in this execution context. Add an allow rule for \"readFile\" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.)\n",
    );
    const bare = justBashCommandRunner({ fs });
    expect((await bare.run({ command: "cat /secret/key", cwd: "/", env: {}, timeoutMs: 5_000 })).stdout).toBe(
      "hunter2\n",
    );
  });

  it("an allow rule admits a path outside the workspace to the shell", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n", "/data/in.csv": "x,y\n" } });
    const gate = createGate({ fs, cwd: "/w", permissions: { allow: [{ tool: "readFile", path: "/data/**" }] } });
    const out = await justBashCommandRunner({ fs: gate }).run({
      command: "cat /data/in.csv",
      cwd: "/w",
      env: {},
      timeoutMs: 5_000,
    });
    expect(out).toEqual({ stdout: "x,y\n", stderr: "", exitCode: 0, timedOut: false });
  });

  it("a backend error that just-bash lets escape ends the run with a clear result", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const readOnly = forwardFileSystem(fs, () => ({
      writeFile: async () => {
        const { FsError } = await import("../../src/contract/errors.js");
        throw new FsError("EROFS", { syscall: "open", path: "/w/new.txt" });
      },
    }));
    const out = await justBashCommandRunner({ fs: readOnly, cwd: "/w" }).run({
      command: "echo a; echo b > new.txt; echo c",
      cwd: "/w",
      env: {},
      timeoutMs: 5_000,
    });
    expect(out).toEqual({
      stdout: "",
      stderr:
        "bash: EROFS: read-only file system, open '/w/new.txt' (the script stopped here; its earlier output is lost)\n",
      exitCode: 1,
      timedOut: false,
    });
  });

  it("passes limits to just-bash", async () => {
    const { gate } = setup();
    const limited = justBashCommandRunner({ fs: gate, limits: { maxLoopIterations: 3 } });
    const out = await limited.run({
      command: "for i in 1 2 3 4 5; do echo $i; done",
      cwd: "/w",
      env: {},
      timeoutMs: 5_000,
    });
    expect({ exitCode: out.exitCode, stderr: out.stderr }).toEqual({
      exitCode: 126,
      stderr: "bash: for loop: too many iterations (3), increase executionLimits.maxLoopIterations\n",
    });
  });

  it("throws TypeError at creation for bad options", () => {
    const { gate } = setup();
    expect(() => justBashCommandRunner({ fs: gate, cwd: "w" })).toThrow(
      new TypeError('justBashCommandRunner cwd must be an absolute path, got "w"'),
    );
    expect(() => justBashCommandRunner({ fs: gate, statCacheMs: -1 })).toThrow(
      new TypeError("toJustBashFs statCacheMs must be a number of milliseconds ≥ 0, got -1"),
    );
    expect(() => justBashCommandRunner({ fs: gate, timeout: 1 } as never)).toThrow(
      new TypeError(
        'justBashCommandRunner got an unknown option "timeout". Known options: fs, cwd, limits, statCacheMs',
      ),
    );
    expect(() => justBashCommandRunner({ fs: null } as never)).toThrow(
      new TypeError("justBashCommandRunner needs an fs option (a Gate, or a FileSystem)"),
    );
  });

  it("with no options runs over a fresh, empty memory store of its own, in /", async () => {
    const runner = justBashCommandRunner();
    expect(runner.cwd).toBe("/");
    const run = (command: string) => runner.run({ command, cwd: "", env: {}, timeoutMs: 5_000 });
    expect(await run("ls -A /")).toEqual({ stdout: "", stderr: "", exitCode: 0, timedOut: false });
    expect((await run("echo hi > a.txt && cat /a.txt")).stdout).toBe("hi\n");
    expect(
      (await justBashCommandRunner().run({ command: "ls -A /", cwd: "/", env: {}, timeoutMs: 5_000 })).stdout,
    ).toBe("");
  });

  it("trial finding 11: justBashCommandRunner({}) does not throw (as its TSDoc now says): a store of its own", async () => {
    const runner = justBashCommandRunner({});
    expect([runner.name, runner.cwd, runner.confined]).toEqual(["just-bash", "/", true]);
    const out = await runner.run({ command: "echo x > b.txt && ls", cwd: "/", env: {}, timeoutMs: 5_000 });
    expect(out).toEqual({ stdout: "b.txt\n", stderr: "", exitCode: 0, timedOut: false });
  });

  it("declares its cwd: the given one, the gate's, or the backend's own", async () => {
    const { fs, gate } = setup({ "/w/a.txt": "alpha\n", "/p/b.txt": "beta\n" });
    expect(justBashCommandRunner({ fs: gate, cwd: "/w/sub" }).cwd).toBe("/w/sub");
    expect(justBashCommandRunner({ fs: gate }).cwd).toBe("/w");
    const placed = { ...fs, cwd: "/p", allowedRoots: ["/p"] };
    const runner = justBashCommandRunner({ fs: placed });
    expect(runner.cwd).toBe("/p");
    // A run that gives no cwd starts at the backend's; the backend's roots confine the shell.
    expect(await runner.run({ command: "pwd; cat b.txt; cat /w/a.txt", cwd: "", env: {}, timeoutMs: 5_000 })).toEqual({
      stdout: "/p\nbeta\n",
      stderr:
        "cat: /w/a.txt: No such file or directory\nbash: refused: EACCES: permission denied, open '/w/a.txt' (Permission denied: /w/a.txt is outside the workspace and interactive permission prompts are not available in this execution context. Add an allow rule for \"readFile\" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.)\n",
      exitCode: 1,
      timedOut: false,
    });
  });
});

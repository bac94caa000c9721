import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeCommandRunner, nodeFileSystem } from "../../../src/backends/node/index.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import type { CommandRunner } from "../../../src/contract/runner.js";
import { shellEnv } from "../../../src/shell/shell-env.js";
import { createBashTool } from "../../../src/shell/defaults.js";
import { createFsTools } from "../../../src/shell/defaults.js";
import { createReadTool } from "../../../src/tools/read/index.js";
import { memoryStore } from "../../../src/tools/kit/state.js";
import { sha256Digest } from "../../../src/contract/digest.js";
import { resultText } from "../../../src/tools/kit/result.js";
import { createWriteTool } from "../../../src/tools/write/index.js";
import { ToolInputError } from "../../../src/tools/kit/tool.js";

const decoder = new TextDecoder();

function workspace(files: Record<string, string> = {}) {
  return memoryFileSystem({ files: { "/w/.keep": "", ...files } });
}

describe("bash tool: the shell and the file tools see the same files", () => {
  it("a file written by the write tool is visible to cat", async () => {
    const fs = workspace();
    const write = createWriteTool({ fs, cwd: "/w" });
    const bash = createBashTool({ fs, cwd: "/w" });
    await write.execute({ path: "notes/todo.md", content: "- ship it\n" });
    const result = await bash.execute({ command: "cat notes/todo.md && wc -c < notes/todo.md" });
    expect(result).toEqual({
      kind: "shell",
      ok: true,
      parts: [{ type: "text", text: "- ship it\n10\n[exit code 0]" }],
      stdout: "- ship it\n10\n",
      stderr: "",
      exitCode: 0,
    });
  });

  it("a file written by echo > is visible to the read tool", async () => {
    const fs = workspace();
    const bash = createBashTool({ fs, cwd: "/w" });
    const read = createReadTool({ fs, cwd: "/w" });
    await bash.execute({ command: "mkdir -p out && echo 'from bash' > out/x.txt && echo second >> out/x.txt" });
    const result = await read.execute({ path: "out/x.txt" });
    expect(resultText(result)).toBe("1|from bash\n2|second");
  });
});

describe("bash tool in createFsTools", () => {
  it("a change made by bash makes the edit tool ask for a fresh read", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.py": "debug = True\n" } });
    const tools = createFsTools({ fs, cwd: "/w", state: memoryStore() });
    await tools.read.execute({ path: "a.py" });
    // sed -i reads the file, then rewrites it: what was read is no longer current.
    expect((await tools.bash.execute({ command: "sed -i 's/debug/DEBUG/' a.py" })).exitCode).toBe(0);
    const stale = await tools.edit.execute({ path: "a.py", oldText: "True", newText: "False" });
    expect({ ok: stale.ok, code: stale.error?.code }).toEqual({ ok: false, code: "ESTALE" });
    await tools.read.execute({ path: "a.py" });
    expect((await tools.edit.execute({ path: "a.py", oldText: "True", newText: "False" })).ok).toBe(true);
    expect((await tools.bash.execute({ command: "cat a.py" })).stdout).toBe("DEBUG = False\n");
  });
});

describe("bash tool: results", () => {
  it("stdout, stderr and a non-zero exit code", async () => {
    const bash = createBashTool({ fs: workspace(), cwd: "/w" });
    const result = await bash.execute({ command: "echo out; echo err >&2; exit 3" });
    expect(result).toEqual({
      kind: "shell",
      ok: true,
      parts: [{ type: "text", text: "out\n[stderr]\nerr\n[exit code 3]" }],
      stdout: "out\n",
      stderr: "err\n",
      exitCode: 3,
    });
  });

  it("runs in the cwd input, checked by the gate", async () => {
    const fs = workspace({ "/w/sub/a.txt": "a\n" });
    const bash = createBashTool({ fs, cwd: "/w" });
    expect((await bash.execute({ command: "pwd; ls", cwd: "sub" })).stdout).toBe("/w/sub\na.txt\n");
    const outside = await bash.execute({ command: "ls", cwd: "/etc" });
    expect({ ok: outside.ok, code: outside.error?.code }).toEqual({ ok: false, code: "EDENIED" });
    expect(await bash.execute({ command: "ls", cwd: "missing" })).toMatchObject({
      ok: false,
      error: { code: "ENOENT", message: "Cannot run in missing: no such directory." },
    });
    expect(await bash.execute({ command: "ls", cwd: "sub/a.txt" })).toMatchObject({
      ok: false,
      error: { code: "ENOTDIR", message: "Cannot run in sub/a.txt: it is not a directory." },
    });
  });

  it("a timeout ends the command with a clear result", async () => {
    const bash = createBashTool({ fs: workspace(), cwd: "/w", maxTimeoutMs: 5_000 });
    const result = await bash.execute({ command: "echo started; sleep 10; echo never", timeout: 200 });
    const message =
      "The command timed out after 200 ms and was stopped (exit code 124). Pass a larger timeout (at most 5,000 ms), or split the work into shorter commands.";
    expect(result).toEqual({
      kind: "shell",
      ok: false,
      // just-bash drops the output of a script it stops.
      parts: [{ type: "text", text: `[stderr]\nbash: stopped: timed out after 200 ms\n[${message}]` }],
      error: { code: "ETIMEDOUT", message },
      stdout: "",
      stderr: "bash: stopped: timed out after 200 ms\n",
      exitCode: 124,
      timedOut: true,
    });
  });

  it("a busy loop is stopped at the timeout too", async () => {
    const bash = createBashTool({ fs: workspace(), cwd: "/w" });
    const result = await bash.execute({ command: "while true; do :; done", timeout: 300 });
    expect({ ok: result.ok, code: result.error?.code, exitCode: result.exitCode, timedOut: result.timedOut }).toEqual({
      ok: false,
      code: "ETIMEDOUT",
      exitCode: 124,
      timedOut: true,
    });
  });

  it("output over the cap is cut in the middle with a marker, and saved whole in tool-outputs/", async () => {
    const fs = workspace();
    const bash = createBashTool({ fs, cwd: "/w", maxOutputBytes: 100 });
    const result = await bash.execute({ command: "seq 1 1000" }, { toolCallId: "call_7" });
    const whole = `${Array.from({ length: 1000 }, (_, index) => index + 1).join("\n")}\n`;
    expect(decoder.decode(await fs.readFile("/w/tool-outputs/call_7.txt"))).toBe(whole);
    expect(result.outputPath).toBe("/w/tool-outputs/call_7.txt");
    expect(resultText(result)).toBe(
      "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n" +
        "[… 3.7 KiB (3,796 bytes) (969 lines) removed from the middle; the full output (3.8 KiB (3,893 bytes)) is saved in tool-outputs/call_7.txt: read that file in ranges (from line 20, 500 lines at a time), or search it …]\n" +
        "989\n990\n991\n992\n993\n994\n995\n996\n997\n998\n999\n1000\n[exit code 0]",
    );
    expect(result.stdout.startsWith("1\n2\n")).toBe(true);
    expect(result.stdout).toContain("\n[… 3.7 KiB (3,796 bytes) (969 lines) removed …]\n989\n");
  });

  it("the description names the runner and the working directory", () => {
    const bash = createBashTool({ fs: workspace(), cwd: "/w" });
    expect(bash.description).toBe(
      "Run a bash command line and get its stdout, stderr and exit code. " +
        "Commands run in just-bash, a bash interpreter written in JavaScript with the usual tools (ls, cat, grep, sed, awk, find, sort, head, tail, wc, jq, diff...) and git (init, add, commit, status, diff, log, checkout), over the same files as the other tools (memory storage); there are no real processes, no network and no package installs. " +
        "Working directory: /w (every call starts there; cd does not carry over; pass cwd to run elsewhere). " +
        "Timeout: 120,000 ms unless you pass timeout (at most 600,000 ms). " +
        "Output over 30,000 bytes is cut in the middle and saved whole under tool-outputs/, to read in ranges.",
    );
  });

  it("the environment comes from env (a ShellEnv read before each command)", async () => {
    let greeting = "hello";
    const bash = createBashTool({
      fs: workspace(),
      cwd: "/w",
      env: shellEnv(() => ({ GREETING: greeting, API_KEY: "sk-1" })),
    });
    expect((await bash.execute({ command: 'echo "$GREETING ${API_KEY:-hidden}"' })).stdout).toBe("hello hidden\n");
    greeting = "bye";
    expect((await bash.execute({ command: 'echo "$GREETING"' })).stdout).toBe("bye\n");
  });

  it("a custom runner gets the command, cwd, env and timeout", async () => {
    const seen: unknown[] = [];
    const runner: CommandRunner = {
      name: "fake",
      confined: true,
      describe: () => "Commands run in a fake runner.",
      run: async (options) => {
        seen.push(options);
        return { stdout: "ok\n", stderr: "", exitCode: 0, timedOut: false };
      },
    };
    const bash = createBashTool({ fs: workspace(), cwd: "/w", runner, env: { A: "1" }, defaultTimeoutMs: 1_000 });
    expect(
      bash.description.startsWith(
        "Run a bash command line and get its stdout, stderr and exit code. Commands run in a fake runner. Working directory: /w ",
      ),
    ).toBe(true);
    expect(resultText(await bash.execute({ command: "anything" }))).toBe("ok\n[exit code 0]");
    expect(seen).toEqual([{ command: "anything", cwd: "/w", env: { A: "1" }, timeoutMs: 1_000 }]);
  });
});

describe("bash tool: permissions", () => {
  it("a command outside the rules is refused in a non-interactive host, with the rule to add", async () => {
    const fs = workspace();
    const bash = createBashTool({ fs, cwd: "/w", permissions: { allow: [{ tool: "runBash", command: "ls" }] } });
    expect((await bash.execute({ command: "ls -a" })).exitCode).toBe(0);
    const refused = await bash.execute({ command: "rm -r /w" });
    expect(refused.ok).toBe(false);
    expect(refused.error?.code).toBe("EDENIED");
    expect(refused.error?.message).toContain('"runBash"');
    expect(refused.exitCode).toBe(1);
    expect((await fs.readdir("/w")).map((entry) => entry.name)).toEqual([".keep"]);
  });

  it("the approve callback decides commands the rules do not admit", async () => {
    const asked: unknown[] = [];
    const bash = createBashTool({
      fs: workspace(),
      cwd: "/w",
      permissions: {
        allow: [{ tool: "runBash", command: "ls" }],
        approve: (request) => {
          asked.push({ tool: request.tool, command: request.command });
          return request.command === "echo yes";
        },
      },
    });
    expect((await bash.execute({ command: "echo yes" })).stdout).toBe("yes\n");
    expect((await bash.execute({ command: "echo no" })).error?.code).toBe("EDENIED");
    expect(asked).toEqual([
      { tool: "runBash", command: "echo yes" },
      { tool: "runBash", command: "echo no" },
    ]);
  });

  it("an unconfined runner fails closed: a command runs only when a runBash rule admits it or approve says yes", async () => {
    const seen: string[] = [];
    const runner: CommandRunner = {
      name: "real",
      describe: () => "Commands run in a real shell.",
      run: async (options) => {
        seen.push(options.command);
        return { stdout: "ran\n", stderr: "", exitCode: 0, timedOut: false };
      },
    };
    const closed = await createBashTool({ fs: workspace(), cwd: "/w", runner }).execute({ command: "cat /etc/passwd" });
    expect({ ok: closed.ok, error: closed.error, stdout: closed.stdout }).toEqual({
      ok: false,
      error: {
        code: "EDENIED",
        message:
          'Permission denied: the command "cat /etc/passwd" would run with the real runner, which is not confined to the workspace, and interactive permission prompts are not available in this execution context. Add an allow rule for "runBash" to the permissions config. A model cannot change the permissions: use the file tools or a command the rules allow, or ask the user to allow this one.',
      },
      stdout: "",
    });
    const ruled = createBashTool({
      fs: workspace(),
      cwd: "/w",
      runner,
      permissions: { allow: [{ tool: "runBash", command: "git status" }] },
    });
    expect((await ruled.execute({ command: "git status -s" })).stdout).toBe("ran\n");
    expect((await ruled.execute({ command: "rm -rf ~" })).error?.code).toBe("EDENIED");
    const asked: string[] = [];
    const approved = createBashTool({
      fs: workspace(),
      cwd: "/w",
      runner,
      permissions: {
        approve: (request) => (asked.push(`${request.tool}: ${request.reason}`), request.command === "make"),
      },
    });
    expect((await approved.execute({ command: "make" })).stdout).toBe("ran\n");
    expect((await approved.execute({ command: "make" })).stdout).toBe("ran\n");
    expect((await approved.execute({ command: "rm -rf ~" })).error).toEqual({
      code: "EDENIED",
      message: 'Permission denied: the command "rm -rf ~" is not allowed and the user did not approve it.',
    });
    expect(asked).toEqual([
      'runBash: run the command "make" with the real runner, which is not confined to the workspace',
      'runBash: run the command "rm -rf ~" with the real runner, which is not confined to the workspace',
    ]);
    expect(seen).toEqual(["git status -s", "make", "make"]);
    const crashing = createBashTool({
      fs: workspace(),
      cwd: "/w",
      runner,
      permissions: {
        approve: () => {
          throw new Error("ui crashed");
        },
      },
    });
    expect((await crashing.execute({ command: "make" })).error).toEqual({
      code: "EDENIED",
      message:
        'Permission denied: the command "make" is not allowed and the approve callback failed (ui crashed), so it was refused.',
    });
    expect(seen).toEqual(["git status -s", "make", "make"]);
  });

  it("files outside the workspace are refused inside the shell, with the reason on stderr", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n", "/secret/key.txt": "k\n" } });
    const bash = createBashTool({ fs, cwd: "/w" });
    const result = await bash.execute({ command: "cat ../secret/key.txt; echo x > /secret/new.txt; echo done" });
    expect(result.stdout).toBe("done\n");
    expect(result.stderr.split("\n").slice(0, 2)).toEqual([
      "cat: ../secret/key.txt: No such file or directory",
      "bash: /secret/new.txt: cannot open redirect target",
    ]);
    expect(result.stderr).toContain("bash: refused: EACCES: permission denied, open '/secret/key.txt'");
    expect((await fs.readdir("/secret")).map((entry) => entry.name)).toEqual(["key.txt"]);
  });
});

describe("bash tool: input and options", () => {
  it("validate checks command, timeout and cwd", () => {
    const bash = createBashTool({ fs: workspace(), cwd: "/w", maxTimeoutMs: 1_000 });
    expect(bash.validate({ command: "ls", timeout: 10, cwd: "x" })).toEqual({ command: "ls", timeout: 10, cwd: "x" });
    expect(bash.validate({ command: "ls", timeout: null })).toEqual({ command: "ls" });
    expect(() => bash.validate({ command: "" })).toThrow(new ToolInputError("bash input command must not be empty"));
    expect(() => bash.validate({ command: "ls", timeout: 5_000 })).toThrow(
      new ToolInputError("bash input timeout must be ≤ 1000 (milliseconds), got 5000"),
    );
    expect(() => bash.validate({ cmd: "ls" })).toThrow(
      new ToolInputError("Unknown bash input key: cmd. Expected command, timeout, cwd"),
    );
  });

  it("throws TypeError at creation for bad options", () => {
    const fs = workspace();
    expect(() => createBashTool({ fs, maxOutputBytes: 0 })).toThrow(
      new TypeError("createBashTool maxOutputBytes must be a positive integer, got 0"),
    );
    expect(() => createBashTool({ fs, defaultTimeoutMs: 10, maxTimeoutMs: 5 })).toThrow(
      new TypeError("createBashTool defaultTimeoutMs (10) must not exceed maxTimeoutMs (5)"),
    );
    expect(() => createBashTool({ fs, runner: {} as CommandRunner })).toThrow(
      new TypeError("createBashTool runner must be a CommandRunner ({ name, describe(), run() })"),
    );
    expect(() => createBashTool({ fs, timeout: 1 } as never)).toThrow(TypeError);
    expect(() => createBashTool({ fs, env: { A: "1", B: 1 } as never })).toThrow(
      new TypeError("createBashTool env.B must be a string, got number"),
    );
    expect(() => createBashTool({ fs, env: { B: { x: 1 } } as never })).toThrow(
      new TypeError("createBashTool env.B must be a string, got an object"),
    );
    expect(() => createFsTools({ fs, bash: { env: { A: 1 } as never } })).toThrow(
      new TypeError("createFsTools bash.env.A must be a string, got number"),
    );
    expect(() => createBashTool({ env: {} })).toThrow(
      new TypeError(
        "createBashTool runner must be given when fs is not: pass a runner (justBashCommandRunner from better-fs-tools/shell, nodeCommandRunner from better-fs-tools/node) or an fs for the default just-bash to run over",
      ),
    );
  });

  it("an aborted call rethrows the abort reason", async () => {
    const bash = createBashTool({ fs: workspace(), cwd: "/w" });
    const controller = new AbortController();
    const reason = new Error("user stopped it");
    setTimeout(() => controller.abort(reason), 100);
    await expect(bash.execute({ command: "sleep 5" }, { abortSignal: controller.signal })).rejects.toBe(reason);
  });

  it("an abort through the host's signal alone (AI SDK call options) rejects with its reason too", async () => {
    const bash = createBashTool({ fs: workspace(), cwd: "/w" });
    const controller = new AbortController();
    const reason = new Error("host stopped it");
    setTimeout(() => controller.abort(reason), 100);
    await expect(bash.execute({ command: "sleep 5" }, { host: { abortSignal: controller.signal } })).rejects.toBe(
      reason,
    );
  });
});

describe("bash tool: guarded execute", () => {
  const fakeRunner = (run: CommandRunner["run"]): CommandRunner => ({
    name: "fake",
    confined: true,
    describe: () => "Commands run in a fake runner.",
    run,
  });

  it("bad input given straight to execute is an EINPUT result, and nothing runs", async () => {
    const seen: string[] = [];
    const runner = fakeRunner(async (options) => {
      seen.push(options.command);
      return { stdout: "", stderr: "", exitCode: 0, timedOut: false };
    });
    const bash = createBashTool({ fs: workspace(), cwd: "/w", runner, maxTimeoutMs: 1_000 });
    expect(await bash.execute({ command: "echo hi", timeout: 5_000 })).toEqual({
      kind: "shell",
      ok: false,
      parts: [{ type: "text", text: "bash input timeout must be ≤ 1000 (milliseconds), got 5000" }],
      error: { code: "EINPUT", message: "bash input timeout must be ≤ 1000 (milliseconds), got 5000" },
      stdout: "",
      stderr: "bash input timeout must be ≤ 1000 (milliseconds), got 5000",
      exitCode: 1,
    });
    expect((await bash.execute({ command: "" })).error).toEqual({
      code: "EINPUT",
      message: "bash input command must not be empty",
    });
    expect(seen).toEqual([]);
  });

  it("a plain Error from the environment function is an EIO result, not a throw; one from the backend saving the output only means it was not saved", async () => {
    const runner = fakeRunner(async () => ({ stdout: "ok\n", stderr: "", exitCode: 0, timedOut: false }));
    const env = (() => {
      throw new Error("secret store locked");
    }) as never;
    const bash = createBashTool({ fs: workspace(), cwd: "/w", runner, env });
    expect(await bash.execute({ command: "echo hi" })).toEqual({
      kind: "shell",
      ok: false,
      parts: [{ type: "text", text: "secret store locked" }],
      error: { code: "EIO", message: "secret store locked" },
      stdout: "",
      stderr: "secret store locked",
      exitCode: 1,
    });

    // The full output is saved through the backend; a write failing with a plain Error there
    // only means the output could not be saved.
    const base = workspace();
    const failing = { ...base, noFollow: undefined, writeFile: async () => Promise.reject(new Error("disk on fire")) };
    const big = fakeRunner(async () => ({ stdout: "x\n".repeat(100), stderr: "", exitCode: 0, timedOut: false }));
    const saved = await createBashTool({ fs: failing, cwd: "/w", runner: big, maxOutputBytes: 20 }).execute({
      command: "yes",
    });
    expect({ ok: saved.ok, outputPath: saved.outputPath, text: resultText(saved) }).toEqual({
      ok: true,
      outputPath: undefined,
      text: "x\nx\nx\nx\nx\n[… 182 bytes (91 lines) removed from the middle; the full output could not be saved …]\nx\nx\nx\nx\n[exit code 0]",
    });
  });
});

describe("bash tool with the real bash of nodeCommandRunner", () => {
  it("fails closed without approve; sees the write tool's file on disk; a timeout keeps the partial output", async () => {
    const root = await mkdtemp(join(tmpdir(), "bft-bash-tool-"));
    try {
      const fs = nodeFileSystem({ cwd: root });
      const tools = createFsTools({
        fs,
        cwd: root,
        bash: { runner: nodeCommandRunner({ cwd: root }), env: { PATH: "/usr/bin:/bin" }, maxTimeoutMs: 10_000 },
        // The real bash is not confined by the gate: without a rule or approve it runs nothing.
        permissions: { approve: () => true },
      });
      const closed = createFsTools({ fs, cwd: root, bash: { runner: nodeCommandRunner({ cwd: root }) } });
      expect((await closed.bash.execute({ command: "echo hi" })).error?.code).toBe("EDENIED");
      await tools.write.execute({ path: "a.txt", content: "on disk\n" });
      expect(resultText(await tools.bash.execute({ command: "cat a.txt; echo made > b.txt" }))).toBe(
        "on disk\n[exit code 0]",
      );
      expect(resultText(await tools.read.execute({ path: "b.txt" }))).toBe("1|made");
      const slow = await tools.bash.execute({ command: "echo started; sleep 30", timeout: 1_500 });
      expect({
        ok: slow.ok,
        stdout: slow.stdout,
        exitCode: slow.exitCode,
        timedOut: slow.timedOut,
        code: slow.error?.code,
      }).toEqual({
        ok: false,
        stdout: "started\n",
        exitCode: 124,
        timedOut: true,
        code: "ETIMEDOUT",
      });
      expect(tools.bash.description).toContain(
        "Commands run in a real /bin/bash process on the host machine (Node.js), with the host's programs and files; each command starts a fresh shell. Working directory: ",
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("bash tool: files read by commands count as read (read-before-write)", () => {
  it("cat, sed -n, head, tail and grep record their files in the store, under their real paths", async () => {
    const files = { "/w/a.txt": "a\n", "/w/b.txt": "b\n", "/w/c.txt": "c\n", "/w/d.txt": "d\n", "/w/e.txt": "e\n" };
    const fs = memoryFileSystem({ files });
    const state = memoryStore();
    const tools = createFsTools({ fs, cwd: "/w", state, clock: () => 7 });
    const result = await tools.bash.execute({
      command: "cat a.txt; sed -n 1p b.txt; head -1 c.txt; tail -1 d.txt; grep e e.txt; echo x > f.txt",
    });
    expect(result.stdout).toBe("a\nb\nc\nd\ne\n");
    const digest = sha256Digest();
    for (const name of ["a", "b", "c", "d", "e"]) {
      expect(await state.get(`/w/${name}.txt`)).toEqual({
        digest: await digest(new TextEncoder().encode(`${name}\n`)),
        atMs: 7,
      });
    }
    // Written, not read: no record.
    expect(await state.get("/w/f.txt")).toBeUndefined();
    expect(resultText(await tools.edit.execute({ path: "a.txt", oldText: "a", newText: "A" }))).toBe(
      "replaced 1 occurrence in a.txt at line 1",
    );
  });

  it("a Codex-style session: cat through bash, then write and apply_patch, none refused", async () => {
    const fs = memoryFileSystem({ files: { "/w/src/app.ts": "const x = 1;\nexport { x };\n" } });
    const tools = createFsTools({ fs, cwd: "/w", state: memoryStore() });
    await tools.bash.execute({ command: "cat src/app.ts" });
    const patch = "*** Begin Patch\n*** Update File: src/app.ts\n@@\n-const x = 1;\n+const x = 2;\n*** End Patch";
    expect(resultText(await tools.apply_patch.execute({ patch }))).toBe(
      "Success. Updated the following files:\nM src/app.ts",
    );
    await tools.bash.execute({ command: "cat src/app.ts" });
    expect(resultText(await tools.write.execute({ path: "src/app.ts", content: "whole\n" }))).toBe(
      "wrote 6 bytes to src/app.ts",
    );
  });

  it("without a store nothing is recorded and nothing is asked of the runner", async () => {
    const seen: unknown[] = [];
    const runner: CommandRunner = {
      name: "fake",
      confined: true,
      describe: () => "Commands run in a fake runner.",
      run: async (run) => {
        seen.push(run.onRead);
        return { stdout: "", stderr: "", exitCode: 0, timedOut: false };
      },
    };
    await createBashTool({ fs: workspace(), cwd: "/w", runner }).execute({ command: "true" });
    expect(seen).toEqual([undefined]);
  });
});

describe("bash tool: cwd and roots from the backend or the runner", () => {
  const recording = (cwd?: string) => {
    const seen: string[] = [];
    const runner: CommandRunner = {
      name: "fake",
      confined: true,
      ...(cwd === undefined ? {} : { cwd }),
      describe: () => "Commands run in a fake runner.",
      run: async (run) => {
        seen.push(run.cwd);
        return { stdout: `${run.cwd}\n`, stderr: "", exitCode: 0, timedOut: false };
      },
    };
    return { runner, seen };
  };

  it("a runner and no fs: commands start in the runner's cwd; the cwd input resolves against it", async () => {
    const { runner, seen } = recording("/p");
    const bash = createBashTool({ runner, env: {} });
    expect(bash.description).toContain("Working directory: /p (every call starts there;");
    expect(resultText(await bash.execute({ command: "pwd" }))).toBe("/p\n[exit code 0]");
    expect(resultText(await bash.execute({ command: "pwd", cwd: "sub" }))).toBe("/p/sub\n[exit code 0]");
    expect(seen).toEqual(["/p", "/p/sub"]);
    // Outside the runner's cwd the cwd input is gated as any path.
    expect(await bash.execute({ command: "pwd", cwd: "/etc" })).toMatchObject({
      ok: false,
      error: { code: "EDENIED" },
    });
  });

  it("the tool's own cwd wins over the runner's", async () => {
    const { runner, seen } = recording("/p");
    const bash = createBashTool({ runner, env: {}, cwd: "/q" });
    await bash.execute({ command: "pwd" });
    expect(seen).toEqual(["/q"]);
  });

  it("a backend that declares its place: the default just-bash runner starts there", async () => {
    const fs = { ...memoryFileSystem({ files: { "/p/a.txt": "alpha\n" } }), cwd: "/p", allowedRoots: ["/p"] };
    const bash = createBashTool({ fs });
    expect(bash.description).toContain("Working directory: /p (every call starts there;");
    expect(resultText(await bash.execute({ command: "pwd; cat a.txt" }))).toBe("/p\nalpha\n[exit code 0]");
  });

  it("the recommended Node configuration: nodeFileSystem({ cwd, allowedRoots: [cwd] }) and nodeCommandRunner({ cwd })", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bft-bash-place-"));
    try {
      const tools = createFsTools({
        fs: nodeFileSystem({ cwd: dir, allowedRoots: [dir] }),
        bash: {
          runner: nodeCommandRunner({ cwd: dir }),
          env: shellEnv(() => ({ PATH: "/usr/bin:/bin" })),
          // The node runner is unconfined: a rule admits the commands.
        },
        permissions: { allow: [{ tool: "runBash", command: "pwd" }] },
      });
      expect(resultText(await tools.bash.execute({ command: "pwd" }))).toBe(`${dir}\n[exit code 0]`);
      await tools.write.execute({ path: "a.txt", content: "x\n" });
      expect(resultText(await tools.read.execute({ path: "a.txt" }))).toBe("1|x");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

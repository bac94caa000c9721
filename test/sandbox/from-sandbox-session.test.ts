import { describe, expect, it } from "vitest";
import { testFileSystem } from "better-fs-tools/conformance";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { justBashCommandRunner } from "../../src/shell/index.js";
import { fromSandboxSession, toSandboxSession } from "../../src/sandbox/index.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { resultText } from "../../src/tools/kit/result.js";

function roundTrip(files: Record<string, string> = {}) {
  const inner = memoryFileSystem({ files });
  const session = toSandboxSession({ fs: inner, runner: justBashCommandRunner({ fs: inner }) });
  return { inner, session, ...fromSandboxSession(session) };
}

testFileSystem({
  name: "sandbox session (fromSandboxSession over toSandboxSession over memory)",
  create: async () => roundTrip().fs,
  // A sandbox session has no modification time: mtimeMs is 0.
  todo: ["stat of a file gives type, size and mtimeMs"],
});

describe("fromSandboxSession", () => {
  it("does rename, mkdir and recursive rm through run, seen by the inner backend", async () => {
    const { fs, inner } = roundTrip({ "/w/a.txt": "a\n", "/w/d/x.txt": "x\n" });
    await fs.rename("/w/a.txt", "/w/b.txt");
    await fs.mkdir("/w/new/deep", { recursive: true });
    await fs.rm("/w/d", { recursive: true });
    expect((await inner.readdir("/w")).map((entry) => `${entry.name}:${entry.type}`).sort()).toEqual([
      "b.txt:file",
      "new:directory",
    ]);
    expect(new TextDecoder().decode(await inner.readFile("/w/b.txt"))).toBe("a\n");
  });

  it("reports symlinks in lstat and resolves them in realpath", async () => {
    const { fs } = roundTrip({ "/w/real/a.txt": "a" });
    await fs.symlink?.("/w/real", "/w/link");
    expect((await fs.lstat("/w/link")).type).toBe("symlink");
    expect(await fs.readlink?.("/w/link")).toBe("/w/real");
    expect(await fs.realpath("/w/link/a.txt")).toBe("/w/real/a.txt");
  });

  it("its runner runs commands with cwd, env and stdin", async () => {
    const { runner } = roundTrip({ "/w/a.txt": "hello\n" });
    const output = await runner.run({
      command: "cat a.txt; echo $NAME; cat",
      cwd: "/w",
      env: { NAME: "n" },
      timeoutMs: 10_000,
      stdin: "in\n",
    });
    expect(output).toEqual({ stdout: "hello\nn\nin\n", stderr: "", exitCode: 0, timedOut: false });
    expect(runner.describe()).toContain("just-bash");
  });

  it("the core tools and the gate run against a session", async () => {
    const { fs } = roundTrip({ "/w/notes.txt": "one\n" });
    const tools = createFsTools({ fs, cwd: "/w" });
    expect(resultText(await tools.read.execute({ path: "notes.txt" }))).toBe("1|one");
    const denied = await tools.read.execute({ path: "/etc/passwd" });
    expect(denied.ok).toBe(false);
    const edited = await tools.edit.execute({ path: "notes.txt", oldText: "one", newText: "two" });
    expect(edited.ok).toBe(true);
    expect(resultText(await tools.read.execute({ path: "notes.txt" }))).toBe("1|two");
  });

  it("throws TypeError for something that is not a session, and for unknown options", () => {
    expect(() => fromSandboxSession({} as never)).toThrow(
      new TypeError("fromSandboxSession needs an Experimental_SandboxSession: run is missing"),
    );
    const { session } = roundTrip();
    expect(() => fromSandboxSession(session, { root: "/" } as never)).toThrow(
      new TypeError('fromSandboxSession got an unknown option "root". Known options: cwd'),
    );
  });
});

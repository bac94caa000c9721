/**
 * A known gap of just-bash 3.4.2 (upstream, not our bridge): its `ls` treats an operand holding
 * `*`, `?` or `[` as a pattern even when the word was quoted (the shell has already removed the
 * quotes), matches it against `fs.getAllPaths()` with minimatch, and prints the matched names
 * instead of listing the directory. Over our bridge, whose `getAllPaths()` is empty, nothing
 * matches: exit 2. This is why the security corpus skips "deep-path: 200 odd legal names,
 * present (list)" for the bash tool (its path holds a directory named `*`). When just-bash lists
 * such a directory, these expectations fail: then drop the skip in test/security/targets.ts.
 */
import { Bash, InMemoryFs } from "just-bash";
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { createGate } from "../../src/gate/gate.js";
import { justBashCommandRunner } from "../../src/shell/just-bash-runner.js";
import { ATTACKS } from "../security/attacks.js";

const FILES = { "/w/*/x.txt": "star", "/w/q?/x.txt": "q", "/w/a b/x.txt": "ab", "/w/top.txt": "top" };

async function ours(command: string, files: Record<string, string> = FILES) {
  const fs = memoryFileSystem({ files });
  const runner = justBashCommandRunner({ fs: createGate({ fs, cwd: "/w" }) });
  const { stdout, stderr, exitCode } = await runner.run({ command, cwd: "/w", env: {}, timeoutMs: 10_000 });
  return { stdout, stderr, exitCode };
}

async function upstream(command: string) {
  const store = new InMemoryFs();
  for (const [path, text] of Object.entries(FILES)) {
    await store.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await store.writeFile(path, text);
  }
  const { stdout, stderr, exitCode } = await new Bash({ fs: store, cwd: "/w" }).exec(command);
  return { stdout, stderr, exitCode };
}

describe("just-bash 3.4.2 ls globs its quoted operands (upstream gap)", () => {
  it("over our bridge, ls of a quoted directory named '*' or 'q?' fails with exit 2; cat and cd of it work", async () => {
    expect(await ours("ls -a -- '*'")).toEqual({
      stdout: "",
      stderr: "ls: *: No such file or directory\n",
      exitCode: 2,
    });
    expect(await ours("ls -a -- '/w/q?'")).toEqual({
      stdout: "",
      stderr: "ls: /w/q?: No such file or directory\n",
      exitCode: 2,
    });
    // The same directory through other commands, and a name with no pattern character.
    expect(await ours("cat -- '*/x.txt'; echo; cd -- '*' && ls -a; ls -a -- '/w/a b'")).toEqual({
      stdout: "star\n.\n..\nx.txt\n.\n..\nx.txt\n",
      stderr: "",
      exitCode: 0,
    });
  });

  it("the corpus row: ls -a of the 200-odd-name directory fails the same way (its 12th name is '*')", async () => {
    const row = ATTACKS.find((attack) => attack.name === "deep-path: 200 odd legal names, present (list)");
    const path = row?.path ?? "";
    expect(path.split("/")[11]).toBe("*");
    const files = Object.fromEntries(Object.entries(row?.files ?? {}).map(([file, text]) => [`/w/${file}`, text]));
    const quoted = `'${path.replace(/'/g, `'\\''`)}'`;
    expect(await ours(`ls -a -- ${quoted}`, files)).toEqual({
      stdout: "",
      stderr: `ls: ${path}: No such file or directory\n`,
      exitCode: 2,
    });
    expect(await ours(`cd -- ${quoted} && ls -a`, files)).toEqual({
      stdout: ".\n..\nx.txt\n",
      stderr: "",
      exitCode: 0,
    });
  });

  it("over just-bash's own InMemoryFs, ls '*' prints the names that match '*' in the cwd, not the directory's entries", async () => {
    expect(await upstream("ls -a -- '*'")).toEqual({
      stdout: "*\na b\nq?\ntop.txt\n",
      stderr: "",
      exitCode: 0,
    });
    expect(await upstream("cd -- '*' && ls -a")).toEqual({ stdout: ".\n..\nx.txt\n", stderr: "", exitCode: 0 });
  });
});

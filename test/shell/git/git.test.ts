import { mkdtemp, mkdir, rm, writeFile, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memoryFileSystem } from "better-fs-tools/memory";
import { nodeFileSystem } from "better-fs-tools/node";
import type { FileSystem } from "better-fs-tools";
import { runGit } from "../../../src/shell/git/git.js";
import { GIT_ENV, HAS_GIT, realGit } from "./real-git.js";

const encode = (text: string) => new TextEncoder().encode(text);
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** One step applied to both trees: a file written or removed, or a git command whose output is compared. */
type Step = { write: string; text: string } | { remove: string } | { git: string[] };

/** Runs the steps on the real git (in a temp dir) and on ours (over `backend`, at /w); returns both transcripts. */
async function sideBySide(steps: readonly Step[], backend: FileSystem): Promise<{ ours: string[]; theirs: string[] }> {
  const real = await mkdtemp(join(tmpdir(), "bft-git-"));
  dirs.push(real);
  await backend.mkdir("/w", { recursive: true });
  const ours: string[] = [];
  const theirs: string[] = [];
  for (const step of steps) {
    if ("write" in step) {
      await mkdir(join(real, step.write, ".."), { recursive: true });
      await writeFile(join(real, step.write), step.text);
      await backend.writeFile(`/w/${step.write}`, encode(step.text));
    } else if ("remove" in step) {
      await unlink(join(real, step.remove));
      await backend.rm(`/w/${step.remove}`);
    } else {
      theirs.push(realGit(real, step.git).replaceAll(real, "/w"));
      const out = await runGit(step.git, { fs: backend, cwd: "/w", env: GIT_ENV });
      ours.push(out.exitCode === 0 ? out.stdout : `exit ${out.exitCode}: ${out.stderr}`);
    }
  }
  return { ours, theirs };
}

const SESSION: readonly Step[] = [
  { git: ["init", "-q"] },
  { write: "README.md", text: "# Demo\n\nA line.\n" },
  { write: "src/a.ts", text: "export const a = 1;\n" },
  { write: "src/deep/b.ts", text: "export const b = 2;\n" },
  { git: ["status"] },
  { git: ["status", "--short"] },
  { git: ["add", "README.md", "src/a.ts"] },
  { git: ["status"] },
  { git: ["add", "."] },
  { git: ["commit", "-m", "first commit"] },
  { git: ["status"] },
  { write: "README.md", text: "# Demo\n\nA line.\nAnother line.\n" },
  { write: "src/a.ts", text: "export const a = 42;\n" },
  { write: "notes/todo.txt", text: "todo\n" },
  { remove: "src/deep/b.ts" },
  { git: ["status"] },
  { git: ["status", "-s"] },
  { git: ["diff"] },
  { git: ["add", "README.md"] },
  { git: ["diff", "--cached"] },
  { git: ["status"] },
  { git: ["commit", "-a", "-m", "second: edit and delete"] },
  { write: "c.txt", text: "no newline" },
  { git: ["add", "c.txt"] },
  { git: ["commit", "-m", "third"] },
  { write: "README.md", text: "# Demo\n\nbroken\n" },
  { write: "src/a.ts", text: "export const a = 0;\n" },
  { git: ["add", "src/a.ts"] },
  { write: "src/a.ts", text: "export const a = -1;\n" },
  { git: ["checkout", "--", "README.md", "src/a.ts"] },
  { git: ["status", "--short"] },
  { git: ["diff", "--cached"] },
  { git: ["restore", "--staged", "src/a.ts"] },
  { git: ["checkout", "src/a.ts"] },
  { git: ["status"] },
  { git: ["log", "--oneline"] },
  { git: ["log"] },
  { git: ["diff", "HEAD~2", "HEAD"] },
];

describe.skipIf(!HAS_GIT)(
  "git: ours and the real git binary print the same text (skipped: no git binary on PATH)",
  () => {
    for (const [name, backend] of [
      ["memory", () => memoryFileSystem()],
      ["node", async () => nodeFileSystem({ root: await mkdtemp(join(tmpdir(), "bft-git-ours-")) })],
    ] as const) {
      it(`status, diff, commit, log over ${name}`, async () => {
        const fs = await backend();
        const { ours, theirs } = await sideBySide(SESSION, fs);
        expect(ours).toEqual(theirs);
      }, 60_000);
    }
  },
);

describe.skipIf(!HAS_GIT)("git over Node: the real binary (skipped: no git binary on PATH)", () => {
  it("the bash tool over Node runs the real git, which reads a repository our git made", async () => {
    const { nodeCommandRunner } = await import("better-fs-tools/node");
    const { createBashTool } = await import("better-fs-tools");
    const dir = await mkdtemp(join(tmpdir(), "bft-git-real-"));
    dirs.push(dir);
    const fs = nodeFileSystem({ cwd: dir });
    await fs.writeFile(`${dir}/a.txt`, encode("one\n"));
    for (const args of [
      ["init", "-q"],
      ["add", "a.txt"],
      ["commit", "-q", "-m", "made by ours"],
    ]) {
      expect((await runGit(args, { fs, cwd: dir, env: GIT_ENV })).exitCode).toBe(0);
    }
    const bash = createBashTool({
      fs,
      cwd: dir,
      runner: nodeCommandRunner({ cwd: dir }),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, GIT_CONFIG_NOSYSTEM: "1", ...GIT_ENV },
      permissions: { allow: [{ tool: "runBash", command: "git *" }] },
    });
    const result = await bash.execute({ command: "git log --oneline && git fsck --no-progress && git status --short" });
    // The real git's log of our commit (the same id it would make), a clean fsck and status.
    expect(result).toMatchObject({ ok: true, exitCode: 0, stdout: "54ee075 made by ours\n", stderr: "" });
  }, 60_000);
});

/** git's `diff --cached --stat` of the stat test (its seventh git step): scaled graph, cut name, binary. */
const EXPECTED_STAT = [
  " a.txt                                              |   1 +\n",
  " b.txt                                              |  72 ++++++++++++++++++++-\n",
  " bin.dat                                            | Bin 3 -> 5 bytes\n",
  " ...nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn.txt |   1 +\n",
  " 4 files changed, 73 insertions(+), 1 deletion(-)\n",
].join("");

/** Runs `steps` on the real git and on ours over memory; returns both transcripts. */
async function compare(steps: readonly Step[]): Promise<{ ours: string[]; theirs: string[] }> {
  return sideBySide(steps, memoryFileSystem());
}

describe.skipIf(!HAS_GIT)("git: follow-ups, ours against the real binary (skipped: no git binary on PATH)", () => {
  it("diff shows a removed BOM as part of line 1 (moved from trial2 finding 9)", async () => {
    const { ours, theirs } = await compare([
      { git: ["init", "-q"] },
      { write: "b.txt", text: "\uFEFFcr\r\nlf\r\n" },
      { git: ["add", "b.txt"] },
      { git: ["commit", "-q", "-m", "base"] },
      { write: "b.txt", text: "cr\r\nLF\r\n" },
      { git: ["diff"] },
    ]);
    expect(ours).toEqual(theirs);
    expect(ours[3]?.endsWith("@@ -1,2 +1,2 @@\n-\uFEFFcr\r\n-lf\r\n+cr\r\n+LF\r\n")).toBe(true);
  }, 60_000);

  it("diff --stat prints git's stat lines and summary (moved from trial2 finding 7)", async () => {
    const long = `dir/${"n".repeat(90)}.txt`;
    const many = Array.from({ length: 120 }, (_, index) => `line ${index}\n`).join("");
    const { ours, theirs } = await compare([
      { git: ["init", "-q"] },
      { write: "a.txt", text: "one\n" },
      { write: "b.txt", text: many },
      { write: "bin.dat", text: "\u0000ab" },
      { git: ["add", "."] },
      { git: ["commit", "-q", "-m", "one"] },
      { git: ["diff", "--stat"] },
      { write: "a.txt", text: "one\ntwo\n" },
      { git: ["diff", "--stat"] },
      { write: "b.txt", text: many.replace("line 3\n", "three\n") + "more\n".repeat(70) },
      { write: "bin.dat", text: "\u0000abcd" },
      { write: long, text: "x\n" },
      { git: ["add", "-A"] },
      { git: ["diff", "--cached", "--stat"] },
      { remove: "a.txt" },
      { git: ["diff", "--stat"] },
    ]);
    expect(ours).toEqual(theirs);
    expect(ours.slice(3, 5)).toEqual(["", " a.txt | 1 +\n 1 file changed, 1 insertion(+)\n"]);
    expect(ours[6]).toBe(EXPECTED_STAT);
  }, 60_000);

  it("rm -q --cached prints nothing, rm --cached names the file", async () => {
    const { ours, theirs } = await compare([
      { git: ["init", "-q"] },
      { write: "x", text: "x\n" },
      { write: "y", text: "y\n" },
      { git: ["add", "x", "y"] },
      { git: ["rm", "-q", "--cached", "x"] },
      { git: ["rm", "--cached", "y"] },
      { git: ["status", "--short"] },
    ]);
    expect(ours).toEqual(theirs);
    expect(ours.slice(2)).toEqual(["", "rm 'y'\n", "?? x\n?? y\n"]);
  }, 60_000);
});

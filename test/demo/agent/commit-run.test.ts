/**
 * "Commit this run" (demo/src/agent/commit-run.ts) on a memory session with the page's own tools:
 * the run's paths staged one by one (a file created and deleted again is skipped), the staged diff,
 * the commit with the request as its message, `git log -1`; nothing to commit said as git says it.
 */
import { describe, expect, it } from "vitest";
import {
  SUBJECT_MAX,
  commitMessage,
  commitRun,
  isGitRepository,
  shellQuote,
} from "../../../demo/src/agent/commit-run.js";
import { runTerminalCommand } from "../../../demo/src/agent/terminal-command.js";
import { openSession, WORKSPACE_ROOT } from "../../../demo/src/workspace/session.js";

const deny = async () => false;
const DATE = "GIT_AUTHOR_DATE='@1767225600 +0000' GIT_COMMITTER_DATE='@1767225600 +0000'";

async function repository() {
  const session = await openSession("memory", deny, { seedWhenEmpty: false });
  const run = (command: string) => runTerminalCommand(session.tools, command, WORKSPACE_ROOT);
  await run("printf 'one\\ntwo\\n' > a.txt && echo gone > b.txt && echo kept > c.txt");
  expect(await isGitRepository(session.gate.fs)).toBe(false);
  expect((await run(`git init -q && git add -A && ${DATE} git commit -q -m base`)).exitCode).toBe(0);
  expect(await isGitRepository(session.gate.fs)).toBe(true);
  return { session, run };
}

describe("commitMessage", () => {
  it("is the request's first line after 'Agent run: ', cut to 72 characters", () => {
    expect(commitMessage("  Fix the TODOs\nthen write a report")).toBe("Agent run: Fix the TODOs");
    const long = commitMessage("x".repeat(100));
    expect(long).toBe(`Agent run: ${"x".repeat(SUBJECT_MAX - 12)}…`);
    expect(long).toHaveLength(SUBJECT_MAX);
    expect(commitMessage("y".repeat(SUBJECT_MAX - 11))).toBe(`Agent run: ${"y".repeat(SUBJECT_MAX - 11)}`);
  });
});

describe("shellQuote", () => {
  it("makes one bash word of any text: quotes, dollars, spaces, newlines", async () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    const session = await openSession("memory", deny, { seedWhenEmpty: false });
    const text = `Bob's "TODO" $HOME \`id\` a  b\nc`;
    const out = await runTerminalCommand(session.tools, `printf %s ${shellQuote(text)}`, WORKSPACE_ROOT);
    expect(out.stdout).toBe(text);
  });
});

describe("commitRun", () => {
  it("commits the run's files and returns git's summary, log and the committed diff", async () => {
    const { session, run } = await repository();
    // The run: a.txt changed, b.txt deleted, d.txt created, e.txt created then deleted; c.txt untouched.
    await run("printf 'one\\n2\\n' > a.txt && rm b.txt && echo new > d.txt && echo tmp > e.txt && rm e.txt");
    await run("echo mine > c.txt");
    const outcome = await commitRun(session.tools, {
      request: `Fix Bob's "TODO"`,
      paths: ["a.txt", "b.txt", "d.txt", "e.txt"],
    });
    expect(outcome.committed).toBe(true);
    if (!outcome.committed) return;
    expect(outcome.commit.summary).toMatch(/^\[master [0-9a-f]{7}\] Agent run: Fix Bob's "TODO"$/);
    expect(outcome.commit.log).toMatch(
      /^commit [0-9a-f]{40}\nAuthor: agent <agent@localhost>\nDate: {3}.+\n\n {4}Agent run: Fix Bob's "TODO"\n$/,
    );
    expect(outcome.commit.log.slice(7, 14)).toBe(outcome.commit.summary.slice(8, 15));
    // Blob ids as the real git computes them (`printf 'one\n2\n' | git hash-object --stdin`: 99b356d).
    expect(outcome.commit.diff).toBe(
      [
        "diff --git a/a.txt b/a.txt",
        "index 814f4a4..99b356d 100644",
        "--- a/a.txt",
        "+++ b/a.txt",
        "@@ -1,2 +1,2 @@",
        " one",
        "-two",
        "+2",
        "diff --git a/b.txt b/b.txt",
        "deleted file mode 100644",
        "index 286c5f5..0000000",
        "--- a/b.txt",
        "+++ /dev/null",
        "@@ -1 +0,0 @@",
        "-gone",
        "diff --git a/d.txt b/d.txt",
        "new file mode 100644",
        "index 0000000..3e75765",
        "--- /dev/null",
        "+++ b/d.txt",
        "@@ -0,0 +1 @@",
        "+new",
        "",
      ].join("\n"),
    );
    // c.txt, changed outside the run, is left for the visitor.
    expect((await run("git status -s")).stdout).toBe(" M c.txt\n");
    expect((await run("git log --oneline")).stdout.split("\n").map((line) => line.slice(8))).toEqual([
      `Agent run: Fix Bob's "TODO"`,
      "base",
      "",
    ]);
  });

  it("says nothing was committed, as git says it, when the run's files are committed already", async () => {
    const { session, run } = await repository();
    await run("echo changed > a.txt && git commit -q -am 'by hand'");
    expect(await commitRun(session.tools, { request: "Edit a", paths: ["a.txt"] })).toEqual({
      committed: false,
      message: "nothing to commit, working tree clean",
    });
  });

  it("outside a repository it returns git's fatal message and commits nothing", async () => {
    const session = await openSession("memory", deny, { seedWhenEmpty: false });
    await runTerminalCommand(session.tools, "echo a > a.txt", WORKSPACE_ROOT);
    expect(await commitRun(session.tools, { request: "Edit a", paths: ["a.txt"] })).toEqual({
      committed: false,
      message: "fatal: not a git repository (or any of the parent directories): .git",
    });
  });
});

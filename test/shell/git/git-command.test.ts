import { describe, expect, it } from "vitest";
import { createGate } from "better-fs-tools";
import { memoryFileSystem } from "better-fs-tools/memory";
import { justBashCommandRunner } from "better-fs-tools/shell";
import { GIT_ENV } from "./real-git.js";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("git in the just-bash shell", () => {
  it("an agent reviews and commits its change: init, add, commit, edit, diff, status, checkout", async () => {
    const fs = memoryFileSystem({ files: { "/w/app.js": "console.log(1);\n" } });
    const runner = justBashCommandRunner({ fs: createGate({ fs, cwd: "/w" }) });
    const run = (command: string) => runner.run({ command, cwd: "/w", env: { ...GIT_ENV }, timeoutMs: 60_000 });
    expect(await run("git init -q && git add . && git commit -q -m 'start' && git log --oneline")).toEqual({
      stdout: "e33ed63 start\n", // the id the real git gives this commit
      stderr: "",
      exitCode: 0,
      timedOut: false,
    });
    const edit = await run("echo 'console.log(2);' > app.js && git diff && git status -s");
    expect(edit.stdout).toBe(
      [
        "diff --git a/app.js b/app.js",
        "index 296d549..e00b68a 100644",
        "--- a/app.js",
        "+++ b/app.js",
        "@@ -1 +1 @@",
        "-console.log(1);",
        "+console.log(2);",
        " M app.js",
        "",
      ].join("\n"),
    );
    const undo = await run("git checkout -- app.js && cat app.js && git status");
    expect(undo).toEqual({
      stdout: "console.log(1);\nOn branch master\nnothing to commit, working tree clean\n",
      stderr: "Updated 1 path from the index\n",
      exitCode: 0,
      timedOut: false,
    });
    expect(decode(await fs.readFile("/w/app.js"))).toBe("console.log(1);\n");
  }, 60_000);

  it("git outside a repository fails as git does; an unknown subcommand says which ones exist", async () => {
    const runner = justBashCommandRunner({
      fs: createGate({ fs: memoryFileSystem({ files: { "/w/a": "" } }), cwd: "/w" }),
    });
    const run = (command: string) => runner.run({ command, cwd: "/w", env: {}, timeoutMs: 60_000 });
    expect(await run("git status")).toEqual({
      stdout: "",
      stderr: "fatal: not a git repository (or any of the parent directories): .git\n",
      exitCode: 128,
      timedOut: false,
    });
    expect((await run("git push")).stderr).toBe(
      "git: 'push' is not a git command here (this git knows: init, add, rm, commit, status, diff, log, checkout, restore)\n",
    );
  }, 60_000);

  it("git goes through the gate: a repository outside the workspace is refused", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a", "/secret/key": "k" } });
    const runner = justBashCommandRunner({ fs: createGate({ fs, cwd: "/w" }) });
    const out = await runner.run({ command: "git init /secret", cwd: "/w", env: {}, timeoutMs: 60_000 });
    expect(out.exitCode).toBe(128);
    expect(out.stderr).toMatch(/^fatal: EACCES: permission denied, mkdir '\/secret'/);
    expect((await fs.readdir("/secret")).map((entry) => entry.name)).toEqual(["key"]);
  }, 60_000);
});

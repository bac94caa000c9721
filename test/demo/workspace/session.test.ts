/**
 * The playground's session (demo/src/workspace/session.ts) on memory: the sample project only
 * when asked (an emptied workspace stays empty), `clear()`, and the change feed a storage without
 * `watch` gets from the page's observed changes, in the same batches as the mirror's.
 */
import { describe, expect, it } from "vitest";
import { callToolAsModel } from "../../../demo/src/agent/tool-call.js";
import { runTerminalCommand } from "../../../demo/src/agent/terminal-command.js";
import { SAMPLE_PROJECT } from "../../../demo/src/workspace/sample-project.js";
import { openSession, workspacePath } from "../../../demo/src/workspace/session.js";
import type { StorageChanges } from "../../../demo/src/workspace/storage-changes.js";

const deny = async () => false;

describe("openSession", () => {
  it("loads the sample project into an empty workspace only when seedWhenEmpty", async () => {
    const seeded = await openSession("memory", deny, { seedWhenEmpty: true });
    expect(seeded.seeded).toBe(true);
    expect((await seeded.files()).map((file) => file.path)).toEqual(Object.keys(SAMPLE_PROJECT));
    await seeded.clear();
    expect(await seeded.files()).toEqual([]);
    const empty = await openSession("memory", deny, { seedWhenEmpty: false });
    expect({ seeded: empty.seeded, files: await empty.files() }).toEqual({ seeded: false, files: [] });
  });

  it("the change feed of a storage without watch reports this page's changes: tools and bash", async () => {
    const session = await openSession("memory", deny, { seedWhenEmpty: true });
    const batches: Array<{ all: boolean; paths: string[] }> = [];
    let delivered: () => void = () => {};
    const stop = session.onStorageChanges((changes: StorageChanges) => {
      batches.push({ all: changes.all, paths: [...changes.paths].sort() });
      delivered();
    });
    const next = () => new Promise<void>((resolve) => (delivered = resolve));
    let arrived = next();
    await callToolAsModel(session.tools, "write", { path: "notes/a.md", content: "a\n" });
    await arrived;
    arrived = next();
    await runTerminalCommand(session.tools, "echo hi > src/b.txt && mv src/b.txt src/c.txt", "/workspace");
    await arrived;
    expect(batches).toEqual([
      { all: false, paths: ["notes/a.md"] },
      { all: false, paths: ["src/b.txt", "src/c.txt"] },
    ]);
    // Quiet bulk work (an import, a reset) sends nothing: the page refreshes once at its end.
    await session.reset();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(batches.length).toBe(2);
    stop();
    await session.close();
  });
});

describe("files", () => {
  it("leaves a git repository's .git out and keeps every other file, dotfiles too", async () => {
    const session = await openSession("memory", deny, { seedWhenEmpty: false });
    const init = await runTerminalCommand(
      session.tools,
      "echo a > a.txt && echo g > .gitignore && mkdir -p sub/.git && echo n > sub/.git/x && git init -q",
      "/workspace",
    );
    expect(init.exitCode).toBe(0);
    expect((await session.gate.fs.readdir("/workspace/.git")).length).toBeGreaterThan(0);
    // Only the repository's own .git at the root is git's: a .git deeper down is a file like any.
    expect(await session.files()).toEqual([
      { path: ".gitignore", size: 2 },
      { path: "a.txt", size: 2 },
      { path: "sub/.git/x", size: 2 },
    ]);
  });
});

describe("workspacePath", () => {
  it("resolves a tool's path against /workspace", () => {
    expect(["src/./a.ts", "/etc/hosts", "a/../../b", ".", "docs/"].map((path) => workspacePath(path))).toEqual([
      "/workspace/src/a.ts",
      "/etc/hosts",
      "/b",
      "/workspace",
      "/workspace/docs",
    ]);
  });
});

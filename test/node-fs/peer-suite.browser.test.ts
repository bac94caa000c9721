/**
 * The ported ZenFS suite and git in Chromium: over the OPFS mirror (durable, no sync form, no
 * symlinks), over IndexedDB (sync form once loaded, symlinks) and over memory.
 */
import { describe, expect, it } from "vitest";
import { createNodeFs } from "better-fs-tools/node-fs";
import { memoryFileSystem } from "better-fs-tools/memory";
import { opfsMirrorFileSystem, type OpfsMirrorFileSystem } from "better-fs-tools/opfs-mirror";
import { runGit } from "better-fs-tools/shell";
import { idbFileSystem, type IdbFileSystem } from "better-fs-tools/idb";
import { peerSuite } from "./peer-suite.js";
import { wipe } from "../backends/opfs/wipe.js";

let counter = 0;
const mirrors = new Map<string, OpfsMirrorFileSystem>();

peerSuite(
  "createNodeFs over the OPFS mirror",
  async () => {
    const root = `test-node-fs-${(counter += 1)}`;
    await wipe(root);
    const mirror = opfsMirrorFileSystem({ root: `/${root}` });
    await mirror.mkdir("/w", { recursive: true });
    mirrors.set(root, mirror);
    return { fs: createNodeFs(mirror), root: "/w", sync: false, symlinks: false, mirror: root };
  },
  async (target) => {
    const root = (target as unknown as { mirror: string }).mirror;
    await mirrors.get(root)?.close();
    await wipe(root);
  },
);

peerSuite("createNodeFs over memory, in the browser", async () => {
  const backend = memoryFileSystem();
  await backend.mkdir("/w", { recursive: true });
  return { fs: createNodeFs(backend), root: "/w", sync: true, symlinks: true };
});

peerSuite(
  "createNodeFs over idb (sync once loaded)",
  async () => {
    const backend = idbFileSystem({ name: `test-node-fs-idb-${(counter += 1)}` });
    await backend.ready;
    await backend.mkdir("/w", { recursive: true });
    return { fs: createNodeFs(backend), root: "/w", sync: true, symlinks: true, idb: backend };
  },
  async (target) => {
    await (target as unknown as { idb: IdbFileSystem }).idb.close();
  },
);

describe("the OPFS mirror's sync form", () => {
  it("reads answer synchronously once loaded; writes say why they cannot", async () => {
    await wipe("test-node-fs-sync");
    const mirror = opfsMirrorFileSystem({ root: "/test-node-fs-sync" });
    const fs = createNodeFs(mirror, { cwd: "/w" });
    await fs.promises.mkdir("/w");
    await fs.promises.writeFile("a.txt", "mirrored");
    expect([fs.readFileSync("a.txt", "utf8"), fs.readdirSync("/w"), fs.existsSync("b.txt")]).toEqual([
      "mirrored",
      ["a.txt"],
      false,
    ]);
    let refused: { code?: string; message?: string } = {};
    try {
      fs.writeFileSync("b.txt", "x");
    } catch (error) {
      refused = error as { code?: string; message?: string };
    }
    expect([refused.code, refused.message]).toEqual([
      "ENOTSUP",
      "ENOTSUP: operation not supported, open 'b.txt' (the OPFS mirror's writes resolve once durable and cannot be synchronous: use the promise or callback API)",
    ]);
    await mirror.close();
    await wipe("test-node-fs-sync");
  }, 60_000);
});

describe("git over the OPFS mirror in Chromium", () => {
  it("init, add, commit, edit, diff, status, log; the repository survives a reload of the mirror", async () => {
    await wipe("test-node-fs-git");
    const env = {
      GIT_AUTHOR_NAME: "Ada Test",
      GIT_AUTHOR_EMAIL: "ada@example.com",
      GIT_AUTHOR_DATE: "@1700000000 +0000",
    };
    const first = opfsMirrorFileSystem({ root: "/test-node-fs-git" });
    await first.writeFile("/w/app.js", new TextEncoder().encode("console.log(1);\n"));
    const git = (fs: OpfsMirrorFileSystem, ...args: string[]) => runGit(args, { fs, cwd: "/w", env });
    expect((await git(first, "init")).stdout).toBe("Initialized empty Git repository in /w/.git/\n");
    expect((await git(first, "add", ".")).exitCode).toBe(0);
    expect((await git(first, "commit", "-m", "start")).stdout).toBe(
      "[master (root-commit) e33ed63] start\n 1 file changed, 1 insertion(+)\n create mode 100644 app.js\n",
    );
    await first.writeFile("/w/app.js", new TextEncoder().encode("console.log(2);\n"));
    await first.close();
    const second = opfsMirrorFileSystem({ root: "/test-node-fs-git" });
    expect((await git(second, "status", "--short")).stdout).toBe(" M app.js\n");
    expect((await git(second, "diff")).stdout).toBe(
      "diff --git a/app.js b/app.js\nindex 296d549..e00b68a 100644\n--- a/app.js\n+++ b/app.js\n@@ -1 +1 @@\n-console.log(1);\n+console.log(2);\n",
    );
    expect((await git(second, "log", "--oneline")).stdout).toBe("e33ed63 start\n");
    expect((await git(second, "checkout", "--", "app.js")).stderr).toBe("Updated 1 path from the index\n");
    expect([
      (await git(second, "status", "--short")).stdout,
      new TextDecoder().decode(await second.readFile("/w/app.js")),
    ]).toEqual(["", "console.log(1);\n"]);
    await second.close();
    await wipe("test-node-fs-git");
  }, 120_000);
});

/**
 * The ported ZenFS suite and git in Chromium: over the OPFS mirror (durable, sync writes saved
 * just after the call, no symlinks), over IndexedDB (sync form once loaded, symlinks) and over memory.
 */
import { describe, expect, it } from "vitest";
import { createNodeFs, toJSON } from "better-fs-tools/node-fs";
import type { FileSystem } from "better-fs-tools";
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
    return { fs: createNodeFs(mirror), root: "/w", sync: true, symlinks: false, mirror: root };
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

/** The mirror's whole tree as text, for comparing memory with what a reload brings back. */
async function tree(fs: FileSystem): Promise<Record<string, string | null>> {
  return (await toJSON(fs, "/")) as Record<string, string | null>;
}

function thrown(run: () => unknown): { code?: unknown; message?: unknown } {
  try {
    run();
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { code, message };
  }
  return { code: "returned" };
}

describe("the OPFS mirror's sync writes", () => {
  it("change memory before they return and are on disk once flushed: a reload has them", async () => {
    await wipe("test-node-fs-sync");
    const mirror = opfsMirrorFileSystem({ root: "/test-node-fs-sync" });
    await mirror.ready();
    const fs = createNodeFs(mirror, { cwd: "/w" });
    fs.mkdirSync("/w/src/lib", { recursive: true });
    fs.writeFileSync("src/a.txt", "one");
    fs.appendFileSync("src/a.txt", "+two");
    fs.writeFileSync("src/lib/b.txt", "bee");
    fs.renameSync("src/lib/b.txt", "src/b.txt");
    fs.copyFileSync("src/a.txt", "src/c.txt");
    fs.writeFileSync("gone.txt", "x");
    fs.unlinkSync("gone.txt");
    fs.mkdirSync("tmp/deep", { recursive: true });
    fs.rmSync("tmp", { recursive: true });
    fs.writeFileSync("big.bin", new Uint8Array(2 * 1024 * 1024).fill(7)); // a large (staged) write
    const expected = {
      "/w/big.bin": String.fromCharCode(7).repeat(2 * 1024 * 1024),
      "/w/src/a.txt": "one+two",
      "/w/src/b.txt": "bee",
      "/w/src/c.txt": "one+two",
      "/w/src/lib": null,
    };
    // In memory at once: the sync reads and the promise API see it before any flush.
    expect([fs.readFileSync("src/a.txt", "utf8"), await fs.promises.readFile("src/b.txt", "utf8")]).toEqual([
      "one+two",
      "bee",
    ]);
    expect(await tree(mirror)).toEqual(expected);
    await mirror.flush();
    await mirror.close();
    const again = opfsMirrorFileSystem({ root: "/test-node-fs-sync" });
    expect(await tree(again)).toEqual(expected);
    await again.close();
    await wipe("test-node-fs-sync");
  }, 60_000);

  it("promise writes still in flight and sync writes reach the disk in the order memory saw them", async () => {
    await wipe("test-node-fs-sync-order");
    const mirror = opfsMirrorFileSystem({ root: "/test-node-fs-sync-order" });
    await mirror.ready();
    const encode = (text: string) => new TextEncoder().encode(text);
    // Each call changes memory when made; the promise ones resolve once durable.
    const written = mirror.writeFile("/a.txt", encode("promise"));
    mirror.sync.writeFile("/a.txt", encode("sync"));
    const renamed = mirror.rename("/a.txt", "/b.txt");
    mirror.sync.mkdir("/d");
    mirror.sync.rename("/b.txt", "/d/c.txt");
    const removed = mirror.rm("/d/c.txt");
    mirror.sync.writeFile("/d/c.txt", encode("last"));
    await Promise.all([written, renamed, removed]);
    await mirror.flush();
    const inMemory = await tree(mirror);
    expect(inMemory).toEqual({ "/d/c.txt": "last" });
    await mirror.close();
    const again = opfsMirrorFileSystem({ root: "/test-node-fs-sync-order" });
    expect(await tree(again)).toEqual(inMemory);
    await again.close();
    await wipe("test-node-fs-sync-order");
  }, 60_000);

  it("close() writes what sync calls wrote without a flush; a refused sync call queues nothing", async () => {
    await wipe("test-node-fs-sync-close");
    const mirror = opfsMirrorFileSystem({ root: "/test-node-fs-sync-close" });
    await mirror.ready();
    const fs = createNodeFs(mirror);
    fs.writeFileSync("/kept.txt", "kept");
    expect(thrown(() => fs.writeFileSync("/missing/x.txt", "x"))).toEqual({
      code: "ENOENT",
      message: "ENOENT: no such file or directory, open '/missing/x.txt'",
    });
    expect(thrown(() => fs.renameSync("/nope", "/kept.txt"))).toMatchObject({ code: "ENOENT" });
    expect(thrown(() => fs.symlinkSync("/kept.txt", "/link"))).toEqual({
      code: "ENOTSUP",
      message: "ENOTSUP: operation not supported, symlink '/kept.txt' -> '/link' (the OPFS mirror has no symlinks)",
    });
    await mirror.close();
    expect(thrown(() => fs.writeFileSync("/late.txt", "x"))).toEqual({
      code: "EIO",
      message: "EIO: i/o error, open '/late.txt' (the file system was closed)",
    });
    const again = opfsMirrorFileSystem({ root: "/test-node-fs-sync-close" });
    expect(await tree(again)).toEqual({ "/kept.txt": "kept" });
    await again.close();
    await wipe("test-node-fs-sync-close");
  }, 60_000);

  it("refused with EBUSY while loading and in a reader (another instance holds the writer lock), where a sync call cannot wait", async () => {
    await wipe("test-node-fs-sync-tabs");
    const writer = opfsMirrorFileSystem({ root: "/test-node-fs-sync-tabs" });
    const loading = createNodeFs(writer);
    expect(thrown(() => loading.writeFileSync("/early.txt", "x"))).toEqual({
      code: "EBUSY",
      message:
        "EBUSY: resource busy or locked, open '/early.txt' (the mirror is still loading; await fs.ready() first)",
    });
    await writer.ready();
    const reader = opfsMirrorFileSystem({ root: "/test-node-fs-sync-tabs" });
    await reader.ready();
    expect([writer.role, reader.role]).toEqual(["writer", "reader"]);
    const fs = createNodeFs(reader);
    expect(thrown(() => fs.mkdirSync("/d"))).toEqual({
      code: "EBUSY",
      message:
        "EBUSY: resource busy or locked, mkdir '/d' (another tab holds this mirror's writer lock: a write here goes through that tab, which a synchronous call cannot wait for; use the promise or callback API)",
    });
    // The promise form goes through the writer; the reader's sync reads see it.
    await fs.promises.writeFile("/via-writer.txt", "forwarded");
    expect([fs.readFileSync("/via-writer.txt", "utf8"), fs.existsSync("/d")]).toEqual(["forwarded", false]);
    // The writer's sync write reaches the reader once durable.
    createNodeFs(writer).writeFileSync("/from-sync.txt", "synced");
    await writer.flush();
    await expect.poll(() => fs.existsSync("/from-sync.txt"), { timeout: 10_000 }).toBe(true);
    expect(fs.readFileSync("/from-sync.txt", "utf8")).toBe("synced");
    await reader.close();
    await writer.close();
    await wipe("test-node-fs-sync-tabs");
  }, 60_000);

  it("over quota: the write is taken back, flush() says ENOSPC, later sync writes are refused until a promise write succeeds; memory and disk agree", async () => {
    await wipe("test-node-fs-sync-quota");
    const worker = new Worker(new URL("../backends/opfs-mirror/quota-fixture.ts", import.meta.url), {
      type: "module",
    });
    const mirror = opfsMirrorFileSystem({ root: "/test-node-fs-sync-quota", worker });
    await mirror.ready();
    const fs = createNodeFs(mirror);
    fs.writeFileSync("/small.txt", "fits");
    fs.writeFileSync("/big.bin", new Uint8Array(5000)); // past the fixture's 4,096-byte journal
    expect(fs.existsSync("/big.bin")).toBe(true); // in memory until the disk answers
    const refused = await mirror.flush().then(
      () => ({ code: "resolved", message: "" }),
      (error: { code: string; message: string }) => ({ code: error.code, message: error.message }),
    );
    // The two writes shared a batch: both are taken back, as promise calls in one batch are.
    expect(refused.code).toBe("ENOSPC");
    expect(refused.message).toMatch(
      /^ENOSPC: no space left on device, open '\/(small\.txt|big\.bin)' \(the journal could not grow by \d+ bytes\)$/,
    );
    expect([fs.existsSync("/big.bin"), fs.existsSync("/small.txt")]).toEqual([false, false]);
    await mirror.flush(); // reported once
    expect(thrown(() => fs.writeFileSync("/next.txt", "x"))).toMatchObject({
      code: "ENOSPC",
      message: expect.stringMatching(
        /^ENOSPC: no space left on device, open '\/next\.txt' \(the disk refused an earlier write \(the journal could not grow by \d+ bytes\); synchronous writes are refused until a promise write succeeds\)$/,
      ),
    });
    expect(fs.existsSync("/next.txt")).toBe(false);
    await fs.promises.writeFile("/promised.txt", "ok");
    fs.writeFileSync("/after.txt", "again");
    await mirror.flush();
    const inMemory = await tree(mirror);
    expect(inMemory).toEqual({ "/after.txt": "again", "/promised.txt": "ok" });
    await mirror.close();
    worker.terminate();
    const again = opfsMirrorFileSystem({ root: "/test-node-fs-sync-quota" });
    expect(await tree(again)).toEqual(inMemory);
    await again.close();
    await wipe("test-node-fs-sync-quota");
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

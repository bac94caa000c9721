/**
 * The OPFS handle cache, in real Chromium: the cache itself (walks, forgetting, listings, the
 * check of a cached directory, the cap), the handle calls a path costs through the backend
 * (counted on the prototypes: one per name not cached yet), and what the backend sees after
 * its own rm and rename, and after another instance on the same root removed or replaced what
 * it had cached, on the main thread and through the Worker. Then a tree of several hundred
 * directories through the Worker.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createHandleCache, type DirNode } from "../../../src/backends/opfs/handles.js";
import { opfsFileSystem, type OpfsFileSystem } from "../../../src/backends/opfs/index.js";
import { rejection } from "../../contract/rejection.js";
import { freshDirectory, wipe } from "./wipe.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Spies counting the handle look-ups made through every directory handle of the page. */
function countLookups() {
  const dirs = vi.spyOn(FileSystemDirectoryHandle.prototype, "getDirectoryHandle");
  const files = vi.spyOn(FileSystemDirectoryHandle.prototype, "getFileHandle");
  return {
    counts: () => ({ getDirectoryHandle: dirs.mock.calls.length, getFileHandle: files.mock.calls.length }),
    reset: () => {
      dirs.mockClear();
      files.mockClear();
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("opfs handle cache", () => {
  it("walks cached directories without a look-up, and looks up each name below them once", async () => {
    const root = await freshDirectory("test-opfs-handles-walk");
    const cache = createHandleCache({ getRoot: async () => root });
    const lookups = countLookups();
    const used = new Set<DirNode>();
    const c = await cache.walk(["a", "b", "c"], true, used);
    expect(lookups.counts()).toEqual({ getDirectoryHandle: 3, getFileHandle: 0 });
    expect([...used].map((node) => node.name)).toEqual([""]);
    lookups.reset();
    const again = new Set<DirNode>();
    expect(await cache.walk(["a", "b", "c"], false, again)).toBe(c);
    expect([...again]).toEqual([c]);
    const d = await cache.walk(["a", "b", "c", "d"], true, again);
    expect(lookups.counts()).toEqual({ getDirectoryHandle: 1, getFileHandle: 0 });
    expect(d.parent).toBe(c);
    expect({ name: d.name, size: cache.size }).toEqual({ name: "d", size: 4 });
  });

  it("shares a look-up in flight between concurrent walks", async () => {
    const root = await freshDirectory("test-opfs-handles-shared");
    const cache = createHandleCache({ getRoot: async () => root });
    await cache.root();
    const lookups = countLookups();
    const [one, two, three, four] = await Promise.all([
      cache.walk(["a", "b"], true, new Set()),
      cache.walk(["a", "b"], true, new Set()),
      cache.walk(["a", "b"], false, new Set()),
      cache.walk(["a", "c"], true, new Set()),
    ]);
    expect(lookups.counts()).toEqual({ getDirectoryHandle: 3, getFileHandle: 0 });
    expect(two).toBe(one);
    expect(three).toBe(one);
    expect(four?.parent).toBe(one?.parent);
    const names: string[] = [];
    for await (const name of (await root.getDirectoryHandle("a")).keys()) names.push(name);
    expect(names.sort()).toEqual(["b", "c"]);
  });

  it("forgets an entry with everything cached below it", async () => {
    const root = await freshDirectory("test-opfs-handles-forget");
    const cache = createHandleCache({ getRoot: async () => root });
    const c = await cache.walk(["a", "b", "c"], true, new Set());
    cache.adoptFile(c, "f.txt", await c.handle.getFileHandle("f.txt", { create: true }));
    cache.forget(["a", "b", "c", "f.txt"]);
    expect([...c.files.keys()]).toEqual([]);
    cache.forget(["a", "b"]);
    const lookups = countLookups();
    const used = new Set<DirNode>();
    const again = await cache.walk(["a", "b", "c"], false, used);
    expect(lookups.counts()).toEqual({ getDirectoryHandle: 2, getFileHandle: 0 });
    expect(again).not.toBe(c);
    expect([...used].map((node) => node.name)).toEqual(["a"]);
  });

  it("takes a listing as the whole truth: names not listed are dropped, kinds follow the listing", async () => {
    const root = await freshDirectory("test-opfs-handles-listing");
    const cache = createHandleCache({ getRoot: async () => root });
    const top = await cache.root();
    await cache.walk(["gone"], true, new Set());
    const kept = await cache.walk(["kept"], true, new Set());
    const turned = await root.getFileHandle("turned", { create: true });
    cache.adoptDir(top, "turned", await root.getDirectoryHandle("kept"));
    await root.removeEntry("gone");
    cache.adoptListing(top, [
      ["kept", await root.getDirectoryHandle("kept")],
      ["turned", turned],
    ]);
    expect({ dirs: [...top.dirs.keys()], files: [...top.files.keys()] }).toEqual({ dirs: ["kept"], files: ["turned"] });
    expect(top.dirs.get("kept")).toBe(kept);
  });

  it("confirms a cached directory that is still there, and not one another context removed", async () => {
    const root = await freshDirectory("test-opfs-handles-confirm");
    const cache = createHandleCache({ getRoot: async () => root });
    const b = await cache.walk(["a", "b"], true, new Set());
    const before = b.handle;
    expect(await cache.confirm(b)).toBe(true);
    expect(b.handle).not.toBe(before);
    expect(await b.handle.isSameEntry(before)).toBe(true);
    await (await root.getDirectoryHandle("a")).removeEntry("b");
    expect(await cache.confirm(b)).toBe(false);
    await (await root.getDirectoryHandle("a")).getFileHandle("b", { create: true });
    expect(await cache.confirm(b)).toBe(false);
  });

  it("drops everything past its cap, and fills again", async () => {
    const root = await freshDirectory("test-opfs-handles-cap");
    const cache = createHandleCache({ getRoot: async () => root, maxHandles: 4 });
    const names = ["a", "b", "c", "d", "e", "f"];
    // a, b, c, d cached; e is the fifth: all dropped, e and f counted again.
    const deepest = await cache.walk(names, true, new Set());
    expect(cache.size).toBe(2);
    const lookups = countLookups();
    const again = await cache.walk(names, false, new Set());
    expect(lookups.counts()).toEqual({ getDirectoryHandle: 6, getFileHandle: 0 });
    expect(await again.handle.isSameEntry(deepest.handle)).toBe(true);
    expect(cache.size).toBe(4);
  });
});

describe("opfs path resolution (main thread): handle look-ups per call", () => {
  const ROOT = "test-opfs-handles-calls";
  const DEEP = "/w/" + Array.from({ length: 300 }, (_, index) => `d${index}`).join("/");

  it("a 300-name path costs one look-up per new name, then none; a missing name three", async () => {
    await wipe(ROOT);
    const fs = opfsFileSystem({ root: `/${ROOT}` });
    await fs.mkdir("/w");
    const lookups = countLookups();
    await fs.writeFile(`${DEEP}/x.txt`, encoder.encode("deep"));
    expect(lookups.counts()).toEqual({ getDirectoryHandle: 300, getFileHandle: 1 });
    lookups.reset();
    expect(decoder.decode(await fs.readFile(`${DEEP}/x.txt`))).toBe("deep");
    expect((await fs.readdir(DEEP)).map((entry) => entry.name)).toEqual(["x.txt"]);
    expect(lookups.counts()).toEqual({ getDirectoryHandle: 0, getFileHandle: 0 });
    expect(await fs.realpath(`${DEEP}/x.txt`)).toBe(`${DEEP}/x.txt`);
    expect(lookups.counts()).toEqual({ getDirectoryHandle: 0, getFileHandle: 1 });
    lookups.reset();
    // The name fails, its cached parent is checked in its own parent, the name fails again.
    const missing = await rejection(fs.readFile(`${DEEP}/missing.txt`));
    expect(missing.message).toBe(`ENOENT: no such file or directory, open '${DEEP}/missing.txt'`);
    expect(lookups.counts()).toEqual({ getDirectoryHandle: 1, getFileHandle: 2 });
    lookups.reset();
    // The miss kept the cache.
    expect((await fs.stat(`${DEEP}/x.txt`)).size).toBe(4);
    expect(lookups.counts()).toEqual({ getDirectoryHandle: 0, getFileHandle: 1 });
    lookups.reset();
    // Another instance starts from nothing: the root's name, then each of the 301 names once.
    const other = opfsFileSystem({ root: `/${ROOT}` });
    expect(decoder.decode(await other.readFile(`${DEEP}/x.txt`))).toBe("deep");
    expect(lookups.counts()).toEqual({ getDirectoryHandle: 302, getFileHandle: 1 });
    await fs.close();
    await other.close();
  });
});

/** The variants under test, each with a second instance (main thread) on the same root. */
const VARIANTS = [
  { name: "main thread", worker: false },
  { name: "Worker", worker: true },
] as const;

describe.each(VARIANTS)("opfs cache invalidation ($name)", ({ worker }) => {
  const ROOT = `test-opfs-handles-${worker ? "worker" : "main"}`;

  async function fresh(): Promise<{ fs: OpfsFileSystem; other: OpfsFileSystem }> {
    await wipe(ROOT);
    // Idle sync access handles close at once, so the other instance need not wait for them.
    const fs = opfsFileSystem({ root: `/${ROOT}`, worker, ...(worker ? { syncHandleIdleMs: 0 } : {}) });
    return { fs, other: opfsFileSystem({ root: `/${ROOT}` }) };
  }

  async function text(fs: OpfsFileSystem, path: string): Promise<string> {
    return decoder.decode(await fs.readFile(path));
  }

  it("after its own rm of an ancestor: ENOENT below it, then the recreated tree", async () => {
    const { fs, other } = await fresh();
    await fs.writeFile("/a/b/c/f.txt", encoder.encode("1"));
    expect(await text(fs, "/a/b/c/f.txt")).toBe("1");
    await fs.rm("/a", { recursive: true });
    expect((await rejection(fs.readFile("/a/b/c/f.txt"))).message).toBe(
      "ENOENT: no such file or directory, open '/a/b/c/f.txt'",
    );
    expect((await rejection(fs.readdir("/a/b"))).code).toBe("ENOENT");
    await fs.writeFile("/a/b/c/g.txt", encoder.encode("2"));
    expect(await fs.readdir("/a/b/c")).toEqual([{ name: "g.txt", type: "file" }]);
    expect(await text(fs, "/a/b/c/g.txt")).toBe("2");
    await fs.close();
    await other.close();
  });

  it("after its own rename of an ancestor: ENOENT at the old path, the content at the new", async () => {
    const { fs, other } = await fresh();
    await fs.writeFile("/a/b/f.txt", encoder.encode("1"));
    expect(await text(fs, "/a/b/f.txt")).toBe("1");
    await fs.rename("/a", "/z");
    expect((await rejection(fs.readFile("/a/b/f.txt"))).code).toBe("ENOENT");
    expect((await rejection(fs.stat("/a"))).code).toBe("ENOENT");
    expect(await text(fs, "/z/b/f.txt")).toBe("1");
    await fs.writeFile("/a/b/f.txt", encoder.encode("new"));
    expect([await text(fs, "/a/b/f.txt"), await text(fs, "/z/b/f.txt")]).toEqual(["new", "1"]);
    // A renamed file: its old name is not served from the handle that moved.
    await fs.rename("/z/b/f.txt", "/z/b/g.txt");
    expect((await rejection(fs.readFile("/z/b/f.txt"))).code).toBe("ENOENT");
    expect(await text(fs, "/z/b/g.txt")).toBe("1");
    await fs.close();
    await other.close();
  });

  it("after another instance removed a cached directory: ENOENT, then what it created there", async () => {
    const { fs, other } = await fresh();
    await fs.writeFile("/d/e/f.txt", encoder.encode("mine"));
    expect(await text(fs, "/d/e/f.txt")).toBe("mine");
    expect((await fs.readdir("/d/e")).map((entry) => entry.name)).toEqual(["f.txt"]);
    await other.rm("/d", { recursive: true });
    expect((await rejection(fs.readFile("/d/e/f.txt"))).message).toBe(
      "ENOENT: no such file or directory, open '/d/e/f.txt'",
    );
    expect((await rejection(fs.readdir("/d/e"))).code).toBe("ENOENT");
    expect((await rejection(fs.stat("/d"))).code).toBe("ENOENT");
    await other.writeFile("/d/e/g.txt", encoder.encode("theirs"));
    expect((await fs.readdir("/d/e")).map((entry) => entry.name)).toEqual(["g.txt"]);
    expect(await text(fs, "/d/e/g.txt")).toBe("theirs");
    expect((await rejection(fs.readFile("/d/e/f.txt"))).code).toBe("ENOENT");
    await fs.close();
    await other.close();
  });

  it("after another instance replaced a cached file: its new content, or EISDIR for a directory", async () => {
    const { fs, other } = await fresh();
    await fs.writeFile("/d/f", encoder.encode("first"));
    await fs.writeFile("/d/g", encoder.encode("old"));
    expect([await text(fs, "/d/f"), await text(fs, "/d/g")]).toEqual(["first", "old"]);
    expect((await fs.readdir("/d")).map((entry) => entry.name).sort()).toEqual(["f", "g"]);
    await other.rm("/d/f");
    await other.mkdir("/d/f");
    await other.rm("/d/g");
    await other.writeFile("/d/g", encoder.encode("new content"));
    const read = await rejection(fs.readFile("/d/f"));
    expect({ code: read.code, message: read.message }).toEqual({
      code: "EISDIR",
      message: "EISDIR: illegal operation on a directory, open '/d/f'",
    });
    expect((await fs.stat("/d/f")).type).toBe("directory");
    expect(await text(fs, "/d/g")).toBe("new content");
    await fs.close();
    await other.close();
  });
});

describe("opfs (worker): a tree of several hundred directories", () => {
  it("writes a tree of 584 directories and a chain of 400 more, 32 calls in flight, and reads every file back", async () => {
    const ROOT = "test-opfs-handles-tree";
    await wipe(ROOT);
    const fs = opfsFileSystem({ root: `/${ROOT}`, worker: true });
    // 8 × 8 × 8 leaf directories under 8 + 64 inner ones, a file in each directory, and a
    // chain of 400 more directories below one leaf.
    const paths: string[] = [];
    for (let a = 0; a < 8; a++) {
      paths.push(`/t/a${a}/file.txt`);
      for (let b = 0; b < 8; b++) {
        paths.push(`/t/a${a}/b${b}/file.txt`);
        for (let c = 0; c < 8; c++) paths.push(`/t/a${a}/b${b}/c${c}/file.txt`);
      }
    }
    const chain = "/t/a7/b7/c7/" + Array.from({ length: 400 }, (_, index) => `n${index}`).join("/");
    paths.push(`${chain}/file.txt`);
    let next = 0;
    const inFlight = async (task: (path: string) => Promise<void>) => {
      next = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next < paths.length) await task(paths[next++] as string);
        }),
      );
    };
    await inFlight((path) => fs.writeFile(path, encoder.encode(`content of ${path}`)));
    const read: Record<string, string> = {};
    await inFlight(async (path) => {
      read[path] = decoder.decode(await fs.readFile(path));
    });
    expect(Object.keys(read).length).toBe(585);
    expect(Object.entries(read).filter(([path, content]) => content !== `content of ${path}`)).toEqual([]);
    expect((await fs.readdir("/t")).length).toBe(8);
    expect((await fs.readdir("/t/a3/b5")).map((entry) => entry.name).sort()).toEqual([
      "c0",
      "c1",
      "c2",
      "c3",
      "c4",
      "c5",
      "c6",
      "c7",
      "file.txt",
    ]);
    expect(await fs.readdir(chain)).toEqual([{ name: "file.txt", type: "file" }]);
    await fs.close();
    // On disk as written: a new main-thread instance reads the deepest file.
    const main = opfsFileSystem({ root: `/${ROOT}` });
    expect(decoder.decode(await main.readFile(`${chain}/file.txt`))).toBe(`content of ${chain}/file.txt`);
    await main.close();
    await wipe(ROOT);
  });
});

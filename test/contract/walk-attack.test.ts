/**
 * Attacks on walkFiles: order, every entry exactly once, errors and aborts mid-walk, filters,
 * very wide and very deep trees, concurrency 1 and 64.
 */
import { describe, expect, test } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import type { DirEntry, FileSystem } from "../../src/contract/types.js";
import { walkFiles } from "../../src/contract/walk.js";

/** Every path under `root` in depth-first listing order (directories before their contents). */
async function depthFirst(fs: FileSystem, root: string, relative = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(relative === "" ? root : `${root}/${relative}`)) {
    const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
    out.push(entry.type === "directory" ? `${path}/` : path);
    if (entry.type === "directory") out.push(...(await depthFirst(fs, root, path)));
  }
  return out;
}

function mixedTree(): FileSystem {
  const files: Record<string, string> = {};
  for (let a = 0; a < 4; a++) {
    files[`/r/a${a}.txt`] = "x";
    for (let b = 0; b < 3; b++) {
      files[`/r/d${a}/f${b}.txt`] = "x";
      for (let c = 0; c < 2; c++) files[`/r/d${a}/e${b}/g${c}.txt`] = "x";
    }
  }
  const fs = memoryFileSystem({ files });
  return fs;
}

describe("walkFiles under attack", () => {
  test.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    "a concurrency of %s is refused with a TypeError (it used to walk nothing, or start workers forever)",
    async (concurrency) => {
      const walking = walkFiles({ fs: mixedTree(), root: "/r", concurrency, onEntry: () => undefined });
      await expect(walking).rejects.toThrow(
        new TypeError(`walkFiles concurrency: expected a whole number of at least 1, got ${String(concurrency)}`),
      );
    },
  );

  test("concurrency 1 hands out items in exact depth-first listing order (empty directories too)", async () => {
    const fs = mixedTree();
    await fs.mkdir("/r/d1/empty/deeper", { recursive: true });
    await fs.mkdir("/r/0-empty", { recursive: true });
    const order: string[] = [];
    await walkFiles({
      fs,
      root: "/r",
      concurrency: 1,
      include: () => true,
      onEntry: (_path, relative) => {
        order.push(relative);
      },
    });
    const expected = (await depthFirst(fs, "/r")).filter((path) => !path.endsWith("/"));
    expect(order).toEqual(expected);
  });

  test("concurrency 1: directories are read in depth-first order too", async () => {
    const fs = mixedTree();
    const read: string[] = [];
    const spy: FileSystem = { ...fs, readdir: (path) => (read.push(path), fs.readdir(path)) };
    await walkFiles({ fs: spy, root: "/r", concurrency: 1, onEntry: () => undefined });
    const directories = (await depthFirst(fs, "/r")).filter((path) => path.endsWith("/"));
    expect(read).toEqual(["/r", ...directories.map((path) => `/r/${path.slice(0, -1)}`)]);
  });

  for (const concurrency of [1, 2, 7, 64]) {
    test(`concurrency ${concurrency}: every entry exactly once, with slow readdir and slow onEntry`, async () => {
      const fs = mixedTree();
      let tick = 0;
      const slow: FileSystem = {
        ...fs,
        readdir: async (path) => {
          const entries = await fs.readdir(path);
          for (let i = 0; i < tick++ % 5; i++) await Promise.resolve();
          return entries;
        },
      };
      const seen: string[] = [];
      await walkFiles({
        fs: slow,
        root: "/r",
        concurrency,
        onEntry: async (_path, relative) => {
          for (let i = 0; i < tick++ % 3; i++) await Promise.resolve();
          seen.push(relative);
        },
      });
      const expected = (await depthFirst(fs, "/r")).filter((path) => !path.endsWith("/"));
      expect(seen.sort()).toEqual([...expected].sort());
    });
  }

  test("a readdir error mid-walk rejects with that error, once every worker has stopped", async () => {
    const fs = mixedTree();
    let pendingAfter = 0;
    let settled = false;
    const failing: FileSystem = {
      ...fs,
      readdir: async (path) => {
        if (path === "/r/d2") throw new Error("boom at d2");
        const entries = await fs.readdir(path);
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (settled) pendingAfter++;
        return entries;
      },
    };
    for (const concurrency of [1, 3, 64]) {
      settled = false;
      const walk = walkFiles({ fs: failing, root: "/r", concurrency, onEntry: () => undefined });
      await expect(walk).rejects.toThrow("boom at d2");
      settled = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(pendingAfter).toBe(0);
  });

  test("an abort while workers sleep (waiting for a slow readdir) rejects with the reason", async () => {
    const fs = mixedTree();
    const controller = new AbortController();
    const slow: FileSystem = {
      ...fs,
      readdir: async (path) => {
        if (path === "/r") controller.abort(new Error("stop"));
        return fs.readdir(path);
      },
    };
    const seen: string[] = [];
    await expect(
      walkFiles({ fs: slow, root: "/r", concurrency: 8, signal: controller.signal, onEntry: (p) => void seen.push(p) }),
    ).rejects.toThrow("stop");
    expect(seen).toEqual([]);
  });

  test("an abort before the walk starts rejects without any call", async () => {
    const fs = mixedTree();
    let calls = 0;
    const counted: FileSystem = { ...fs, readdir: (path) => (calls++, fs.readdir(path)) };
    await expect(
      walkFiles({
        fs: counted,
        root: "/r",
        concurrency: 4,
        signal: AbortSignal.abort(new Error("early")),
        onEntry: () => undefined,
      }),
    ).rejects.toThrow("early");
    expect(calls).toBe(0);
  });

  test("include, enterDirectory and ignoreDirectories compose; each sees each entry once", async () => {
    const fs = mixedTree();
    await fs.mkdir("/r/node_modules/x", { recursive: true });
    await fs.writeFile("/r/node_modules/x/i.js", new Uint8Array(1));
    const included: string[] = [];
    const entered: string[] = [];
    const seen: string[] = [];
    await walkFiles({
      fs,
      root: "/r",
      concurrency: 5,
      ignoreDirectories: ["node_modules", "e1"],
      include: (path: string, entry: DirEntry) => {
        included.push(path);
        return !path.endsWith("f0.txt") && entry.name !== "d3";
      },
      enterDirectory: (relative) => {
        entered.push(relative);
        return relative !== "d0/e2";
      },
      onEntry: (_path, relative) => void seen.push(relative),
    });
    expect(new Set(included).size).toBe(included.length);
    expect(entered.sort()).toEqual(["d0", "d0/e0", "d0/e2", "d1", "d1/e0", "d1/e2", "d2", "d2/e0", "d2/e2"]);
    expect(seen.sort()).toEqual(
      [
        "a0.txt",
        "a1.txt",
        "a2.txt",
        "a3.txt",
        ...[0, 1, 2].flatMap((d) => [
          `d${d}/e0/g0.txt`,
          `d${d}/e0/g1.txt`,
          ...(d === 0 ? [] : [`d${d}/e2/g0.txt`, `d${d}/e2/g1.txt`]),
          `d${d}/f1.txt`,
          `d${d}/f2.txt`,
        ]),
      ].sort(),
    );
  });

  test("an empty root, and a root that is a file or missing", async () => {
    const fs = memoryFileSystem();
    await fs.mkdir("/empty", { recursive: true });
    await fs.writeFile("/file.txt", new Uint8Array(1));
    for (const concurrency of [1, 64]) {
      const seen: string[] = [];
      await walkFiles({ fs, root: "/empty", concurrency, onEntry: (p) => void seen.push(p) });
      expect(seen).toEqual([]);
      await expect(walkFiles({ fs, root: "/file.txt", concurrency, onEntry: () => undefined })).rejects.toMatchObject({
        code: "ENOTDIR",
      });
      await expect(walkFiles({ fs, root: "/missing", concurrency, onEntry: () => undefined })).rejects.toMatchObject({
        code: "ENOENT",
      });
    }
  });

  test("a very wide tree (10,000 entries in one directory, 100 empty directories) at concurrency 1 and 64", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 10_000; i++) files[`/w/f${String(i).padStart(5, "0")}`] = "";
    const fs = memoryFileSystem({ files });
    for (let i = 0; i < 100; i++) await fs.mkdir(`/w/e${i}`, { recursive: true });
    for (const concurrency of [1, 64]) {
      const seen: string[] = [];
      await walkFiles({ fs, root: "/w", concurrency, onEntry: (_p, relative) => void seen.push(relative) });
      expect(seen.length).toBe(10_000);
      expect(new Set(seen).size).toBe(10_000);
      if (concurrency === 1) expect(seen).toEqual(Object.keys(files).map((path) => path.slice(3)));
    }
  });

  test("a very deep tree (5,000 levels, a file at each) at concurrency 1 and 64", async () => {
    const fs = memoryFileSystem();
    const expected: string[] = [];
    const deepest = "/deep" + "/d".repeat(4_999);
    await fs.mkdir(deepest, { recursive: true });
    for (let level = 0; level < 5_000; level++) {
      const relative = "d/".repeat(level);
      await fs.writeFile(`/deep/${relative}f`, new Uint8Array(0));
      expected.push(`${relative}f`);
    }
    for (const concurrency of [1, 64]) {
      const seen: string[] = [];
      await walkFiles({ fs, root: "/deep", concurrency, onEntry: (_p, relative) => void seen.push(relative) });
      // Each directory lists "d" before "f": the deepest file comes first.
      if (concurrency === 1) expect(seen).toEqual([...expected].reverse());
      else expect(seen.sort()).toEqual([...expected].sort());
    }
  }, 180_000);

  test("onEntry throwing synchronously and include throwing both reject the walk", async () => {
    const fs = mixedTree();
    await expect(
      walkFiles({
        fs,
        root: "/r",
        concurrency: 4,
        onEntry: (path) => {
          if (path.endsWith("g1.txt")) throw new Error("sync throw");
        },
      }),
    ).rejects.toThrow("sync throw");
    await expect(
      walkFiles({
        fs,
        root: "/r",
        concurrency: 4,
        include: (path) => {
          if (path.endsWith("/e2")) throw new Error("include throw");
          return true;
        },
        onEntry: () => undefined,
      }),
    ).rejects.toThrow("include throw");
  });
});

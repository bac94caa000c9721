/**
 * Issue 14, item 1: a concurrent task swaps a leaf file and a parent directory for symlinks to
 * outside the tools' root, 10,000 times each, while read, write, edit, list, grep, apply_patch
 * and bash run in a loop through createFsTools (./swap-stress.ts). Nothing outside is read or
 * changed. IDB runs in Chromium: ./no-follow-stress-idb.browser.test.ts.
 */
import { mkdtemp, readdir, readFile, rename, rm, symlink, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { nodeFileSystem, type NodeFileSystem } from "../../src/backends/node/index.js";
import { OUTSIDE, stress } from "./swap-stress.js";

const SWAPS = 10_000;

describe("no-follow under 10,000 leaf and parent symlink swaps while the tools run", () => {
  test("memory: nothing outside read or changed", { timeout: 60_000 }, async () => {
    const fs = memoryFileSystem({ files: { "/w/keep.txt": "k" } });
    const outcome = await stress(
      fs,
      {
        rename: (from, to) => fs.rename(from, to),
        symlink: (target, path) => fs.symlink(target, path),
        unlink: (path) => fs.rm(path),
        clear: (path) => fs.rm(path, { recursive: true, force: true }),
      },
      SWAPS,
    );
    const json = fs.volume.toJSON();
    expect(Object.fromEntries(Object.entries(json).filter(([path]) => path.startsWith("/outside/")))).toEqual(OUTSIDE);
    expect(outcome.refused).toBeGreaterThan(0);
    expect(outcome.succeeded).toBeGreaterThan(0);
  });

  test(
    "node (backend jail wider than the tools' root): nothing outside read or changed",
    { timeout: 60_000 },
    async () => {
      const root = await mkdtemp(join(tmpdir(), "bft-swap-"));
      try {
        const fs: NodeFileSystem = nodeFileSystem({ root, allowedRoots: ["/"] });
        const host = (path: string) => join(root, path);
        const outcome = await stress(
          fs,
          {
            rename: (from, to) => rename(host(from), host(to)),
            symlink: (target, path) => symlink(host(target), host(path)),
            unlink: (path) => unlink(host(path)),
            clear: (path) => rm(host(path), { recursive: true, force: true }),
          },
          SWAPS,
        );
        const names = (await readdir(host("/outside"))).sort();
        expect(names).toEqual(["OUTSIDE-ONLY-NAME.txt", "secret.txt"]);
        for (const [path, text] of Object.entries(OUTSIDE)) expect(await readFile(host(path), "utf8")).toBe(text);
        expect(outcome.refused).toBeGreaterThan(0);
        expect(outcome.succeeded).toBeGreaterThan(0);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    },
  );
});

/**
 * Issue 14, item 1: a concurrent task swaps a leaf file and a parent directory for symlinks to
 * outside the tools' root, 10,000 times each, while read, write, edit, list, grep and apply_patch
 * run in a loop through createFsTools. Nothing outside is read or changed.
 */
import { mkdtemp, readdir, readFile, rename, rm, symlink, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { nodeFileSystem, type NodeFileSystem } from "../../src/backends/node/index.js";
import type { FileSystem } from "../../src/contract/types.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { resultText } from "../../src/tools/result.js";

const SWAPS = 10_000;
const OUTSIDE: Readonly<Record<string, string>> = {
  "/outside/secret.txt": "SECRET-OUT\n",
  "/outside/OUTSIDE-ONLY-NAME.txt": "SECRET-NAME\n",
};
const encoder = new TextEncoder();

/** The namespace operations the swapper uses (the backend's own, or the host's under a root). */
interface Swapper {
  rename(from: string, to: string): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Remove whatever the tools made at `path` in a gap of the swap (a write creates missing parents). */
  clear(path: string): Promise<void>;
}

interface StressOutcome {
  readonly calls: number;
  readonly refused: number;
  readonly succeeded: number;
}

async function stress(fs: FileSystem, swapper: Swapper): Promise<StressOutcome> {
  await fs.writeFile("/w/d/f.txt", encoder.encode("inside-OUT\n"));
  for (const [path, text] of Object.entries(OUTSIDE)) await fs.writeFile(path, encoder.encode(text));
  const tools = createFsTools({ fs, cwd: "/w", state: false });
  let done = false;
  // The tools may create the path in a gap (a write makes missing parents): clear it and retry.
  const into = async (path: string, make: () => Promise<void>) => {
    for (;;) {
      try {
        return await make();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== "EEXIST" && code !== "ENOTEMPTY" && code !== "EISDIR") throw error;
        await swapper.clear(path);
      }
    }
  };
  // A tool may also remove the link in a gap (apply_patch rolling back a directory it made there
  // removes what is at that name now, the link itself, never its target): then there is nothing to unlink.
  const unlinkIfThere = async (path: string) => {
    try {
      await swapper.unlink(path);
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
    }
  };
  const swapping = (async () => {
    try {
      for (let i = 0; i < SWAPS; i++) {
        await swapper.rename("/w/d/f.txt", "/w/d/f.real");
        await into("/w/d/f.txt", () => swapper.symlink("/outside/secret.txt", "/w/d/f.txt"));
        await unlinkIfThere("/w/d/f.txt");
        await into("/w/d/f.txt", () => swapper.rename("/w/d/f.real", "/w/d/f.txt"));
        await swapper.rename("/w/d", "/w/d.real");
        await into("/w/d", () => swapper.symlink("/outside", "/w/d"));
        await unlinkIfThere("/w/d");
        await into("/w/d", () => swapper.rename("/w/d.real", "/w/d"));
      }
    } finally {
      done = true;
    }
  })();
  let calls = 0;
  let refused = 0;
  const texts: string[] = [];
  const runners = [
    () => tools.read.execute({ path: "d/f.txt" }),
    () => tools.write.execute({ path: "d/f.txt", content: "inside-OUT\n" }),
    () => tools.write.execute({ path: "d/new.txt", content: "PWNED\n" }),
    () => tools.edit.execute({ path: "d/f.txt", oldText: "-OUT", newText: "-OUX" }),
    () => tools.edit.execute({ path: "d/f.txt", oldText: "-OUX", newText: "-OUT" }),
    () => tools.list.execute({ path: "d" }),
    () => tools.grep.execute({ pattern: "OU", path: "d" }),
    () => tools.apply_patch.execute({ patch: "*** Begin Patch\n*** Add File: d/patched.txt\n+PWNED\n*** End Patch" }),
    () =>
      tools.apply_patch.execute({
        patch: "*** Begin Patch\n*** Update File: d/f.txt\n@@\n-inside-OUT\n+inside-OUT\n+PWNED\n*** End Patch",
      }),
  ];
  while (!done) {
    for (const run of runners) {
      const result = await run();
      calls++;
      if (!result.ok) refused++;
      const text = resultText(result);
      if (text.includes("SECRET") || text.includes("OUTSIDE-ONLY-NAME")) texts.push(text);
    }
  }
  await swapping;
  expect(texts).toEqual([]);
  return { calls, refused, succeeded: calls - refused };
}

describe("no-follow under 10,000 leaf and parent symlink swaps while the tools run", () => {
  test("memory: nothing outside read or changed", { timeout: 60_000 }, async () => {
    const fs = memoryFileSystem({ files: { "/w/keep.txt": "k" } });
    const outcome = await stress(fs, {
      rename: (from, to) => fs.rename(from, to),
      symlink: (target, path) => fs.symlink(target, path),
      unlink: (path) => fs.rm(path),
      clear: (path) => fs.rm(path, { recursive: true, force: true }),
    });
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
        const outcome = await stress(fs, {
          rename: (from, to) => rename(host(from), host(to)),
          symlink: (target, path) => symlink(host(target), host(path)),
          unlink: (path) => unlink(host(path)),
          clear: (path) => rm(host(path), { recursive: true, force: true }),
        });
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

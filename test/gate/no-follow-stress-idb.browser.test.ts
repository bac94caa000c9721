/**
 * The swap stress loop (./swap-stress.ts) on the IndexedDB backend in Chromium, 10,000 swaps of
 * each kind as on memory and node: fake-indexeddb is not a dependency, so IDB runs only in the
 * browser project, where each round also schedules real IndexedDB saves. Nothing outside is read
 * or changed, in memory or in what was saved.
 */
import { describe, expect, test } from "vitest";
import { idbFileSystem } from "../../src/backends/idb/index.js";
import { OUTSIDE, stress } from "./swap-stress.js";

const SWAPS = 10_000;
const decoder = new TextDecoder();

describe("no-follow under 10,000 leaf and parent symlink swaps while the tools run (IDB)", () => {
  test("idb: nothing outside read or changed, in memory or once saved", { timeout: 120_000 }, async () => {
    const name = `test-idb-stress-${Date.now()}`;
    // Relaxed: 10,000 swaps each committed one by one would take minutes; the saves still run
    // (debounced), and what they stored is checked below.
    const fs = idbFileSystem({ name, durability: "relaxed" });
    await fs.ready;
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
    await fs.close();
    const reopened = idbFileSystem({ name });
    await reopened.ready;
    const outside: Record<string, string> = {};
    for (const entry of await reopened.readdir("/outside")) {
      outside[`/outside/${entry.name}`] = decoder.decode(await reopened.readFile(`/outside/${entry.name}`));
    }
    expect(outside).toEqual(OUTSIDE);
    expect(outcome.refused).toBeGreaterThan(0);
    expect(outcome.succeeded).toBeGreaterThan(0);
    await reopened.close();
  });
});

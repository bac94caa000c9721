/**
 * The Worker's sync access handles under load, in real Chromium: a `stat` or a read that waits
 * while the handle it found is closed (the least recently used one dropped for another file, or
 * the idle sweep) must not use the closed handle. Before the fix, `stat` read `getSize()` of a
 * closed handle: `EIO ... The file was already closed` (an import then a grep in the playground).
 */
import { describe, expect, it } from "vitest";
import { opfsFileSystem } from "../../../src/backends/opfs/index.js";
import { wipe } from "./wipe.js";

const ROOT = "test-opfs-sync-handles";
const encoder = new TextEncoder();
const FILES = 200;

function name(index: number): string {
  return `/d/f${String(index).padStart(4, "0")}.txt`;
}

describe("opfs (worker) sync access handles under load", () => {
  it("stats, reads and writes many files at once with 4 handles and a 1 ms idle sweep", async () => {
    await wipe(ROOT);
    const fs = opfsFileSystem({ root: `/${ROOT}`, worker: true, maxSyncHandles: 4, syncHandleIdleMs: 1 });
    try {
      for (let index = 0; index < FILES; index += 1) {
        await fs.writeFile(name(index), encoder.encode(`file ${index}\n`));
      }
      const failures: string[] = [];
      for (let round = 0; round < 3; round += 1) {
        const sizes = await Promise.all(
          Array.from({ length: FILES }, async (_, index) => {
            try {
              // A read opens (or reuses) the handle; the stat beside it waits on getFile() while
              // other reads push it out of the 4 kept open.
              const [stat, bytes] = await Promise.all([fs.stat(name(index)), fs.readFile(name(index))]);
              return stat.size === bytes.byteLength ? stat.size : -1;
            } catch (error) {
              failures.push(`${name(index)}: ${(error as Error).message}`);
              return -2;
            }
          }),
        );
        expect(failures.slice(0, 3)).toEqual([]);
        expect(sizes).toEqual(Array.from({ length: FILES }, (_, index) => `file ${index}\n`.length));
      }
      // Writes racing the same eviction keep every byte.
      await Promise.all(
        Array.from({ length: FILES }, (_, index) => fs.writeFile(name(index), encoder.encode(`second ${index}\n`))),
      );
      const texts = await Promise.all(
        Array.from({ length: FILES }, async (_, index) => new TextDecoder().decode(await fs.readFile(name(index)))),
      );
      expect(texts).toEqual(Array.from({ length: FILES }, (_, index) => `second ${index}\n`));
    } finally {
      await fs.close();
    }
  });
});

import * as realFs from "node:fs";
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createNodeFs, Stats } from "better-fs-tools/node-fs";
import { memoryFileSystem } from "better-fs-tools/memory";
import { nodeFileSystem } from "better-fs-tools/node";

describe("Stats times", () => {
  it("atime and birthtime come from the backend's atimeMs/birthtimeMs where it has them", () => {
    const stats = new Stats(
      { type: "file", size: 3, mtimeMs: 2_000.25, atimeMs: 3_000.5, birthtimeMs: 1_000.75 },
      "/a",
    );
    expect([stats.atimeMs, stats.mtimeMs, stats.ctimeMs, stats.birthtimeMs]).toEqual([
      3_000.5, 2_000.25, 2_000.25, 1_000.75,
    ]);
    // Node's Dates round the milliseconds.
    expect([stats.atime, stats.mtime, stats.ctime, stats.birthtime].map((date) => date.getTime())).toEqual([
      3_001, 2_000, 2_000, 1_001,
    ]);
  });

  it("without them every time is mtimeMs", () => {
    const stats = new Stats({ type: "file", size: 0, mtimeMs: 5_000 }, "/a");
    expect([stats.atimeMs, stats.mtimeMs, stats.ctimeMs, stats.birthtimeMs, stats.atime.getTime()]).toEqual([
      5_000, 5_000, 5_000, 5_000, 5_000,
    ]);
  });

  it("over the Node backend, atime, mtime and birthtime equal node:fs's own for the same file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bft-stats-"));
    try {
      await writeFile(join(dir, "a.txt"), "abc");
      // Three different times, so a mix-up between them shows.
      await utimes(join(dir, "a.txt"), 1_600_000_000, 1_700_000_000); // seconds
      const real = realFs.statSync(join(dir, "a.txt"));
      const ours = await createNodeFs(nodeFileSystem({ root: dir })).promises.stat("/a.txt");
      expect(real.atimeMs).toBe(1_600_000_000_000);
      expect(real.mtimeMs).toBe(1_700_000_000_000);
      expect(real.birthtimeMs).not.toBe(real.mtimeMs);
      expect([ours.atimeMs, ours.mtimeMs, ours.birthtimeMs]).toEqual([real.atimeMs, real.mtimeMs, real.birthtimeMs]);
      expect([ours.atime, ours.mtime, ours.birthtime]).toEqual([real.atime, real.mtime, real.birthtime]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("the memory backend reports one time: all four are its mtime", async () => {
    const fs = createNodeFs(memoryFileSystem({ files: { "/a": "a" } }));
    const stats = fs.statSync("/a");
    expect([stats.atimeMs, stats.ctimeMs, stats.birthtimeMs]).toEqual([stats.mtimeMs, stats.mtimeMs, stats.mtimeMs]);
  });
});

/**
 * Records read from a memfs volume and a volume rebuilt from records: an exact round trip (bytes,
 * modes, times, link targets) through a 2,000-directory chain, and no record read through a link.
 */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { recordsOf, restoreVolume } from "../../../src/backends/idb/snapshot.js";
import type { IdbRecord } from "../../../src/backends/idb/store.js";

const encoder = new TextEncoder();

function chain(count: number): string {
  return `/w/${Array.from({ length: count }, () => "d").join("/")}`;
}

const everything = { subtree: true, wantsAncestor: () => false } as const;

describe("idb snapshot", () => {
  it("restoreVolume then recordsOf('/') gives back every record of a 2,000-directory chain, exactly", () => {
    const deep = chain(2000);
    const records = new Map<string, IdbRecord>([
      ["/w", { kind: "directory", mode: 0o755, mtimeMs: 1_700_000_000_001 }],
    ]);
    for (let depth = 1; depth <= 2000; depth += 1) {
      records.set(chain(depth), { kind: "directory", mode: 0o700 + (depth % 8), mtimeMs: 1_700_000_000_000 + depth });
    }
    records.set(`${deep}/x.bin`, {
      kind: "file",
      data: Uint8Array.of(0, 1, 127, 128, 255),
      mode: 0o600,
      mtimeMs: 1_600_000_000_123,
    });
    records.set(`${deep}/empty`, { kind: "directory", mode: 0o750, mtimeMs: 1_500_000_000_999 });
    records.set(`${deep}/link`, { kind: "symlink", target: "../x.bin" });
    records.set("/top.txt", { kind: "file", data: encoder.encode("top"), mode: 0o644, mtimeMs: 1_234_567_890_123 });

    const { volume } = memoryFileSystem();
    restoreVolume(volume, records);
    const read = new Map<string, IdbRecord>();
    recordsOf(volume, "/", read, everything);
    expect(read.size).toBe(2005);
    expect(new Map([...read].sort())).toEqual(new Map([...records].sort()));
  });

  it("a record under a symlinked directory is not read; a changed path brings the ancestors asked for", () => {
    const fs = memoryFileSystem({ files: { "/w/d/a.txt": "a", "/out/a.txt": "SECRET" } });
    fs.volume.symlinkSync("/out", "/w/link");
    const throughLink = new Map<string, IdbRecord>();
    recordsOf(fs.volume, "/w/link/a.txt", throughLink, { subtree: true, wantsAncestor: () => true });
    expect([...throughLink.keys()]).toEqual([]);

    const withAncestors = new Map<string, IdbRecord>();
    recordsOf(fs.volume, "/w/d/a.txt", withAncestors, {
      subtree: false,
      wantsAncestor: (path) => path !== "/w",
    });
    expect([...withAncestors.keys()]).toEqual(["/w/d/a.txt", "/w/d"]);

    const linkItself = new Map<string, IdbRecord>();
    recordsOf(fs.volume, "/w/link", linkItself, { subtree: true, wantsAncestor: () => false });
    expect([...linkItself]).toEqual([["/w/link", { kind: "symlink", target: "/out" }]]);
  });
});

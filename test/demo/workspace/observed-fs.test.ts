/**
 * The playground's observed backend (demo/src/workspace/observed-fs.ts): it reports changes and
 * keeps everything else of the backend it wraps, the storage's own locks included (on OPFS,
 * Web Locks), so the tools over it lock as they would over the backend itself.
 */
import { describe, expect, it } from "vitest";
import { observeFileSystem, type FsChange } from "../../../demo/src/workspace/observed-fs.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { forwardFileSystem } from "../../../src/contract/forward.js";
import type { Locks } from "../../../src/contract/locks.js";
import { memoryLocks } from "../../../src/contract/locks.js";
import { locksFor } from "../../../src/tools/kit/context.js";
import { createWriteTool } from "../../../src/tools/write/index.js";

/** Locks that record the keys of every `run`, standing in for OPFS's Web Locks. */
function recordingLocks(): { locks: Locks; taken: string[][] } {
  const inner = memoryLocks();
  const taken: string[][] = [];
  return {
    taken,
    locks: {
      run(keys, fn) {
        taken.push([...keys]);
        return inner.run(keys, fn);
      },
    },
  };
}

describe("observeFileSystem", () => {
  it("keeps the backend's locks, and the tools over it take them", async () => {
    const { locks, taken } = recordingLocks();
    const backend = forwardFileSystem(memoryFileSystem(), { name: "opfs", locks });
    const observed = observeFileSystem(backend);
    expect(observed.fs.locks).toBe(locks);
    expect(locksFor(observed.fs)).toBe(locks);

    const write = createWriteTool({ fs: observed.fs, cwd: "/w", allowedRoots: ["/w"] });
    const result = await write.execute({ path: "a.txt", content: "hi\n" });
    expect(result.ok).toBe(true);
    expect(taken).toEqual([["/w/a.txt"]]);
  });

  it("keeps name, capabilities and optional methods, and reports changes", async () => {
    const backend = memoryFileSystem({ files: { "/w/a.txt": "old" } });
    const observed = observeFileSystem(backend);
    const changes: FsChange[] = [];
    observed.onChange((change) => changes.push(change));
    expect(observed.fs.name).toBe("memory");
    expect(observed.fs.capabilities).toBe(backend.capabilities);
    expect(observed.fs.locks).toBeUndefined();
    await observed.fs.writeFile("/w/a.txt", new TextEncoder().encode("new"));
    await observed.fs.symlink!("/w/a.txt", "/w/link");
    expect(await observed.fs.readlink!("/w/link")).toBe("/w/a.txt");
    expect(changes).toEqual([
      {
        type: "write",
        path: "/w/a.txt",
        before: new TextEncoder().encode("old"),
        after: new TextEncoder().encode("new"),
        created: false,
      },
      { type: "write", path: "/w/link" },
    ]);
  });

  it("has no symlink where the backend has none", () => {
    const { symlink: _symlink, readlink: _readlink, ...plain } = memoryFileSystem();
    const observed = observeFileSystem({ ...plain, capabilities: {} });
    expect("symlink" in observed.fs).toBe(false);
    expect("readlink" in observed.fs).toBe(false);
  });
});

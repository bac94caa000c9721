import {
  mkdtemp,
  mkdir as mkdirHost,
  readFile as readHost,
  rm as rmHost,
  writeFile as writeHost,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { LOST_NO_FOLLOW_MESSAGE, createGate } from "../../src/gate/gate.js";
import { createWorkspace } from "../../src/gate/workspace.js";
import { formatFilesystemLogEntry, readOnly, withFilesystemLogging } from "../../src/gate/middleware.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { nodeFileSystem } from "../../src/backends/node/file-system.js";
import { createReadTool } from "../../src/tools/read/index.js";
import { lookupRealPath } from "../../src/contract/path.js";
import type { FileSystem } from "../../src/contract/types.js";

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "no error";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("memory no-follow form", () => {
  test("a leaf and a parent swapped for links after the check are refused, not followed", async () => {
    const fs = memoryFileSystem({ files: { "/w/d/a.txt": "inside", "/out/a.txt": "SECRET" } });
    const gate = createGate({ fs, cwd: "/w" });
    expect(gate.noFollow).toBe(fs.noFollow);
    const leaf = await gate.check("d/a.txt", "read");
    const parent = await gate.check("d/new.txt", "write");
    expect([leaf, parent]).toEqual([
      { ok: true, path: "/w/d/a.txt", outside: false },
      { ok: true, path: "/w/d/new.txt", outside: false },
    ]);
    await fs.rm("/w/d/a.txt");
    await fs.symlink("/out/a.txt", "/w/d/a.txt");
    expect(await failure(gate.noFollow.readFile("/w/d/a.txt"))).toBe(
      "ELOOP: too many symbolic links encountered, open '/w/d/a.txt' (/w/d/a.txt is a symbolic link; not followed)",
    );
    await fs.rename("/w/d", "/w/d.real");
    await fs.symlink("/out", "/w/d");
    expect(await failure(gate.noFollow.writeFile("/w/d/new.txt", encode("pwned")))).toBe(
      "ELOOP: too many symbolic links encountered, open '/w/d/new.txt' (/w/d is a symbolic link; not followed)",
    );
    expect(fs.volume.toJSON()["/out/a.txt"]).toBe("SECRET");
    expect(fs.volume.toJSON()["/out/new.txt"]).toBeUndefined();
  });

  test("a spread copy that replaces a method is refused at creation; one that only adds fields keeps the form; middleware carries a wrapped form", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a" } });
    const copy: FileSystem = { ...fs, readFile: async () => encode("copy") };
    expect(() => createGate({ fs: copy, cwd: "/w" })).toThrow(new TypeError(LOST_NO_FOLLOW_MESSAGE));
    const placed: FileSystem = { ...fs, cwd: "/w", allowedRoots: ["/w"] };
    expect(createGate({ fs: placed }).noFollow).not.toBe(placed);
    const { readFile: _readFile, ...partial } = fs;
    // A copy that only leaves a method out is called by name; the missing method fails naming it.
    await expect(
      createGate({ fs: partial as unknown as FileSystem, cwd: "/w" }).fs.readFile("/w/a.txt"),
    ).rejects.toThrow(/^The backend "memory" has no readFile method/);
    const lines: string[] = [];
    const stacked = withFilesystemLogging({ destination: (entry) => lines.push(formatFilesystemLogEntry(entry)) })(
      readOnly()(fs),
    );
    const gate = createGate({ fs: stacked, cwd: "/w" });
    expect(gate.noFollow).not.toBe(stacked);
    expect(await failure(gate.fs.writeFile("/w/a.txt", encode("b")))).toBe(
      "EROFS: read-only file system, open '/w/a.txt'",
    );
    expect(decode(await gate.fs.readFile("/w/a.txt"))).toBe("a");
    expect(lines.filter((line) => line.startsWith("fs.readFile") || line.startsWith("fs.writeFile"))).toEqual([
      'fs.writeFile("/w/a.txt", "b")',
      'fs.readFile("/w/a.txt")',
    ]);
  });
});

describe("deep paths resolve linearly", () => {
  /** The backend calls of one lookup of `path` on `fs`. */
  async function callsOf(fs: FileSystem, path: string) {
    const calls: string[] = [];
    const counted: FileSystem = {
      ...fs,
      realpath: (at) => (calls.push("realpath"), fs.realpath(at)),
      lstat: (at) => (calls.push("lstat"), fs.lstat(at)),
    };
    return { found: await lookupRealPath(counted, path), calls };
  }
  const deep = (count: number, prefix = "n") =>
    Array.from({ length: count }, (_, index) => `${prefix}${index}`).join("/");

  test("a missing path costs O(log n) lookups: 16 at 200 names, 23 at 2,000, missing near the top or the bottom", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a", [`/w/${deep(150)}/x.txt`]: "x" } });
    // realpath of the path, of its parent, then of prefixes 1, 2, 4... names up until one exists,
    // then halving the interval; one lstat of the first missing name.
    const top200 = await callsOf(fs, `/w/${deep(200, "m")}`);
    const top2000 = await callsOf(fs, `/w/${deep(2000, "m")}`);
    const bottom = await callsOf(fs, `/w/${deep(150)}/${deep(50, "m")}`);
    expect(top200).toEqual({
      found: { path: `/w/${deep(200, "m")}`, exists: false },
      calls: [...Array(15).fill("realpath"), "lstat"],
    });
    expect(top2000).toEqual({
      found: { path: `/w/${deep(2000, "m")}`, exists: false },
      calls: [...Array(22).fill("realpath"), "lstat"],
    });
    expect(bottom).toEqual({
      found: { path: `/w/${deep(150)}/${deep(50, "m")}`, exists: false },
      calls: [...Array(13).fill("realpath"), "lstat"],
    });
  });

  test("a dangling link at depth is followed to its target, and the names after it kept", async () => {
    const fs = memoryFileSystem({ files: { [`/w/${deep(100)}/x.txt`]: "x", "/out/keep.txt": "k" } });
    await fs.symlink("/out/new", `/w/${deep(100)}/dangling`);
    expect((await callsOf(fs, `/w/${deep(100)}/dangling/a/b.txt`)).found).toEqual({
      path: "/out/new/a/b.txt",
      exists: false,
    });
  });
});

describe("allowedRoots", () => {
  test("an empty list throws a TypeError at creation everywhere", () => {
    const fs = memoryFileSystem();
    expect(() => createGate({ fs, allowedRoots: [] })).toThrow(
      "createGate allowedRoots must list at least one absolute path (an empty list would admit nothing); leave it out for [cwd]",
    );
    expect(() => createWorkspace({ fs, root: "/w", allowedRoots: [] })).toThrow(TypeError);
    expect(() => createReadTool({ fs, allowedRoots: [] })).toThrow(TypeError);
    expect(() => nodeFileSystem({ allowedRoots: [] })).toThrow(
      "nodeFileSystem allowedRoots must list at least one absolute path (an empty list would admit nothing); leave it out for [cwd]",
    );
  });

  test("Node: one missing root breaks nothing, and admits what will be under it", async () => {
    const base = await mkdtemp(join(tmpdir(), "bft-roots-"));
    try {
      await mkdirHost(join(base, "present"));
      await writeHost(join(base, "present", "a.txt"), "present");
      const missing = join(base, "later", "deep");
      const present = join(base, "present");
      const fs = nodeFileSystem({ cwd: present, allowedRoots: [missing, present] });
      const gate = createGate({ fs, cwd: present, allowedRoots: [missing, present] });
      expect(decode(await gate.fs.readFile(join(present, "a.txt")))).toBe("present");
      expect(await gate.check(join(missing, "x.txt"), "write")).toEqual({
        ok: true,
        path: join(missing, "x.txt"),
        outside: false,
      });
      await gate.fs.writeFile(join(missing, "x.txt"), encode("new"));
      expect(await readHost(join(missing, "x.txt"), "utf8")).toBe("new");
      expect((await gate.check(join(base, "elsewhere.txt"), "read")).ok).toBe(false);
    } finally {
      await rmHost(base, { recursive: true, force: true });
    }
  });
});

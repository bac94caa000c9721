import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testFileSystem } from "../conformance/index.js";
import { nodeFileSystem, type NodeFileSystem } from "../../src/fs/node.js";

testFileSystem({
  name: "node",
  create: async () => nodeFileSystem({ root: await mkdtemp(join(tmpdir(), "bft-node-")) }),
  destroy: async (fs) => rm((fs as NodeFileSystem).root, { recursive: true, force: true }),
});

import { execFileSync } from "node:child_process";
import { createServer } from "node:net";
import { promises as nodeFsPromises } from "node:fs";
import { mkdir, readFile, readdir, stat, symlink, unlink, writeFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FsError } from "../../src/fs/types.js";
import { createGate } from "../../src/fs/gate.js";

const encode = (value: string) => new TextEncoder().encode(value);
const decode = (value: Uint8Array) => new TextDecoder().decode(value);

async function failure(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "resolved",
    (error: unknown) => (FsError.isInstance(error) ? error.message : `not an FsError: ${String(error)}`),
  );
}

describe("nodeFileSystem: jail, special files, atomic writes", () => {
  let base: string;
  let box: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "bft-node-jail-"));
    box = join(base, "box");
    await mkdir(box);
    await writeFile(join(base, "outside.txt"), "secret");
    await writeFile(join(box, "a.txt"), "a");
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(base, { recursive: true, force: true });
  });

  it("host paths: confined to allowedRoots (default [cwd]), /box never admits /box-evil", async () => {
    await mkdir(`${box}-evil`);
    await writeFile(`${box}-evil/x`, "x");
    const fs = nodeFileSystem({ cwd: box });
    expect([fs.cwd, fs.allowedRoots, fs.root]).toEqual([box, [box], "/"]);
    expect(decode(await fs.readFile(`${box}/a.txt`))).toBe("a");
    expect(await failure(fs.readFile(`${base}/outside.txt`))).toBe(
      `EACCES: permission denied, open '${base}/outside.txt' (${base}/outside.txt is outside the allowed roots ${box})`,
    );
    expect(await failure(fs.readFile(`${box}/../outside.txt`))).toBe(
      `EACCES: permission denied, open '${box}/../outside.txt' (${base}/outside.txt is outside the allowed roots ${box})`,
    );
    expect(await failure(fs.readdir(`${box}-evil`))).toBe(
      `EACCES: permission denied, scandir '${box}-evil' (${box}-evil is outside the allowed roots ${box})`,
    );
    expect(await failure(fs.writeFile(`${box}-evil/x`, encode("pwned")))).toMatch(/^EACCES: permission denied, open /);
    expect(await readFile(`${box}-evil/x`, "utf8")).toBe("x");
  });

  it("root: / is the directory; symlinks to outside it are refused, absolute targets stay inside", async () => {
    await symlink(join(base, "outside.txt"), join(box, "leaf"));
    await symlink(base, join(box, "up"));
    const fs = nodeFileSystem({ root: box });
    expect(await fs.readdir("/").then((entries) => entries.map((entry) => entry.name).sort())).toEqual(["a.txt", "leaf", "up"]);
    expect(await failure(fs.readFile("/leaf"))).toBe(`EACCES: permission denied, open '/leaf' (${base}/outside.txt is outside the allowed roots /)`);
    expect(await failure(fs.writeFile("/leaf", encode("pwned")))).toMatch(/^EACCES: permission denied, open '\/leaf'/);
    expect(await failure(fs.readdir("/up"))).toMatch(/^EACCES: permission denied, scandir '\/up'/);
    expect(await failure(fs.writeFile("/up/outside.txt", encode("pwned")))).toMatch(/^EACCES/);
    expect(await failure(fs.readFile("/../outside.txt"))).toBe("ENOENT: no such file or directory, open '/../outside.txt'");
    expect(await readFile(join(base, "outside.txt"), "utf8")).toBe("secret");
    // The link itself can be inspected and removed; the target stays.
    expect((await fs.lstat("/leaf")).type).toBe("symlink");
    await fs.rm("/leaf");
    expect(await readFile(join(base, "outside.txt"), "utf8")).toBe("secret");
    // An absolute target written through the backend is inside its namespace.
    await fs.symlink("/a.txt", "/inside");
    expect(decode(await fs.readFile("/inside"))).toBe("a");
    expect(await fs.readlink("/inside")).toBe("/a.txt");
    expect(await fs.realpath("/inside")).toBe("/a.txt");
    expect(await failure(fs.rm("/", { recursive: true }))).toBe("EBUSY: resource busy or locked, rm '/' (the backend's root cannot be removed)");
  });

  it("refuses a FIFO, a socket and a device instead of hanging", async () => {
    execFileSync("mkfifo", [join(box, "fifo")]);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(box, "sock"), resolve));
    try {
      const fs = nodeFileSystem({ root: box });
      expect(await failure(fs.readFile("/fifo"))).toBe(
        "ENOTSUP: operation not supported, open '/fifo' (a FIFO; only regular files are read and written)",
      );
      expect(await failure(fs.writeFile("/fifo", encode("x")))).toBe(
        "ENOTSUP: operation not supported, open '/fifo' (a FIFO; only regular files are read and written)",
      );
      expect(await failure(fs.readFile("/sock"))).toMatch(/^ENOTSUP: operation not supported, open '\/sock'/);
      expect((await fs.stat("/fifo")).type).toBe("other");
      expect(await fs.readdir("/").then((entries) => entries.filter((entry) => entry.type === "other").map((entry) => entry.name).sort())).toEqual([
        "fifo",
        "sock",
      ]);
      const dev = nodeFileSystem({ cwd: "/dev" });
      expect(await failure(dev.readFile("/dev/zero"))).toBe(
        "ENOTSUP: operation not supported, open '/dev/zero' (a device; only regular files are read and written)",
      );
    } finally {
      server.close();
    }
  });

  it("writes are atomic: a temporary file renamed over the target, mode kept, nothing left on failure", async () => {
    const fs = nodeFileSystem({ root: box });
    await nodeFsPromises.chmod(join(box, "a.txt"), 0o640);
    await fs.writeFile("/a.txt", encode("new"));
    expect(await readFile(join(box, "a.txt"), "utf8")).toBe("new");
    expect((await stat(join(box, "a.txt"))).mode & 0o777).toBe(0o640);
    // A failing rename (simulating a crash or a full disk before it) leaves the old content and no temporary file.
    const rename = vi.spyOn(nodeFsPromises, "rename").mockRejectedValueOnce(Object.assign(new Error("no space"), { code: "ENOSPC" }));
    expect(await failure(fs.writeFile("/a.txt", encode("lost")))).toBe("ENOSPC: no space left on device, open '/a.txt'");
    rename.mockRestore();
    expect(await readFile(join(box, "a.txt"), "utf8")).toBe("new");
    expect((await readdir(box)).sort()).toEqual(["a.txt"]);
  });

  it("the path checked is the path used: a leaf swapped for a symlink after the check is not followed", async () => {
    const fs = nodeFileSystem({ root: box });
    const realpath = nodeFsPromises.realpath;
    const swap = async () => {
      await unlink(join(box, "a.txt"));
      await symlink(join(base, "outside.txt"), join(box, "a.txt"));
    };
    vi.spyOn(nodeFsPromises, "realpath").mockImplementationOnce(async (path, options) => {
      const result = await realpath(path, options);
      await swap();
      return result;
    });
    expect(await failure(fs.readFile("/a.txt"))).toBe("ELOOP: too many symbolic links encountered, open '/a.txt'");
    // Writing after a swap replaces the link, never writes through it.
    await unlink(join(box, "a.txt"));
    await writeFile(join(box, "a.txt"), "a");
    vi.spyOn(nodeFsPromises, "realpath").mockImplementationOnce(async (path, options) => {
      const result = await realpath(path, options);
      await swap();
      return result;
    });
    await fs.writeFile("/a.txt", encode("written"));
    expect(await readFile(join(base, "outside.txt"), "utf8")).toBe("secret");
    expect(await readFile(join(box, "a.txt"), "utf8")).toBe("written");
  });

  it("under the gate: a rule cannot reach past the backend's own roots", async () => {
    const fs = nodeFileSystem({ cwd: box });
    const gate = createGate({ fs, cwd: box, permissions: { allow: [{ tool: "readFile", path: `${base}/**` }] } });
    expect(await failure(gate.fs.readFile(`${base}/outside.txt`))).toBe(
      `EACCES: permission denied, open '${base}/outside.txt' (Cannot resolve "${base}/outside.txt": EACCES: permission denied, realpath '${base}/outside.txt' (${base}/outside.txt is outside the allowed roots ${box}). Allowed roots: ${box}.)`,
    );
    const wider = nodeFileSystem({ cwd: box, allowedRoots: [base] });
    const gated = createGate({ fs: wider, cwd: box, permissions: { allow: [{ tool: "readFile", path: `${base}/*.txt` }] } });
    expect(decode(await gated.fs.readFile(`${base}/outside.txt`))).toBe("secret");
    expect(await failure(gated.fs.writeFile(`${base}/outside.txt`, encode("x")))).toMatch(/^EACCES: permission denied, open/);
  });

  it("validates options at creation", () => {
    expect(() => nodeFileSystem({ root: join(base, "missing") })).toThrow(
      new TypeError(`nodeFileSystem root must be an existing directory, got "${join(base, "missing")}"`),
    );
    expect(() => nodeFileSystem({ cwd: "relative" })).toThrow(new TypeError('nodeFileSystem cwd must be an absolute POSIX path, got "relative"'));
    expect(() => nodeFileSystem({ roots: [] } as never)).toThrow(
      new TypeError('nodeFileSystem got an unknown option "roots". Known options: root, cwd, allowedRoots'),
    );
  });
});

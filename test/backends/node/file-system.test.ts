import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testFileSystem } from "better-fs-tools/conformance";
import { nodeFileSystem, type NodeFileSystem } from "../../../src/backends/node/index.js";

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
import { FsError } from "../../../src/contract/errors.js";
import { createGate } from "../../../src/gate/gate.js";

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

  it("a root that does not exist yet under a symlink: the tools and the gate admit what will be under it", async () => {
    await symlink(box, join(base, "link"));
    const cwd = join(base, "link", "jobs", "job-1"); // real: <box>/jobs/job-1, missing
    const fs = nodeFileSystem({ cwd });
    const gate = createGate({ fs });
    expect(await gate.check("a.txt", "write")).toEqual({ ok: true, path: `${box}/jobs/job-1/a.txt`, outside: false });
    await gate.fs.writeFile("notes/a.txt", encode("one"));
    expect(await readFile(join(box, "jobs", "job-1", "notes", "a.txt"), "utf8")).toBe("one");
    expect(gate.display(`${box}/jobs/job-1/notes/a.txt`)).toBe("notes/a.txt");
  });

  it("above a root only lstat, realpath and readlink are admitted; nothing is read, listed or changed", async () => {
    await symlink(box, join(base, "link"));
    const fs = nodeFileSystem({ cwd: join(base, "link", "job") });
    expect((await fs.lstat(join(base, "link"))).type).toBe("symlink");
    expect(await fs.readlink!(join(base, "link"))).toBe(box);
    expect(await fs.realpath(join(base, "link"))).toBe(box);
    expect((await fs.lstat(base)).type).toBe("directory");
    const outside = (path: string) => `(${path} is outside the allowed roots ${join(base, "link", "job")})`;
    expect(await failure(fs.stat(base))).toBe(`EACCES: permission denied, stat '${base}' ${outside(base)}`);
    expect(await failure(fs.readdir(base))).toBe(`EACCES: permission denied, scandir '${base}' ${outside(base)}`);
    expect(await failure(fs.readFile(join(box, "a.txt")))).toMatch(/^EACCES: permission denied, open /);
    expect(await failure(fs.lstat(join(base, "outside.txt")))).toMatch(/^EACCES: permission denied, lstat /);
    expect(await failure(fs.rm(join(base, "outside.txt")))).toMatch(/^EACCES: permission denied, rm /);
    expect(await failure(fs.writeFile(join(base, "new.txt"), encode("x")))).toMatch(
      /^EACCES: permission denied, open /,
    );
    expect(await readdir(base)).toEqual(["box", "link", "outside.txt"]);
  });

  it("root: / is the directory; symlinks to outside it are refused, absolute targets stay inside", async () => {
    await symlink(join(base, "outside.txt"), join(box, "leaf"));
    await symlink(base, join(box, "up"));
    const fs = nodeFileSystem({ root: box });
    expect(await fs.readdir("/").then((entries) => entries.map((entry) => entry.name).sort())).toEqual([
      "a.txt",
      "leaf",
      "up",
    ]);
    expect(await failure(fs.readFile("/leaf"))).toBe(
      `EACCES: permission denied, open '/leaf' (${base}/outside.txt is outside the allowed roots /)`,
    );
    expect(await failure(fs.writeFile("/leaf", encode("pwned")))).toMatch(/^EACCES: permission denied, open '\/leaf'/);
    expect(await failure(fs.readdir("/up"))).toMatch(/^EACCES: permission denied, scandir '\/up'/);
    expect(await failure(fs.writeFile("/up/outside.txt", encode("pwned")))).toMatch(/^EACCES/);
    expect(await failure(fs.readFile("/../outside.txt"))).toBe(
      "ENOENT: no such file or directory, open '/../outside.txt'",
    );
    expect(await readFile(join(base, "outside.txt"), "utf8")).toBe("secret");
    // The link itself can be inspected and removed; the target stays.
    expect((await fs.lstat("/leaf")).type).toBe("symlink");
    await fs.rm("/leaf");
    expect(await readFile(join(base, "outside.txt"), "utf8")).toBe("secret");
    // An absolute target written through the backend is inside its namespace.
    await fs.symlink!("/a.txt", "/inside");
    expect(decode(await fs.readFile("/inside"))).toBe("a");
    expect(await fs.readlink!("/inside")).toBe("/a.txt");
    expect(await fs.realpath("/inside")).toBe("/a.txt");
    expect(await failure(fs.rm("/", { recursive: true }))).toBe(
      "EBUSY: resource busy or locked, rm '/' (the backend's root cannot be removed)",
    );
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
      expect(
        await fs.readdir("/").then((entries) =>
          entries
            .filter((entry) => entry.type === "other")
            .map((entry) => entry.name)
            .sort(),
        ),
      ).toEqual(["fifo", "sock"]);
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
    const rename = vi
      .spyOn(nodeFsPromises, "rename")
      .mockRejectedValueOnce(Object.assign(new Error("no space"), { code: "ENOSPC" }));
    expect(await failure(fs.writeFile("/a.txt", encode("lost")))).toBe(
      "ENOSPC: no space left on device, open '/a.txt'",
    );
    rename.mockRestore();
    expect(await readFile(join(box, "a.txt"), "utf8")).toBe("new");
    expect((await readdir(box)).sort()).toEqual(["a.txt"]);
  });

  it("the path checked is the path used: a leaf swapped for a symlink after the check is not followed", async () => {
    const fs = nodeFileSystem({ root: box });
    // The backend's lookup reads the real path back from an opened descriptor (readlink of
    // /proc/self/fd/N): the swap lands right after it, between the check and the open.
    const readlink = nodeFsPromises.readlink;
    const swap = async () => {
      await unlink(join(box, "a.txt"));
      await symlink(join(base, "outside.txt"), join(box, "a.txt"));
    };
    vi.spyOn(nodeFsPromises, "readlink").mockImplementationOnce((async (path: string) => {
      const result = await readlink(path);
      await swap();
      return result;
    }) as typeof readlink);
    expect(await failure(fs.readFile("/a.txt"))).toBe("ELOOP: too many symbolic links encountered, open '/a.txt'");
    // Writing after a swap replaces the link, never writes through it.
    await unlink(join(box, "a.txt"));
    await writeFile(join(box, "a.txt"), "a");
    vi.spyOn(nodeFsPromises, "readlink").mockImplementationOnce((async (path: string) => {
      const result = await readlink(path);
      await swap();
      return result;
    }) as typeof readlink);
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
    const gated = createGate({
      fs: wider,
      cwd: box,
      permissions: { allow: [{ tool: "readFile", path: `${base}/*.txt` }] },
    });
    expect(decode(await gated.fs.readFile(`${base}/outside.txt`))).toBe("secret");
    expect(await failure(gated.fs.writeFile(`${base}/outside.txt`, encode("x")))).toMatch(
      /^EACCES: permission denied, open/,
    );
  });

  it("validates options at creation", () => {
    expect(() => nodeFileSystem({ root: join(base, "missing") })).toThrow(
      new TypeError(`nodeFileSystem root must be an existing directory, got "${join(base, "missing")}"`),
    );
    expect(() => nodeFileSystem({ cwd: "relative" })).toThrow(
      new TypeError('nodeFileSystem cwd must be an absolute POSIX path, got "relative"'),
    );
    expect(() => nodeFileSystem({ roots: [] } as never)).toThrow(
      new TypeError('nodeFileSystem got an unknown option "roots". Known options: root, cwd, allowedRoots'),
    );
  });
});

import { rename as renameHost, lstat as lstatHost } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { descriptorPath, hasDescriptorPaths } from "../../../src/backends/node/descriptors.js";

const LINUX_PROC = hasDescriptorPaths();

describe.skipIf(!LINUX_PROC)(
  "nodeFileSystem: a directory swapped between the check and the use (Linux /proc/self/fd; skipped where it is absent)",
  () => {
    let base: string;
    let box: string;
    let out: string;
    beforeEach(async () => {
      base = await mkdtemp(join(tmpdir(), "bft-node-race-"));
      box = join(base, "box");
      out = join(base, "out");
      await mkdir(join(box, "x"), { recursive: true });
      await mkdir(out);
      await writeFile(join(box, "x", "f.txt"), "inside");
      await writeFile(join(out, "f.txt"), "SECRET");
      await writeFile(join(out, "secret-only.txt"), "SECRET");
      await symlink(out, join(box, "xlink"));
      await symlink("f.txt", join(out, "l"));
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      await rm(base, { recursive: true, force: true });
    });

    /**
     * After the backend's first successful lookup (its check resolved the existing part of the
     * path), make /x the symlink to out/, before the call uses the path.
     */
    function swapAfterCheck(): void {
      const readlink = nodeFsPromises.readlink;
      const lstat = nodeFsPromises.lstat;
      let swapped = false;
      const swap = async () => {
        if (swapped) return;
        swapped = true;
        spy.mockRestore();
        lstatSpy.mockRestore();
        await renameHost(join(box, "x"), join(box, "x.real"));
        await renameHost(join(box, "xlink"), join(box, "x"));
      };
      // The check resolves an existing path by reading an opened descriptor's real path back
      // (readlink of /proc/self/fd/N); below the deepest existing directory it looks names up
      // with lstat: the first successful lookup of either kind is the check.
      const spy = vi.spyOn(nodeFsPromises, "readlink").mockImplementation((async (path: string) => {
        const result = await readlink(path);
        await swap();
        return result;
      }) as typeof readlink);
      const lstatSpy = vi.spyOn(nodeFsPromises, "lstat").mockImplementation((async (path: string) => {
        const result = await lstat(path);
        await swap();
        return result;
      }) as typeof lstat);
    }

    const outList = async () => (await readdir(out)).sort();

    it("the probe and the descriptor path", () => {
      expect([LINUX_PROC, descriptorPath(7)]).toEqual([true, "/proc/self/fd/7"]);
    });

    it("every call refuses with EACCES naming where the swapped name led; nothing outside is read or changed", async () => {
      const fs = nodeFileSystem({ root: box });
      const swappedFor = (shown: string, host: string) =>
        `(${shown} was swapped for ${host} between the check and the open; refused)`;
      const cases: [string, () => Promise<unknown>, string][] = [
        [
          "readFile",
          () => fs.readFile("/x/f.txt"),
          `EACCES: permission denied, open '/x/f.txt' ${swappedFor("/x/f.txt", `${out}/f.txt`)}`,
        ],
        ["stat", () => fs.stat("/x/f.txt"), `EACCES: permission denied, stat '/x/f.txt' ${swappedFor("/x", out)}`],
        ["lstat", () => fs.lstat("/x/f.txt"), `EACCES: permission denied, lstat '/x/f.txt' ${swappedFor("/x", out)}`],
        ["readdir", () => fs.readdir("/x"), `EACCES: permission denied, scandir '/x' ${swappedFor("/x", out)}`],
        [
          "writeFile",
          () => fs.writeFile("/x/f.txt", encode("pwned")),
          `EACCES: permission denied, open '/x/f.txt' ${swappedFor("/x", out)}`,
        ],
        [
          "writeFile new",
          () => fs.writeFile("/x/new/n.txt", encode("pwned")),
          // The check walks down a missing path name by name: the swap lands during that walk,
          // which sees where the link leads and refuses it there.
          `EACCES: permission denied, open '/x/new/n.txt' (${out}/new/n.txt is outside the allowed roots /)`,
        ],
        ["mkdir", () => fs.mkdir("/x/d"), `EACCES: permission denied, mkdir '/x/d' ${swappedFor("/x", out)}`],
        [
          "mkdir -p",
          () => fs.mkdir("/x/d/e", { recursive: true }),
          // Two missing names: caught by the check's walk, as for "writeFile new".
          `EACCES: permission denied, mkdir '/x/d/e' (${out}/d/e is outside the allowed roots /)`,
        ],
        ["rm", () => fs.rm("/x/f.txt"), `EACCES: permission denied, rm '/x/f.txt' ${swappedFor("/x", out)}`],
        [
          "rm -rf",
          () => fs.rm("/x/f.txt", { recursive: true, force: true }),
          `EACCES: permission denied, rm '/x/f.txt' ${swappedFor("/x", out)}`,
        ],
        [
          "rename",
          () => fs.rename("/x/f.txt", "/moved.txt"),
          `EACCES: permission denied, rename '/x/f.txt' -> '/moved.txt' ${swappedFor("/x", out)}`,
        ],
        ["readlink", () => fs.readlink!("/x/l"), `EACCES: permission denied, readlink '/x/l' ${swappedFor("/x", out)}`],
        [
          "symlink",
          () => fs.symlink!("/x.real/f.txt", "/x/s"),
          `EACCES: permission denied, symlink '/x.real/f.txt' -> '/x/s' ${swappedFor("/x", out)}`,
        ],
      ];
      const results: [string, string][] = [];
      for (const [name, run, expected] of cases) {
        swapAfterCheck();
        results.push([name, await failure(run())]);
        // Undo the swap for the next case.
        await renameHost(join(box, "x"), join(box, "xlink"));
        await renameHost(join(box, "x.real"), join(box, "x"));
        expect(results.at(-1)).toEqual([name, expected]);
      }
      expect(results.length).toBe(cases.length);
      expect(await outList()).toEqual(["f.txt", "l", "secret-only.txt"]);
      expect(await readFile(join(out, "f.txt"), "utf8")).toBe("SECRET");
      expect((await readdir(box)).sort()).toEqual(["x", "xlink"]);
      expect((await readdir(join(box, "x"))).sort()).toEqual(["f.txt"]);
      expect(await readFile(join(box, "x", "f.txt"), "utf8")).toBe("inside");
    });

    it("a directory moved away after it was opened: the write lands in it and is reported", async () => {
      const fs = nodeFileSystem({ root: box });
      const sync = nodeFsPromises.rename;
      vi.spyOn(nodeFsPromises, "rename").mockImplementationOnce(async (from, to) => {
        await sync(from, to);
        await sync(join(box, "x"), join(box, "y"));
      });
      expect(await failure(fs.writeFile("/x/f.txt", encode("new")))).toBe(
        "EACCES: permission denied, open '/x/f.txt' (/x moved to /y during the call; the new content was renamed into it there)",
      );
      expect(await readFile(join(box, "y", "f.txt"), "utf8")).toBe("new");
      expect(await readdir(join(box, "y"))).toEqual(["f.txt"]);
    });

    it("rm -r descends by descriptor: a subdirectory swapped for a symlink is unlinked, not followed", async () => {
      const fs = nodeFileSystem({ root: box });
      await mkdir(join(box, "x", "sub"));
      await writeFile(join(box, "x", "sub", "g.txt"), "g");
      const readdirHost = nodeFsPromises.readdir;
      let swapped = false;
      vi.spyOn(nodeFsPromises, "readdir").mockImplementation((async (path: string, options: never) => {
        const entries = await readdirHost(path, options);
        if (!swapped) {
          swapped = true;
          await rm(join(box, "x", "sub"), { recursive: true });
          await symlink(out, join(box, "x", "sub"));
        }
        return entries;
      }) as never);
      await fs.rm("/x", { recursive: true });
      expect(await readdir(box)).toEqual(["xlink"]);
      expect(await outList()).toEqual(["f.txt", "l", "secret-only.txt"]);
    });

    it("a worker swapping /x and /xlink 20,000 times never lets a read, stat or listing reach out/", async () => {
      const fs = nodeFileSystem({ root: box });
      const stop = new Int32Array(new SharedArrayBuffer(4));
      const worker = new Worker(
        `const { renameSync } = require("node:fs");
       const { workerData } = require("node:worker_threads");
       const { box, stop } = workerData;
       for (let i = 0; i < 20000 && Atomics.load(stop, 0) === 0; i += 1) {
         renameSync(box + "/x", box + "/x.tmp");
         renameSync(box + "/xlink", box + "/x");
         renameSync(box + "/x", box + "/xlink");
         renameSync(box + "/x.tmp", box + "/x");
       }`,
        { eval: true, workerData: { box, stop } },
      );
      const done = new Promise<void>((resolve, reject) => {
        worker.once("exit", () => resolve());
        worker.once("error", reject);
      });
      let running = true;
      void done.then(() => (running = false));
      const outcomes = new Map<string, number>();
      const note = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      const code = (error: unknown) => (FsError.isInstance(error) ? error.code : `not an FsError: ${String(error)}`);
      let rounds = 0;
      while (running && rounds < 3000) {
        rounds += 1;
        await fs.readFile("/x/f.txt").then(
          (data) => note(`read ${decode(data)}`),
          (error: unknown) => note(`read ${code(error)}`),
        );
        await fs.readdir("/x").then(
          (entries) =>
            note(
              `list ${entries
                .map((entry) => entry.name)
                .sort()
                .join(",")}`,
            ),
          (error: unknown) => note(`list ${code(error)}`),
        );
        await fs.stat("/x/secret-only.txt").then(
          () => note("stat found"),
          (error: unknown) => note(`stat ${code(error)}`),
        );
      }
      Atomics.store(stop, 0, 1);
      await done;
      const allowed = new Set([
        // EINVAL: the check's own readlink met a name that stopped being a symlink (refused, nothing read).
        "read EINVAL",
        "list EINVAL",
        "stat EINVAL",
        "read inside",
        "list f.txt",
        "read EACCES",
        "read ENOENT",
        "read ENOTDIR",
        "read ELOOP",
        "list EACCES",
        "list ENOENT",
        "list ENOTDIR",
        "stat EACCES",
        "stat ENOENT",
        "stat ENOTDIR",
      ]);
      expect([...outcomes.keys()].filter((key) => !allowed.has(key))).toEqual([]);
      expect([...outcomes.values()].reduce((sum, count) => sum + count, 0)).toBe(rounds * 3);
      expect(await readFile(join(out, "f.txt"), "utf8")).toBe("SECRET");
      expect((await lstatHost(join(box, "xlink"))).isSymbolicLink()).toBe(true);
    });
  },
);

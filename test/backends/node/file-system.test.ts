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

  it("a backslash is a name byte on POSIX, never a separator (declared as capabilities.backslashNames)", async () => {
    const fs = nodeFileSystem({ cwd: box });
    expect(fs.capabilities.backslashNames).toBe(process.platform !== "win32");
    await fs.writeFile(`${box}/a\\b.txt`, encode("one name"));
    await fs.writeFile(`${box}/..\\outside.txt`, encode("inside"));
    await fs.mkdir(`${box}/d\\e`);
    expect(await readdir(box)).toEqual(["..\\outside.txt", "a.txt", "a\\b.txt", "d\\e"]);
    expect(decode(await fs.readFile(`${box}/a\\b.txt`))).toBe("one name");
    expect(await readFile(join(base, "outside.txt"), "utf8")).toBe("secret");
    expect(await failure(fs.readFile(`${box}/..\\..\\outside.txt`))).toBe(
      `ENOENT: no such file or directory, open '${box}/..\\..\\outside.txt'`,
    );
    // A `..` name still climbs: `a\..` is one name, the `..` after it leaves the box.
    expect(await failure(fs.readFile(`${box}/a\\../../../outside.txt`))).toBe(
      `EACCES: permission denied, open '${box}/a\\../../../outside.txt' (${base}/outside.txt is outside the allowed roots ${box})`,
    );
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
      // The check resolves an existing path (and the existing part of a missing one) by reading
      // an opened descriptor's real path back (readlink of /proc/self/fd/N); a new name in an
      // existing directory is looked up with lstat: the first successful lookup of either kind
      // is the check.
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
          // The check walks the missing path through descriptors and reads the deepest existing
          // directory (/x) back: the swap lands then, and making new/ inside /x refuses it.
          `EACCES: permission denied, open '/x/new/n.txt' ${swappedFor("/x", out)}`,
        ],
        ["mkdir", () => fs.mkdir("/x/d"), `EACCES: permission denied, mkdir '/x/d' ${swappedFor("/x", out)}`],
        [
          "mkdir -p",
          () => fs.mkdir("/x/d/e", { recursive: true }),
          // Two missing names: as for "writeFile new".
          `EACCES: permission denied, mkdir '/x/d/e' ${swappedFor("/x", out)}`,
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

import nodeFsModule from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { PROMISE_METHODS, forwardFileSystem } from "../../../src/contract/forward.js";
import { createResolutionCache } from "../../../src/contract/path.js";
import type { FileSystem } from "../../../src/contract/types.js";
import { createFsTools } from "../../../src/shell/defaults.js";

/** A wrapper that records each backend call as `method path` (and keeps no `noFollow`, so the gate calls it for every use too). */
function countCalls(fs: FileSystem): { fs: FileSystem; calls: string[] } {
  const calls: string[] = [];
  const methods = PROMISE_METHODS.filter((method) => typeof fs[method] === "function");
  const overrides = Object.fromEntries(
    methods.map((method) => [
      method,
      (...args: unknown[]) => {
        calls.push(`${method} ${String(args[0])}`);
        return (fs[method as keyof FileSystem] as (...values: unknown[]) => unknown).apply(fs, args);
      },
    ]),
  );
  // Without the no-follow form: called by name (check, then use), so every use is counted here.
  const counted = forwardFileSystem(fs, overrides as Pick<FileSystem, "realpath">) as FileSystem;
  return { fs: { ...counted, noFollow: undefined }, calls };
}

const deep = (count: number, name: string) => Array.from({ length: count }, () => name).join("/");

describe("nodeFileSystem: deep missing paths (one lookup per name) and the gate (one backend call)", () => {
  let base: string;
  let box: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "bft-node-deep-"));
    box = join(base, "box");
    await mkdir(join(box, "w", "sub"), { recursive: true });
    await writeFile(join(box, "w", "f.txt"), "f");
    await symlink("sub", join(box, "w", "rel"));
    await symlink("loop", join(box, "w", "loop"));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    syncBuiltinESMExports();
    await rm(base, { recursive: true, force: true });
  });

  it("realpath of a missing path rejects with how far it resolved (resolvedPrefix, in the namespace)", async () => {
    const fs = nodeFileSystem({ root: box, cwd: "/w" });
    const fields = (error: unknown) =>
      FsError.isInstance(error)
        ? { code: error.code, path: error.path, resolvedPrefix: error.resolvedPrefix, message: error.message }
        : String(error);
    expect(await fs.realpath("/w/rel/new/x.txt").catch(fields)).toEqual({
      code: "ENOENT",
      path: "/w/rel/new/x.txt",
      resolvedPrefix: { real: "/w/sub", missing: ["new", "x.txt"] },
      message: "ENOENT: no such file or directory, realpath '/w/rel/new/x.txt'",
    });
    expect(await fs.realpath("/w/f.txt/x").catch(fields)).toEqual({
      code: "ENOTDIR",
      path: "/w/f.txt/x",
      resolvedPrefix: { real: "/w/f.txt", missing: ["x"] },
      message: "ENOTDIR: not a directory, realpath '/w/f.txt/x'",
    });
    // The no-follow form takes the path as real and looks nothing up: no prefix to give.
    expect(await fs.noFollow!.realpath("/w/new/x.txt").catch(fields)).toEqual({
      code: "ENOENT",
      path: "/w/new/x.txt",
      resolvedPrefix: undefined,
      message: "ENOENT: no such file or directory, realpath '/w/new/x.txt'",
    });
  });

  it.each([10, 100, 1000])("the gate checks a missing path of %i names with one backend call", async (count) => {
    await mkdir(join(box, "w", deep(count / 2, "d")), { recursive: true });
    const { fs, calls } = countCalls(nodeFileSystem({ root: box, cwd: "/w" }));
    const gate = createGate({ fs });
    await gate.check(".", "list");
    calls.length = 0;
    const path = `${deep(count / 2, "d")}/${deep(count / 2, "m")}`;
    expect(await gate.check(path, "read")).toEqual({ ok: true, path: `/w/${path}`, outside: false });
    expect(calls).toEqual([`realpath /w/${path}`]);
    // With a resolution cache (as apply_patch checks): one call for the directory, none for the
    // name in it, and every directory of the chain known.
    calls.length = 0;
    const cache = createResolutionCache();
    expect(await gate.check(path, "write", { cache })).toEqual({
      ok: true,
      path: `/w/${path}`,
      outside: false,
      exists: false,
    });
    const parent = `/w/${deep(count / 2, "d")}/${deep(count / 2 - 1, "m")}`;
    expect(calls).toEqual([`realpath ${parent}`]);
    expect([
      cache.exists(`/w/${deep(count / 2, "d")}`),
      cache.exists(`/w/${deep(count / 2, "d")}/m`),
      cache.exists(parent),
    ]).toEqual([true, false, false]);
  });

  it("through the gate: a link in the middle of a missing path is followed, a link cycle is ELOOP", async () => {
    const { fs, calls } = countCalls(nodeFileSystem({ root: box, cwd: "/w" }));
    const gate = createGate({ fs });
    await gate.check(".", "list");
    calls.length = 0;
    expect(await gate.check("rel/n1/n2/x.txt", "write")).toEqual({
      ok: true,
      path: "/w/sub/n1/n2/x.txt",
      outside: false,
    });
    expect(await gate.check("loop/m1/m2", "read")).toEqual({
      ok: false,
      error: {
        code: "ELOOP",
        message: 'Cannot resolve "loop/m1/m2": too many symbolic links (a symlink loop?). Allowed roots: /w.',
        path: "/w/loop/m1/m2",
      },
    });
    expect(calls).toEqual(["realpath /w/rel/n1/n2/x.txt", "realpath /w/loop/m1/m2"]);
    await gate.fs.writeFile("rel/n1/n2/x.txt", encode("via the link"));
    expect(await readFile(join(box, "w", "sub", "n1", "n2", "x.txt"), "utf8")).toBe("via the link");
  });

  it("apply_patch adding a file under 10, 100 or 1,000 new directories makes the same backend calls", async () => {
    const shapes: string[][] = [];
    for (const count of [10, 100, 1000]) {
      const { fs, calls } = countCalls(nodeFileSystem({ root: box, cwd: "/w" }));
      const tools = createFsTools({ fs, state: false });
      const path = `n${count}/${deep(count - 1, "n")}/x.txt`;
      const result = await tools.apply_patch.execute({
        patch: `*** Begin Patch\n*** Add File: ${path}\n+deep\n*** End Patch`,
      });
      expect([result.ok, await readFile(join(box, "w", path), "utf8")]).toEqual([true, "deep\n"]);
      shapes.push(calls.map((call) => call.replace(`/w/n${count}/${deep(count - 1, "n")}`, "/w/<new>")));
    }
    // The new file's directory, checked once through the call's resolution cache (its chain of
    // new directories comes with it), the workspace root, and the write of the checked path.
    expect(shapes[0]).toEqual(["realpath /w/<new>", "realpath /w", "writeFile /w/<new>/x.txt"]);
    expect(shapes.slice(1)).toEqual([shapes[0], shapes[0]]);
  });
});

describe.skipIf(!LINUX_PROC)(
  "nodeFileSystem: making missing parents (Linux /proc/self/fd; skipped where it is absent)",
  () => {
    let base: string;
    let box: string;
    let out: string;
    beforeEach(async () => {
      base = await mkdtemp(join(tmpdir(), "bft-node-mkdirs-"));
      box = join(base, "box");
      out = join(base, "out");
      await mkdir(join(box, "w", "x", "y"), { recursive: true });
      await mkdir(join(out, "y"), { recursive: true });
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      syncBuiltinESMExports();
      await rm(base, { recursive: true, force: true });
    });

    it("1,000 new directories: each name opened once inside the one before, one mkdir per new name", async () => {
      const fs = nodeFileSystem({ root: box, cwd: "/w" });
      await fs.realpath("/w"); // the backend resolves its roots on its first call
      const opened: string[] = [];
      const open = nodeFsModule.open;
      vi.spyOn(nodeFsModule, "open").mockImplementation(((file: string, ...rest: never[]) => {
        opened.push(file);
        return (open as (...args: unknown[]) => void)(file, ...rest);
      }) as typeof open);
      syncBuiltinESMExports();
      const mkdirSpy = vi.spyOn(nodeFsPromises, "mkdir");
      const dir = `/w/${deep(1000, "n")}`;
      await fs.noFollow!.writeFile(`${dir}/f.txt`, encode("deep"));
      expect(await readFile(join(box, dir, "f.txt"), "utf8")).toBe("deep");
      const oneName = (name: string) => `/proc/self/fd/N/${name}`;
      expect(opened.map((file) => file.replace(/^\/proc\/self\/fd\/\d+\//, "/proc/self/fd/N/"))).toEqual([
        `${box}${dir}`,
        `${box}${dir.slice(0, -2)}`,
        "/",
        ...box
          .split("/")
          .filter((name) => name !== "")
          .map(oneName),
        oneName("w"),
        // The first new name: looked for, made, opened; below it names are made, then opened.
        ...Array.from({ length: 1001 }, () => oneName("n")),
      ]);
      expect(mkdirSpy.mock.calls.map(([path]) => String(path).replace(/^\/proc\/self\/fd\/\d+\//, ""))).toEqual(
        Array.from({ length: 1000 }, () => "n"),
      );
    });

    it("a directory on the way swapped for a symlink after the check is refused; nothing is made outside", async () => {
      const gate = createGate({ fs: nodeFileSystem({ root: box, cwd: "/w" }) });
      const checked = await gate.check("x/y/n1/n2/f.txt", "write");
      expect(checked).toEqual({ ok: true, path: "/w/x/y/n1/n2/f.txt", outside: false });
      if (!checked.ok) return;
      await renameHost(join(box, "w", "x"), join(box, "w", "x.real"));
      await symlink(out, join(box, "w", "x"));
      // out/y/n1 is missing: the walk from / meets /w/x, a link now, and refuses it.
      expect(await failure(gate.noFollow.writeFile(checked.path, encode("pwned")))).toBe(
        `EACCES: permission denied, open '/w/x/y/n1/n2/f.txt' (/w/x was swapped for ${out} between the check and the open; refused)`,
      );
      // out/y/n1 exists: the parent opens through the link, and its real path gives it away.
      await mkdir(join(out, "y", "n1"));
      expect(await failure(gate.noFollow.writeFile(checked.path, encode("pwned")))).toBe(
        `EACCES: permission denied, open '/w/x/y/n1/n2/f.txt' (/w/x/y/n1 was swapped for ${out}/y/n1 between the check and the open; refused)`,
      );
      expect(await failure(gate.noFollow.mkdir("/w/x/y/n1/n2/n3", { recursive: true }))).toBe(
        `EACCES: permission denied, mkdir '/w/x/y/n1/n2/n3' (/w/x/y/n1 was swapped for ${out}/y/n1 between the check and the open; refused)`,
      );
      expect([await readdir(join(out, "y")), await readdir(join(out, "y", "n1"))]).toEqual([["n1"], []]);
      expect(await readdir(join(box, "w", "x.real", "y"))).toEqual([]);
    });
  },
);

describe("nodeFileSystem: the umask, deleted roots, access and birth times", () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "bft-node-umask-"));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("creates a new file with 0666 less the umask (077 gives 0600); an existing file keeps its bits", async () => {
    const fs = nodeFileSystem({ cwd: base, allowedRoots: [base] });
    const previous = process.umask(0o077);
    try {
      await fs.writeFile(join(base, "new.txt"), encode("x"));
      await writeFile(join(base, "shared.txt"), "old", { mode: 0o644 });
      await nodeFsPromises.chmod(join(base, "shared.txt"), 0o644);
      await fs.writeFile(join(base, "shared.txt"), encode("new"));
    } finally {
      process.umask(previous);
    }
    expect((await stat(join(base, "new.txt"))).mode & 0o777).toBe(0o600);
    expect((await stat(join(base, "shared.txt"))).mode & 0o777).toBe(0o644);
  });

  it("never re-creates a root it has seen, once deleted, nor its parents, for a write or a mkdir", async () => {
    const root = join(base, "gone", "root");
    await mkdir(root, { recursive: true });
    const fs = nodeFileSystem({ cwd: root, allowedRoots: [root] });
    await fs.writeFile(join(root, "a.txt"), encode("a"));
    await rm(join(base, "gone"), { recursive: true });
    expect(await failure(fs.writeFile(join(root, "sub", "b.txt"), encode("b")))).toBe(
      `ENOENT: no such file or directory, open '${join(root, "sub", "b.txt")}'`,
    );
    expect(await failure(fs.mkdir(join(root, "sub"), { recursive: true }))).toBe(
      `ENOENT: no such file or directory, mkdir '${join(root, "sub")}'`,
    );
    expect(await readdir(base)).toEqual([]);
  });

  it("still makes missing directories inside a root", async () => {
    const fs = nodeFileSystem({ cwd: base, allowedRoots: [base] });
    await fs.writeFile(join(base, "x", "y", "z.txt"), encode("z"));
    expect(await readFile(join(base, "x", "y", "z.txt"), "utf8")).toBe("z");
  });

  it("stat gives atimeMs and birthtimeMs", async () => {
    const fs = nodeFileSystem({ cwd: base, allowedRoots: [base] });
    await writeFile(join(base, "t.txt"), "t");
    await nodeFsPromises.utimes(join(base, "t.txt"), new Date(1_000_000_000_000), new Date(1_100_000_000_000));
    const host = await stat(join(base, "t.txt"));
    const ours = await fs.stat(join(base, "t.txt"));
    expect([ours.atimeMs, ours.mtimeMs, ours.birthtimeMs]).toEqual([
      1_000_000_000_000,
      1_100_000_000_000,
      host.birthtimeMs,
    ]);
  });
});

describe("nodeFileSystem: two backend objects over one directory share their locks", () => {
  it("trial finding 3: two tool sets, each with its own backend and read-before-write store, never lose an edit", async () => {
    const { createFsTools } = await import("../../../src/shell/defaults.js");
    const { memoryStore } = await import("../../../src/tools/kit/state.js");
    const { resultText } = await import("../../../src/index.js");
    const dir = await mkdtemp(join(tmpdir(), "bft-node-two-"));
    try {
      await writeFile(join(dir, "c.txt"), "c0\nc1\n");
      const a = createFsTools({ fs: nodeFileSystem({ cwd: dir }), cwd: dir, state: memoryStore() });
      const b = createFsTools({ fs: nodeFileSystem({ cwd: dir }), cwd: dir, state: memoryStore() });
      await a.read.execute({ path: "c.txt" });
      await b.read.execute({ path: "c.txt" });
      const [ra, rb] = await Promise.all([
        a.edit.execute({ path: "c.txt", oldText: "c0", newText: "C0" }),
        b.edit.execute({ path: "c.txt", oldText: "c1", newText: "C1" }),
      ]);
      // Which edit takes the lock first is the scheduler's choice; exactly one lands, the other is
      // refused as stale and lands after a fresh read.
      const aWon = ra.ok;
      const [winner, loser] = aWon ? [ra, rb] : [rb, ra];
      const [loserTools, loserEdit] = aWon
        ? [b, { path: "c.txt", oldText: "c1", newText: "C1" }]
        : [a, { path: "c.txt", oldText: "c0", newText: "C0" }];
      expect([winner.ok, loser.ok]).toEqual([true, false]);
      expect(resultText(winner)).toBe(`replaced 1 occurrence in c.txt at line ${aWon ? 1 : 2}`);
      expect(resultText(loser)).toBe("c.txt has changed since it was last read. Read the file again, then retry.");
      expect(await readFile(join(dir, "c.txt"), "utf8")).toBe(aWon ? "C0\nc1\n" : "c0\nC1\n");
      // After reading again, the refused edit lands beside the other.
      await loserTools.read.execute({ path: "c.txt" });
      const again = await loserTools.edit.execute(loserEdit);
      expect(again.ok).toBe(true);
      expect(await readFile(join(dir, "c.txt"), "utf8")).toBe("C0\nC1\n");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("without a read-before-write store both edits land (each reads the file inside the shared lock)", async () => {
    const { createFsTools } = await import("../../../src/shell/defaults.js");
    const dir = await mkdtemp(join(tmpdir(), "bft-node-two-"));
    try {
      await writeFile(join(dir, "c.txt"), "c0\nc1\n");
      const a = createFsTools({ fs: nodeFileSystem({ cwd: dir }), cwd: dir, state: false });
      const b = createFsTools({ fs: nodeFileSystem({ root: dir }), cwd: "/", state: false });
      const results = await Promise.all([
        a.edit.execute({ path: "c.txt", oldText: "c0", newText: "C0" }),
        b.edit.execute({ path: "/c.txt", oldText: "c1", newText: "C1" }),
      ]);
      expect(results.map((result) => result.ok)).toEqual([true, true]);
      expect(await readFile(join(dir, "c.txt"), "utf8")).toBe("C0\nC1\n");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

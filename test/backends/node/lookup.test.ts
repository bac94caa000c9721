import nodeFs, {
  mkdirSync,
  mkdtempSync,
  promises as nodeFsPromises,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FsError } from "../../../src/contract/errors.js";
import { hasDescriptorPaths } from "../../../src/backends/node/descriptors.js";
import { lookupHostPath, type HostLookup } from "../../../src/backends/node/lookup.js";

const LINUX_PROC = hasDescriptorPaths();
/** Both walks where `/proc/self/fd` exists; the by-name one elsewhere. */
const MODES = LINUX_PROC ? [true, false] : [false];

const names = (count: number, name: string) => Array.from({ length: count }, () => name).join("/");

async function rejection(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    (value) => `resolved ${JSON.stringify(value)}`,
    (error: unknown) =>
      FsError.isInstance(error) ? `${error.code}: ${error.message}` : `not an FsError: ${String(error)}`,
  );
}

describe.each(MODES)("lookupHostPath (descriptor walk: %s)", (descriptorChecks) => {
  let base: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "bft-lookup-")));
    mkdirSync(join(base, "a", "sub", "deeper"), { recursive: true });
    mkdirSync(join(base, "b"));
    writeFileSync(join(base, "f.txt"), "f");
    symlinkSync("sub/deeper", join(base, "a", "rel"));
    symlinkSync("../b", join(base, "a", "up"));
    symlinkSync(join(base, "b"), join(base, "a", "abs"));
    symlinkSync("../nothere/x", join(base, "a", "dangling"));
    symlinkSync("loop", join(base, "a", "loop"));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const look = (path: string, follow = true, hops?: { count: number }): Promise<HostLookup> =>
    lookupHostPath(path, { follow, descriptorChecks, shown: "/shown", syscall: "open", ...(hops ? { hops } : {}) });

  it("an existing path: its real path, nothing missing", async () => {
    expect(await look(`${base}/a/rel`)).toEqual({ real: `${base}/a/sub/deeper` });
    expect(await look(`${base}/f.txt`)).toEqual({ real: `${base}/f.txt` });
  });

  it("a deep missing path: the real path, and the existing part and the names after it", async () => {
    expect(await look(`${base}/a/sub/m1/m2/m3`)).toEqual({
      real: `${base}/a/sub/m1/m2/m3`,
      stop: { existing: `${base}/a/sub`, missing: ["m1", "m2", "m3"], code: "ENOENT" },
    });
    expect(await look(`${base}/a/new.txt`)).toEqual({
      real: `${base}/a/new.txt`,
      stop: { existing: `${base}/a`, missing: ["new.txt"], code: "ENOENT" },
    });
  });

  it("links in the middle of the walk are followed: relative, relative with .., absolute, dangling", async () => {
    expect(await look(`${base}/a/rel/m1/m2`)).toEqual({
      real: `${base}/a/sub/deeper/m1/m2`,
      stop: { existing: `${base}/a/sub/deeper`, missing: ["m1", "m2"], code: "ENOENT" },
    });
    expect(await look(`${base}/a/up/m1/m2`)).toEqual({
      real: `${base}/b/m1/m2`,
      stop: { existing: `${base}/b`, missing: ["m1", "m2"], code: "ENOENT" },
    });
    expect(await look(`${base}/a/abs/m1/m2`)).toEqual({
      real: `${base}/b/m1/m2`,
      stop: { existing: `${base}/b`, missing: ["m1", "m2"], code: "ENOENT" },
    });
    expect(await look(`${base}/a/dangling/m1/m2`)).toEqual({
      real: `${base}/nothere/x/m1/m2`,
      stop: { existing: base, missing: ["nothere", "x", "m1", "m2"], code: "ENOENT" },
    });
    // The dangling link as the last name (its parent exists): followed to where it points.
    expect(await look(`${base}/a/dangling`)).toEqual({
      real: `${base}/nothere/x`,
      stop: { existing: base, missing: ["nothere", "x"], code: "ENOENT" },
    });
  });

  it("a file on the way: ENOTDIR, stopped at the file", async () => {
    expect(await look(`${base}/f.txt/m1/m2`)).toEqual({
      real: `${base}/f.txt/m1/m2`,
      stop: { existing: `${base}/f.txt`, missing: ["m1", "m2"], code: "ENOTDIR" },
    });
  });

  it("follow: false keeps the last name as it is, looked up or not", async () => {
    expect(await look(`${base}/a/rel`, false)).toEqual({ real: `${base}/a/rel` });
    expect(await look(`${base}/a/rel/m1/link`, false)).toEqual({
      real: `${base}/a/sub/deeper/m1/link`,
      stop: { existing: `${base}/a/sub/deeper`, missing: ["m1", "link"], code: "ENOENT" },
    });
  });

  it("ELOOP: a link cycle on the way, and the hop limit while the walk follows a link", async () => {
    expect(await rejection(look(`${base}/a/loop/m1/m2`))).toBe(
      "ELOOP: ELOOP: too many symbolic links encountered, open '/shown'",
    );
    // 40 links already followed: the dangling link in the walk is one too many.
    expect(await rejection(look(`${base}/a/dangling/m1`, true, { count: 40 }))).toBe(
      "ELOOP: ELOOP: too many symbolic links encountered, open '/shown'",
    );
    expect(await look(`${base}/a/dangling/m1`, true, { count: 39 })).toEqual({
      real: `${base}/nothere/x/m1`,
      stop: { existing: base, missing: ["nothere", "x", "m1"], code: "ENOENT" },
    });
  });
});

describe.skipIf(!LINUX_PROC)("lookupHostPath on Linux: each name looked up once (skipped without /proc)", () => {
  let base: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "bft-lookup-linear-")));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    syncBuiltinESMExports();
    await rm(base, { recursive: true, force: true });
  });

  it.each([10, 100, 1000])(
    "%i names, the first half existing: each name opened once inside the one before, one read-back, no lstat",
    async (count) => {
      const existing = `${base}/${names(count / 2, "d")}`;
      mkdirSync(existing, { recursive: true });
      const path = `${existing}/${names(count / 2, "m")}`;
      const opened: string[] = [];
      const open = nodeFs.open;
      vi.spyOn(nodeFs, "open").mockImplementation(((file: string, ...rest: never[]) => {
        opened.push(file);
        return (open as (...args: unknown[]) => void)(file, ...rest);
      }) as typeof open);
      syncBuiltinESMExports();
      const readlink = vi.spyOn(nodeFsPromises, "readlink");
      const lstat = vi.spyOn(nodeFsPromises, "lstat");
      const found = await lookupHostPath(path, { follow: true, descriptorChecks: true, shown: "/p", syscall: "open" });
      expect(found).toEqual({
        real: path,
        stop: { existing, missing: Array.from({ length: count / 2 }, () => "m"), code: "ENOENT" },
      });
      // The whole path and its parent in one open each (both missing), then the walk from `/`.
      const oneName = (name: string) => `/proc/self/fd/N/${name}`;
      expect(opened.map((file) => file.replace(/^\/proc\/self\/fd\/\d+\//, "/proc/self/fd/N/"))).toEqual([
        path,
        dirname(path),
        "/",
        ...base
          .split("/")
          .filter((name) => name !== "")
          .map(oneName),
        ...Array.from({ length: count / 2 }, () => oneName("d")),
        oneName("m"),
      ]);
      expect([readlink.mock.calls.length, lstat.mock.calls.length]).toEqual([1, 0]);
    },
  );
});

/**
 * The OPFS backend on the main thread, in real Chromium: the shared conformance suite (each test
 * on a wiped root), then what is OPFS-specific.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { testFileSystem } from "better-fs-tools/conformance";
import {
  isOpfsSupported,
  opfsFileSystem,
  OPFS_FALLBACK_HINT,
  type OpfsFileSystem,
} from "../../../src/backends/opfs/index.js";
import { rejection } from "../../contract/rejection.js";
import { wipe } from "./wipe.js";

const ROOT = "/test-opfs-main";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function fresh(root = ROOT): Promise<OpfsFileSystem> {
  await wipe(root);
  return opfsFileSystem({ root });
}

testFileSystem({
  name: "opfs (main thread)",
  create: () => fresh(),
  destroy: async (fs) => (fs as OpfsFileSystem).close(),
});

describe("opfs (main thread) specifics", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("isOpfsSupported() is true in Chromium", async () => {
    expect(await isOpfsSupported()).toBe(true);
  });

  it("lives under its root directory of the origin", async () => {
    const fs = await fresh("/test-opfs-rooted/ws");
    await fs.writeFile("/a/b.txt", encoder.encode("hello"));
    const origin = await navigator.storage.getDirectory();
    const ws = await (await origin.getDirectoryHandle("test-opfs-rooted")).getDirectoryHandle("ws");
    const file = await (await (await ws.getDirectoryHandle("a")).getFileHandle("b.txt")).getFile();
    expect(await file.text()).toBe("hello");
    expect(fs.root).toBe("/test-opfs-rooted/ws");
    await wipe("/test-opfs-rooted");
  });

  it("two roots are two workspaces", async () => {
    const one = await fresh("/test-opfs-one");
    const two = await fresh("/test-opfs-two");
    await one.writeFile("/same.txt", encoder.encode("one"));
    await two.writeFile("/same.txt", encoder.encode("two"));
    expect(decoder.decode(await one.readFile("/same.txt"))).toBe("one");
    expect(decoder.decode(await two.readFile("/same.txt"))).toBe("two");
    await wipe("/test-opfs-one");
    await wipe("/test-opfs-two");
  });

  it("accepts an injected directory handle as root", async () => {
    await wipe(ROOT);
    const origin = await navigator.storage.getDirectory();
    const handle = await origin.getDirectoryHandle(ROOT.slice(1), { create: true });
    const fs = opfsFileSystem({ root: handle });
    await fs.writeFile("/x.txt", encoder.encode("x"));
    expect(await (await (await handle.getFileHandle("x.txt")).getFile()).text()).toBe("x");
    expect(fs.root).toBe("<handle test-opfs-main>");
  });

  it("reaches the root lazily: creating the backend touches nothing", async () => {
    await wipe("/test-opfs-lazy");
    const spy = vi.spyOn(StorageManager.prototype, "getDirectory");
    const fs = opfsFileSystem({ root: "/test-opfs-lazy" });
    expect(spy).toHaveBeenCalledTimes(0);
    await fs.mkdir("/d");
    expect(spy).toHaveBeenCalledTimes(1);
    await fs.readdir("/");
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    await wipe("/test-opfs-lazy");
  });

  it("hides *.crswap swap files while a write is open", async () => {
    const fs = await fresh();
    await fs.writeFile("/a.txt", encoder.encode("old"));
    const origin = await navigator.storage.getDirectory();
    const dir = await origin.getDirectoryHandle(ROOT.slice(1));
    const writable = await (await dir.getFileHandle("a.txt")).createWritable();
    await writable.write(encoder.encode("new"));
    const raw: string[] = [];
    for await (const name of dir.keys()) raw.push(name);
    expect(raw.sort()).toEqual(["a.txt", "a.txt.crswap"]);
    expect((await fs.readdir("/")).map((entry) => entry.name)).toEqual(["a.txt"]);
    await writable.abort();
    expect(decoder.decode(await fs.readFile("/a.txt"))).toBe("old");
  });

  it("re-fetches a File that went stale while being read (NotReadableError)", async () => {
    const fs = await fresh();
    await fs.writeFile("/a.txt", encoder.encode("current"));
    const original = File.prototype.arrayBuffer;
    let failures = 0;
    vi.spyOn(File.prototype, "arrayBuffer").mockImplementation(function (this: File) {
      if (failures < 2) {
        failures++;
        return Promise.reject(new DOMException("The requested file could not be read", "NotReadableError"));
      }
      return original.call(this);
    });
    expect(decoder.decode(await fs.readFile("/a.txt"))).toBe("current");
    expect(failures).toBe(2);
  });

  it("a quota error becomes ENOSPC with the size asked and the quota left, old content intact", async () => {
    const fs = await fresh();
    await fs.writeFile("/a.txt", encoder.encode("old content"));
    vi.spyOn(StorageManager.prototype, "estimate").mockResolvedValue({ quota: 1000, usage: 400 });
    vi.spyOn(FileSystemWritableFileStream.prototype, "write").mockRejectedValue(
      new DOMException(
        "The operation failed because it would cause the application to exceed its storage quota.",
        "QuotaExceededError",
      ),
    );
    const error = await rejection(fs.writeFile("/a.txt", new Uint8Array(4096)));
    expect(error.code).toBe("ENOSPC");
    expect(error.message).toBe(
      "ENOSPC: no space left on device, open '/a.txt' (asked 4096 bytes, quota left 600 bytes)",
    );
    const created = await rejection(fs.writeFile("/new.txt", new Uint8Array(10)));
    expect(created.message).toBe(
      "ENOSPC: no space left on device, open '/new.txt' (asked 10 bytes, quota left 600 bytes)",
    );
    vi.restoreAllMocks();
    expect(decoder.decode(await fs.readFile("/a.txt"))).toBe("old content");
    expect((await fs.readdir("/")).map((entry) => entry.name)).toEqual(["a.txt"]);
  });

  it("a write that fails midway leaves the old content and no swap file", async () => {
    const fs = await fresh();
    await fs.writeFile("/a.txt", encoder.encode("old"));
    vi.spyOn(FileSystemWritableFileStream.prototype, "close").mockRejectedValue(
      new DOMException("disk", "InvalidStateError"),
    );
    const error = await rejection(fs.writeFile("/a.txt", encoder.encode("new")));
    expect(error.code).toBe("EIO");
    vi.restoreAllMocks();
    expect(decoder.decode(await fs.readFile("/a.txt"))).toBe("old");
    const origin = await navigator.storage.getDirectory();
    const raw: string[] = [];
    for await (const name of (await origin.getDirectoryHandle(ROOT.slice(1))).keys()) raw.push(name);
    expect(raw).toEqual(["a.txt"]);
  });

  it("renames a file without move() by copy then delete", async () => {
    const fs = await fresh();
    await fs.writeFile("/a.txt", encoder.encode("payload"));
    await fs.writeFile("/b.txt", encoder.encode("replaced"));
    const proto = FileSystemFileHandle.prototype as { move?: unknown };
    const move = Object.getOwnPropertyDescriptor(proto, "move");
    delete proto.move;
    try {
      await fs.rename("/a.txt", "/b.txt");
    } finally {
      if (move) Object.defineProperty(proto, "move", move);
    }
    expect(decoder.decode(await fs.readFile("/b.txt"))).toBe("payload");
    expect((await fs.readdir("/")).map((entry) => entry.name)).toEqual(["b.txt"]);
  });

  it("a directory rename that fails midway keeps the whole source", async () => {
    const fs = await fresh();
    await fs.writeFile("/src/one.txt", encoder.encode("1"));
    await fs.writeFile("/src/sub/two.txt", encoder.encode("2"));
    vi.spyOn(FileSystemWritableFileStream.prototype, "close").mockRejectedValue(
      new DOMException("quota", "QuotaExceededError"),
    );
    vi.spyOn(StorageManager.prototype, "estimate").mockResolvedValue({ quota: 10, usage: 10 });
    const error = await rejection(fs.rename("/src", "/dst"));
    expect(error.message).toBe(
      "ENOSPC: no space left on device, rename '/src' -> '/dst' (asked 1 bytes, quota left 0 bytes)",
    );
    vi.restoreAllMocks();
    expect(decoder.decode(await fs.readFile("/src/one.txt"))).toBe("1");
    expect(decoder.decode(await fs.readFile("/src/sub/two.txt"))).toBe("2");
    expect((await fs.readdir("/")).map((entry) => entry.name)).toEqual(["src"]);
  });

  it("refuses names OPFS cannot store with EINVAL", async () => {
    const fs = await fresh();
    const error = await rejection(fs.writeFile("/a\\b.txt", encoder.encode("x")));
    expect(error.code).toBe("EINVAL");
    expect(error.message.startsWith("EINVAL: invalid argument, open '/a\\b.txt' (TypeError: ")).toBe(true);
  });

  it("declares no symlink capability", async () => {
    const fs = await fresh();
    expect(fs.capabilities).toEqual({});
    expect(fs.symlink).toBe(undefined);
  });

  it("recreates its root when another tab removed it", async () => {
    const fs = await fresh();
    await fs.writeFile("/a.txt", encoder.encode("1"));
    await wipe(ROOT);
    expect(await fs.readdir("/")).toEqual([]);
    await fs.writeFile("/b.txt", encoder.encode("2"));
    expect(decoder.decode(await fs.readFile("/b.txt"))).toBe("2");
  });

  it("finds a directory another tab removed and recreated (stale cached handle)", async () => {
    const fs = await fresh();
    await fs.writeFile("/d/a.txt", encoder.encode("1"));
    const origin = await navigator.storage.getDirectory();
    const root = await origin.getDirectoryHandle(ROOT.slice(1));
    await root.removeEntry("d", { recursive: true });
    const again = await (await root.getDirectoryHandle("d", { create: true })).getFileHandle("b.txt", { create: true });
    const writable = await again.createWritable();
    await writable.write(encoder.encode("2"));
    await writable.close();
    expect((await fs.readdir("/d")).map((entry) => entry.name)).toEqual(["b.txt"]);
    expect(decoder.decode(await fs.readFile("/d/b.txt"))).toBe("2");
  });
});

describe("opfs where OPFS is absent", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("throws ENOTSUP at creation naming the idb fallback when the API is missing", () => {
    const proto = StorageManager.prototype as { getDirectory?: unknown };
    const descriptor = Object.getOwnPropertyDescriptor(proto, "getDirectory");
    delete proto.getDirectory;
    try {
      expect(() => opfsFileSystem({ root: "/w" })).toThrow(
        `ENOTSUP: operation not supported, opfs '/w' (${OPFS_FALLBACK_HINT})`,
      );
    } finally {
      if (descriptor) Object.defineProperty(proto, "getDirectory", descriptor);
    }
  });

  it("isOpfsSupported() is false and calls reject with ENOTSUP where the origin is refused", async () => {
    vi.spyOn(StorageManager.prototype, "getDirectory").mockRejectedValue(
      new DOMException("opaque origin", "SecurityError"),
    );
    expect(await isOpfsSupported()).toBe(false);
    const error = await rejection(opfsFileSystem({ root: "/w" }).readFile("/a.txt"));
    expect(error.message).toBe(
      "ENOTSUP: operation not supported, opfs '/w' (the Origin Private File System (navigator.storage.getDirectory) is not available in this context; use idbFileSystem from \"better-fs-tools/idb\" instead)",
    );
  });

  it("rejects unknown options and bad values with TypeError naming the option", () => {
    expect(() => opfsFileSystem({ rooot: "/w" } as never)).toThrow(
      new TypeError(
        'opfsFileSystem got an unknown option "rooot". Known options: root, worker, busyTimeoutMs, syncHandleIdleMs, maxSyncHandles',
      ),
    );
    expect(() => opfsFileSystem({ busyTimeoutMs: -1 })).toThrow(
      new TypeError('opfsFileSystem: option "busyTimeoutMs" must be a non-negative finite number, got -1'),
    );
    expect(() => opfsFileSystem({ root: "/a/../b" })).toThrow(
      new TypeError('opfsFileSystem: option "root" must not contain "..", got "/a/../b"'),
    );
  });
});

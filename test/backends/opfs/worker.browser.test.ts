/**
 * The OPFS backend through its dedicated Worker (sync access handles), in real Chromium: the
 * shared conformance suite on a wiped root, then what is Worker-specific.
 */
import { describe, expect, it } from "vitest";
import { testFileSystem } from "better-fs-tools/conformance";
import { FsError } from "../../../src/contract/errors.js";
import { opfsFileSystem, type OpfsFileSystem } from "../../../src/backends/opfs/index.js";
import { rejection } from "../../contract/rejection.js";
import { OPFS_TEMP_DIR } from "../../../src/backends/opfs/core.js";
import { wipe } from "./wipe.js";

const ROOT = "test-opfs-worker";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function fresh(options: { syncHandleIdleMs?: number } = {}): Promise<OpfsFileSystem> {
  await wipe(ROOT);
  return opfsFileSystem({ root: `/${ROOT}`, worker: true, ...options });
}

testFileSystem({
  name: "opfs (worker)",
  create: () => fresh(),
  destroy: async (fs) => (fs as OpfsFileSystem).close(),
});

describe("opfs (worker) specifics", () => {
  it("declares syncAccess and no symlinks", async () => {
    const fs = await fresh();
    expect(fs.capabilities).toEqual({ syncAccess: true });
    expect(fs.symlink).toBe(undefined);
    await fs.close();
  });

  it("files written in the Worker are seen by the main-thread backend once their handles close", async () => {
    const fs = await fresh({ syncHandleIdleMs: 0 });
    await fs.writeFile("/a/b.txt", encoder.encode("from the worker"));
    await fs.close();
    const main = opfsFileSystem({ root: `/${ROOT}` });
    expect(decoder.decode(await main.readFile("/a/b.txt"))).toBe("from the worker");
  });

  it("writes through a temporary file: nothing left in the temporary folder, leftovers removed at the first write", async () => {
    await wipe(ROOT);
    const raw = await (await navigator.storage.getDirectory()).getDirectoryHandle(ROOT, { create: true });
    const folder = await raw.getDirectoryHandle(OPFS_TEMP_DIR, { create: true });
    // What a Worker ended mid-write leaves: a temporary file never moved onto its name.
    const leftover = await (await folder.getFileHandle("cut-short", { create: true })).createWritable();
    await leftover.write("half");
    await leftover.close();
    const fs = opfsFileSystem({ root: `/${ROOT}`, worker: true });
    await fs.writeFile("/a.txt", encoder.encode("one"));
    await fs.writeFile("/a.txt", encoder.encode("two, longer"));
    expect(decoder.decode(await fs.readFile("/a.txt"))).toBe("two, longer");
    const names: string[] = [];
    for await (const name of folder.keys()) names.push(name);
    expect(names).toEqual([]);
    expect(await fs.readdir("/")).toEqual([{ name: "a.txt", type: "file" }]);
    await fs.close();
  });

  it("refuses every path through the temporary folder and hides it, also from a main-thread backend on the root", async () => {
    const fs = await fresh();
    await fs.writeFile("/a.txt", encoder.encode("x"));
    const inside = `/${OPFS_TEMP_DIR}/t`;
    const codes = [
      (await rejection(fs.readFile(inside))).code,
      (await rejection(fs.writeFile(inside, encoder.encode("y")))).code,
      (await rejection(fs.stat(`/${OPFS_TEMP_DIR}`))).code,
      (await rejection(fs.readdir(`/d/../${OPFS_TEMP_DIR}`))).code,
      (await rejection(fs.mkdir(inside))).code,
      (await rejection(fs.rm(`/${OPFS_TEMP_DIR}`, { recursive: true }))).code,
      (await rejection(fs.rename("/a.txt", inside))).code,
      (await rejection(fs.realpath(`/${OPFS_TEMP_DIR}`))).code,
    ];
    expect(codes).toEqual(["EACCES", "EACCES", "EACCES", "EACCES", "EACCES", "EACCES", "EACCES", "EACCES"]);
    await fs.rm("/a.txt");
    // The temporary folder does not count: the root is empty.
    expect((await rejection(fs.rm("/"))).code).toBe("EPERM");
    await fs.close();
    const main = opfsFileSystem({ root: `/${ROOT}` });
    expect(await main.readdir("/")).toEqual([]);
    expect((await rejection(main.readFile(inside))).code).toBe("EACCES");
    await main.close();
  });

  it("keeps the old content when a write shrinks or grows the file", async () => {
    const fs = await fresh();
    await fs.writeFile("/a.txt", encoder.encode("a longer first version"));
    await fs.writeFile("/a.txt", encoder.encode("short"));
    expect(decoder.decode(await fs.readFile("/a.txt"))).toBe("short");
    expect((await fs.stat("/a.txt")).size).toBe(5);
    await fs.writeFile("/a.txt", encoder.encode("grown again, longer"));
    expect(decoder.decode(await fs.readFile("/a.txt"))).toBe("grown again, longer");
    await fs.close();
  });

  it("removes and renames files whose sync handles are open", async () => {
    const fs = await fresh();
    await fs.writeFile("/d/a.txt", encoder.encode("1"));
    await fs.writeFile("/d/b.txt", encoder.encode("2"));
    expect(decoder.decode(await fs.readFile("/d/a.txt"))).toBe("1");
    await fs.rename("/d/a.txt", "/d/c.txt");
    await fs.rm("/d/b.txt");
    await fs.rename("/d", "/e");
    expect((await fs.readdir("/e")).map((entry) => entry.name)).toEqual(["c.txt"]);
    expect(decoder.decode(await fs.readFile("/e/c.txt"))).toBe("1");
    await fs.close();
  });

  it("serves several file systems from one Worker the caller passes", async () => {
    await wipe("test-opfs-worker-one");
    await wipe("test-opfs-worker-two");
    const worker = new Worker(new URL("../../../src/backends/opfs/opfs-worker.ts", import.meta.url), {
      type: "module",
    });
    const one = opfsFileSystem({ root: "/test-opfs-worker-one", worker });
    const two = opfsFileSystem({ root: "/test-opfs-worker-two", worker });
    await one.writeFile("/same.txt", encoder.encode("one"));
    await two.writeFile("/same.txt", encoder.encode("two"));
    expect(decoder.decode(await one.readFile("/same.txt"))).toBe("one");
    expect(decoder.decode(await two.readFile("/same.txt"))).toBe("two");
    await one.close();
    await two.close();
    worker.terminate();
  });

  it("a quota error in the Worker becomes ENOSPC with the figures, the old content intact", async () => {
    await wipe("test-opfs-worker-quota");
    const worker = new Worker(new URL("./worker-quota-fixture.ts", import.meta.url), { type: "module" });
    const fs = opfsFileSystem({ root: "/test-opfs-worker-quota", worker });
    await fs.writeFile("/a.txt", encoder.encode("old content"));
    const grown = await rejection(fs.writeFile("/a.txt", new Uint8Array(4096)));
    expect(grown.message).toBe(
      "ENOSPC: no space left on device, open '/a.txt' (asked 4096 bytes, quota left 4000 bytes)",
    );
    const created = await rejection(fs.writeFile("/new.txt", new Uint8Array(2000)));
    expect(created.message).toBe(
      "ENOSPC: no space left on device, open '/new.txt' (asked 2000 bytes, quota left 4000 bytes)",
    );
    expect(decoder.decode(await fs.readFile("/a.txt"))).toBe("old content");
    expect((await fs.readdir("/")).map((entry) => entry.name)).toEqual(["a.txt"]);
    await fs.close();
    worker.terminate();
  });

  it("errors cross the channel with their exact code and message", async () => {
    const fs = await fresh();
    const error = await rejection(fs.readFile("/missing.txt"));
    expect(FsError.isInstance(error)).toBe(true);
    expect(error.code).toBe("ENOENT");
    expect(error.syscall).toBe("open");
    expect(error.path).toBe("/missing.txt");
    expect(error.message).toBe("ENOENT: no such file or directory, open '/missing.txt'");
    await fs.close();
  });

  it("sends a writeFile's bytes alone, in a buffer of their own, and leaves the caller's buffer usable", async () => {
    // A Worker stand-in that records each request and answers it.
    const requests: Array<{ readonly id: number; readonly method: string; readonly args: readonly unknown[] }> = [];
    const worker = {
      postMessage(message: { readonly port: MessagePort }) {
        message.port.onmessage = (event: MessageEvent<(typeof requests)[number]>) => {
          requests.push(event.data);
          message.port.postMessage({ id: event.data.id, value: undefined });
        };
      },
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    } as unknown as Worker;
    const fs = opfsFileSystem({ root: "/test-opfs-worker-wire", worker });
    // A 3-byte view of a 1 MiB buffer (as a tree imported from one pack): the buffer must not cross.
    const pack = new Uint8Array(1 << 20).fill(7);
    pack.set([1, 2, 3], 1000);
    await fs.writeFile("/a.txt", pack.subarray(1000, 1003));
    const sent = requests[0]?.args[1] as Uint8Array;
    expect({ method: requests[0]?.method, bytes: [...sent], buffer: sent.buffer.byteLength }).toEqual({
      method: "writeFile",
      bytes: [1, 2, 3],
      buffer: 3,
    });
    expect({ length: pack.byteLength, at1000: pack[1000] }).toEqual({ length: 1 << 20, at1000: 1 });
    await fs.close();
  });

  it("calls after close() reject with EIO", async () => {
    const fs = await fresh();
    await fs.close();
    const error = await rejection(fs.readFile("/a.txt"));
    expect(error.message).toBe("EIO: i/o error, opfs '/test-opfs-worker' (the file system was closed)");
  });

  it("a Worker that fails to load rejects calls with EIO", async () => {
    const worker = new Worker(URL.createObjectURL(new Blob(["throw new Error('boom')"], { type: "text/javascript" })));
    const fs = opfsFileSystem({ root: "/test-opfs-broken", worker });
    const error = await rejection(fs.readFile("/a.txt"));
    expect(error.code).toBe("EIO");
    expect(error.message.startsWith("EIO: i/o error, opfs '/test-opfs-broken' (the OPFS worker failed: ")).toBe(true);
    worker.terminate();
  });

  it("a Worker terminated with calls in flight: they reject with EIO, none waits forever, and later calls too", async () => {
    await wipe(ROOT);
    const worker = new Worker(new URL("../../../src/backends/opfs/opfs-worker.ts", import.meta.url), {
      type: "module",
    });
    const fs = opfsFileSystem({ root: `/${ROOT}`, worker });
    await fs.writeFile("/a.txt", encoder.encode("one"));
    worker.terminate();
    // Asked at once, before the page can know: before the fix (no `error` event on terminate)
    // these waited forever.
    const inFlight = [fs.writeFile("/a.txt", encoder.encode("two")), fs.readFile("/a.txt")].map((call) =>
      rejection(call),
    );
    const errors = await Promise.all(inFlight);
    const later = await rejection(fs.stat("/a.txt"));
    expect([...errors, later].map((error) => error.message)).toEqual(
      Array(3).fill("EIO: i/o error, opfs '/test-opfs-worker' (the OPFS worker ended (terminated or crashed))"),
    );
    await fs.close();
  });
});

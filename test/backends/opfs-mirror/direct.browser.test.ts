/**
 * The mirror's direct first reads (src/backends/opfs-mirror/direct.ts): a cold start answers a
 * file read from OPFS on the main thread, before its Worker has answered anything. A Worker that
 * never answers proves where an answer came from: what direct reads cannot say waits for the
 * load (here: forever, until close() rejects it with EIO).
 */
import { describe, expect, it } from "vitest";
import { FsError } from "../../../src/contract/errors.js";
import { openDirectReads } from "../../../src/backends/opfs-mirror/direct.js";
import { opfsMirrorFileSystem, type OpfsMirrorFileSystem } from "../../../src/backends/opfs-mirror/index.js";
import { segmentName } from "../../../src/backends/opfs-mirror/protocol.js";
import { wipe } from "../opfs/wipe.js";

const ROOT = "test-opfs-mirror-direct";
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const text = (value: string) => encoder.encode(value);

/** A Worker that takes the connect message and never answers (the load waits), until `fail()` fires its error event. */
function stalledWorker(): { readonly worker: Worker; fail(): void } {
  let onError: ((event: Event) => void) | undefined;
  const ignore = () => undefined;
  const worker = {
    postMessage: ignore,
    addEventListener(type: string, listener: (event: Event) => void) {
      if (type === "error") onError = listener;
    },
    removeEventListener: ignore,
    terminate: ignore,
  } as unknown as Worker;
  return { worker, fail: () => onError?.(new ErrorEvent("error", { message: "stopped by the test" })) };
}

/** A value, or the code of the FsError it rejected with. */
function settle<T>(call: Promise<T>): Promise<T | string> {
  return call.then(
    (value) => value,
    (error: unknown) => (FsError.isInstance(error) ? error.code : `not an FsError: ${String(error)}`),
  );
}

/** A compacted segment (with its index) and a journal after it: a rewrite, a removal, a rename. */
async function prepare(): Promise<void> {
  await wipe(ROOT);
  // Over 1 MiB of journal: close() compacts it into an indexed segment.
  const first = opfsMirrorFileSystem({ root: `/${ROOT}` });
  await first.writeFile("/src/a.txt", text("alpha"));
  await first.writeFile("/src/b.txt", text("beta"));
  await first.writeFile("/old/c.txt", text("gamma"));
  await first.writeFile("/moved/d.txt", text("delta"));
  await first.writeFile(
    "/big.bin",
    new Uint8Array(3 << 20).map((_, index) => index & 0xff),
  );
  await Promise.all(
    Array.from({ length: 2000 }, (_, index) => first.writeFile(`/many/${index}.txt`, text(`file ${index}`))),
  );
  await first.close();
  const second = opfsMirrorFileSystem({ root: `/${ROOT}` });
  await second.writeFile("/src/b.txt", text("beta 2"));
  await second.rm("/old", { recursive: true });
  await second.rename("/moved", "/elsewhere");
  await second.close();
}

const readText = (fs: OpfsMirrorFileSystem, path: string) =>
  settle(fs.readFile(path).then((bytes) => decoder.decode(bytes)));

/** A new instance on the root whose Worker never answers: its first read of `path`, answered without the load. */
async function directAnswer(path: string): Promise<string> {
  const stalled = stalledWorker();
  const fs = opfsMirrorFileSystem({ root: `/${ROOT}`, worker: stalled.worker });
  const answer = await readText(fs, path);
  stalled.fail();
  await fs.close();
  return answer;
}

/**
 * A new instance on the root whose Worker never answers: whether its first read of `path` was
 * still waiting for the load after two reads the direct path answers, then its outcome once the
 * Worker fails (a read that waited for the load: `EIO`).
 */
async function waitsForLoad(path: string): Promise<{ waited: boolean; outcome: string }> {
  const stalled = stalledWorker();
  const fs = opfsMirrorFileSystem({ root: `/${ROOT}`, worker: stalled.worker });
  let settled = false;
  const read = readText(fs, path).finally(() => (settled = true));
  expect(await readText(fs, "/many/0.txt")).toBe("file 0");
  expect(await readText(fs, "/many/1.txt")).toBe("file 1");
  const waited = !settled;
  stalled.fail();
  const outcome = await read;
  await fs.close();
  return { waited, outcome };
}

describe("opfs-mirror direct first reads (no Worker answer needed)", () => {
  it("a file as the segment has it, one far into the index, one the journal rewrote, a 3 MiB file", async () => {
    await prepare();
    expect(await directAnswer("/src/a.txt")).toBe("alpha");
    expect(await directAnswer("/many/1999.txt")).toBe("file 1999");
    expect(await directAnswer("/src/b.txt")).toBe("beta 2");
    const stalled = stalledWorker();
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}`, worker: stalled.worker });
    const big = await fs.readFile("/big.bin");
    const viewed = await fs.readFileView("/src/a.txt", (bytes) => decoder.decode(bytes));
    stalled.fail();
    await fs.close();
    expect(viewed).toBe("alpha");
    expect(big.byteLength).toBe(3 << 20);
    expect(big.every((byte, index) => byte === (index & 0xff))).toBe(true);
  });

  it("paths only the load can answer wait for it (removed, renamed away, missing, a directory, odd spellings)", async () => {
    await prepare();
    // The stalled Worker never loads: each read waits, and fails with it (EIO), never answered early.
    const paths = [
      "/old/c.txt",
      "/moved/d.txt",
      "/elsewhere/d.txt",
      "/nope.txt",
      "/src",
      "/src/../src/a.txt",
      "/src//a.txt",
      "src/a.txt",
    ];
    for (const path of paths)
      expect([path, await waitsForLoad(path)]).toEqual([path, { waited: true, outcome: "EIO" }]);
  });

  it("with the real Worker, every answer equals the loaded tree's", async () => {
    await prepare();
    const paths = ["/src/a.txt", "/src/b.txt", "/old/c.txt", "/moved/d.txt", "/elsewhere/d.txt", "/many/7.txt", "/src"];
    const cold = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const early = await Promise.all(paths.map((path) => readText(cold, path)));
    await cold.ready();
    const loaded = await Promise.all(paths.map((path) => readText(cold, path)));
    await cold.close();
    expect(early).toEqual(["alpha", "beta 2", "ENOENT", "ENOENT", "delta", "file 7", "EISDIR"]);
    expect(loaded).toEqual(early);
  });

  it("a change asked before the read: the read waits for the load and sees it", async () => {
    await prepare();
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const writing = fs.writeFile("/src/a.txt", text("alpha 2"));
    const read = await fs.readFile("/src/a.txt");
    await writing;
    await fs.close();
    expect(decoder.decode(read)).toBe("alpha 2");
  });

  it("a second instance on the root (not the lock holder) reads through the writer, not from disk", async () => {
    await prepare();
    const writer = opfsMirrorFileSystem({ root: `/${ROOT}` });
    await writer.writeFile("/src/a.txt", text("alpha 3"));
    const reader = opfsMirrorFileSystem({ root: `/${ROOT}`, worker: stalledWorker().worker });
    const read = await reader.readFile("/src/a.txt");
    expect([decoder.decode(read), reader.role]).toEqual(["alpha 3", "reader"]);
    await reader.close();
    await writer.close();
  });

  it("attack: a record whose bytes were changed on disk is never answered (checksums), the load decides", async () => {
    await prepare();
    const directory = await (await navigator.storage.getDirectory()).getDirectoryHandle(ROOT);
    let generation = -1;
    for await (const name of directory.keys()) {
      const match = /^segment-(\d+)\.seg$/.exec(name);
      if (match !== null) generation = Math.max(generation, Number(match[1]));
    }
    const handle = await directory.getFileHandle(segmentName(generation));
    const bytes = new Uint8Array(await (await handle.getFile()).arrayBuffer());
    const at = findText(bytes, "file 1234");
    expect(at).toBeGreaterThan(0);
    bytes[at] = "F".charCodeAt(0);
    const writable = await handle.createWritable();
    await writable.write(bytes);
    await writable.close();
    const direct = await openDirectReads(directory);
    expect(await direct?.readFile("/many/1234.txt")).toBeUndefined();
    expect(decoder.decode(await direct?.readFile("/many/1235.txt"))).toBe("file 1235");
    expect(await waitsForLoad("/many/1234.txt")).toEqual({ waited: true, outcome: "EIO" });
  });

  it("attack: an unsealed newer segment (a compaction cut short) is not read; the load decides", async () => {
    await prepare();
    const directory = await (await navigator.storage.getDirectory()).getDirectoryHandle(ROOT);
    let generation = -1;
    for await (const name of directory.keys()) {
      const match = /^segment-(\d+)\.seg$/.exec(name);
      if (match !== null) generation = Math.max(generation, Number(match[1]));
    }
    const sealed = new Uint8Array(
      await (await (await directory.getFileHandle(segmentName(generation))).getFile()).arrayBuffer(),
    );
    const torn = await (await directory.getFileHandle(segmentName(generation + 1), { create: true })).createWritable();
    await torn.write(sealed.subarray(0, sealed.byteLength - 1));
    await torn.close();
    expect(await openDirectReads(directory)).toBeUndefined();
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}` });
    expect(decoder.decode(await fs.readFile("/src/a.txt"))).toBe("alpha");
    await fs.close();
  });
});

/** Where `value`'s UTF-8 first occurs in `bytes`, or -1. */
function findText(bytes: Uint8Array, value: string): number {
  const needle = text(value);
  outer: for (let at = 0; at + needle.byteLength <= bytes.byteLength; at++) {
    for (let index = 0; index < needle.byteLength; index++) if (bytes[at + index] !== needle[index]) continue outer;
    return at;
  }
  return -1;
}

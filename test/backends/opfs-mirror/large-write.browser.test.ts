/**
 * Large writes in the mirror (at least FLUSHED_DATA_BYTES): a WRITE_FLUSHED record whose data
 * goes to the Worker in parts and is flushed before its head. The file comes back whole after a
 * reopen and in a reader tab; a head that never reached the disk drops the record as a torn
 * tail; a large write the disk refuses is taken back, memory and disk keeping the old file.
 */
import { describe, expect, it } from "vitest";
import { opfsMirrorFileSystem, type OpfsMirrorFileSystem } from "../../../src/backends/opfs-mirror/index.js";
import { FLUSHED_DATA_BYTES, encodeWriteHead } from "../../../src/backends/opfs-mirror/journal.js";
import { STAGE_CHUNK_BYTES } from "../../../src/backends/opfs-mirror/protocol.js";
import { rejection } from "../../contract/rejection.js";
import { wipe } from "../opfs/wipe.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `length` bytes of a pattern that differs from part to part (`seed` changes every byte). */
function pattern(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let index = 0; index < length; index++) bytes[index] = (index * 7 + (index >>> 12) + seed) & 0xff;
  return bytes;
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let index = 0; index < a.byteLength; index++) if (a[index] !== b[index]) return false;
  return true;
}

async function appendToFile(name: string, file: string, bytes: Uint8Array): Promise<void> {
  const directory = await (await navigator.storage.getDirectory()).getDirectoryHandle(name);
  const handle = await directory.getFileHandle(file);
  const size = (await handle.getFile()).size;
  const writable = await handle.createWritable({ keepExistingData: true });
  await writable.write({ type: "write", position: size, data: bytes as Uint8Array<ArrayBuffer> });
  await writable.close();
}

/** Resolves with the first `write` event for `path` that `fs` reports. */
function written(fs: OpfsMirrorFileSystem, path: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = fs.watch(path, (event) => {
      if (event.type === "write" && event.path === path) {
        stop();
        resolve();
      }
    });
  });
}

describe("opfs-mirror: large writes", () => {
  it("a write of several parts comes back whole after a reopen, over an earlier small version, and in a reader", async () => {
    const root = "/test-opfs-mirror-large";
    await wipe(root);
    // More than two parts, the last one short; compaction on close kept out of the way.
    const size = 2 * STAGE_CHUNK_BYTES + 12_345;
    expect(size).toBeGreaterThan(FLUSHED_DATA_BYTES);
    const big = pattern(size, 3);
    const fs = opfsMirrorFileSystem({ root, compactMinBytes: 1024 * 1024 * 1024 });
    await fs.writeFile("/dir/big.bin", encoder.encode("small first"));
    const reader = opfsMirrorFileSystem({ root });
    await reader.ready();
    expect(reader.role).toBe("reader");
    const heard = written(reader, "/dir/big.bin");
    const call = fs.writeFile("/dir/big.bin", big);
    const first = big[0]!;
    big[0] = first ^ 0xff; // the caller's array is its own once the call is made
    await call;
    big[0] = first;
    expect(same(await fs.readFile("/dir/big.bin"), big)).toBe(true);
    await heard;
    expect(same(await reader.readFile("/dir/big.bin"), big)).toBe(true);
    await fs.writeFile("/dir/after.txt", encoder.encode("after"));
    await reader.close();
    await fs.close();
    const again = opfsMirrorFileSystem({ root });
    expect(same(await again.readFile("/dir/big.bin"), big)).toBe(true);
    expect(decoder.decode(await again.readFile("/dir/after.txt"))).toBe("after");
    expect((await again.stat("/dir/big.bin")).size).toBe(size);
    await again.close();
  });

  it("a record whose head never reached the disk is a torn tail: dropped, and appends go on after the last whole record", async () => {
    const root = "test-opfs-mirror-large-torn";
    await wipe(root);
    const fs = opfsMirrorFileSystem({ root: `/${root}` });
    await fs.writeFile("/kept.txt", encoder.encode("kept"));
    await fs.close();
    // What a crash between the data's flush and the head's leaves: zeros where the head goes, then the data.
    const data = pattern(FLUSHED_DATA_BYTES + 1, 5);
    const head = encodeWriteHead("/torn.bin", 1, data.byteLength);
    await appendToFile(root, "journal-0.log", new Uint8Array(head.byteLength));
    await appendToFile(root, "journal-0.log", data);
    const again = opfsMirrorFileSystem({ root: `/${root}` });
    expect((await again.readdir("/")).map((entry) => entry.name)).toEqual(["kept.txt"]);
    await again.writeFile("/next.txt", encoder.encode("next"));
    await again.close();
    const third = opfsMirrorFileSystem({ root: `/${root}` });
    expect((await third.readdir("/")).map((entry) => entry.name)).toEqual(["kept.txt", "next.txt"]);
    expect(decoder.decode(await third.readFile("/next.txt"))).toBe("next");
    await third.close();
  });

  it("a large write over quota rejects with ENOSPC; the old file stays in memory and on disk", async () => {
    const root = "/test-opfs-mirror-large-quota";
    await wipe(root);
    const worker = new Worker(new URL("./quota-fixture.ts", import.meta.url), { type: "module" });
    const fs = opfsMirrorFileSystem({ root, worker });
    await fs.writeFile("/a.txt", encoder.encode("old content"));
    const refused = await rejection(fs.writeFile("/a.txt", pattern(FLUSHED_DATA_BYTES, 1)));
    expect(refused.message).toBe(
      `ENOSPC: no space left on device, open '/a.txt' (the journal could not grow by ${FLUSHED_DATA_BYTES + 8 + 1 + 4 + 6 + 8 + 4} bytes)`,
    );
    const created = await rejection(fs.writeFile("/new.bin", pattern(FLUSHED_DATA_BYTES + 7, 2)));
    expect(created.code).toBe("ENOSPC");
    expect(decoder.decode(await fs.readFile("/a.txt"))).toBe("old content");
    expect((await fs.readdir("/")).map((entry) => entry.name)).toEqual(["a.txt"]);
    await fs.writeFile("/small.txt", encoder.encode("fits"));
    await fs.close();
    worker.terminate();
    const again = opfsMirrorFileSystem({ root });
    expect((await again.readdir("/")).map((entry) => entry.name)).toEqual(["a.txt", "small.txt"]);
    expect(decoder.decode(await again.readFile("/a.txt"))).toBe("old content");
    await again.close();
  });
});

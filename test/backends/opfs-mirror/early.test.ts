/**
 * Reads a cold start answers before its load ends: from the segment's index, the chunk holding a
 * file once it has come (or one record read alone when it is far ahead), or from the journal's
 * own write of the file; everything else waits (undefined), so no answer differs from the loaded
 * tree's.
 */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { EARLY_WAIT_BYTES, createEarlyReads } from "../../../src/backends/opfs-mirror/early.js";
import {
  INDEX_AT_BYTES,
  OP_INDEX,
  OP_INDEX_AT,
  OP_MKDIR,
  OP_RENAME,
  OP_RM,
  OP_WRITE,
  decodeRecords,
  encodeRecord,
  type JournalOp,
} from "../../../src/backends/opfs-mirror/journal.js";
import { encodeSegment } from "../../../src/backends/opfs-mirror/snapshot.js";

const encoder = new TextEncoder();
const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));

/** A segment of a small tree, its INDEX record, and a reader of its records that counts reads. */
function segmentOf(files: Record<string, string>) {
  const fs = memoryFileSystem({ files });
  for (const path of Object.keys(files)) fs.volume.utimesSync(path, 1, 7);
  const { bytes } = encodeSegment(fs.volume);
  const indexAt = decodeRecords(bytes.subarray(bytes.byteLength - INDEX_AT_BYTES)).records[0];
  const offset = indexAt?.op === OP_INDEX_AT ? indexAt.offset : 0;
  const reads: number[] = [];
  const readRecord = async (at: number, length: number) => {
    reads.push(at);
    return bytes.slice(at, at + length);
  };
  return {
    index: bytes.slice(offset, bytes.byteLength - INDEX_AT_BYTES),
    /** The segment's records (what the Worker sends in chunks). */
    records: bytes.slice(0, offset),
    readRecord,
    reads,
  };
}

const write = (path: string, content: string, mtimeMs = 9_000): JournalOp => ({
  op: OP_WRITE,
  path,
  mtimeMs,
  data: encoder.encode(content),
});

describe("opfs-mirror early reads", () => {
  it("answers an untouched file from the index and its chunk, and a file the journal rewrote from its record", async () => {
    const segment = segmentOf({ "/a/one.txt": "one", "/a/two.txt": "two", "/b.txt": "bee" });
    const early = createEarlyReads(segment.index, segment.readRecord)!;
    early.journalRead([write("/a/two.txt", "two, rewritten")]);
    early.chunkArrived(0, segment.records);
    expect({
      one: text(await early.readFile("/a/one.txt")),
      two: text(await early.readFile("/a/two.txt")),
      stat: await early.stat("/b.txt"),
      rewrittenStat: await early.stat("/a/two.txt"),
      reads: segment.reads.length,
    }).toEqual({
      one: "one",
      two: "two, rewritten",
      stat: { type: "file", size: 3, mtimeMs: 7_000, mode: 0o666 },
      rewrittenStat: { type: "file", size: 14, mtimeMs: 9_000, mode: 0o666 },
      reads: 0,
    });
  });

  it("leaves to the load whatever the journal changed above a file, directories, missing and odd paths", async () => {
    const segment = segmentOf({ "/a/one.txt": "one", "/b/two.txt": "two", "/c/three.txt": "3", "/d/four.txt": "4" });
    const early = createEarlyReads(segment.index, segment.readRecord)!;
    early.chunkArrived(0, segment.records);
    early.journalRead([
      { op: OP_RENAME, path: "/a", dest: "/moved" },
      { op: OP_RM, path: "/b" },
      write("/b/two.txt", "written after the rm"),
      write("/c/three.txt", "3 again"),
      { op: OP_MKDIR, path: "/c" },
    ]);
    const answers = await Promise.all(
      [
        "/a/one.txt",
        "/moved/one.txt",
        "/b/two.txt",
        "/c/three.txt",
        "/d/four.txt",
        "/d",
        "/nope.txt",
        "/d//four.txt",
        "/d/../d/four.txt",
        "d/four.txt",
      ].map(async (path) => [path, text(await early.readFile(path))]),
    );
    expect(answers).toEqual([
      ["/a/one.txt", undefined],
      ["/moved/one.txt", undefined],
      ["/b/two.txt", "written after the rm"],
      // an mkdir of /c after the write: left to the load, however harmless
      ["/c/three.txt", undefined],
      ["/d/four.txt", "4"],
      ["/d", undefined],
      ["/nope.txt", undefined],
      ["/d//four.txt", undefined],
      ["/d/../d/four.txt", undefined],
      ["d/four.txt", undefined],
    ]);
  });

  it("reads the journal's paths as the replay resolves them (`..`, `.`, `//`, a trailing /)", async () => {
    const segment = segmentOf({ "/g": "old g", "/k/l": "l", "/m/n": "n", "/p/q": "q", "/t/u": "u" });
    const early = createEarlyReads(segment.index, segment.readRecord)!;
    early.chunkArrived(0, segment.records);
    early.journalRead([
      write("/x/../g", "new g"),
      { op: OP_RM, path: "/k/" },
      { op: OP_RENAME, path: "/m/", dest: "/z" },
      { op: OP_RM, path: "/p//q" },
      { op: OP_RENAME, path: "/t//u", dest: "/./v" },
    ]);
    const answers = await Promise.all(
      ["/g", "/k/l", "/m/n", "/p/q", "/t/u", "/v"].map(async (path) => [path, text(await early.readFile(path))]),
    );
    expect(answers).toEqual([
      ["/g", "new g"],
      ["/k/l", undefined],
      ["/m/n", undefined],
      ["/p/q", undefined],
      ["/t/u", undefined],
      ["/v", undefined],
    ]);
  });

  it("waits for the journal before it answers", async () => {
    const segment = segmentOf({ "/a.txt": "segment" });
    const early = createEarlyReads(segment.index, segment.readRecord)!;
    const answer = early.readFile("/a.txt");
    let settled = false;
    void answer.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    early.journalRead([write("/a.txt", "journal")]);
    expect(text(await answer)).toBe("journal");
  });

  it("an index that points at another record, or a record that does not decode, answers nothing", async () => {
    // A file far ahead of the chunks (past EARLY_WAIT_BYTES) is read alone, as a record.
    const segment = segmentOf({ "/a.txt": "x".repeat(EARLY_WAIT_BYTES + 10), "/b.txt": "b" });
    const swapped = createEarlyReads(segment.index, async () => encodeRecord(write("/c.txt", "c")))!;
    swapped.journalRead([]);
    const torn = createEarlyReads(segment.index, async () => new Uint8Array([1, 2, 3]))!;
    torn.journalRead([]);
    expect([await swapped.readFile("/b.txt"), await torn.readFile("/b.txt")]).toEqual([undefined, undefined]);
    expect(createEarlyReads(encodeRecord(write("/x", "not an index")), segment.readRecord)).toBe(undefined);
    // A chunk whose bytes at the index's offset are not that file's record: nothing either.
    const shifted = createEarlyReads(segment.index, segment.readRecord)!;
    shifted.journalRead([]);
    shifted.chunkArrived(0, new Uint8Array(segment.records.byteLength));
    expect(await shifted.readFile("/a.txt")).toBe(undefined);
  });

  it("a file in the next chunks waits for its chunk; one far ahead is read alone; after stop() every read (waiting or new) goes to the load", async () => {
    const big = "y".repeat(EARLY_WAIT_BYTES);
    const segment = segmentOf({ "/a/near.txt": "near", "/b/big.bin": big, "/c/far.txt": "far" });
    const early = createEarlyReads(segment.index, segment.readRecord)!;
    early.journalRead([]);
    const near = early.readFile("/a/near.txt");
    let settled = false;
    void near.then(() => (settled = true));
    const far = text(await early.readFile("/c/far.txt"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect({ settled, far, reads: segment.reads.length }).toEqual({ settled: false, far: "far", reads: 1 });
    // The first chunk ends where /b's records start: the near file is answered from it.
    const index = decodeRecords(segment.index).records[0];
    const cut = index?.op === OP_INDEX ? index.entries.find((entry) => entry.path === "/b")!.offset : 0;
    early.chunkArrived(0, segment.records.subarray(0, cut));
    expect(text(await near)).toBe("near");
    const waiting = early.readFile("/b/big.bin");
    early.stop();
    const after = early.readFile("/a/near.txt");
    // (byte lengths, not the bytes: a failure here would print a diff of 16 MiB)
    expect({
      waiting: (await waiting)?.byteLength,
      afterStop: (await after)?.byteLength,
      reads: segment.reads.length,
    }).toEqual({ waiting: undefined, afterStop: undefined, reads: 1 });
  });

  it("answers stat and readdir of directories from the index, unless the journal touched them or anything below", async () => {
    const segment = segmentOf({ "/src/a.ts": "a", "/src/lib/b.ts": "b", "/docs/c.md": "c", "/z.txt": "z" });
    const early = createEarlyReads(segment.index, segment.readRecord)!;
    early.journalRead([write("/docs/new.md", "new")]);
    const directory = await early.stat("/src/lib");
    expect({
      src: await early.readdir("/src"),
      lib: await early.readdir("/src/lib"),
      libType: directory?.type,
      libMode: directory?.mode,
      rootStat: (await early.stat("/"))?.type,
      // the journal wrote below /docs (and so below /): their listings wait for the load
      docs: await early.readdir("/docs"),
      root: await early.readdir("/"),
      file: await early.readdir("/z.txt"),
      missing: await early.readdir("/nope"),
      odd: await early.readdir("/src/"),
    }).toEqual({
      src: [
        { name: "a.ts", type: "file" },
        { name: "lib", type: "directory" },
      ],
      lib: [{ name: "b.ts", type: "file" }],
      libType: "directory",
      libMode: 0o777,
      rootStat: "directory",
      docs: undefined,
      root: undefined,
      file: undefined,
      missing: undefined,
      odd: undefined,
    });
    const untouched = createEarlyReads(segment.index, segment.readRecord)!;
    untouched.journalRead([]);
    expect(await untouched.readdir("/")).toEqual([
      { name: "docs", type: "directory" },
      { name: "src", type: "directory" },
      { name: "z.txt", type: "file" },
    ]);
  });
});

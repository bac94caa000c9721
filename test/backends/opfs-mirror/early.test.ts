/**
 * Reads a cold start answers before its load ends: from the segment's index and one record read,
 * or from the journal's own write of the file; everything else waits (undefined), so no answer
 * differs from the loaded tree's.
 */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { createEarlyReads } from "../../../src/backends/opfs-mirror/early.js";
import {
  INDEX_AT_BYTES,
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
  return { index: bytes.slice(offset, bytes.byteLength - INDEX_AT_BYTES), readRecord, reads };
}

const write = (path: string, content: string, mtimeMs = 9_000): JournalOp => ({
  op: OP_WRITE,
  path,
  mtimeMs,
  data: encoder.encode(content),
});

describe("opfs-mirror early reads", () => {
  it("answers an untouched file from the index and one record, and a file the journal rewrote from its record", async () => {
    const segment = segmentOf({ "/a/one.txt": "one", "/a/two.txt": "two", "/b.txt": "bee" });
    const early = createEarlyReads(segment.index, segment.readRecord)!;
    early.journalRead([write("/a/two.txt", "two, rewritten")]);
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
      reads: 1,
    });
  });

  it("leaves to the load whatever the journal changed above a file, directories, missing and odd paths", async () => {
    const segment = segmentOf({ "/a/one.txt": "one", "/b/two.txt": "two", "/c/three.txt": "3", "/d/four.txt": "4" });
    const early = createEarlyReads(segment.index, segment.readRecord)!;
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
    const segment = segmentOf({ "/a.txt": "a", "/b.txt": "b" });
    const swapped = createEarlyReads(segment.index, async () => encodeRecord(write("/b.txt", "b")))!;
    swapped.journalRead([]);
    const torn = createEarlyReads(segment.index, async () => new Uint8Array([1, 2, 3]))!;
    torn.journalRead([]);
    expect([await swapped.readFile("/a.txt"), await torn.readFile("/a.txt")]).toEqual([undefined, undefined]);
    expect(createEarlyReads(encodeRecord(write("/x", "not an index")), segment.readRecord)).toBe(undefined);
  });
});

/**
 * Compaction's encoding: the whole tree as one segment, directories before their contents,
 * names sorted by code unit, each file's bytes and mtime as stored, then an index of where each
 * record starts and a fixed-size record saying where the index is, and a seal that counts them.
 */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import {
  INDEX_AT_BYTES,
  OP_INDEX,
  OP_INDEX_AT,
  OP_SEAL,
  decodeRecords,
  type JournalOp,
} from "../../../src/backends/opfs-mirror/journal.js";
import { replayRecords } from "../../../src/backends/opfs-mirror/replay.js";
import { encodeSegment } from "../../../src/backends/opfs-mirror/snapshot.js";

const encoder = new TextEncoder();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const shown = (record: JournalOp) =>
  "data" in record ? [record.path, text(record.data)] : "path" in record ? record.path : record.op;

describe("opfs-mirror segment encoding", () => {
  it("encodes every directory and file in order, then the index, with bytes and mtimes as stored", async () => {
    const fs = memoryFileSystem({
      files: {
        "/src/b.ts": "b",
        "/src/a.ts": "a\n",
        "/src/deep/é.txt": "accent",
        "/Z.txt": "",
        "/bin": "\u0000\u00ff",
      },
    });
    await fs.mkdir("/empty");
    await fs.writeFile("/src/a.ts", encoder.encode("rewritten, longer than before"));
    fs.volume.utimesSync("/src/a.ts", 1_000, 2_000);
    const segment = encodeSegment(fs.volume);
    const decoded = decodeRecords(segment.bytes);
    expect(decoded.validBytes).toBe(segment.bytes.byteLength);
    expect(decoded.records.map(shown)).toEqual([
      ["/Z.txt", ""],
      ["/bin", "\u0000\u00ff"],
      "/empty",
      "/src",
      ["/src/a.ts", "rewritten, longer than before"],
      ["/src/b.ts", "b"],
      "/src/deep",
      ["/src/deep/é.txt", "accent"],
      OP_INDEX,
      OP_INDEX_AT,
    ]);
    const written = decoded.records.find((record) => "path" in record && record.path === "/src/a.ts");
    expect(written !== undefined && "mtimeMs" in written ? written.mtimeMs : undefined).toBe(2_000_000);
    expect(decodeRecords(segment.seal).records).toEqual([{ op: OP_SEAL, count: 8 }]);
    // INDEX_AT, found at its fixed size from the end, points at the INDEX, whose entries point at
    // each record and say what stat says of it.
    const indexAt = decodeRecords(segment.bytes.subarray(segment.bytes.byteLength - INDEX_AT_BYTES)).records[0];
    expect(indexAt?.op).toBe(OP_INDEX_AT);
    const offset = indexAt?.op === OP_INDEX_AT ? indexAt.offset : -1;
    const index = decodeRecords(segment.bytes.subarray(offset)).records[0];
    const entries = index?.op === OP_INDEX ? index.entries : [];
    expect(
      entries.map((entry) => {
        const record = decodeRecords(segment.bytes.subarray(entry.offset, entry.offset + entry.bytes)).records;
        return [entry.kind, entry.path, entry.size, record.length === 1 ? shown(record[0]!) : "not one record"];
      }),
    ).toEqual([
      ["file", "/Z.txt", 0, ["/Z.txt", ""]],
      ["file", "/bin", 3, ["/bin", "\u0000\u00ff"]],
      ["directory", "/empty", 0, "/empty"],
      ["directory", "/src", 0, "/src"],
      ["file", "/src/a.ts", 29, ["/src/a.ts", "rewritten, longer than before"]],
      ["file", "/src/b.ts", 1, ["/src/b.ts", "b"]],
      ["directory", "/src/deep", 0, "/src/deep"],
      ["file", "/src/deep/é.txt", 6, ["/src/deep/é.txt", "accent"]],
    ]);
    expect(entries[4]?.mtimeMs).toBe(2_000_000);
    // Replayed on an empty volume (the index records ignored), the segment gives the same tree back.
    const again = memoryFileSystem();
    replayRecords(again.volume, decoded.records);
    expect(again.volume.toJSON()).toEqual(fs.volume.toJSON());
  });
});

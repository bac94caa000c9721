/**
 * Compaction's encoding: the whole tree as one segment, directories before their contents,
 * names sorted by code unit, each file's bytes and mtime as stored, and a seal that counts them.
 */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { OP_SEAL, decodeRecords } from "../../../src/backends/opfs-mirror/journal.js";
import { replayRecords } from "../../../src/backends/opfs-mirror/replay.js";
import { encodeSegment } from "../../../src/backends/opfs-mirror/snapshot.js";

const encoder = new TextEncoder();

describe("opfs-mirror segment encoding", () => {
  it("encodes every directory and file in order, with bytes and mtimes as stored", async () => {
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
    expect(
      decoded.records.map((record) =>
        record.op === OP_SEAL
          ? record
          : "data" in record
            ? [record.path, new TextDecoder().decode(record.data)]
            : record.path,
      ),
    ).toEqual([
      ["/Z.txt", ""],
      ["/bin", "\u0000\u00ff"],
      "/empty",
      "/src",
      ["/src/a.ts", "rewritten, longer than before"],
      ["/src/b.ts", "b"],
      "/src/deep",
      ["/src/deep/é.txt", "accent"],
    ]);
    const written = decoded.records.find((record) => record.op !== OP_SEAL && record.path === "/src/a.ts");
    expect(written !== undefined && "mtimeMs" in written ? written.mtimeMs : undefined).toBe(2_000_000);
    expect(decodeRecords(segment.seal).records).toEqual([{ op: OP_SEAL, count: 8 }]);
    // Replayed on an empty volume, the segment gives the same tree back.
    const again = memoryFileSystem();
    replayRecords(again.volume, decoded.records);
    expect(again.volume.toJSON()).toEqual(fs.volume.toJSON());
  });
});

/**
 * The segment's LOCATOR (src/backends/opfs-mirror/locator.ts): the walk order it searches in,
 * every path of a compacted tree found in the block it names, and a damaged record refused.
 */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { INDEX_AT_BYTES, OP_INDEX, decodeRecords } from "../../../src/backends/opfs-mirror/journal.js";
import { blockOf, comparePaths, decodeLocator, locatorStride } from "../../../src/backends/opfs-mirror/locator.js";
import { encodeSegment } from "../../../src/backends/opfs-mirror/snapshot.js";

/** A tree whose names sort differently by whole path and name by name (`a-c` < `a/b` as strings). */
function tree(): Record<string, string> {
  const files: Record<string, string> = { "/a-c": "1", "/a/b": "2", "/a/é": "3", "/Z": "4", "/a/b2/x": "5" };
  for (let index = 0; index < 700; index++) files[`/d${index % 7}/f${index}.txt`] = `file ${index}`;
  return files;
}

describe("opfs-mirror segment locator", () => {
  it("comparePaths follows the walk: name by name, a directory before what is below it", () => {
    const paths = ["/a-c", "/a/b", "/a", "/Z", "/a/b2/x", "/a/b2", "/a/é"];
    expect([...paths].sort(comparePaths)).toEqual(["/Z", "/a", "/a/b", "/a/b2", "/a/b2/x", "/a/é", "/a-c"]);
    expect([locatorStride(10), locatorStride(10_000), locatorStride(100_000)]).toEqual([16, 40, 391]);
  });

  it("every entry of a compacted tree lies in the block the locator names; a path before every row has none", () => {
    const fs = memoryFileSystem({ files: tree() });
    const segment = encodeSegment(fs.volume).bytes;
    const indexAtStart = segment.byteLength - INDEX_AT_BYTES;
    const found = decodeLocator(segment, indexAtStart);
    expect(found?.locator?.paths.length).toBe(Math.ceil(714 / 16));
    const index = decodeRecords(segment).records.find((record) => record.op === OP_INDEX);
    const entries = index?.op === OP_INDEX ? index.entries : [];
    expect(entries.length).toBe(714);
    const indexEnd = found!.start;
    const text = new TextEncoder();
    for (const entry of entries) {
      const block = blockOf(found!.locator!, entry.path, indexEnd)!;
      const name = text.encode(entry.path);
      const bytes = segment.subarray(block.start, block.end);
      // The entry's kind, length and path are in the block.
      const needle = new Uint8Array([entry.kind === "file" ? 1 : 2, name.byteLength, 0, 0, 0, ...name]);
      expect([entry.path, indexOf(bytes, needle) >= 0]).toEqual([entry.path, true]);
    }
    expect(blockOf(found!.locator!, "/0", indexEnd)).toBeUndefined();
  });

  it("a damaged locator (a flipped byte) or a record that is not one is refused", () => {
    const fs = memoryFileSystem({ files: tree() });
    const segment = encodeSegment(fs.volume).bytes;
    const end = segment.byteLength - INDEX_AT_BYTES;
    const start = decodeLocator(segment, end)!.start;
    const damaged = segment.slice();
    damaged[start + 20] = damaged[start + 20]! ^ 1;
    expect(decodeLocator(damaged, end)).toBeUndefined();
    // The INDEX's end is no LOCATOR's end.
    expect(decodeLocator(segment, start)?.locator).toBeUndefined();
    // Cut off before its start: how far back it begins.
    expect(decodeLocator(segment.subarray(start + 100), end - start - 100)).toEqual({ start: -100 });
  });
});

function indexOf(bytes: Uint8Array, needle: Uint8Array): number {
  outer: for (let at = 0; at + needle.byteLength <= bytes.byteLength; at++) {
    for (let index = 0; index < needle.byteLength; index++) if (bytes[at + index] !== needle[index]) continue outer;
    return at;
  }
  return -1;
}

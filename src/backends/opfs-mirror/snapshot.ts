/**
 * Compaction: the whole working set as one packed segment (MKDIR and WRITE records), which
 * replaces the segment and journal before it.
 *
 * @module
 */
import type { Volume } from "memfs";
import { joinPath } from "../../contract/path.js";
import {
  OP_INDEX,
  OP_INDEX_AT,
  OP_MKDIR,
  OP_SEAL,
  OP_WRITE,
  encodeRecord,
  prepareRecord,
  writeRecord,
  type IndexEntry,
  type PreparedRecord,
} from "./journal.js";
import { encodeLocator } from "./locator.js";

/** A segment's records and its closing SEAL record, written after the records are durable. */
export interface Segment {
  readonly bytes: Uint8Array;
  readonly seal: Uint8Array;
}

type Link = Volume["_core"]["root"];

/**
 * Encode the tree under `/` as a segment, in one buffer: the tree is walked through memfs's
 * links (names sorted as `readdir` sorts them), each file's bytes read in place, and each record
 * written straight into the segment (no copy per file, no buffer per record). The records end
 * with an INDEX of where each one starts, a LOCATOR of every n-th INDEX entry (see locator.ts)
 * and an INDEX_AT that says where the INDEX is.
 *
 * @param volume - the working set (read synchronously, so the segment is one consistent state).
 * @returns the records (directories before their contents) and the seal.
 */
export function encodeSegment(volume: Volume): Segment {
  const records: PreparedRecord[] = [];
  const entries: IndexEntry[] = [];
  let total = 0;
  const push = (record: PreparedRecord, entry: Omit<IndexEntry, "offset" | "bytes">) => {
    entries.push({ ...entry, offset: total, bytes: record.bytes });
    records.push(record);
    total += record.bytes;
  };
  const visit = (directory: Link, path: string) => {
    const names = [...directory.children.keys()].filter((name) => name !== "." && name !== "..");
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      const child = directory.children.get(name);
      if (child === undefined) continue;
      const node = child.getNode();
      const childPath = joinPath(path, name);
      if (node.isDirectory()) {
        const entry = { kind: "directory", path: childPath, size: 0, mtimeMs: 0 } as const;
        push(prepareRecord({ op: OP_MKDIR, path: childPath }), entry);
        visit(child, childPath);
      } else if (node.isFile()) {
        const data = new Uint8Array(node.buf.buffer, node.buf.byteOffset, node.getSize());
        const mtimeMs = node.mtime.getTime();
        const entry = { kind: "file", path: childPath, size: data.byteLength, mtimeMs } as const;
        push(prepareRecord({ op: OP_WRITE, path: childPath, mtimeMs, data }), entry);
      }
    }
  };
  visit(volume._core.root, "/");
  const count = records.length;
  const index = prepareRecord({ op: OP_INDEX, entries });
  const locator = encodeLocator(total, index.names!);
  const indexAt = prepareRecord({ op: OP_INDEX_AT, offset: total });
  const bytes = new Uint8Array(total + index.bytes + locator.byteLength + indexAt.bytes);
  let at = 0;
  for (const record of [...records, index]) at = writeRecord(bytes, at, record);
  bytes.set(locator, at);
  writeRecord(bytes, at + locator.byteLength, indexAt);
  return { bytes, seal: encodeRecord({ op: OP_SEAL, count }) };
}

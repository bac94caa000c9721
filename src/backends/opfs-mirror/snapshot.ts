/**
 * Compaction: the whole working set as one packed segment (MKDIR and WRITE records), which
 * replaces the segment and journal before it.
 *
 * @module
 */
import type { Volume } from "memfs";
import { joinPath } from "../../contract/path.js";
import {
  OP_MKDIR,
  OP_SEAL,
  OP_WRITE,
  encodeRecord,
  prepareRecord,
  writeRecord,
  type PreparedRecord,
} from "./journal.js";

/** A segment's records and its closing SEAL record, written after the records are durable. */
export interface Segment {
  readonly bytes: Uint8Array;
  readonly seal: Uint8Array;
}

type Link = Volume["_core"]["root"];

/**
 * Encode the tree under `/` as a segment, in one buffer: the tree is walked through memfs's
 * links (names sorted as `readdir` sorts them), each file's bytes read in place, and each record
 * written straight into the segment (no copy per file, no buffer per record).
 *
 * @param volume - the working set (read synchronously, so the segment is one consistent state).
 * @returns the records (directories before their contents) and the seal.
 */
export function encodeSegment(volume: Volume): Segment {
  const records: PreparedRecord[] = [];
  let total = 0;
  const push = (record: PreparedRecord) => {
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
        push(prepareRecord({ op: OP_MKDIR, path: childPath }));
        visit(child, childPath);
      } else if (node.isFile()) {
        const data = new Uint8Array(node.buf.buffer, node.buf.byteOffset, node.getSize());
        push(prepareRecord({ op: OP_WRITE, path: childPath, mtimeMs: node.mtime.getTime(), data }));
      }
    }
  };
  visit(volume._core.root, "/");
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const record of records) at = writeRecord(bytes, at, record);
  return { bytes, seal: encodeRecord({ op: OP_SEAL, count: records.length }) };
}

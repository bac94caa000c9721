/**
 * Compaction: the whole working set as one packed segment (MKDIR and WRITE records), which
 * replaces the segment and journal before it.
 *
 * @module
 */
import type { Volume } from "memfs";
import { joinPath } from "../../contract/path.js";
import { OP_MKDIR, OP_SEAL, OP_WRITE, encodeRecord } from "./journal.js";

/** A segment's records and its closing SEAL record, written after the records are durable. */
export interface Segment {
  readonly bytes: Uint8Array;
  readonly seal: Uint8Array;
}

/**
 * Encode the tree under `/` as a segment.
 *
 * @param volume - the working set (read synchronously, so the segment is one consistent state).
 * @returns the records (directories before their contents) and the seal.
 */
export function encodeSegment(volume: Volume): Segment {
  const parts: Uint8Array[] = [];
  let total = 0;
  let count = 0;
  const push = (record: Uint8Array) => {
    parts.push(record);
    total += record.byteLength;
    count++;
  };
  const visit = (directory: string) => {
    const entries = volume.readdirSync(directory, { withFileTypes: true }) as unknown as ReadonlyArray<{
      name: unknown;
      isDirectory(): boolean;
      isFile(): boolean;
    }>;
    for (const entry of entries) {
      const path = joinPath(directory, String(entry.name));
      if (entry.isDirectory()) {
        push(encodeRecord({ op: OP_MKDIR, path }));
        visit(path);
      } else if (entry.isFile()) {
        const data = volume.readFileSync(path) as Uint8Array;
        push(encodeRecord({ op: OP_WRITE, path, mtimeMs: Number(volume.statSync(path).mtimeMs), data }));
      }
    }
  };
  visit("/");
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return { bytes, seal: encodeRecord({ op: OP_SEAL, count }) };
}

/**
 * The on-disk record format of the mirrored OPFS backend, shared by its journal and its segments.
 *
 * A record is `u32 length | u32 crc32(payload) | payload` (little-endian), the payload an op
 * byte and its fields (strings as `u32 length | UTF-8`, bytes as `u32 length | bytes`):
 *
 * - `WRITE path mtimeMs(f64) data`: the whole file (parents created);
 * - `WRITE_FLUSHED path mtimeMs(f64) data`: the same, for a journal record of at least
 *   {@link FLUSHED_DATA_BYTES} of data, whose checksum covers its fields but not its data: the
 *   Worker writes and flushes the data before it writes the record's head (see
 *   {@link encodeWriteHead}), so a head on disk vouches for the data after it, and the data is
 *   never checksummed (a head not on disk reads as zeros: the tail is torn and dropped). Decoded
 *   as `WRITE`;
 * * - `MKDIR path` (recursive); `RM path` (recursive); `RENAME from to`;
 * - `SEAL count(u32)`: ends a segment; a segment without it was cut short and is not used;
 * - `INDEX count(u32) entries` and `INDEX_AT offset(f64)`: the last two records of a segment
 *   before its seal: where each directory and file record starts, so a cold start can answer a
 *   read before it has read the whole segment (an entry is `kind(u8) path offset(f64)
 *   bytes(u32) size(u32) mtimeMs(f64)`; `INDEX_AT` has a fixed size, found from the end).
 *   Replay ignores both; a segment without them is read whole. A `LOCATOR` may sit between the
 *   two (every n-th INDEX entry, see locator.ts); checked and skipped by the decoder.
 *
 * Only calls that succeeded in memory are written, so replaying the records in order on an
 * empty tree rebuilds the tree exactly. Decoding stops at the first record whose length runs past
 * the end or whose checksum does not match: a torn tail is dropped, never half applied.
 *
 * @module
 */
import { crc32 } from "./crc32.js";

export const OP_WRITE = 1;
export const OP_MKDIR = 2;
export const OP_RM = 3;
export const OP_RENAME = 4;
export const OP_INDEX = 5;
export const OP_INDEX_AT = 6;
export const OP_WRITE_FLUSHED = 7;
/** A segment's LOCATOR (after its INDEX): rows of the INDEX for a cold start's first reads (see locator.ts). */
export const OP_LOCATOR = 8;

/**
 * A journal WRITE with at least this much data, in bytes, is written as `WRITE_FLUSHED` (data
 * sent to the Worker in parts as it is copied, flushed before the head, no checksum over it): 1 MiB.
 */
export const FLUSHED_DATA_BYTES = 1024 * 1024;
export const OP_SEAL = 0xff;

/** Bytes before each payload: length and checksum. */
export const RECORD_HEADER_BYTES = 8;

/** Bytes of an `INDEX_AT` record, header included: it is found at a fixed distance from the end. */
export const INDEX_AT_BYTES = RECORD_HEADER_BYTES + 9;

/** Where one directory or file record of a segment is, and what a `stat` of it says. */
export interface IndexEntry {
  readonly kind: "file" | "directory";
  readonly path: string;
  /** Byte offset of the record in the segment. */
  readonly offset: number;
  /** The record's length in bytes, header included. */
  readonly bytes: number;
  /** The file's size in bytes (0 for a directory). */
  readonly size: number;
  readonly mtimeMs: number;
}

/** One decoded record. `data` is a view into the decoded buffer (no copy). */
export type JournalOp =
  | { readonly op: typeof OP_WRITE; readonly path: string; readonly mtimeMs: number; readonly data: Uint8Array }
  | { readonly op: typeof OP_MKDIR; readonly path: string }
  | { readonly op: typeof OP_RM; readonly path: string }
  | { readonly op: typeof OP_RENAME; readonly path: string; readonly dest: string }
  | { readonly op: typeof OP_INDEX; readonly entries: readonly IndexEntry[] }
  | { readonly op: typeof OP_INDEX_AT; readonly offset: number }
  | { readonly op: typeof OP_LOCATOR }
  | { readonly op: typeof OP_SEAL; readonly count: number };

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** A record ready to be written: its fields encoded, and its size in bytes (header included). */
export interface PreparedRecord {
  readonly record: JournalOp;
  readonly path: Uint8Array | undefined;
  readonly dest: Uint8Array | undefined;
  /** An INDEX record's encoded paths. */
  readonly names?: Uint8Array[] | undefined;
  readonly bytes: number;
}

/**
 * Encode a record's strings and measure it, for {@link writeRecord}.
 *
 * @param record - the op and its fields.
 * @returns the record with its encoded paths and its size in bytes, header included.
 */
export function prepareRecord(record: JournalOp): PreparedRecord {
  const path = "path" in record ? encoder.encode(record.path) : undefined;
  const dest = record.op === OP_RENAME ? encoder.encode(record.dest) : undefined;
  let size = RECORD_HEADER_BYTES + 1;
  if (path !== undefined) size += 4 + path.byteLength;
  if (dest !== undefined) size += 4 + dest.byteLength;
  if (record.op === OP_WRITE) size += 8 + 4 + record.data.byteLength;
  if (record.op === OP_SEAL) size += 4;
  if (record.op === OP_INDEX_AT) size += 8;
  let names: Uint8Array[] | undefined;
  if (record.op === OP_INDEX) {
    names = record.entries.map((entry) => encoder.encode(entry.path));
    size += 4;
    for (const name of names) size += 1 + 4 + name.byteLength + 8 + 4 + 4 + 8;
  }
  return { record, path, dest, names, bytes: size };
}

/**
 * Write a prepared record into `target` at byte `at` (the data is copied in; the checksum is
 * computed there).
 *
 * @param target - the buffer, with room for `prepared.bytes` bytes at `at`.
 * @param at - byte offset.
 * @param prepared - from {@link prepareRecord}.
 * @returns the offset just past the record.
 */
export function writeRecord(target: Uint8Array, at: number, prepared: PreparedRecord): number {
  const { record, path, dest } = prepared;
  const start = at;
  const view = new DataView(target.buffer, target.byteOffset + start, prepared.bytes);
  let offset = RECORD_HEADER_BYTES;
  target[start + offset++] = record.op;
  const putBytes = (part: Uint8Array) => {
    view.setUint32(offset, part.byteLength, true);
    target.set(part, start + offset + 4);
    offset += 4 + part.byteLength;
  };
  if (path !== undefined) putBytes(path);
  if (dest !== undefined) putBytes(dest);
  if (record.op === OP_WRITE) {
    view.setFloat64(offset, record.mtimeMs, true);
    offset += 8;
    putBytes(record.data);
  }
  if (record.op === OP_SEAL) view.setUint32(offset, record.count, true);
  if (record.op === OP_INDEX_AT) view.setFloat64(offset, record.offset, true);
  if (record.op === OP_INDEX) {
    view.setUint32(offset, record.entries.length, true);
    offset += 4;
    record.entries.forEach((entry, index) => {
      target[start + offset++] = entry.kind === "file" ? 1 : 2;
      putBytes(prepared.names![index]!);
      view.setFloat64(offset, entry.offset, true);
      view.setUint32(offset + 8, entry.bytes, true);
      view.setUint32(offset + 12, entry.size, true);
      view.setFloat64(offset + 16, entry.mtimeMs, true);
      offset += 24;
    });
  }
  view.setUint32(0, prepared.bytes - RECORD_HEADER_BYTES, true);
  view.setUint32(4, crc32(target.subarray(start + RECORD_HEADER_BYTES, start + prepared.bytes)), true);
  return start + prepared.bytes;
}

/**
 * The head of a `WRITE_FLUSHED` record: length, checksum (of the fields, not the data), op, path,
 * mtime and the data's length; the record is this head followed by the data's bytes.
 *
 * @param path - the file's absolute path.
 * @param mtimeMs - its mtime, in milliseconds since the epoch.
 * @param dataBytes - the length of its data, in bytes.
 * @returns the head's bytes.
 * @example
 * ```ts
 * encodeWriteHead("/big", 0, 2 ** 20).byteLength; // 29
 * ```
 */
export function encodeWriteHead(path: string, mtimeMs: number, dataBytes: number): Uint8Array {
  const name = encoder.encode(path);
  const headBytes = RECORD_HEADER_BYTES + 1 + 4 + name.byteLength + 8 + 4;
  const head = new Uint8Array(headBytes);
  const view = new DataView(head.buffer);
  view.setUint32(0, headBytes - RECORD_HEADER_BYTES + dataBytes, true);
  head[RECORD_HEADER_BYTES] = OP_WRITE_FLUSHED;
  view.setUint32(RECORD_HEADER_BYTES + 1, name.byteLength, true);
  head.set(name, RECORD_HEADER_BYTES + 5);
  view.setFloat64(RECORD_HEADER_BYTES + 5 + name.byteLength, mtimeMs, true);
  view.setUint32(RECORD_HEADER_BYTES + 13 + name.byteLength, dataBytes, true);
  view.setUint32(4, crc32(head.subarray(RECORD_HEADER_BYTES)), true);
  return head;
}

/**
 * A whole `WRITE_FLUSHED` record (its head, then the data, copied), as the Worker leaves it on
 * disk and as other tabs receive it.
 *
 * @param path - the file's absolute path.
 * @param mtimeMs - its mtime, in milliseconds since the epoch.
 * @param data - its bytes.
 * @returns the record's bytes.
 */
export function encodeFlushedWrite(path: string, mtimeMs: number, data: Uint8Array): Uint8Array {
  const head = encodeWriteHead(path, mtimeMs, data.byteLength);
  const bytes = new Uint8Array(head.byteLength + data.byteLength);
  bytes.set(head);
  bytes.set(data, head.byteLength);
  return bytes;
}

/**
 * Where the checksummed part of the record whose payload is `bytes[start, end)` ends: `end`, or,
 * for a `WRITE_FLUSHED`, where its data starts; -1 when its fields run past `end`.
 */
function checkedEndOf(bytes: Uint8Array, view: DataView, start: number, end: number): number {
  if (bytes[start] !== OP_WRITE_FLUSHED) return end;
  if (start + 5 > end) return -1;
  const checked = start + 1 + 4 + view.getUint32(start + 1, true) + 8 + 4;
  return checked > end ? -1 : checked;
}

/**
 * Encode one record (the data is copied, so the caller may reuse its array).
 *
 * @param record - the op and its fields.
 * @returns the record's bytes, header included.
 */
export function encodeRecord(record: JournalOp): Uint8Array {
  const prepared = prepareRecord(record);
  const bytes = new Uint8Array(prepared.bytes);
  writeRecord(bytes, 0, prepared);
  return bytes;
}

/**
 * How many bytes from the start of `bytes` are whole records with matching checksums: the
 * framing and CRC-32 check of {@link decodeRecords} without decoding the payloads (the Worker
 * runs it on the journal while the main thread replays the segment).
 *
 * @param bytes - a journal's content.
 * @returns the length, in bytes, of the valid prefix; anything after it is a torn tail.
 * @example
 * ```ts
 * checkedLength(encodeRecord({ op: OP_MKDIR, path: "/a" })); // 15
 * ```
 */
export function checkedLength(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (at + RECORD_HEADER_BYTES <= bytes.byteLength) {
    const size = view.getUint32(at, true);
    const end = at + RECORD_HEADER_BYTES + size;
    if (size === 0 || end > bytes.byteLength) break;
    const checked = checkedEndOf(bytes, view, at + RECORD_HEADER_BYTES, end);
    if (checked < 0 || crc32(bytes.subarray(at + RECORD_HEADER_BYTES, checked)) !== view.getUint32(at + 4, true)) break;
    at = end;
  }
  return at;
}

/** What {@link decodeRecords} found. */
export interface DecodedJournal {
  readonly records: JournalOp[];
  /** Bytes of whole, checked records from the start; anything after is a torn tail. */
  readonly validBytes: number;
}

/** Options of {@link decodeRecords}. */
export interface DecodeOptions {
  /**
   * Check each record's CRC-32. `false` only for a sealed segment: its records were flushed
   * before its seal was written (and the seal is checked), so it cannot end in a torn record;
   * framing and decoding are still checked. @default true
   */
  readonly checksums?: boolean;
}

/**
 * Decode records from the start of `bytes`, stopping at the end or at the first torn record.
 *
 * @param bytes - a journal or segment file's content.
 * @param options - see {@link DecodeOptions}.
 * @returns the records and how many bytes they span.
 */
export function decodeRecords(bytes: Uint8Array, options: DecodeOptions = {}): DecodedJournal {
  const checksums = options.checksums ?? true;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: JournalOp[] = [];
  let at = 0;
  while (at + RECORD_HEADER_BYTES <= bytes.byteLength) {
    const size = view.getUint32(at, true);
    const end = at + RECORD_HEADER_BYTES + size;
    if (size === 0 || end > bytes.byteLength) break;
    if (checksums) {
      const checked = checkedEndOf(bytes, view, at + RECORD_HEADER_BYTES, end);
      if (checked < 0 || crc32(bytes.subarray(at + RECORD_HEADER_BYTES, checked)) !== view.getUint32(at + 4, true))
        break;
    }
    const record = decodePayload(bytes, view, at + RECORD_HEADER_BYTES, end);
    if (record === undefined) break;
    // A LOCATOR serves a cold start's first reads only (locator.ts): nothing to replay or list.
    if (record.op !== OP_LOCATOR) records.push(record);
    at = end;
  }
  return { records, validBytes: at };
}

/** Longest string decoded by the ASCII fast path, in bytes (paths are short). */
const ASCII_FAST_BYTES = 1024;

/** UTF-8 of `bytes[start, end)`, or undefined when it is not valid UTF-8. */
function decodeString(bytes: Uint8Array, start: number, end: number): string | undefined {
  if (end - start <= ASCII_FAST_BYTES) {
    let ascii = true;
    for (let index = start; index < end; index++) {
      if (bytes[index]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  }
  try {
    return decoder.decode(bytes.subarray(start, end));
  } catch {
    return undefined;
  }
}

/**
 * One payload, `bytes[start, end)` (`view` over the same bytes): read with offsets into the
 * whole buffer, no copy and no allocation beyond the record, its strings and a view of its data.
 */
function decodePayload(bytes: Uint8Array, view: DataView, start: number, end: number): JournalOp | undefined {
  let at = start + 1;
  /** The length of the field at `at`, moving `at` past the length; -1 if it runs past `end`. */
  const fieldLength = (): number => {
    if (at + 4 > end) return -1;
    const length = view.getUint32(at, true);
    at += 4;
    return at + length > end ? -1 : length;
  };
  const takeString = (): string | undefined => {
    const length = fieldLength();
    if (length < 0) return undefined;
    at += length;
    return decodeString(bytes, at - length, at);
  };
  switch (bytes[start]) {
    case OP_WRITE:
    case OP_WRITE_FLUSHED: {
      const path = takeString();
      if (path === undefined || at + 8 > end) return undefined;
      const mtimeMs = view.getFloat64(at, true);
      at += 8;
      const length = fieldLength();
      if (length < 0) return undefined;
      return { op: OP_WRITE, path, mtimeMs, data: bytes.subarray(at, at + length) };
    }
    case OP_MKDIR:
    case OP_RM: {
      const op = bytes[start] as typeof OP_MKDIR | typeof OP_RM;
      const path = takeString();
      return path === undefined ? undefined : { op, path };
    }
    case OP_RENAME: {
      const path = takeString();
      const dest = takeString();
      return path === undefined || dest === undefined ? undefined : { op: OP_RENAME, path, dest };
    }
    case OP_SEAL:
      return end - start === 5 ? { op: OP_SEAL, count: view.getUint32(start + 1, true) } : undefined;
    case OP_LOCATOR:
      return { op: OP_LOCATOR };
    case OP_INDEX_AT:
      return end - start === 9 ? { op: OP_INDEX_AT, offset: view.getFloat64(start + 1, true) } : undefined;
    case OP_INDEX: {
      if (at + 4 > end) return undefined;
      const count = view.getUint32(at, true);
      at += 4;
      const entries: IndexEntry[] = [];
      for (let index = 0; index < count; index++) {
        if (at + 1 > end) return undefined;
        const kind = bytes[at++];
        const path = takeString();
        if ((kind !== 1 && kind !== 2) || path === undefined || at + 24 > end) return undefined;
        entries.push({
          kind: kind === 1 ? "file" : "directory",
          path,
          offset: view.getFloat64(at, true),
          bytes: view.getUint32(at + 8, true),
          size: view.getUint32(at + 12, true),
          mtimeMs: view.getFloat64(at + 16, true),
        });
        at += 24;
      }
      return at === end ? { op: OP_INDEX, entries } : undefined;
    }
    default:
      return undefined;
  }
}

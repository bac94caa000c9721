/**
 * The mirror's record format: every op round-trips, a torn or damaged tail stops decoding where
 * the whole records end, and `checksums: false` (sealed segments) skips only the CRC check.
 */
import { describe, expect, it } from "vitest";
import {
  OP_MKDIR,
  OP_RENAME,
  OP_RM,
  OP_SEAL,
  OP_WRITE,
  OP_WRITE_FLUSHED,
  RECORD_HEADER_BYTES,
  checkedLength,
  decodeRecords,
  encodeFlushedWrite,
  encodeRecord,
  encodeWriteHead,
  type JournalOp,
} from "../../../src/backends/opfs-mirror/journal.js";

const concat = (...parts: Uint8Array[]) => {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
};

const RECORDS: JournalOp[] = [
  { op: OP_MKDIR, path: "/src" },
  { op: OP_WRITE, path: "/src/a.ts", mtimeMs: 1_700_000_000_123.5, data: new Uint8Array([1, 2, 3, 0, 255]) },
  { op: OP_WRITE, path: "/src/ünï cödé/ß.txt", mtimeMs: 0, data: new Uint8Array(0) },
  { op: OP_RENAME, path: "/src/a.ts", dest: "/src/日本.ts" },
  { op: OP_RM, path: "/src" },
  { op: OP_SEAL, count: 5 },
];

describe("opfs-mirror journal records", () => {
  it("decode what encode wrote, every op, ASCII and non-ASCII paths", () => {
    const bytes = concat(...RECORDS.map(encodeRecord));
    const decoded = decodeRecords(bytes);
    expect(decoded.validBytes).toBe(bytes.byteLength);
    expect(
      decoded.records.map((record) => ("data" in record ? { ...record, data: [...record.data] } : record)),
    ).toEqual(RECORDS.map((record) => ("data" in record ? { ...record, data: [...record.data] } : record)));
  });

  it("checkedLength: whole records with matching checksums, without decoding them", () => {
    const first = encodeRecord(RECORDS[0]!);
    const second = encodeRecord({ op: OP_WRITE, path: "/b", mtimeMs: 7, data: new Uint8Array([10, 20, 30]) });
    const whole = concat(first, second);
    const damaged = concat(first, second);
    damaged[damaged.byteLength - 1] = 99;
    expect([
      checkedLength(whole),
      checkedLength(whole.subarray(0, whole.byteLength - 1)),
      checkedLength(damaged),
      checkedLength(new Uint8Array(0)),
      checkedLength(new Uint8Array(12)),
    ]).toEqual([first.byteLength + second.byteLength, first.byteLength, first.byteLength, 0, 0]);
  });

  it("a record cut short ends the decoded part at the last whole record", () => {
    const first = encodeRecord(RECORDS[0]!);
    const second = encodeRecord(RECORDS[1]!);
    const bytes = concat(first, second).subarray(0, first.byteLength + second.byteLength - 1);
    const decoded = decodeRecords(bytes);
    expect(decoded.validBytes).toBe(first.byteLength);
    expect(decoded.records).toEqual([{ op: OP_MKDIR, path: "/src" }]);
  });

  it("a damaged byte stops decoding at its record; checksums: false decodes it as written", () => {
    const first = encodeRecord(RECORDS[0]!);
    const second = encodeRecord({ op: OP_WRITE, path: "/b", mtimeMs: 7, data: new Uint8Array([10, 20, 30]) });
    const bytes = concat(first, second);
    bytes[bytes.byteLength - 1] = 99; // the last data byte
    expect(decodeRecords(bytes).validBytes).toBe(first.byteLength);
    const unchecked = decodeRecords(bytes, { checksums: false });
    expect(unchecked.validBytes).toBe(bytes.byteLength);
    const last = unchecked.records[1] as Extract<JournalOp, { op: typeof OP_WRITE }>;
    expect([last.path, last.mtimeMs, [...last.data]]).toEqual(["/b", 7, [10, 20, 99]]);
  });

  it("checksums: false still stops at a record whose framing is wrong", () => {
    const first = encodeRecord(RECORDS[0]!);
    const second = encodeRecord({ op: OP_MKDIR, path: "/x" });
    // The path's length field claims more bytes than the payload has.
    second[RECORD_HEADER_BYTES + 1] = 200;
    const decoded = decodeRecords(concat(first, second), { checksums: false });
    expect(decoded.validBytes).toBe(first.byteLength);
    expect(decoded.records).toHaveLength(1);
  });

  it("a path that is not valid UTF-8 is not a record", () => {
    const record = encodeRecord({ op: OP_MKDIR, path: "/é" });
    record[RECORD_HEADER_BYTES + 1 + 4 + 1] = 0xff; // the first byte of "é": no longer UTF-8
    expect(decodeRecords(record, { checksums: false })).toEqual({ records: [], validBytes: 0 });
  });

  it("data is a view into the decoded bytes (no copy)", () => {
    const bytes = encodeRecord({ op: OP_WRITE, path: "/v", mtimeMs: 1, data: new Uint8Array([5, 6]) });
    const [record] = decodeRecords(bytes).records as [Extract<JournalOp, { op: typeof OP_WRITE }>];
    expect(record.data.buffer).toBe(bytes.buffer);
    expect(record.data.byteOffset).toBe(bytes.byteLength - 2);
  });

  it("WRITE_FLUSHED: head then data, decoded as a WRITE; its checksum covers the fields, not the data", () => {
    const data = new Uint8Array([1, 2, 3, 4, 5]);
    const head = encodeWriteHead("/big.bin", 42.5, data.byteLength);
    expect(head.byteLength).toBe(RECORD_HEADER_BYTES + 1 + 4 + 8 + 8 + 4);
    expect(head[RECORD_HEADER_BYTES]).toBe(OP_WRITE_FLUSHED);
    const record = encodeFlushedWrite("/big.bin", 42.5, data);
    expect([...record.subarray(0, head.byteLength)]).toEqual([...head]);
    expect([...record.subarray(head.byteLength)]).toEqual([1, 2, 3, 4, 5]);
    const first = encodeRecord(RECORDS[0]!);
    const bytes = concat(first, record);
    expect(checkedLength(bytes)).toBe(bytes.byteLength);
    const decoded = decodeRecords(bytes);
    expect(decoded.validBytes).toBe(bytes.byteLength);
    const last = decoded.records[1] as Extract<JournalOp, { op: typeof OP_WRITE }>;
    expect([last.op, last.path, last.mtimeMs, [...last.data]]).toEqual([OP_WRITE, "/big.bin", 42.5, [1, 2, 3, 4, 5]]);

    // A changed data byte is not a checksum failure (the flush order vouches for the data)...
    const changedData = concat(first, record);
    changedData[changedData.byteLength - 1] = 9;
    expect(checkedLength(changedData)).toBe(changedData.byteLength);
    // ...a changed field is (here the mtime's last byte),
    const changedField = concat(first, record);
    const fieldAt = first.byteLength + head.byteLength - 5;
    changedField[fieldAt] = changedField[fieldAt]! ^ 1;
    expect(checkedLength(changedField)).toBe(first.byteLength);
    expect(decodeRecords(changedField).validBytes).toBe(first.byteLength);
    // ...and a head never written (zeros: the Worker writes it after the data) ends the whole records.
    const unwritten = concat(first, new Uint8Array(head.byteLength), data);
    expect(checkedLength(unwritten)).toBe(first.byteLength);
    expect(decodeRecords(unwritten).records).toEqual([{ op: OP_MKDIR, path: "/src" }]);
  });

  it("WRITE_FLUSHED: a head whose path length runs past the record is not a record", () => {
    const record = encodeFlushedWrite("/b", 1, new Uint8Array([7]));
    new DataView(record.buffer).setUint32(RECORD_HEADER_BYTES + 1, 1000, true);
    expect(checkedLength(record)).toBe(0);
    expect(decodeRecords(record).validBytes).toBe(0);
    expect(decodeRecords(record, { checksums: false }).validBytes).toBe(0);
  });
});

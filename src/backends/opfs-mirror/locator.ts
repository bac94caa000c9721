/**
 * A segment's LOCATOR record: a small table of every {@link locatorStride}-th INDEX entry (its
 * path and where the entry starts in the segment), written after the INDEX, so a cold start finds
 * one file's index entry by reading the locator (in the segment's last few KiB, with the seal)
 * and one block of the index, not the whole index (for 10,000 files the index is some 450 KiB).
 *
 * Layout: `u32 length | u32 crc32 | LOCATOR count(u32) (u32 pathLength | path | entryAt(f64))*
 * recordBytes(u32)`; the record's own length closes it, so it is found backwards from the
 * `INDEX_AT` record after it. The INDEX lists the tree in the order the compaction walks it
 * (depth first, names sorted as JavaScript sorts strings), which {@link comparePaths} follows:
 * the entries between two locator rows hold every path between their paths.
 *
 * @module
 */
import { crc32 } from "./crc32.js";
import { OP_LOCATOR, RECORD_HEADER_BYTES } from "./journal.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * How many INDEX entries one locator row stands for: at least 16, and at most 256 rows, so the
 * locator stays a few KiB and a block of the index a few KiB too.
 *
 * @param entries - the INDEX's entry count.
 * @returns the stride (entries per row).
 */
export function locatorStride(entries: number): number {
  return Math.max(16, Math.ceil(entries / 256));
}

/**
 * Compare two absolute paths in the compaction's walk order: name by name (as JavaScript
 * compares strings), a directory before everything below it.
 *
 * @returns a negative number, 0 or a positive number, as `Array.prototype.sort` wants.
 * @example
 * ```ts
 * comparePaths("/a/b", "/a-c"); // < 0: /a and its contents come before /a-c
 * ```
 */
export function comparePaths(a: string, b: string): number {
  const left = a.split("/");
  const right = b.split("/");
  const length = Math.min(left.length, right.length);
  for (let at = 1; at < length; at++) {
    const x = left[at]!;
    const y = right[at]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

/**
 * Encode the LOCATOR of an INDEX record.
 *
 * @param indexAt - where the INDEX record starts in the segment, in bytes.
 * @param paths - the INDEX entries' paths, UTF-8, in the INDEX's order.
 * @returns the record's bytes.
 */
export function encodeLocator(indexAt: number, paths: readonly Uint8Array[]): Uint8Array {
  const stride = locatorStride(paths.length);
  const rows: Array<{ path: Uint8Array; entryAt: number }> = [];
  // Entries start after the INDEX's header, op byte and count; each is kind, path, 24 bytes of fields.
  let entryAt = indexAt + RECORD_HEADER_BYTES + 1 + 4;
  paths.forEach((path, index) => {
    if (index % stride === 0) rows.push({ path, entryAt });
    entryAt += 1 + 4 + path.byteLength + 24;
  });
  let size = RECORD_HEADER_BYTES + 1 + 4 + 4;
  for (const row of rows) size += 4 + row.path.byteLength + 8;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let at = RECORD_HEADER_BYTES;
  bytes[at++] = OP_LOCATOR;
  view.setUint32(at, rows.length, true);
  at += 4;
  for (const row of rows) {
    view.setUint32(at, row.path.byteLength, true);
    bytes.set(row.path, at + 4);
    at += 4 + row.path.byteLength;
    view.setFloat64(at, row.entryAt, true);
    at += 8;
  }
  view.setUint32(at, size, true);
  view.setUint32(0, size - RECORD_HEADER_BYTES, true);
  view.setUint32(4, crc32(bytes.subarray(RECORD_HEADER_BYTES)), true);
  return bytes;
}

/** A decoded locator: its rows in the INDEX's order. */
export interface Locator {
  readonly paths: readonly string[];
  readonly entryAt: readonly number[];
}

/**
 * Decode a LOCATOR record that ends at `end` in `bytes`, checking its framing and checksum.
 *
 * @param bytes - bytes holding the record (the segment's tail).
 * @param end - where the record ends in `bytes`.
 * @returns the locator and where the record starts in `bytes` (negative: not all of it is in
 *   `bytes`, read from that far before), or undefined when there is none or it does not check out.
 */
export function decodeLocator(bytes: Uint8Array, end: number): { locator?: Locator; start: number } | undefined {
  if (end < RECORD_HEADER_BYTES + 9 || end > bytes.byteLength) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = view.getUint32(end - 4, true);
  const start = end - size;
  if (size < RECORD_HEADER_BYTES + 9) return undefined;
  if (start < 0) return { start };
  if (view.getUint32(start, true) !== size - RECORD_HEADER_BYTES || bytes[start + RECORD_HEADER_BYTES] !== OP_LOCATOR)
    return undefined;
  if (crc32(bytes.subarray(start + RECORD_HEADER_BYTES, end)) !== view.getUint32(start + 4, true)) return undefined;
  const count = view.getUint32(start + RECORD_HEADER_BYTES + 1, true);
  const paths: string[] = [];
  const entryAt: number[] = [];
  let at = start + RECORD_HEADER_BYTES + 5;
  for (let row = 0; row < count; row++) {
    const length = view.getUint32(at, true);
    if (at + 4 + length + 8 > end - 4) return undefined;
    paths.push(decoder.decode(bytes.subarray(at + 4, at + 4 + length)));
    at += 4 + length;
    entryAt.push(view.getFloat64(at, true));
    at += 8;
  }
  return at === end - 4 ? { locator: { paths, entryAt }, start } : undefined;
}

/**
 * The block of the INDEX that holds `path`'s entry if the segment has one: from the last row at
 * or before it to the next row (or `indexEnd`).
 *
 * @param locator - from {@link decodeLocator}.
 * @param path - an absolute, canonical path.
 * @param indexEnd - where the INDEX record ends in the segment.
 * @returns segment offsets `[start, end)` of whole entries, or undefined when the path sorts
 *   before every row (it is not in the segment).
 */
export function blockOf(locator: Locator, path: string, indexEnd: number): { start: number; end: number } | undefined {
  let low = 0;
  let high = locator.paths.length - 1;
  if (high < 0 || comparePaths(locator.paths[0]!, path) > 0) return undefined;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (comparePaths(locator.paths[middle]!, path) <= 0) low = middle;
    else high = middle - 1;
  }
  return { start: locator.entryAt[low]!, end: locator.entryAt[low + 1] ?? indexEnd };
}

/** `path` as the INDEX stores it (UTF-8). */
export function encodePath(path: string): Uint8Array {
  return encoder.encode(path);
}

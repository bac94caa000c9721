/**
 * A cold start's first reads straight from OPFS on the main thread, while the Worker boots: the
 * sealed segment's tail (seal, `INDEX_AT`, LOCATOR: its last 32 KiB) and the journal are read
 * through `getFile()` snapshots; a file's INDEX entry is found in the one block of the INDEX that
 * the LOCATOR points at (a few KiB, walked raw: no decode of the whole index, no Worker round
 * trip), then the file is read as its one record (`File.slice`), checksum checked.
 *
 * Only the instance that holds the root's lock (the writer) asks, and only before any change is
 * asked for, so the disk is what the loaded tree will be. A path the journal touches (itself or a
 * directory above it) is answered from the journal's last WRITE of it, and otherwise left to the
 * load, as the early reads do (see `early.ts`). Anything unexpected (no sealed, indexed segment, a
 * checksum that does not match, a file changed under its snapshot, a journal larger than
 * {@link DIRECT_JOURNAL_MAX_BYTES}) answers undefined: the caller then waits for the load.
 *
 * @module
 */
import { resolvePath } from "../../contract/path.js";
import { crc32 } from "./crc32.js";
import { isCanonical } from "./early.js";
import {
  INDEX_AT_BYTES,
  OP_INDEX,
  OP_INDEX_AT,
  OP_SEAL,
  OP_WRITE,
  RECORD_HEADER_BYTES,
  decodeRecords,
  type JournalOp,
} from "./journal.js";
import { blockOf, decodeLocator } from "./locator.js";
import { generationOf, journalName, segmentName } from "./protocol.js";

/**
 * Bytes read from the segment's end in one call: the seal, `INDEX_AT` and the LOCATOR (see
 * locator.ts) for trees whose locator rows' paths fit: 32 KiB.
 */
export const DIRECT_TAIL_BYTES = 32 * 1024;

/** A journal longer than this (bytes) is left to the Worker's load: 4 MiB. */
export const DIRECT_JOURNAL_MAX_BYTES = 4 * 1024 * 1024;

/** Bytes of a segment's closing SEAL record. */
const SEAL_BYTES = RECORD_HEADER_BYTES + 5;

const encoder = new TextEncoder();

/** Reads answered from disk before the Worker has opened anything. */
export interface DirectReads {
  /** The file's bytes (a buffer of the caller's own), or undefined when only the load can say. */
  readFile(path: string): Promise<Uint8Array | undefined>;
}

/** The record at `at` in `bytes` when it is whole, its checksum matches and its op is `op`; else undefined. */
function checkedRecord(bytes: Uint8Array, at: number, end: number, op: number): Uint8Array | undefined {
  if (at < 0 || end > bytes.byteLength || end - at < RECORD_HEADER_BYTES + 1) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (at + RECORD_HEADER_BYTES + view.getUint32(at, true) !== end || bytes[at + RECORD_HEADER_BYTES] !== op)
    return undefined;
  const payload = bytes.subarray(at + RECORD_HEADER_BYTES, end);
  return crc32(payload) === view.getUint32(at + 4, true) ? bytes.subarray(at, end) : undefined;
}

/** `file`'s bytes `[start, end)`, in a buffer of their own. */
async function slice(file: Blob, start: number, end: number): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(start, end).arrayBuffer());
}

/**
 * Where one file's record is (offset and length in bytes), from the INDEX entries in
 * `entries[at, end)` (whole entries, as the INDEX lays them out), or undefined.
 */
function findEntry(
  entries: Uint8Array,
  at: number,
  end: number,
  path: Uint8Array,
): { offset: number; bytes: number; size: number } | undefined {
  const index = entries;
  const view = new DataView(index.buffer, index.byteOffset, index.byteLength);
  const first = path[0];
  while (at < end) {
    if (at + 5 > end) return undefined;
    const kind = index[at]!;
    const length = view.getUint32(at + 1, true);
    const name = at + 5;
    at = name + length + 24;
    if (at > end) return undefined;
    if (length !== path.byteLength || index[name] !== first) continue;
    let same = true;
    for (let byte = 1; byte < length; byte++) {
      if (index[name + byte] !== path[byte]) {
        same = false;
        break;
      }
    }
    if (!same) continue;
    if (kind !== 1) return undefined;
    const fields = name + length;
    return {
      offset: view.getFloat64(fields, true),
      bytes: view.getUint32(fields + 8, true),
      size: view.getUint32(fields + 12, true),
    };
  }
  return undefined;
}

/** The last journal record that names `path` or a directory above it (as the replay resolves paths), or undefined. */
function lastTouch(records: readonly JournalOp[], path: string): JournalOp | undefined {
  const touches = (raw: string) => {
    const named = resolvePath("/", raw);
    return named === path || named === "/" || path.startsWith(`${named}/`);
  };
  for (let at = records.length - 1; at >= 0; at--) {
    const record = records[at]!;
    if (("path" in record && touches(record.path)) || ("dest" in record && touches(record.dest))) return record;
  }
  return undefined;
}

/**
 * Open the mirror's directory for direct reads: the newest segment, if sealed and indexed, and
 * the journal of its generation.
 *
 * @param directory - the mirror's root directory.
 * @returns the reads, or undefined when the directory holds no sealed, indexed segment, or its
 *   journal is longer than {@link DIRECT_JOURNAL_MAX_BYTES} (the load answers then). Never rejects.
 * @example
 * ```ts
 * const direct = await openDirectReads(await resolveOpfsRoot("/better-fs-tools-mirror"));
 * await direct?.readFile("/src/a.ts"); // the bytes, or undefined: wait for the load
 * ```
 */
export async function openDirectReads(directory: FileSystemDirectoryHandle): Promise<DirectReads | undefined> {
  try {
    let generation = -1;
    for await (const name of directory.keys()) {
      const found = generationOf(name);
      if (found?.kind === "segment" && found.generation > generation) generation = found.generation;
    }
    if (generation < 0) return undefined;
    const journalFile = directory
      .getFileHandle(journalName(generation))
      .then((handle) => handle.getFile())
      .catch((error: unknown) => {
        // No journal yet: the Worker creates it empty.
        if ((error as { name?: unknown }).name === "NotFoundError") return undefined;
        throw error;
      });
    journalFile.catch(() => undefined);
    const segment = await (await directory.getFileHandle(segmentName(generation))).getFile();
    const size = segment.size;
    const tailStart = Math.max(0, size - DIRECT_TAIL_BYTES);
    const tail = await slice(segment, tailStart, size);
    // Sealed (else the Worker uses an older generation), and indexed (else it is read whole).
    if (checkedRecord(tail, tail.byteLength - SEAL_BYTES, tail.byteLength, OP_SEAL) === undefined) return undefined;
    const indexAtEnd = tail.byteLength - SEAL_BYTES;
    const indexAt = checkedRecord(tail, indexAtEnd - INDEX_AT_BYTES, indexAtEnd, OP_INDEX_AT);
    if (indexAt === undefined) return undefined;
    const indexOffset = new DataView(indexAt.buffer, indexAt.byteOffset).getFloat64(RECORD_HEADER_BYTES + 1, true);
    const indexAtStart = tailStart + indexAtEnd - INDEX_AT_BYTES;
    if (!Number.isSafeInteger(indexOffset) || indexOffset < 0 || indexOffset >= indexAtStart) return undefined;
    // A LOCATOR before INDEX_AT: a file's entry is found in one block of the INDEX. Without one
    // (a segment written before it came), the whole INDEX is read.
    let found = decodeLocator(tail, indexAtEnd - INDEX_AT_BYTES);
    if (found !== undefined && found.start < 0) {
      // Longer than the tail read: read it whole (it starts that far before the tail).
      const from = tailStart + found.start;
      found =
        from < indexOffset ? undefined : decodeLocator(await slice(segment, from, indexAtStart), indexAtStart - from);
      if (found !== undefined) found = { ...found, start: found.start + from - tailStart };
    }
    let find: (path: Uint8Array, text: string) => Promise<ReturnType<typeof findEntry>>;
    if (found?.locator !== undefined) {
      const locator = found.locator;
      const indexEnd = tailStart + found.start;
      find = async (path, text) => {
        const block = blockOf(locator, text, indexEnd);
        if (block === undefined || block.start < indexOffset || block.end > indexEnd) return undefined;
        const bytes = await slice(segment, block.start, block.end);
        return findEntry(bytes, 0, bytes.byteLength, path);
      };
    } else {
      const whole = await slice(segment, indexOffset, indexAtStart);
      const length =
        whole.byteLength >= RECORD_HEADER_BYTES
          ? RECORD_HEADER_BYTES + new DataView(whole.buffer).getUint32(0, true)
          : 0;
      const index = checkedRecord(whole, 0, length, OP_INDEX);
      if (index === undefined) return undefined;
      find = async (path) => findEntry(index, RECORD_HEADER_BYTES + 5, index.byteLength, path);
    }
    const journal = await journalFile;
    if (journal !== undefined && journal.size > DIRECT_JOURNAL_MAX_BYTES) return undefined;
    const records =
      journal === undefined || journal.size === 0
        ? []
        : decodeRecords(new Uint8Array(await journal.arrayBuffer())).records;

    return {
      async readFile(path) {
        if (!isCanonical(path) || path === "/") return undefined;
        try {
          const touched = lastTouch(records, path);
          if (touched !== undefined)
            return touched.op === OP_WRITE && resolvePath("/", touched.path) === path
              ? touched.data.slice()
              : undefined;
          const entry = await find(encoder.encode(path), path);
          if (entry === undefined) return undefined;
          const record = decodeRecords(await slice(segment, entry.offset, entry.offset + entry.bytes)).records[0];
          // The record the index points at, whole and checked, and no other.
          return record?.op === OP_WRITE && record.path === path && record.data.byteLength === entry.size
            ? record.data.slice()
            : undefined;
        } catch {
          // The segment changed or went away under its snapshot (a compaction after the load).
          return undefined;
        }
      },
    };
  } catch {
    return undefined;
  }
}

/**
 * Reads answered during a cold start, before the whole tree is in memory. A segment written with
 * an index says where each file's record is; once the journal (the changes since) is read, a
 * path that no journal record touches (nor any directory above it) is exactly as the segment has
 * it:
 * - a file: `stat` answers from the index; `readFile` answers from the chunk holding the file's
 *   record once it has come from the Worker, waits for it when the record is in the next
 *   {@link EARLY_WAIT_BYTES} of the segment (the records stream in chunks, in the order a walk
 *   visits the tree: a search that starts at once follows the load), and otherwise reads that one
 *   record from the Worker (a first read far into the tree need not wait for the chunks before it);
 * - a directory: `stat` and `realpath` answer from the index, and `readdir` too when no journal
 *   record touches anything below it either.
 * A file whose last change in the journal is a write of its own is answered from that record.
 * Anything else (a missing path, a path a later record renamed or removed, a directory the
 * journal changed) waits for the load, so every answer is the one the loaded tree would give
 * (save a directory's mtime: the replay makes each directory anew, so the load's time is given).
 *
 * @module
 */
import { resolvePath } from "../../contract/path.js";
import type { DirEntry, FileStat } from "../../contract/types.js";
import { OP_INDEX, OP_WRITE, RECORD_HEADER_BYTES, decodeRecords, type IndexEntry, type JournalOp } from "./journal.js";
import { SEGMENT_CHUNK_BYTES } from "./protocol.js";

/** The mode the replay gives every file (`0o666`): what `stat` reports of it once loaded. */
const FILE_MODE = 0o666;
/** The mode the replay gives every directory (`0o777`, as `mkdir -p`). */
const DIRECTORY_MODE = 0o777;
/**
 * A read of a file whose record lies less than this far past the chunks that have come waits
 * for its chunk (two chunks, in bytes); one further on reads its own record from the Worker.
 */
export const EARLY_WAIT_BYTES = 2 * SEGMENT_CHUNK_BYTES;

/** What the early reads can say of one path. */
type Known =
  | { readonly entry: IndexEntry }
  | { readonly root: true }
  | { readonly record: Extract<JournalOp, { op: typeof OP_WRITE }> };

/** Reads one record of the segment from disk (`offset` and `bytes` from the index). */
export type ReadRecord = (offset: number, bytes: number) => Promise<Uint8Array>;

/** Reads before the load ends; see the module's description. */
export interface EarlyReads {
  /** The journal's records, once read: until then every answer waits for them. */
  journalRead(records: readonly JournalOp[]): void;
  /** The segment's records from byte `start` have come from the Worker, whole (`bytes`, checked). */
  chunkArrived(start: number, bytes: Uint8Array): void;
  /** The load ended (or failed): reads still waiting for a chunk answer undefined (ask the load). */
  stop(): void;
  /**
   * `use` called with the file's bytes (valid during the call), wrapped as `{ value }`; or
   * undefined when only the loaded tree can say.
   */
  readFileView<T>(path: string, use: (bytes: Uint8Array) => T): Promise<{ readonly value: T } | undefined>;
  /** The file's bytes (a buffer of the caller's own), or undefined when only the loaded tree can say. */
  readFile(path: string): Promise<Uint8Array | undefined>;
  /** The stat of a file or directory, or undefined when only the loaded tree can say. */
  stat(path: string): Promise<FileStat | undefined>;
  /** A directory's entries (sorted by name, as the loaded tree lists them), or undefined when only the loaded tree can say. */
  readdir(path: string): Promise<DirEntry[] | undefined>;
}

/** `/a/b.txt`-style (absolute, no empty, `.` or `..` name, no trailing slash), or `/`: the paths the index holds. */
export function isCanonical(path: string): boolean {
  if (path === "/") return true;
  return path.startsWith("/") && !path.endsWith("/") && !path.includes("//") && !ODD_NAME.test(path);
}

/** A `.` or `..` name in a path. */
const ODD_NAME = /\/\.\.?(?:\/|$)/;

function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut === 0 ? "/" : path.slice(0, cut);
}

/**
 * Early reads over an indexed segment.
 *
 * @param index - the segment's INDEX record, as the Worker read it (checked).
 * @param readRecord - reads one record from disk, for a file far past the chunks that have come.
 * @returns the early reads, or undefined when the index does not decode.
 * @example
 * ```ts
 * const early = createEarlyReads(opened.index, (offset, bytes) => worker.record(offset, bytes));
 * early?.journalRead(journalRecords);
 * early?.chunkArrived(0, firstChunk);
 * await early?.readFile("/src/a.ts"); // the bytes, or undefined: wait for the load
 * ```
 */
export function createEarlyReads(index: Uint8Array, readRecord: ReadRecord): EarlyReads | undefined {
  // Checked by the Worker, as each chunk is: read without checking the checksums again.
  const decoded = decodeRecords(index, { checksums: false }).records[0];
  if (decoded?.op !== OP_INDEX) return undefined;
  const startedMs = Date.now();
  const entries = new Map<string, IndexEntry>();
  for (const entry of decoded.entries) entries.set(entry.path, entry);
  let listings: Map<string, DirEntry[]> | undefined;
  let journal: { records: readonly JournalOp[]; lastTouch: Map<string, number>; changedBelow: Set<string> } | undefined;
  let journalKnown: () => void = () => undefined;
  const journalReady = new Promise<void>((resolve) => (journalKnown = resolve));
  // The chunks that have come, in order (each starts where the one before ended); records before
  // `arrived` are in them. Reads waiting for a chunk, by the offset their record ends at;
  // `stopped` once the load has ended.
  const chunks: Array<{ readonly start: number; readonly bytes: Uint8Array }> = [];
  let arrived = 0;
  let stopped = false;
  let waiters: Array<{ readonly end: number; readonly resume: (source: "chunk" | "load") => void }> = [];

  /**
   * Where the record at `offset`, ending at `end`, is read from: its chunk (come, or coming soon:
   * a promise), by itself from the Worker when it is far ahead, or nowhere once the load has
   * ended (the call then asks the loaded tree).
   */
  function sourceOf(end: number, offset: number): "chunk" | "alone" | "load" | Promise<"chunk" | "load"> {
    if (stopped) return "load";
    if (end <= arrived) return "chunk";
    if (offset >= arrived + EARLY_WAIT_BYTES) return "alone";
    return new Promise((resume) => waiters.push({ end, resume }));
  }

  /** The data of the file record at `entry`, a view into the chunk that holds it; undefined if the record is not that file's. */
  function dataInChunk(entry: IndexEntry): Uint8Array | undefined {
    let low = 0;
    let high = chunks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (chunks[middle]!.start <= entry.offset) low = middle;
      else high = middle - 1;
    }
    const chunk = chunks[low];
    if (chunk === undefined) return undefined;
    const at = entry.offset - chunk.start;
    const bytes = chunk.bytes;
    if (at < 0 || at + entry.bytes > bytes.byteLength) return undefined;
    // A WRITE record ends with its data (`u32 length | bytes`). The segment is sealed (whole),
    // so it is read as the replay reads it; the framing is checked all the same.
    const view = new DataView(bytes.buffer, bytes.byteOffset + at, entry.bytes);
    const dataAt = entry.bytes - entry.size;
    if (
      view.getUint32(0, true) !== entry.bytes - RECORD_HEADER_BYTES ||
      bytes[at + RECORD_HEADER_BYTES] !== OP_WRITE ||
      dataAt < RECORD_HEADER_BYTES + 1 + 4 ||
      view.getUint32(dataAt - 4, true) !== entry.size
    )
      return undefined;
    return bytes.subarray(at + dataAt, at + entry.bytes);
  }

  /** What can be said of `path` (the journal is read). */
  function knownNow(path: string): Known | undefined {
    if (!isCanonical(path)) return undefined;
    const { records, lastTouch } = journal!;
    // The last journal record that names the path or a directory above it.
    let latest = -1;
    if (lastTouch.size > 0) {
      latest = lastTouch.get("/") ?? -1;
      for (let at = path.length; at > 0; at = path.lastIndexOf("/", at - 1)) {
        latest = Math.max(latest, lastTouch.get(path.slice(0, at)) ?? -1);
      }
    }
    if (latest >= 0) {
      const record = records[latest]!;
      return record.op === OP_WRITE && resolvePath("/", record.path) === path ? { record } : undefined;
    }
    if (path === "/") return { root: true };
    const entry = entries.get(path);
    return entry === undefined ? undefined : { entry };
  }

  async function known(path: string): Promise<Known | undefined> {
    if (journal === undefined) await journalReady;
    return knownNow(path);
  }

  /** Each directory's entries in the index's order (names sorted, as the walk that wrote it sorts them). */
  function listingsOfIndex(): Map<string, DirEntry[]> {
    if (listings !== undefined) return listings;
    listings = new Map([["/", []]]);
    for (const entry of entries.values()) {
      if (entry.kind === "directory") listings.set(entry.path, []);
      const cut = entry.path.lastIndexOf("/");
      listings.get(parentOf(entry.path))?.push({ name: entry.path.slice(cut + 1), type: entry.kind });
    }
    return listings;
  }

  // Synchronous up to the bytes when it can: a search over the tree as it loads asks this per file.
  async function view<T>(path: string, use: (bytes: Uint8Array) => T): Promise<{ readonly value: T } | undefined> {
    if (journal === undefined) await journalReady;
    const found = knownNow(path);
    if (found === undefined || "root" in found) return undefined;
    if ("record" in found) return { value: use(found.record.data) };
    const { entry } = found;
    if (entry.kind !== "file") return undefined;
    const source = await sourceOf(entry.offset + entry.bytes, entry.offset);
    if (source === "load") return undefined;
    if (source === "chunk") {
      const data = dataInChunk(entry);
      return data === undefined ? undefined : { value: use(data) };
    }
    // The load ended while this read waited for its chunk: the loaded tree answers (the segment
    // is no longer open for single records).
    if (stopped) return undefined;
    const record = decodeRecords(await readRecord(entry.offset, entry.bytes)).records[0];
    // The record the index points at, whole and checked.
    return record?.op === OP_WRITE && record.path === path ? { value: use(record.data) } : undefined;
  }

  return {
    journalRead(records) {
      // Paths as the replay resolves them (`/x/../g` is `/g`, `/k/` is `/k`).
      const lastTouch = new Map<string, number>();
      const changedBelow = new Set<string>();
      const touch = (raw: string, at: number) => {
        const path = resolvePath("/", raw);
        lastTouch.set(path, at);
        for (let parent = path; parent !== "/";) {
          parent = parentOf(parent);
          changedBelow.add(parent);
        }
      };
      records.forEach((record, at) => {
        if ("path" in record) touch(record.path, at);
        if ("dest" in record) touch(record.dest, at);
      });
      journal = { records, lastTouch, changedBelow };
      journalKnown();
    },

    chunkArrived(start, bytes) {
      if (start !== arrived) return;
      chunks.push({ start, bytes });
      arrived = start + bytes.byteLength;
      const still: typeof waiters = [];
      for (const waiter of waiters) {
        if (waiter.end <= arrived) waiter.resume("chunk");
        else still.push(waiter);
      }
      waiters = still;
    },

    stop() {
      stopped = true;
      chunks.length = 0;
      for (const waiter of waiters) waiter.resume("load");
      waiters = [];
    },

    readFileView: view,

    async readFile(path) {
      const found = await view(path, (bytes) => bytes.slice());
      return found?.value;
    },

    async stat(path) {
      const found = await known(path);
      if (found === undefined) return undefined;
      if ("record" in found)
        return { type: "file", size: found.record.data.byteLength, mtimeMs: found.record.mtimeMs, mode: FILE_MODE };
      if ("root" in found || found.entry.kind === "directory")
        return { type: "directory", size: 0, mtimeMs: startedMs, mode: DIRECTORY_MODE };
      return { type: "file", size: found.entry.size, mtimeMs: found.entry.mtimeMs, mode: FILE_MODE };
    },

    async readdir(path) {
      const found = await known(path);
      if (found === undefined || "record" in found) return undefined;
      if ("entry" in found && found.entry.kind !== "directory") return undefined;
      if (journal!.changedBelow.has(path)) return undefined;
      return listingsOfIndex()
        .get(path)
        ?.map((entry) => ({ ...entry }));
    },
  };
}

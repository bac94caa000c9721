/**
 * Reads answered during a cold start, before the whole tree is in memory. A segment written with
 * an index says where each file's record is; once the journal (the changes since) is read, a
 * file that no journal record touches (nor any directory above it) is exactly as the segment has
 * it: `readFile` reads that one record from the Worker, `stat` answers from the index. A file
 * whose last change in the journal is a write of its own is answered from that record. Anything
 * else (a directory, a missing path, a path a later record renamed or removed) waits for the
 * load, so every answer is the one the loaded tree would give.
 *
 * @module
 */
import { resolvePath } from "../../contract/path.js";
import type { FileStat } from "../../contract/types.js";
import { OP_INDEX, OP_WRITE, decodeRecords, type IndexEntry, type JournalOp } from "./journal.js";

/** The mode the replay gives every file (`0o666`): what `stat` reports of it once loaded. */
const FILE_MODE = 0o666;

/** What the early reads can say of one file. */
type Known = { readonly entry: IndexEntry } | { readonly record: Extract<JournalOp, { op: typeof OP_WRITE }> };

/** Reads before the load ends; see the module's description. */
export interface EarlyReads {
  /** The journal's records, once read: until then every answer waits for them. */
  journalRead(records: readonly JournalOp[]): void;
  /** The file's bytes (a buffer of the caller's own), or undefined when only the loaded tree can say. */
  readFile(path: string): Promise<Uint8Array | undefined>;
  /** The file's stat, or undefined when only the loaded tree can say. */
  stat(path: string): Promise<FileStat | undefined>;
}

/** `/a/b.txt`-style (absolute, no empty, `.` or `..` name, no trailing slash): the paths the index holds. */
function isCanonical(path: string): boolean {
  return (
    path.length > 1 &&
    path.startsWith("/") &&
    path
      .split("/")
      .slice(1)
      .every((name) => name !== "" && name !== "." && name !== "..")
  );
}

/**
 * Early reads over an indexed segment.
 *
 * @param index - the segment's INDEX record, as the Worker read it (checked).
 * @param readRecord - reads one record of the segment (`offset` and `bytes` from the index).
 * @returns the early reads, or undefined when the index does not decode.
 * @example
 * ```ts
 * const early = createEarlyReads(opened.index, (offset, bytes) => worker.record(offset, bytes));
 * early?.journalRead(journalRecords);
 * await early?.readFile("/src/a.ts"); // the bytes, or undefined: wait for the load
 * ```
 */
export function createEarlyReads(
  index: Uint8Array,
  readRecord: (offset: number, bytes: number) => Promise<Uint8Array>,
): EarlyReads | undefined {
  const decoded = decodeRecords(index).records[0];
  if (decoded?.op !== OP_INDEX) return undefined;
  const entries = new Map<string, IndexEntry>();
  for (const entry of decoded.entries) entries.set(entry.path, entry);
  let journal: { records: readonly JournalOp[]; lastTouch: Map<string, number> } | undefined;
  let journalKnown: () => void = () => undefined;
  const journalReady = new Promise<void>((resolve) => (journalKnown = resolve));

  async function known(path: string): Promise<Known | undefined> {
    if (!isCanonical(path)) return undefined;
    await journalReady;
    const { records, lastTouch } = journal!;
    // The last journal record that names the path or a directory above it.
    let latest = lastTouch.get("/") ?? -1;
    for (let at = path.length; at > 0; at = path.lastIndexOf("/", at - 1)) {
      latest = Math.max(latest, lastTouch.get(path.slice(0, at)) ?? -1);
    }
    if (latest >= 0) {
      const record = records[latest]!;
      return record.op === OP_WRITE && resolvePath("/", record.path) === path ? { record } : undefined;
    }
    const entry = entries.get(path);
    return entry?.kind === "file" ? { entry } : undefined;
  }

  return {
    journalRead(records) {
      // Paths as the replay resolves them (`/x/../g` is `/g`, `/k/` is `/k`).
      const lastTouch = new Map<string, number>();
      records.forEach((record, at) => {
        if ("path" in record) lastTouch.set(resolvePath("/", record.path), at);
        if ("dest" in record) lastTouch.set(resolvePath("/", record.dest), at);
      });
      journal = { records, lastTouch };
      journalKnown();
    },

    async readFile(path) {
      const found = await known(path);
      if (found === undefined) return undefined;
      if ("record" in found) return found.record.data.slice();
      const record = decodeRecords(await readRecord(found.entry.offset, found.entry.bytes)).records[0];
      // The record the index points at, whole and checked (its bytes are a buffer of their own).
      return record?.op === OP_WRITE && record.path === path ? record.data : undefined;
    },

    async stat(path) {
      const found = await known(path);
      if (found === undefined) return undefined;
      return "record" in found
        ? { type: "file", size: found.record.data.byteLength, mtimeMs: found.record.mtimeMs, mode: FILE_MODE }
        : { type: "file", size: found.entry.size, mtimeMs: found.entry.mtimeMs, mode: FILE_MODE };
    },
  };
}

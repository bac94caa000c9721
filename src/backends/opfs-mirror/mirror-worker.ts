/**
 * The Worker of `opfsMirrorFileSystem`: keeps the durable copy in OPFS through sync access
 * handles. It appends journal records and flushes them before answering, writes compacted
 * segments, and reads everything back in one sequential read per file at open. Loading this
 * module in a dedicated Worker starts it:
 *
 * ```ts
 * const worker = new Worker(new URL("better-fs-tools/opfs-mirror-worker", import.meta.url), { type: "module" });
 * const fs = opfsMirrorFileSystem({ worker });
 * ```
 *
 * @module
 */
import type { FsErrorCode } from "../../contract/errors.js";
import { codeOfDomError, errorName } from "../opfs/errors.js";
import { resolveOpfsRoot } from "../opfs/root.js";
import type { SyncAccessHandle, SyncCapableFileHandle } from "../opfs/sync-io.js";
import { INDEX_AT_BYTES, OP_INDEX, OP_INDEX_AT, OP_SEAL, RECORD_HEADER_BYTES, checkedLength } from "./journal.js";
import { crc32 } from "./crc32.js";
import { nextTask } from "./next-task.js";
import {
  MirrorFault,
  OPFS_MIRROR_CONNECT_KIND,
  SEGMENT_CHUNK_BYTES,
  generationOf,
  journalName,
  segmentName,
  type MirrorConnectMessage,
  type MirrorError,
  type MirrorChunk,
  type MirrorJournal,
  type MirrorOpened,
  type MirrorSegment,
  type MirrorReply,
  type MirrorRequest,
} from "./protocol.js";
import { holdWorkerLife } from "../opfs/worker-life.js";

function isConnect(data: unknown): data is MirrorConnectMessage {
  return typeof data === "object" && data !== null && (data as { kind?: unknown }).kind === OPFS_MIRROR_CONNECT_KIND;
}

/**
 * How often, and how long apart, opening a file is tried again while another context still holds
 * its sync access handle (`NoModificationAllowedError`): at a handover the old writer's Worker
 * can outlive its lock for a moment. 100 tries 50 ms apart: up to 5 s.
 */
const OPEN_RETRY_COUNT = 100;
const OPEN_RETRY_DELAY_MS = 50;

/** Bytes of a segment's closing SEAL record. */
const SEAL_BYTES = RECORD_HEADER_BYTES + 5;

/**
 * How many chunks of an indexed segment the Worker reads before they are asked for: 4 (32 MiB),
 * so a main thread busy replaying or searching finds the next ones read.
 */
const READ_AHEAD_CHUNKS = 4;

/** `length` bytes of the file at `at`, in a buffer of their own. */
function readAt(access: SyncAccessHandle, at: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let offset = 0;
  while (offset < length) {
    const read = access.read(bytes.subarray(offset), { at: at + offset });
    if (read === 0) break;
    offset += read;
  }
  return offset === length ? bytes : bytes.subarray(0, offset);
}

/** The record at the start of `bytes` when it is whole, its checksum matches and its op is `op`. */
function isRecord(bytes: Uint8Array, op: number): boolean {
  if (bytes.byteLength < RECORD_HEADER_BYTES + 1) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = RECORD_HEADER_BYTES + view.getUint32(0, true);
  if (end !== bytes.byteLength || bytes[RECORD_HEADER_BYTES] !== op) return false;
  return crc32(bytes.subarray(RECORD_HEADER_BYTES, end)) === view.getUint32(4, true);
}

/**
 * The INDEX record of a sealed segment of `size` bytes (its INDEX_AT record sits just before the
 * seal), checked, with the offset where the segment's other records end; undefined for a segment
 * written without one (read whole instead).
 */
function readIndex(access: SyncAccessHandle, size: number): { index: Uint8Array; recordsEnd: number } | undefined {
  const indexAtStart = size - SEAL_BYTES - INDEX_AT_BYTES;
  if (indexAtStart < 0) return undefined;
  const indexAt = readAt(access, indexAtStart, INDEX_AT_BYTES);
  if (!isRecord(indexAt, OP_INDEX_AT)) return undefined;
  const offset = new DataView(indexAt.buffer).getFloat64(RECORD_HEADER_BYTES + 1, true);
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= indexAtStart) return undefined;
  // The INDEX, then (written since the LOCATOR came) a LOCATOR before INDEX_AT: the INDEX is
  // the first record there, as long as its length says.
  const tail = readAt(access, offset, indexAtStart - offset);
  if (tail.byteLength < RECORD_HEADER_BYTES) return undefined;
  const indexEnd = RECORD_HEADER_BYTES + new DataView(tail.buffer).getUint32(0, true);
  if (indexEnd > tail.byteLength) return undefined;
  const index = tail.subarray(0, indexEnd);
  return isRecord(index, OP_INDEX) ? { index, recordsEnd: offset } : undefined;
}

/**
 * Where the last whole record in `bytes` ends (records framed by their length), 0 when the
 * first one is not whole.
 */
function wholeRecordsEnd(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (at + RECORD_HEADER_BYTES <= bytes.byteLength) {
    const end = at + RECORD_HEADER_BYTES + view.getUint32(at, true);
    if (end > bytes.byteLength) break;
    at = end;
  }
  return at;
}

function readWhole(access: SyncAccessHandle): Uint8Array {
  const size = access.getSize();
  const bytes = new Uint8Array(size);
  let offset = 0;
  while (offset < size) {
    const read = access.read(bytes.subarray(offset), { at: offset });
    if (read === 0) break;
    offset += read;
  }
  return offset === size ? bytes : bytes.subarray(0, offset);
}

function writeWhole(access: SyncAccessHandle, bytes: Uint8Array, at: number): void {
  let offset = 0;
  while (offset < bytes.byteLength) {
    const written = access.write(bytes.subarray(offset), { at: at + offset });
    if (written <= 0) throw new DOMException("short write", "QuotaExceededError");
    offset += written;
  }
}

/** True when `bytes` ends with a whole, checked SEAL record. */
function isSealed(bytes: Uint8Array): boolean {
  if (bytes.byteLength < SEAL_BYTES) return false;
  const at = bytes.byteLength - SEAL_BYTES;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(at, true) !== 5 || bytes[at + RECORD_HEADER_BYTES] !== OP_SEAL) return false;
  return crc32(bytes.subarray(at + RECORD_HEADER_BYTES)) === view.getUint32(at + 4, true);
}

function toMirrorError(error: unknown, what: string): MirrorError {
  if (error instanceof MirrorFault) return { code: error.code, detail: error.detail };
  const code: FsErrorCode = codeOfDomError(errorName(error));
  const message = error instanceof Error ? error.message : String(error);
  return { code, detail: `${what}: ${errorName(error) ?? "Error"}: ${message}` };
}

/** One session: the directory, the current generation and its open journal. */
function serveSession(port: MessagePort, root: string | FileSystemDirectoryHandle): void {
  let directory: FileSystemDirectoryHandle | undefined;
  let generation = 0;
  let journal: SyncAccessHandle | undefined;
  let end = 0;
  let hasSegment = false;
  /** An indexed segment being read in chunks (kept open until its last chunk is taken), and where its records end. */
  let segmentAccess: SyncAccessHandle | undefined;
  let recordsEnd = 0;
  /**
   * Chunks read before they were asked for, by offset, and where the next one to read starts
   * (undefined once the last is read): the Worker reads on while the main thread is busy.
   */
  const readAhead = new Map<number, MirrorChunk>();
  let aheadFrom: number | undefined;
  let aheadScheduled = false;
  /** A `stage` write that failed, for the `append` after it. */
  let stageFailure: unknown;

  async function openAccess(name: string): Promise<SyncAccessHandle> {
    const handle = await directory!.getFileHandle(name, { create: true });
    for (let attempt = 1; ; attempt++) {
      try {
        return await (handle as SyncCapableFileHandle).createSyncAccessHandle();
      } catch (error) {
        if (errorName(error) !== "NoModificationAllowedError" || attempt >= OPEN_RETRY_COUNT) throw error;
        await new Promise((resolve) => setTimeout(resolve, OPEN_RETRY_DELAY_MS));
      }
    }
  }

  /** The durable copy as it is now (a reader tab's snapshot): the sealed segment and the journal. */
  async function read(): Promise<MirrorOpened> {
    let segment: Uint8Array | undefined;
    if (hasSegment) {
      // An indexed segment still being read in chunks is open here already.
      const access = segmentAccess ?? (await openAccess(segmentName(generation)));
      try {
        segment = readWhole(access);
      } finally {
        if (access !== segmentAccess) access.close();
      }
    }
    return { generation, segment, journal: readWhole(journal!).subarray(0, end) };
  }

  async function open(): Promise<MirrorSegment> {
    directory = await resolveOpfsRoot(root);
    const names: string[] = [];
    for await (const name of directory.keys()) names.push(name);
    const segments = names
      .map(generationOf)
      .filter((found) => found?.kind === "segment")
      .map((found) => found!.generation)
      .sort((a, b) => b - a);
    let segment: Uint8Array | undefined;
    let index: Uint8Array | undefined;
    let segmentBytes = 0;
    generation = 0;
    hasSegment = false;
    closeSegment();
    for (const candidate of segments) {
      const access = await openAccess(segmentName(candidate));
      let keep = false;
      try {
        const size = access.getSize();
        if (size < SEAL_BYTES || !isSealed(readAt(access, size - SEAL_BYTES, SEAL_BYTES))) continue;
        generation = candidate;
        hasSegment = true;
        segmentBytes = size;
        // Indexed: the index now, the records in chunks as they are asked for. Else: whole.
        const indexed = readIndex(access, size);
        if (indexed === undefined) segment = readWhole(access);
        else {
          index = indexed.index;
          recordsEnd = indexed.recordsEnd;
          segmentAccess = access;
          keep = true;
          // The first chunks are read while the main thread reads the index and the journal.
          aheadFrom = recordsEnd > 0 ? 0 : undefined;
        }
        break;
      } finally {
        if (!keep) access.close();
      }
    }
    journal = await openAccess(journalName(generation));
    end = journal.getSize();
    // Files of other generations: older ones were compacted away, newer ones never sealed.
    for (const name of names) {
      const found = generationOf(name);
      if (found !== undefined && found.generation !== generation) await directory.removeEntry(name).catch(() => {});
    }
    scheduleReadAhead();
    return { generation, segment, index, segmentBytes };
  }

  /** Stop reading the segment in chunks: close it, and drop the chunks read ahead. */
  function closeSegment(): void {
    segmentAccess?.close();
    segmentAccess = undefined;
    readAhead.clear();
    aheadFrom = undefined;
  }

  /**
   * The chunk at `at` (read ahead already, or now); then up to {@link READ_AHEAD_CHUNKS} more are
   * read, one per turn of the Worker's queue, so requests asked meanwhile are served in between.
   */
  function takeChunk(at: number): MirrorChunk {
    const early = readAhead.get(at);
    readAhead.delete(at);
    const chunk = early ?? readChunk(at);
    if (early === undefined) {
      readAhead.clear();
      aheadFrom = chunk.last ? undefined : chunk.next;
    }
    // The segment stays open for single records until its last chunk is taken.
    if (chunk.last) closeSegment();
    else scheduleReadAhead();
    return chunk;
  }

  function scheduleReadAhead(): void {
    if (aheadScheduled || aheadFrom === undefined || readAhead.size >= READ_AHEAD_CHUNKS) return;
    aheadScheduled = true;
    // In a task of its own, so requests asked meanwhile are served first.
    void nextTask().then(() => {
      chain = chain.then(() => {
        aheadScheduled = false;
        if (aheadFrom === undefined || segmentAccess === undefined || readAhead.size >= READ_AHEAD_CHUNKS) return;
        const from = aheadFrom;
        try {
          const chunk = readChunk(from);
          readAhead.set(from, chunk);
          aheadFrom = chunk.last ? undefined : chunk.next;
        } catch {
          // Left to the request for this chunk, which reads it again and says what failed.
          aheadFrom = undefined;
          return;
        }
        scheduleReadAhead();
      });
    });
  }

  /**
   * The indexed segment's records from byte `at`: whole records only, up to
   * {@link SEGMENT_CHUNK_BYTES} (or one larger record); `next` is where the next chunk starts,
   * `recordsEnd` when this was the last (the segment is closed when that one is taken).
   */
  function readChunk(at: number): MirrorChunk {
    if (segmentAccess === undefined) throw new MirrorFault("EIO", "no segment is being read");
    // A segment of an empty tree has no records before its index: one empty, last chunk.
    if (at >= recordsEnd) return { bytes: new Uint8Array(0), next: recordsEnd, last: true };
    let bytes = readAt(segmentAccess, at, Math.min(SEGMENT_CHUNK_BYTES, recordsEnd - at));
    let length = wholeRecordsEnd(bytes);
    if (length === 0 && bytes.byteLength >= RECORD_HEADER_BYTES) {
      // One record larger than a chunk: read it alone.
      const size = RECORD_HEADER_BYTES + new DataView(bytes.buffer).getUint32(0, true);
      bytes = readAt(segmentAccess, at, Math.min(size, recordsEnd - at));
      length = wholeRecordsEnd(bytes);
    }
    if (length === 0) throw new MirrorFault("EIO", `the segment's record at ${at} is cut short`);
    const next = at + length;
    return { bytes: bytes.subarray(0, length), next, last: next >= recordsEnd };
  }

  /** One record of the indexed segment, `bytes` long at `offset` (a read answered before the load ends). */
  function readRecord(offset: number, bytes: number): { bytes: Uint8Array } {
    if (segmentAccess === undefined) throw new MirrorFault("EIO", "no segment is being read");
    return { bytes: readAt(segmentAccess, offset, bytes) };
  }

  /** The journal opened by `open`, read whole, with the length of its whole, checked records. */
  function readJournal(): MirrorJournal {
    const bytes = readWhole(journal!);
    return { journal: bytes, checkedBytes: checkedLength(bytes) };
  }

  async function compact(bytes: Uint8Array, seal: Uint8Array): Promise<{ journalBytes: number }> {
    closeSegment();
    const next = generation + 1;
    const access = await openAccess(segmentName(next));
    try {
      access.truncate(0);
      writeWhole(access, bytes, 0);
      access.flush();
      // The seal goes down only after the records are durable: a sealed segment is whole.
      writeWhole(access, seal, bytes.byteLength);
      access.flush();
    } catch (error) {
      access.close();
      await directory!.removeEntry(segmentName(next)).catch(() => {});
      throw error;
    } finally {
      try {
        access.close();
      } catch {
        // closed above
      }
    }
    const nextJournal = await openAccess(journalName(next));
    nextJournal.truncate(0);
    nextJournal.flush();
    journal!.close();
    const previous = generation;
    journal = nextJournal;
    generation = next;
    hasSegment = true;
    end = 0;
    await directory!.removeEntry(journalName(previous)).catch(() => {});
    await directory!.removeEntry(segmentName(previous)).catch(() => {});
    return { journalBytes: 0 };
  }

  async function handle(request: MirrorRequest): Promise<unknown> {
    switch (request.kind) {
      case "open":
        return open();
      case "journal":
        return readJournal();
      case "chunk":
        return takeChunk(request.at);
      case "record":
        return readRecord(request.offset, request.bytes);
      case "release":
        closeSegment();
        return undefined;
      case "truncate":
        journal!.truncate(request.length);
        journal!.flush();
        end = request.length;
        return undefined;
      case "stage":
        // Written as it comes (the main thread copies the next part meanwhile); a failure is kept
        // for the `append` that follows, which takes everything back.
        try {
          if (stageFailure === undefined) writeWhole(journal!, request.bytes, end + request.at);
        } catch (error) {
          stageFailure = error;
        }
        return undefined;
      case "append": {
        const before = end;
        const staged = request.staged ?? 0;
        const failed = stageFailure;
        stageFailure = undefined;
        try {
          if (failed !== undefined) throw failed;
          // A WRITE_FLUSHED record: its data (staged) flushed first, then the head that vouches
          // for it (until then the head's place reads as zeros, a torn tail the next open drops).
          if (staged > 0) journal!.flush();
          writeWhole(journal!, request.bytes, before);
          journal!.flush();
        } catch (error) {
          // Nothing of the batch stays: the journal ends where it ended before.
          try {
            journal!.truncate(before);
            journal!.flush();
          } catch {
            // the next open drops a torn tail anyway
          }
          if (codeOfDomError(errorName(error)) === "ENOSPC") {
            throw new MirrorFault("ENOSPC", `the journal could not grow by ${request.bytes.byteLength + staged} bytes`);
          }
          throw error;
        }
        end = before + request.bytes.byteLength + staged;
        return { journalBytes: end, bytes: request.bytes };
      }
      case "compact":
        return compact(request.bytes, request.seal);
      case "read":
        return read();
      case "close":
        closeSegment();
        journal?.flush();
        journal?.close();
        journal = undefined;
        return undefined;
    }
  }

  let chain: Promise<void> = Promise.resolve();
  port.onmessage = (event: MessageEvent<MirrorRequest>) => {
    const request = event.data;
    chain = chain.then(async () => {
      try {
        const value = await handle(request);
        const transfer: Transferable[] = [];
        if (typeof value === "object" && value !== null) {
          // The bytes read from disk go over without a copy.
          const read = value as { journal?: Uint8Array; segment?: Uint8Array; index?: Uint8Array; bytes?: Uint8Array };
          for (const bytes of [read.journal, read.segment, read.index, read.bytes])
            if (bytes !== undefined) transfer.push(bytes.buffer as ArrayBuffer);
        }
        port.postMessage({ id: request.id, value } as MirrorReply, transfer);
      } catch (error) {
        port.postMessage({ id: request.id, error: toMirrorError(error, request.kind) } as MirrorReply);
      }
      if (request.kind === "close") port.close();
    });
  };
}

/**
 * Serve mirror sessions on a Worker scope (done automatically when this module is a Worker's
 * entry; call it yourself to host the service in a Worker of your own).
 *
 * @param scope - the dedicated Worker's global scope.
 */
export function startOpfsMirrorWorker(scope: Pick<EventTarget, "addEventListener">): void {
  scope.addEventListener("message", (event) => {
    const data = (event as MessageEvent<unknown>).data;
    if (isConnect(data)) holdWorkerLife(data.lifeLock, () => serveSession(data.port, data.root));
  });
}

const workerScope = (globalThis as { WorkerGlobalScope?: abstract new () => unknown }).WorkerGlobalScope;
if (typeof workerScope === "function" && globalThis instanceof workerScope) startOpfsMirrorWorker(globalThis);

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
import { OP_SEAL, RECORD_HEADER_BYTES, checkedLength } from "./journal.js";
import { crc32 } from "./crc32.js";
import {
  MirrorFault,
  OPFS_MIRROR_CONNECT_KIND,
  generationOf,
  journalName,
  segmentName,
  type MirrorConnectMessage,
  type MirrorError,
  type MirrorJournal,
  type MirrorOpened,
  type MirrorSegment,
  type MirrorReply,
  type MirrorRequest,
} from "./protocol.js";

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
      const access = await openAccess(segmentName(generation));
      try {
        segment = readWhole(access);
      } finally {
        access.close();
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
    generation = 0;
    hasSegment = false;
    for (const candidate of segments) {
      const access = await openAccess(segmentName(candidate));
      try {
        const bytes = readWhole(access);
        if (isSealed(bytes)) {
          segment = bytes;
          generation = candidate;
          hasSegment = true;
          break;
        }
      } finally {
        access.close();
      }
    }
    journal = await openAccess(journalName(generation));
    end = journal.getSize();
    // Files of other generations: older ones were compacted away, newer ones never sealed.
    for (const name of names) {
      const found = generationOf(name);
      if (found !== undefined && found.generation !== generation) await directory.removeEntry(name).catch(() => {});
    }
    return { generation, segment };
  }

  /** The journal opened by `open`, read whole, with the length of its whole, checked records. */
  function readJournal(): MirrorJournal {
    const bytes = readWhole(journal!);
    return { journal: bytes, checkedBytes: checkedLength(bytes) };
  }

  async function compact(bytes: Uint8Array, seal: Uint8Array): Promise<{ journalBytes: number }> {
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
      case "truncate":
        journal!.truncate(request.length);
        journal!.flush();
        end = request.length;
        return undefined;
      case "append": {
        const before = end;
        try {
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
            throw new MirrorFault("ENOSPC", `the journal could not grow by ${request.bytes.byteLength} bytes`);
          }
          throw error;
        }
        end = before + request.bytes.byteLength;
        return { journalBytes: end, bytes: request.bytes };
      }
      case "compact":
        return compact(request.bytes, request.seal);
      case "read":
        return read();
      case "close":
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
          const read = value as { journal?: Uint8Array; segment?: Uint8Array; bytes?: Uint8Array };
          for (const bytes of [read.journal, read.segment, read.bytes])
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
    if (isConnect(data)) serveSession(data.port, data.root);
  });
}

const workerScope = (globalThis as { WorkerGlobalScope?: abstract new () => unknown }).WorkerGlobalScope;
if (typeof workerScope === "function" && globalThis instanceof workerScope) startOpfsMirrorWorker(globalThis);

/**
 * `better-fs-tools/opfs-mirror`: a browser backend whose working set lives in memory (reads,
 * stats, listings, grep and glob at memory speed) and whose durable copy is in OPFS, written by
 * a dedicated Worker through sync access handles. Every mutation is flushed to disk before its
 * call resolves.
 *
 * - On disk (one directory, the `root`): `journal-<g>.log`, an append-only list of checksummed
 *   records (CRC-32; see `crc32.ts` for why), and `segment-<g>.seg`, the whole tree packed by the
 *   last compaction and closed by a seal record. A cold start reads the segment and the journal,
 *   each in one sequential read, and replays them; a torn tail record is dropped, never applied.
 * - Large writes (at least `FLUSHED_DATA_BYTES`, 1 MiB): one `WRITE_FLUSHED` record, sent alone,
 *   its data in `stage` parts (copied from memory's copy and transferred, written by the Worker
 *   while the next is copied), flushed before the record's head is written and flushed (the head's
 *   checksum covers its fields; the flush order vouches for the data, see `journal.ts`).
 * - Compaction: once the journal passes `compactMinBytes` and twice the last segment, the tree
 *   is written as segment `g + 1` (the seal written only after its records are flushed), then the
 *   old generation is removed; a crash in between leaves the old, whole generation in use.
 * - Quota: a mutation the disk refuses rejects with `ENOSPC` and is taken back in memory, so
 *   memory and disk hold the same tree. Calls in flight in the same batch are taken back too and
 *   reject with the same error.
 * - Several tabs (see `tabs.ts`): one instance per root is the writer, under an exclusive Web Lock
 *   named after the root; the others (other tabs, or other instances in one page) are readers.
 *   A reader loads a snapshot from the writer, applies every change the writer broadcasts on a
 *   `BroadcastChannel` once it is flushed, serves reads from its own memory, and forwards its
 *   mutations to the writer: a forwarded call resolves once the change is durable and applied in
 *   the reader too, and rejects with the writer's error otherwise. When the writer goes away (its
 *   tab closes, `close()`, its Worker fails), the next instance waiting for the lock takes over:
 *   it reloads from disk, so a change the old writer reported as written is never lost, and sends
 *   its unanswered calls again to whichever instance is writer then (`writeFile`, `mkdir` and
 *   `rm` with `force` end the same either way; a `rename` or an `rm` without `force` whose first
 *   attempt reached the disk just before the writer went away then fails with `ENOENT`).
 * - Locks: the backend carries `locks` (Web Locks named after the root), which the tools use by
 *   default; a reader taking one first asks the writer for every change flushed so far, so two
 *   tabs editing one file at once never lose an update.
 * - Watch (`capabilities.watch`, see `watch.ts`): `fs.watch(path, listener)` reports each change
 *   under `path` once it is durable, made through this instance or applied from another tab's
 *   batch alike: `write`, `mkdir`, `remove`, and `rename` twice (old path, then new). A mutation
 *   taken back reports nothing. When the whole tree is loaded again (the first load, a reader's
 *   new snapshot after a handover, a new writer reloading from disk) every listener hears
 *   {@link OPFS_MIRROR_RELOAD_EVENT} (`rename` of `/`): re-read everything.
 * - Sync calls (`sync`, which `better-fs-tools/node-fs` builds its `*Sync` API on): reads from
 *   memory; a write changes memory at once and its record joins the next batch, so it is durable
 *   shortly after the call returns (`flush()` waits for it); refused where the promise form would
 *   be refused or could not be waited for (a reader tab, a full disk, loading, closed).
 * - No symlinks.
 *
 * @module
 */
import { FsError } from "../../contract/errors.js";
import { assertKnownOptions } from "../../contract/options.js";
import type { FileSystem, FileSystemSync, WatchEvent } from "../../contract/types.js";
import { memoryFileSystem, type MemoryFileSystem } from "../memory/index.js";
import { DEFAULT_WEB_LOCKS_PREFIX, webLocks } from "../opfs/locks.js";
import { describeRoot, hasOpfsApi, opfsUnavailableError, resolveOpfsRoot } from "../opfs/root.js";
import { watchWorkerLife, workerLifeLockName } from "../opfs/worker-life.js";
import { openDirectReads, type DirectReads } from "./direct.js";
import {
  OP_MKDIR,
  OP_RENAME,
  OP_RM,
  OP_WRITE,
  FLUSHED_DATA_BYTES,
  decodeRecords,
  encodeFlushedWrite,
  encodeRecord,
  encodeWriteHead,
  type JournalOp,
} from "./journal.js";
import {
  MirrorFault,
  OPFS_MIRROR_CONNECT_KIND,
  STAGE_CHUNK_BYTES,
  type MirrorAppended,
  type MirrorChunk,
  type MirrorConnectMessage,
  type MirrorJournal,
  type MirrorOpened,
  type MirrorSegment,
  type MirrorReply,
  type MirrorRequest,
} from "./protocol.js";
import { createEarlyReads, type EarlyReads } from "./early.js";
import { nextTask } from "./next-task.js";
import { replayRecords, writeFileNode, type NodeWrite } from "./replay.js";
import { encodeSegment } from "./snapshot.js";
import {
  channelName,
  fromWireError,
  isAfter,
  samePosition,
  toWireError,
  type ForwardedCall,
  type JournalPosition,
  type TabMessage,
} from "./tabs.js";
import { capture, firstMissing, restore } from "./undo.js";
import { OPFS_MIRROR_RELOAD_EVENT, createWatchers, eventsOfRecord } from "./watch.js";

export { OPFS_MIRROR_RELOAD_EVENT } from "./watch.js";

/** Where the mirror keeps its files by default, under the origin's OPFS root. */
export const DEFAULT_OPFS_MIRROR_ROOT = "/better-fs-tools-mirror";
/** The journal is compacted once it is larger than this (and than twice the last segment), in bytes. */
export const DEFAULT_COMPACT_MIN_BYTES = 64 * 1024 * 1024;
/**
 * Prefix of the Web Lock that makes one instance per root the writer, and of the
 * `BroadcastChannel` on which its readers hear each change.
 */
export const OPFS_MIRROR_LOCK_PREFIX = "better-fs-tools:opfs-mirror:";
/**
 * `close()` compacts when the journal holds at least this many bytes and at least a quarter of
 * the segment's (1 MiB): the journal is read whole and checked at a cold start, the segment's
 * files can be read before it ends (see `early.ts`).
 */
export const CLOSE_COMPACT_MIN_BYTES = 1024 * 1024;

function shouldCompactOnClose(journalBytes: number, segmentBytes: number): boolean {
  return journalBytes >= CLOSE_COMPACT_MIN_BYTES && journalBytes * 4 >= segmentBytes;
}

/** A reader that has no snapshot yet asks the writer again this often, in milliseconds. */
const SNAPSHOT_RETRY_MS = 500;

/** Options of {@link opfsMirrorFileSystem}. */
export interface OpfsMirrorFileSystemOptions {
  /**
   * The directory holding the durable copy: a path under the origin's OPFS root (created on first
   * call) or a `FileSystemDirectoryHandle`. Give each workspace its own.
   * @default DEFAULT_OPFS_MIRROR_ROOT ("/better-fs-tools-mirror")
   */
  readonly root?: string | FileSystemDirectoryHandle;
  /**
   * `true` starts the package's Worker (`mirror-worker.js` beside this module); or pass a Worker
   * that loaded `better-fs-tools/opfs-mirror-worker` (it serves any number of backends).
   * @default true
   */
  readonly worker?: true | Worker;
  /** Compact the journal once it is larger than this, in bytes. @default DEFAULT_COMPACT_MIN_BYTES */
  readonly compactMinBytes?: number;
}

/**
 * What an instance is for its root: `loading` until its first call (or `ready()`) settles, then
 * `writer` (it holds the root's lock and writes the journal) or `reader` (it forwards mutations
 * to the writer and may become writer later); `closed` after `close()` or a failure.
 */
export type OpfsMirrorRole = "loading" | "writer" | "reader" | "closed";

/** A lone surrogate (half of a UTF-16 pair), which UTF-8 cannot encode. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** The mirrored backend: a {@link FileSystem} plus `root`, `role`, `ready()` and `close()`. */
export interface OpfsMirrorFileSystem extends FileSystem {
  /** The root as given (`/better-fs-tools-mirror`), or `<handle name>`. */
  readonly root: string;
  /** This instance's part (changes when a reader takes over as writer); see {@link OpfsMirrorRole}. */
  readonly role: OpfsMirrorRole;
  /**
   * Call `use` with a view of the file's bytes (valid only during the call; see the contract's
   * `readFileView`); the mirror always offers it, and answers before the load ends when it can.
   */
  readFileView<T>(path: string, use: (bytes: Uint8Array) => T): Promise<T>;
  /**
   * Report each change under `path` (absolute) to `listener`, whichever tab made it, once it is
   * durable; {@link OPFS_MIRROR_RELOAD_EVENT} when the whole tree was loaded again. Starts the
   * load if no call has. Returns a function that stops the reports.
   */
  watch(path: string, listener: (event: WatchEvent) => void): () => void;
  /** Resolves once the durable copy is loaded into memory (every call waits for it anyway). */
  ready(): Promise<void>;
  /**
   * The same calls, synchronous, on the memory copy once loaded (before: `EBUSY`; await `ready()`).
   * A write changes memory before it returns and its journal record joins the next batch (the
   * sync writes of one task share one), durable a few milliseconds later (like IndexedDB's
   * `durability: "relaxed"`, without its debounce): call {@link flush} to know. Refused with nothing changed where the promise form
   * would be refused or could not be waited for: `EBUSY` while loading and in a reader (another tab
   * holds the writer lock), `ENOSPC` after the disk refused a batch for space (until a promise write
   * succeeds), `EIO` once closing, closed or failed; `symlink` is `ENOTSUP` (no symlinks). A batch
   * the disk refuses is taken back in memory, as for promise writes, and `flush()` rejects with it.
   */
  readonly sync: Required<FileSystemSync>;
  /**
   * Resolves once every change this instance has made so far (sync writes too) is durable (a
   * reader's forwarded promise calls are not waited for: each resolves once durable). Rejects
   * with the error of a sync write the disk refused since the last `flush()` (that change is
   * taken back in memory, so memory and the journal agree), or with `EIO` after `close()` or a
   * failure.
   *
   * @example
   * ```ts
   * import { opfsMirrorFileSystem } from "better-fs-tools/opfs-mirror";
   * const fs = opfsMirrorFileSystem();
   * await fs.ready();
   * fs.sync.writeFile("/a.txt", new TextEncoder().encode("now in memory"));
   * await fs.flush(); // and on disk
   * ```
   */
  flush(): Promise<void>;
  /**
   * Finish pending writes, close the journal, release the lock (a reader tab then takes over);
   * with `worker: true`, end the Worker. A reader's unanswered forwarded calls reject with `EIO`.
   * Later calls reject with `EIO`.
   */
  close(): Promise<void>;
}

const OPTION_KEYS = ["root", "worker", "compactMinBytes"] as const;

/** A reader's mutation waiting for the writer's answer; `again` makes the call anew (after a handover). */
interface Forwarded {
  readonly call: ForwardedCall;
  again(): Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

/** An id for this instance on the channel. */
function newInstanceId(): string {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

interface Pending {
  readonly syscall: string;
  readonly path: string;
  readonly dest?: string;
  /** The record, or a WRITE_FLUSHED record's head when `staged` is set. */
  readonly record: Uint8Array;
  /**
   * A large write's data (the file's storage in memory, never written into): sent to the Worker
   * in parts after the head's batch, flushed before the head.
   */
  readonly staged?: { readonly path: string; readonly mtimeMs: number; readonly data: Uint8Array };
  /** What `watch` reports once the record is durable. */
  readonly events: readonly WatchEvent[];
  readonly undo: () => void;
  state: "applying" | "ready";
  /** Resolves once the call is durable or taken back (what `flush()` waits for). */
  readonly settled: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * A {@link FileSystem} held in memory and mirrored, durably, to OPFS.
 *
 * Reads never touch the disk. A mutation is applied to memory, written to the journal in the
 * Worker and flushed (`FileSystemSyncAccessHandle.flush()`) before its promise resolves; calls in
 * flight together share one flush. The durable copy is loaded on the first call (or `ready()`).
 *
 * @param options - root, Worker and compaction threshold; see {@link OpfsMirrorFileSystemOptions}.
 * @returns the backend. Methods reject with `FsError` as the memory backend does (`ENOENT`,
 *   `EISDIR`, `ENOTDIR`, `EEXIST`, `ENOTEMPTY`, `EINVAL`), and with `ENOSPC` when the disk refuses
 *   a mutation (memory is put back as it was), `ENOTSUP` on the first call where OPFS is refused,
 *   `EIO` when the Worker fails or after `close()`. In a reader, a mutation rejects with the
 *   writer's error, rebuilt with the same code, syscall, paths and message. `watch` never
 *   throws; it reports changes from every tab (see the module notes).
 * @throws FsError `ENOTSUP` at creation where OPFS or `Worker` is missing, naming the fallback
 *   `better-fs-tools/idb`; TypeError for an unknown option or a bad value, naming the option.
 * @example
 * ```ts
 * import { opfsMirrorFileSystem } from "better-fs-tools/opfs-mirror";
 * const fs = opfsMirrorFileSystem({ root: "/projects/demo" });
 * await fs.writeFile("/src/a.ts", new TextEncoder().encode("export {};\n")); // on disk when this resolves
 * const stop = fs.watch("/src", (event) => console.log(event.type, event.path)); // this tab's and others'
 * ```
 */
export function opfsMirrorFileSystem(options: OpfsMirrorFileSystemOptions = {}): OpfsMirrorFileSystem {
  if (typeof options !== "object" || options === null)
    throw new TypeError("opfsMirrorFileSystem: options must be an object");
  assertKnownOptions("opfsMirrorFileSystem", options, OPTION_KEYS);
  const root = options.root ?? DEFAULT_OPFS_MIRROR_ROOT;
  if (typeof root !== "string" && (typeof root !== "object" || root === null || root.kind !== "directory")) {
    throw new TypeError('opfsMirrorFileSystem: option "root" must be a path string or a FileSystemDirectoryHandle');
  }
  if (typeof root === "string" && root.split("/").includes("..")) {
    throw new TypeError(`opfsMirrorFileSystem: option "root" must not contain "..", got "${root}"`);
  }
  const workerOption = options.worker ?? true;
  if (workerOption !== true && (typeof workerOption !== "object" || typeof workerOption.postMessage !== "function")) {
    throw new TypeError('opfsMirrorFileSystem: option "worker" must be true or a Worker');
  }
  const compactMinBytes = options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES;
  if (typeof compactMinBytes !== "number" || !Number.isFinite(compactMinBytes) || compactMinBytes < 0) {
    throw new TypeError(
      `opfsMirrorFileSystem: option "compactMinBytes" must be a non-negative finite number, got ${String(compactMinBytes)}`,
    );
  }
  const label = describeRoot(root);
  if (typeof root === "string" && !hasOpfsApi()) throw opfsUnavailableError(label);
  if (workerOption === true && typeof Worker !== "function") {
    throw new FsError("ENOTSUP", { syscall: "opfs", path: label, detail: "Worker is not available in this context" });
  }

  const mem: MemoryFileSystem = memoryFileSystem();
  const volume = mem.volume;
  const instanceId = newInstanceId();
  const lockName = channelName(OPFS_MIRROR_LOCK_PREFIX, label);
  let failure: FsError | undefined;
  let role: OpfsMirrorRole = "loading";
  let closing = false;
  let worker: Worker | undefined;
  let port: MessagePort | undefined;
  /** Stops watching the Worker's life lock (see `../opfs/worker-life.ts`). */
  let stopWatchingWorker: () => void = () => undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  let releaseLock: (() => void) | undefined;
  let holdsLock = false;
  let lockWait: AbortController | undefined;
  let channel: BroadcastChannel | undefined;
  /** Writer: where the durable copy ends. Reader: how far it has applied it. */
  let position: JournalPosition = { generation: -1, end: 0 };
  let generation = 0;
  // Reader state: the writer its calls go to, whether a snapshot is applied, batches met before it.
  let writerId: string | undefined;
  let synced = false;
  let buffered: Array<Extract<TabMessage, { kind: "batch" | "compacted" }>> = [];
  /**
   * Whether another instance on this root has been heard on the channel (or this one took over
   * from a writer): until then no reader exists (a reader asks for a snapshot first), and batches
   * are not copied onto the channel.
   */
  let heard = false;
  let firstSync: { resolve(): void; reject(error: unknown): void } | undefined;
  let snapshotTimer: ReturnType<typeof setInterval> | undefined;
  const forwarded = new Map<number, Forwarded>();
  let nextCallId = 1;
  const watchers = createWatchers();
  /**
   * The cold start's early reads (see `early.ts`): settled once the first load knows whether its
   * segment has an index (then the reads, else undefined), and at the latest when the load ends.
   */
  let settleEarlyReads: (early: EarlyReads | undefined) => void = () => undefined;
  const earlyReads = { promise: new Promise<EarlyReads | undefined>((resolve) => (settleEarlyReads = resolve)) };
  /** Set once a change is asked for before the load ends: reads then wait for the load, and see it. */
  let earlyOff = false;
  /** The first load's early reads while it runs, stopped when it ends (reads still waiting for a chunk then ask the load). */
  let earlyInUse: EarlyReads | undefined;
  let earlyDecided = false;
  /** Set when the whole tree is cleared to be loaded again; `watch` then reports a reload. */
  let treeReplaced = false;
  /** Settled once the first load knows whether this instance holds the root's lock (the writer). */
  let settleWriter: (writer: boolean) => void = () => undefined;
  const writerKnown = new Promise<boolean>((resolve) => (settleWriter = resolve));
  /** The cold start's direct reads (see `direct.ts`), opened by the first read asked before the load ends. */
  let direct: Promise<DirectReads | undefined> | undefined;
  /** The first direct read, settled: the Worker's `open` waits for it (their OPFS calls would queue behind each other). */
  let directFirst: Promise<unknown> | undefined;

  type Unsent = MirrorRequest extends infer R ? (R extends MirrorRequest ? Omit<R, "id"> : never) : never;
  function request(message: Unsent, transfer: Transferable[] = []) {
    if (port === undefined) return Promise.reject(failure ?? new FsError("EIO", { syscall: "opfs", path: label }));
    const id = nextId++;
    return new Promise<unknown>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      port!.postMessage({ ...message, id } as MirrorRequest, transfer);
    });
  }

  function post(message: TabMessage): void {
    try {
      channel?.postMessage(message);
    } catch {
      // a closed channel: nobody is listening any more
    }
  }

  /** Reject everything waiting and stop listening to other tabs (the lock is released by {@link shutdown}). */
  function fail(error: FsError): void {
    failure ??= error;
    role = "closed";
    for (const waiter of waiting.values()) waiter.reject(failure);
    waiting.clear();
    for (const call of forwarded.values()) call.reject(failure);
    forwarded.clear();
    // Changes still waiting for a batch will never get one.
    const stranded = queued;
    queued = [];
    for (const pending of stranded) pending.reject(failure);
    firstSync?.reject(failure);
    firstSync = undefined;
    clearInterval(snapshotTimer);
    lockWait?.abort();
    channel?.close();
    channel = undefined;
  }

  /** Close the Worker session, end our Worker, release the lock (the next tab in line takes over). */
  function shutdown(): void {
    try {
      port?.postMessage({ id: nextId++, kind: "close" } satisfies MirrorRequest);
    } catch {
      // already closed
    }
    port?.close();
    port = undefined;
    stopWatchingWorker();
    worker?.removeEventListener("error", onWorkerError);
    if (workerOption === true) worker?.terminate();
    worker = undefined;
    releaseLock?.();
    releaseLock = undefined;
  }

  function toFsError(error: unknown): FsError {
    return FsError.isInstance(error)
      ? error
      : error instanceof MirrorFault
        ? new FsError(error.code, { syscall: "opfs", path: label, detail: error.detail })
        : new FsError("EIO", { syscall: "opfs", path: label, detail: String(error) });
  }

  function lockRequest(locks: LockManager, lockOptions: LockOptions): Promise<boolean> {
    return new Promise<boolean>((answer, refuse) => {
      locks
        .request(lockName, lockOptions, (lock) => {
          // Granted after close() (or a failure): let it go at once; load() stops there.
          if (lock === null || closing || failure !== undefined) {
            answer(false);
            return undefined;
          }
          holdsLock = true;
          answer(true);
          return new Promise<void>((release) => (releaseLock = release));
        })
        .catch(refuse);
    });
  }

  /** After close() (or a failure) a load in progress goes no further. */
  function stopIfClosed(): void {
    if (failure !== undefined) throw failure;
    if (closing) throw new FsError("EIO", { syscall: "opfs", path: label, detail: "the file system was closed" });
  }

  async function load(): Promise<void> {
    const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
    if (locks === undefined) {
      holdsLock = true;
      settleWriter(true);
      return openAsWriter();
    }
    if (typeof BroadcastChannel !== "function") {
      // No way to hear the writer: one instance at a time, as a second one waits for the lock.
      settleWriter(await lockRequest(locks, { mode: "exclusive" }));
      stopIfClosed();
      return openAsWriter();
    }
    channel = new BroadcastChannel(lockName);
    channel.onmessage = (event: MessageEvent<TabMessage>) => onTabMessage(event.data);
    const writer = await lockRequest(locks, { mode: "exclusive", ifAvailable: true });
    settleWriter(writer);
    stopIfClosed();
    if (writer) return openAsWriter();
    role = "reader";
    const synchronised = new Promise<void>((resolve, reject) => (firstSync = { resolve, reject }));
    requestSnapshot();
    lockWait = new AbortController();
    lockRequest(locks, { mode: "exclusive", signal: lockWait.signal }).then(takeOver, () => {
      // aborted by close() or a failure
    });
    await synchronised;
  }

  /** Open the durable copy in the Worker and make memory equal to it; then serve as the writer. */
  async function openAsWriter(): Promise<void> {
    worker =
      workerOption === true
        ? new Worker(new URL("./mirror-worker.js", import.meta.url), { type: "module" })
        : workerOption;
    worker.addEventListener("error", onWorkerError);
    const pair = new MessageChannel();
    port = pair.port1;
    port.onmessage = (event: MessageEvent<MirrorReply>) => {
      const reply = event.data;
      const waiter = waiting.get(reply.id);
      if (waiter === undefined) return;
      waiting.delete(reply.id);
      if ("error" in reply) waiter.reject(new MirrorFault(reply.error.code, reply.error.detail));
      else waiter.resolve(reply.value);
    };
    // A Worker that ends without an error (terminated by its owner or the browser) fires no
    // `error` event: its life lock tells (found by the model-based test's dying Worker: calls in
    // flight then waited forever).
    const ownPort = port;
    const lifeLock = workerLifeLockName();
    stopWatchingWorker = watchWorkerLife(lifeLock, ownPort, () => {
      // Also while closing: the close request waits for this Worker.
      if (port !== ownPort || failure !== undefined) return;
      fail(
        new FsError("EIO", {
          syscall: "opfs",
          path: label,
          detail: "the OPFS mirror worker ended (terminated or crashed)",
        }),
      );
      shutdown();
    });
    const connect: MirrorConnectMessage = {
      kind: OPFS_MIRROR_CONNECT_KIND,
      port: pair.port2,
      root,
      ...(lifeLock === undefined ? {} : { lifeLock }),
    };
    worker.postMessage(connect, [pair.port2]);
    // The Worker boots meanwhile; its reads of the same files start once the direct one has its bytes.
    if (directFirst !== undefined) await directFirst;
    stopIfClosed();
    // Both asked at once: the Worker reads and checks the journal while the segment is replayed
    // here (a segment without an index comes whole; an indexed one in chunks, after the journal).
    const opening = request({ kind: "open" }) as Promise<MirrorSegment>;
    const reading = request({ kind: "journal" }) as Promise<MirrorJournal>;
    reading.catch(() => undefined);
    const opened = await opening;
    const indexed = opened.index !== undefined;
    // The first load can answer reads before it ends (a reader taking over holds its own tree).
    const early =
      opened.index !== undefined && !synced && !earlyDecided
        ? createEarlyReads(opened.index, async (offset, bytes) => {
            const record = (await request({ kind: "record", offset, bytes })) as { bytes: Uint8Array };
            return record.bytes;
          })
        : undefined;
    // Only the first load's: settled once.
    if (!earlyDecided) {
      earlyDecided = true;
      earlyInUse = early;
      settleEarlyReads(early);
    }
    let firstChunk = indexed && !synced ? (request({ kind: "chunk", at: 0 }) as Promise<MirrorChunk>) : undefined;
    firstChunk?.catch(() => undefined);
    const replaySegment = async () => {
      clearTree();
      // The Worker hands over a segment only with its seal checked: whole, and each file once.
      if (opened.segment !== undefined)
        replayRecords(volume, decodeRecords(opened.segment, { checksums: false }).records, { shareBuffer: true });
      if (!indexed) return;
      let next = firstChunk ?? (request({ kind: "chunk", at: 0 }) as Promise<MirrorChunk>);
      firstChunk = undefined;
      // With early reads, the chunks are replayed once the last has come, each in a task of its
      // own: until then reads are answered from the chunks (a search running during the load goes
      // through them as they come), and the main thread is not kept from the next one.
      const waiting: Uint8Array[] = [];
      for (let at = 0; ;) {
        const chunk = await next;
        // The next chunk is asked for at once (the Worker reads ahead).
        if (!chunk.last) next = request({ kind: "chunk", at: chunk.next }) as Promise<MirrorChunk>;
        if (early === undefined)
          replayRecords(volume, decodeRecords(chunk.bytes, { checksums: false }).records, { shareBuffer: true });
        else {
          early.chunkArrived(at, chunk.bytes);
          waiting.push(chunk.bytes);
        }
        if (chunk.last) break;
        at = chunk.next;
      }
      for (const bytes of waiting) {
        await nextTask();
        replayRecords(volume, decodeRecords(bytes, { checksums: false }).records, { shareBuffer: true });
      }
    };
    // A reader taking over that has applied every batch already holds this tree: it waits for the
    // journal's length to know, and replays nothing when it does.
    let replayed = !synced;
    const replaying = replayed ? replaySegment() : undefined;
    replaying?.catch(() => undefined);
    const journal = await reading;
    const decoded = decodeRecords(journal.journal.subarray(0, journal.checkedBytes), { checksums: false });
    early?.journalRead(decoded.records);
    await replaying;
    const disk: JournalPosition = { generation: opened.generation, end: decoded.validBytes };
    if (!replayed && !samePosition(position, disk)) {
      await replaySegment();
      replayed = true;
    }
    // An indexed segment not read (the tree was already whole) is let go.
    if (!replayed && indexed) await request({ kind: "release" });
    // The records' bytes stay in the journal's buffer; those a later record replaced are not kept alive.
    if (replayed) replayRecords(volume, decoded.records, { shareBuffer: true, superseded: "release" });
    generation = opened.generation;
    journalBytes = decoded.validBytes;
    segmentBytes = opened.segmentBytes;
    if (decoded.validBytes < journal.journal.byteLength)
      await request({ kind: "truncate", length: decoded.validBytes });
    position = disk;
    synced = true;
    buffered = [];
    writerId = instanceId;
    role = "writer";
    post({ kind: "writer", writer: instanceId, position });
  }

  /** The lock came to this reader: the writer went away. Reload from disk and run the unanswered calls here. */
  function takeOver(): void {
    if (failure !== undefined || closing) {
      releaseLock?.();
      return;
    }
    clearInterval(snapshotTimer);
    heard = true;
    loaded = false;
    role = "loading";
    const unanswered = [...forwarded.values()];
    forwarded.clear();
    const opening = openAsWriter();
    loading = opening.then(
      () => {
        loaded = true;
        announceReload();
        for (const call of unanswered) call.again().then(call.resolve, call.reject);
      },
      (error: unknown) => {
        const fsError = toFsError(error);
        fail(fsError);
        shutdown();
        for (const call of unanswered) call.reject(fsError);
        throw fsError;
      },
    );
    loading.catch(() => undefined);
    if (firstSync !== undefined) {
      const waiter = firstSync;
      firstSync = undefined;
      loading.then(waiter.resolve, waiter.reject);
    }
  }

  function requestSnapshot(): void {
    post({ kind: "snapshot-request", from: instanceId });
    snapshotTimer ??= setInterval(() => {
      if (role === "reader" && !synced) post({ kind: "snapshot-request", from: instanceId });
      else {
        clearInterval(snapshotTimer);
        snapshotTimer = undefined;
      }
    }, SNAPSHOT_RETRY_MS);
  }

  function onTabMessage(message: TabMessage): void {
    // Another instance on this root (a channel never hands an object its own messages).
    heard = true;
    switch (message.kind) {
      case "writer": {
        if (role !== "reader" || message.writer === instanceId) return;
        const changed = writerId !== message.writer;
        writerId = message.writer;
        if (!synced || !samePosition(position, message.position)) {
          // The new writer's disk holds what this reader has not seen (or it has no snapshot yet).
          synced = false;
          buffered = [];
          requestSnapshot();
        }
        if (changed) for (const [id, call] of forwarded) sendCall(id, call);
        return;
      }
      case "batch":
      case "compacted":
        if (role === "writer") return;
        if (synced) applyBatch(message);
        else buffered.push(message);
        return;
      case "snapshot-request":
        if (role === "writer" && loaded && !closing) serveSnapshot(message.from);
        return;
      case "snapshot":
        if (message.to === instanceId && role === "reader" && !synced) applySnapshot(message);
        return;
      case "call":
        if (message.to === instanceId && role === "writer" && !closing) serveCall(message);
        return;
      case "reply": {
        if (message.to !== instanceId) return;
        const call = forwarded.get(message.id);
        if (call === undefined) return;
        forwarded.delete(message.id);
        if (message.error === undefined) call.resolve();
        else call.reject(fromWireError(message.error));
        return;
      }
    }
  }

  function applyBatch(message: Extract<TabMessage, { kind: "batch" | "compacted" }>): void {
    if (!isAfter(message.position, position)) return;
    if (message.kind === "batch") {
      const records = decodeRecords(message.bytes).records;
      replayRecords(volume, records);
      position = message.position;
      announceRecords(records);
      return;
    }
    position = message.position;
  }

  function applySnapshot(message: Extract<TabMessage, { kind: "snapshot" }>): void {
    clearTree();
    if (message.segment !== undefined) replayRecords(volume, decodeRecords(message.segment).records);
    replayRecords(volume, decodeRecords(message.journal).records);
    position = message.position;
    writerId = message.writer;
    synced = true;
    const later = buffered;
    buffered = [];
    for (const batch of later) applyBatch(batch);
    clearInterval(snapshotTimer);
    snapshotTimer = undefined;
    firstSync?.resolve();
    firstSync = undefined;
    // A first snapshot is announced when the load settles (see ready()).
    if (loaded) announceReload();
  }

  function serveSnapshot(to: string): void {
    request({ kind: "read" }).then(
      (value) => {
        const opened = value as MirrorOpened;
        post({
          kind: "snapshot",
          to,
          writer: instanceId,
          position: { generation: opened.generation, end: opened.journal.byteLength },
          segment: opened.segment,
          journal: opened.journal,
        });
      },
      () => {
        // the reader asks again
      },
    );
  }

  function serveCall(message: Extract<TabMessage, { kind: "call" }>): void {
    const reply = (error?: unknown) =>
      post({
        kind: "reply",
        to: message.from,
        id: message.id,
        ...(error === undefined ? {} : { error: toWireError(error) }),
      });
    let run: Promise<void>;
    try {
      run = runCall(message.call);
    } catch (error) {
      run = Promise.reject(error);
    }
    run.then(
      () => reply(),
      (error: unknown) => reply(error ?? new Error("rejected")),
    );
  }

  function runCall(call: ForwardedCall): Promise<void> {
    switch (call.op) {
      case "writeFile":
        return fs.writeFile(call.path, call.data);
      case "mkdir":
        return fs.mkdir(call.path, call.options);
      case "rm":
        return fs.rm(call.path, call.options);
      case "rename":
        return fs.rename(call.path, call.dest);
      case "sync":
        // Answered after the batches already posted (one sender's messages arrive in order).
        return Promise.resolve();
    }
  }

  function sendCall(id: number, call: Forwarded): void {
    if (writerId === undefined || channel === undefined) return; // sent when a writer announces itself
    try {
      channel.postMessage({
        kind: "call",
        from: instanceId,
        to: writerId,
        id,
        call: call.call,
      } satisfies TabMessage);
    } catch (error) {
      forwarded.delete(id);
      call.reject(error);
    }
  }

  /**
   * Run a mutation here (writer), forward it (reader), or wait for the first load, then decide.
   * `again` makes the same call through the public method, so it is decided afresh.
   */
  function dispatch(call: ForwardedCall, again: () => Promise<void>, local: () => Promise<void>): Promise<void> {
    if (failure !== undefined) return Promise.reject(failure);
    if (!loaded) {
      // A read asked after this change must see it: no more answers before the load ends.
      earlyOff = true;
      return ready().then(again);
    }
    if (role !== "reader") return local();
    return new Promise<void>((resolve, reject) => {
      const id = nextCallId++;
      const entry: Forwarded = { call, again, resolve, reject };
      forwarded.set(id, entry);
      sendCall(id, entry);
    });
  }

  /** Remove everything under `/` (before a snapshot or a reload from disk replaces the tree). */
  function clearTree(): void {
    treeReplaced = true;
    for (const name of volume.readdirSync("/") as unknown[])
      volume.rmSync(`/${String(name)}`, { recursive: true, force: true });
  }

  /** `watch`: the tree was replaced (cleared and loaded again); tell every listener to re-read. */
  function announceReload(): void {
    if (!treeReplaced) return;
    treeReplaced = false;
    watchers.emit([OPFS_MIRROR_RELOAD_EVENT]);
  }

  /** `watch`, in a reader: the records of a batch from the writer, applied (a reload to come covers them). */
  function announceRecords(records: readonly JournalOp[]): void {
    if (!watchers.active || treeReplaced) return;
    watchers.emit(records.flatMap(eventsOfRecord));
  }

  /** `watch`, in the writer: the calls of a batch, now durable. */
  function announceFlushed(batch: readonly Pending[]): void {
    if (!watchers.active) return;
    watchers.emit(batch.flatMap((pending) => pending.events));
  }

  /**
   * `watch`: listen from now on (starting the load if it has not started: a listener that comes
   * first hears the reload that ends it). After `close()` or a failure nothing more is reported.
   */
  function watch(path: string, listener: (event: WatchEvent) => void): () => void {
    const stop = watchers.add(path, listener);
    if (failure === undefined && !loaded) ready().catch(() => undefined);
    return stop;
  }

  function onWorkerError(event: Event): void {
    const message = event instanceof ErrorEvent ? event.message : "";
    fail(
      new FsError("EIO", {
        syscall: "opfs",
        path: label,
        detail: `the OPFS mirror worker failed: ${message || 'could not load its script; pass worker: new Worker(new URL("better-fs-tools/opfs-mirror-worker", import.meta.url), { type: "module" })'}`,
      }),
    );
    shutdown();
  }

  let loading: Promise<void> | undefined;
  let loaded = false;
  function ready(): Promise<void> {
    if (failure !== undefined) return Promise.reject(failure);
    loading ??= load().then(
      () => {
        loaded = true;
        // The direct reads' journal, locator and snapshot are let go: the tree answers now.
        direct = undefined;
        directFirst = undefined;
        settleEarlyReads(undefined);
        earlyInUse?.stop();
        earlyInUse = undefined;
        announceReload();
      },
      (error: unknown) => {
        const fsError = toFsError(error);
        settleWriter(false);
        direct = undefined;
        directFirst = undefined;
        settleEarlyReads(undefined);
        earlyInUse?.stop();
        earlyInUse = undefined;
        fail(fsError);
        shutdown();
        throw fsError;
      },
    );
    return loading;
  }

  // Group commit: calls applied in memory wait in `queued`; one batch at a time is in the Worker.
  let queued: Pending[] = [];
  let inFlight: Pending[] | undefined;
  let compacting = false;
  let journalBytes = 0;
  let segmentBytes = 0;
  let drained: (() => void) | undefined;
  /** A pump is queued for the sync writes of this task. */
  let pumpSoon = false;
  /** The first refusal of a `sync` write's batch since the last `flush()` (nobody awaited it). */
  let lostSync: FsError | undefined;
  /** Set when the disk refused a batch for space (`ENOSPC`); sync writes are refused until a batch is written. */
  let spaceRefusal: { readonly code: FsError["code"]; readonly detail: string } | undefined;

  function pump(): void {
    if (inFlight !== undefined || compacting || failure !== undefined) return;
    // A large write (a WRITE_FLUSHED record) goes alone.
    let count = 0;
    while (count < queued.length && queued[count]!.state === "ready") {
      const large = queued[count]!.staged !== undefined;
      if (large && count > 0) break;
      count++;
      if (large) break;
    }
    if (count === 0) {
      if (queued.length === 0) scheduleCompact();
      return;
    }
    const batch = queued.slice(0, count);
    queued = queued.slice(count);
    inFlight = batch;
    let bytes: Uint8Array;
    if (batch.length === 1) bytes = batch[0]!.record;
    else {
      let size = 0;
      for (const pending of batch) size += pending.record.byteLength;
      bytes = new Uint8Array(size);
      let at = 0;
      for (const pending of batch) {
        bytes.set(pending.record, at);
        at += pending.record.byteLength;
      }
    }
    const staged = batch[0]!.staged;
    if (staged !== undefined) {
      // The data in parts, each copied and handed over (no clone) while the Worker writes the last.
      const { data } = staged;
      for (let at = 0; at < data.byteLength; at += STAGE_CHUNK_BYTES) {
        // A buffer of its own (`slice` of a Buffer, which memory's storage is, would be a view).
        const part = new Uint8Array(Math.min(STAGE_CHUNK_BYTES, data.byteLength - at));
        part.set(data.subarray(at, at + part.byteLength));
        request({ kind: "stage", at: bytes.byteLength + at, bytes: part }, [part.buffer]).catch(() => undefined);
      }
    }
    // The bytes go to the Worker without a copy (a lone record's own buffer) and come back with
    // its answer; other tabs get them once they are durable (a copy per message, so only once
    // another instance has been heard).
    request({ kind: "append", bytes, ...(staged === undefined ? {} : { staged: staged.data.byteLength }) }, [
      bytes.buffer,
    ]).then(
      (value) => {
        const appended = value as MirrorAppended;
        journalBytes = appended.journalBytes;
        inFlight = undefined;
        spaceRefusal = undefined;
        position = { generation, end: journalBytes };
        if (heard && appended.bytes !== undefined) {
          const whole =
            staged === undefined ? appended.bytes : encodeFlushedWrite(staged.path, staged.mtimeMs, staged.data);
          post({ kind: "batch", writer: instanceId, position, bytes: whole });
        }
        announceFlushed(batch);
        for (const pending of batch) pending.resolve();
        pump();
      },
      (error: unknown) => {
        inFlight = undefined;
        // Take back, newest first, every call applied in memory that is not on disk.
        const undone = [...batch, ...queued.filter((pending) => pending.state === "ready")];
        queued = queued.filter((pending) => pending.state !== "ready");
        for (const pending of [...undone].reverse()) {
          try {
            pending.undo();
          } catch (undoError) {
            fail(new FsError("EIO", { syscall: "opfs", path: label, detail: `undo failed: ${String(undoError)}` }));
          }
        }
        const code = error instanceof MirrorFault || FsError.isInstance(error) ? error.code : "EIO";
        const detail =
          error instanceof MirrorFault ? error.detail : error instanceof Error ? error.message : String(error);
        if (code === "ENOSPC") spaceRefusal = { code, detail };
        for (const pending of undone) {
          pending.reject(
            new FsError(code, {
              syscall: pending.syscall,
              path: pending.path,
              ...(pending.dest === undefined ? {} : { dest: pending.dest }),
              detail,
            }),
          );
        }
        pump();
      },
    );
  }

  /**
   * Consider compacting in a task of its own: the calls just resolved go on first (encoding the
   * segment holds the main thread for as long as it takes to copy the tree).
   */
  let compactScheduled = false;
  function scheduleCompact(): void {
    if (journalBytes < compactMinBytes || journalBytes < 2 * segmentBytes) {
      drained?.();
      return;
    }
    if (compactScheduled) return;
    compactScheduled = true;
    void nextTask().then(() => {
      compactScheduled = false;
      if (inFlight === undefined && !compacting && failure === undefined && queued.length === 0) maybeCompact();
      else drained?.();
    });
  }

  function maybeCompact(): void {
    if (journalBytes < compactMinBytes || journalBytes < 2 * segmentBytes) {
      drained?.();
      return;
    }
    void compact();
  }

  /** Write the tree as the next generation's segment (the journal starts empty); resolves when done or given up. */
  function compact(): Promise<void> {
    compacting = true;
    const segment = encodeSegment(volume);
    const written = segment.bytes.byteLength + segment.seal.byteLength;
    // The segment goes to the Worker without a copy.
    return request({ kind: "compact", bytes: segment.bytes, seal: segment.seal }, [segment.bytes.buffer])
      .then(
        () => {
          journalBytes = 0;
          segmentBytes = written;
          generation += 1;
          position = { generation, end: 0 };
          post({ kind: "compacted", writer: instanceId, position });
        },
        () => {
          // Not compacted (quota?): the old generation is whole; try again after as much again.
          segmentBytes = journalBytes;
        },
      )
      .finally(() => {
        compacting = false;
        pump();
      });
  }

  /** What a mutation does: capture its undo and its record (`prepare`), then change memory. */
  interface Change {
    prepare(): { undo: () => void; record: () => JournalOp; bytes?: Uint8Array };
    apply(): Promise<void>;
    applySync(): void;
  }

  /** A lone surrogate in a name: the refusal (a record holds names as UTF-8, see {@link mutate}). */
  function surrogateError(syscall: string, path: string, dest: string | undefined): FsError | undefined {
    for (const named of dest === undefined ? [path] : [path, dest]) {
      if (typeof named === "string" && LONE_SURROGATE.test(named))
        return new FsError("EINVAL", {
          syscall,
          path,
          ...(dest === undefined ? {} : { dest }),
          detail: "a name holds a lone surrogate (half of a UTF-16 pair), which the durable copy cannot keep",
        });
    }
    return undefined;
  }

  /** The journal record of a prepared change (a large write: a head, and its data staged); throws when none can be made. */
  function recordOf(prepared: ReturnType<Change["prepare"]>): {
    record: Uint8Array;
    staged: Pending["staged"];
    events: readonly WatchEvent[];
  } {
    const op = prepared.record();
    if (op.op === OP_WRITE && op.data.byteLength >= FLUSHED_DATA_BYTES) {
      // A large write: a head now, the data (memory's copy, else one of its own) sent in parts.
      return {
        record: encodeWriteHead(op.path, op.mtimeMs, op.data.byteLength),
        staged: { path: op.path, mtimeMs: op.mtimeMs, data: prepared.bytes ?? new Uint8Array(op.data) },
        events: eventsOfRecord(op),
      };
    }
    return { record: encodeRecord(op), staged: undefined, events: eventsOfRecord(op) };
  }

  /** Queue a change's record; `settled` resolves once it is durable or taken back. */
  function enqueue(
    fields: Omit<Pending, "state" | "settled" | "resolve" | "reject">,
    state: Pending["state"],
    resolve: () => void,
    reject: (error: unknown) => void,
  ): Pending {
    let settle: () => void = () => undefined;
    const settled = new Promise<void>((done) => (settle = done));
    const pending: Pending = {
      ...fields,
      state,
      settled,
      resolve() {
        settle();
        resolve();
      },
      reject(error) {
        settle();
        reject(error);
      },
    };
    queued.push(pending);
    return pending;
  }

  /**
   * Run a mutation: capture its undo and its record, apply it to memory (memory backend calls
   * change the tree synchronously, so records are queued in the order the changes happened),
   * then wait until its batch is flushed.
   */
  function mutate(syscall: string, path: string, dest: string | undefined, change: Change): Promise<void> {
    if (failure !== undefined) return Promise.reject(failure);
    // A record holds its paths as UTF-8, where a lone surrogate becomes U+FFFD: such a name would
    // come back from the next load (and reach the other tabs) as another name.
    const invalid = surrogateError(syscall, path, dest);
    if (invalid !== undefined) return Promise.reject(invalid);
    let prepared: ReturnType<Change["prepare"]>;
    try {
      prepared = change.prepare();
    } catch {
      // An invalid path: the memory backend's own call reports it.
      return unrecorded(change.apply(), path);
    }
    const applied = change.apply();
    let made: ReturnType<typeof recordOf>;
    try {
      made = recordOf(prepared);
    } catch {
      return unrecorded(applied, path);
    }
    const { record, staged, events } = made;
    return new Promise<void>((resolve, reject) => {
      const pending = enqueue(
        {
          syscall,
          path,
          ...(dest === undefined ? {} : { dest }),
          record,
          ...(staged === undefined ? {} : { staged }),
          events,
          undo: prepared.undo,
        },
        "applying",
        resolve,
        reject,
      );
      applied.then(
        () => {
          pending.state = "ready";
          pump();
        },
        (error: unknown) => {
          queued = queued.filter((entry) => entry !== pending);
          pending.reject(error);
          pump();
        },
      );
    });
  }

  /**
   * A sync call's refusal where the promise form would be refused, or could not be waited for
   * (undefined: the call may go ahead).
   */
  function syncWriteRefusal(syscall: string, path: string, dest: string | undefined): FsError | undefined {
    const paths = { syscall, path, ...(dest === undefined ? {} : { dest }) };
    if (failure !== undefined) return failure;
    if (closing) return new FsError("EIO", { ...paths, detail: "the OPFS mirror is closing" });
    if (!loaded)
      return new FsError("EBUSY", { ...paths, detail: "the mirror is still loading; await fs.ready() first" });
    if (role === "reader")
      return new FsError("EBUSY", {
        ...paths,
        detail:
          "another tab holds this mirror's writer lock: a write here goes through that tab, which a synchronous call cannot wait for; use the promise or callback API",
      });
    if (spaceRefusal !== undefined)
      return new FsError(spaceRefusal.code, {
        ...paths,
        detail: `the disk refused an earlier write (${spaceRefusal.detail}); synchronous writes are refused until a promise write succeeds`,
      });
    return surrogateError(syscall, path, dest);
  }

  /**
   * A mutation made by a `sync` call: refused at once where the promise form would be (see
   * {@link syncWriteRefusal}), else applied to memory before it returns; its record joins the
   * next batch (the Worker writes it within the task), like a promise write nobody awaits. A
   * batch the disk refuses is taken back in memory as for promise writes, and `flush()` reports it.
   */
  function mutateSync(syscall: string, path: string, dest: string | undefined, change: Change): void {
    const refusal = syncWriteRefusal(syscall, path, dest);
    if (refusal !== undefined) throw refusal;
    let prepared: ReturnType<Change["prepare"]>;
    try {
      prepared = change.prepare();
    } catch {
      // An invalid path: the memory backend's own call reports it (and should it not, fail).
      change.applySync();
      throw unrecordedFault(path);
    }
    // Memory's refusal (ENOENT, EISDIR...) is thrown here with nothing changed or queued.
    change.applySync();
    let made: ReturnType<typeof recordOf>;
    try {
      made = recordOf(prepared);
    } catch {
      throw unrecordedFault(path);
    }
    const { record, staged, events } = made;
    enqueue(
      {
        syscall,
        path,
        ...(dest === undefined ? {} : { dest }),
        record,
        ...(staged === undefined ? {} : { staged }),
        events,
        undo: prepared.undo,
      },
      "ready",
      () => undefined,
      (error) => {
        lostSync ??= error as FsError;
      },
    );
    if (!pumpSoon) {
      // Sync writes made in one task share a batch.
      pumpSoon = true;
      queueMicrotask(() => {
        pumpSoon = false;
        pump();
      });
    }
  }

  /**
   * Every change made so far durable: resolves once the batches holding them are written and
   * flushed; rejects with the error of a `sync` write the disk refused since the last `flush()`
   * (that change was taken back in memory, so memory and disk agree).
   */
  async function flush(): Promise<void> {
    if (failure !== undefined) throw failure;
    if (!loaded) await ready();
    await Promise.all([...(inFlight ?? []), ...queued].map((pending) => pending.settled));
    const lost = lostSync;
    lostSync = undefined;
    if (lost !== undefined) throw lost;
    if (failure !== undefined) throw failure;
  }

  /**
   * A read that may be answered before the load ends (see `early.ts`): `ask` gets the early
   * reads once the cold start knows whether there are any, and the call waits for the load when
   * there are none or they cannot say (`undefined`).
   */
  function beforeLoad<R>(ask: (early: EarlyReads) => Promise<R | undefined>, call: () => Promise<R>): Promise<R> {
    if (failure !== undefined) return Promise.reject(failure);
    if (loaded) return call();
    return askEarly(ask).then((answer) => (answer !== undefined ? answer : read(call)()));
  }

  /**
   * A file read before the Worker's early reads exist: straight from OPFS on the main thread
   * (see `direct.ts`) once this instance is known to hold the lock, and while no change has been
   * asked for; undefined when the call must go on to the early reads or the load.
   */
  function askDirect(path: string): Promise<Uint8Array | undefined> {
    if (earlyOff || earlyDecided || loaded || failure !== undefined || typeof FileSystemFileHandle !== "function")
      return Promise.resolve(undefined);
    if (loading === undefined) ready().catch(() => undefined);
    direct ??= Promise.all([writerKnown, resolveOpfsRoot(root).then(openDirectReads)]).then(
      ([writer, reads]) => (writer ? reads : undefined),
      () => undefined,
    );
    const answer = direct.then(async (reads) => {
      if (reads === undefined || earlyOff || loaded || failure !== undefined) return undefined;
      const bytes = await reads.readFile(path);
      // A change asked for meanwhile: the read waits for the load, which holds it.
      return earlyOff || failure !== undefined ? undefined : bytes;
    });
    directFirst ??= answer.catch(() => undefined);
    return answer;
  }

  /** {@link askDirect}, then the early reads, then the loaded tree. */
  function readFileBeforeLoad(path: string): Promise<Uint8Array> {
    return askDirect(path).then((bytes) =>
      bytes !== undefined
        ? bytes
        : beforeLoad(
            (early) => early.readFile(path),
            () => mem.readFile(path),
          ),
    );
  }

  /** The early reads' answer, or undefined when the call must wait for the load (see {@link beforeLoad}). */
  function askEarly<R>(ask: (early: EarlyReads) => Promise<R | undefined>): Promise<R | undefined> {
    if (earlyOff) return Promise.resolve(undefined);
    // The early reads of the load under way: asked at once (no hop through the promise).
    if (earlyInUse !== undefined) return ask(earlyInUse).catch(() => undefined);
    if (loading === undefined) ready().catch(() => undefined);
    return earlyReads.promise.then((early) =>
      early === undefined || loaded || earlyOff
        ? undefined
        : // A failed early answer (the Worker gone) leaves the call to the load, which says why.
          ask(early).catch(() => undefined),
    );
  }

  /**
   * A mutation whose record could not be made (an invalid path, which the memory backend's own
   * call refuses): should that call succeed anyway, memory would hold a change the disk never
   * gets, so the backend fails (`EIO`, every later call too) rather than drift from its durable copy.
   */
  function unrecorded(applied: Promise<void>, path: string): Promise<void> {
    return applied.then(() => {
      throw unrecordedFault(path);
    });
  }

  /** The backend fails (`EIO`, every later call too): memory holds a change the disk never gets. */
  function unrecordedFault(path: string): FsError {
    const fault = new FsError("EIO", {
      syscall: "opfs",
      path: label,
      detail: `a change to ${path} was made in memory without a journal record`,
    });
    fail(fault);
    shutdown();
    return fault;
  }

  function read<A extends unknown[], R>(call: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return (...args) => {
      if (failure !== undefined) return Promise.reject(failure);
      if (!loaded) return ready().then(() => call(...args));
      return call(...args);
    };
  }

  // Tools over the mirror lock paths across tabs by default (Web Locks named after the root), so
  // a read-modify-write in one tab never interleaves with one in another.
  // A reader that takes a lock first catches up with the writer (a `sync` round trip), so what it
  // reads under the lock includes every change made under that lock in another tab.
  const tabLocks =
    typeof navigator !== "undefined" && navigator.locks !== undefined
      ? webLocks({ prefix: `${DEFAULT_WEB_LOCKS_PREFIX}opfs-mirror${label}:` })
      : undefined;
  const locks =
    tabLocks === undefined
      ? undefined
      : {
          run<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> {
            return tabLocks.run(keys, async () => {
              const settled = () => Promise.resolve();
              await dispatch({ op: "sync" }, settled, settled);
              return fn();
            });
          },
        };

  /**
   * A write: the plain case is written straight into its node (one copy, the old bytes kept by
   * reference for the undo); anything else goes through the memory backend.
   */
  function writeChange(path: string, data: Uint8Array): Change {
    let written: NodeWrite | undefined;
    return {
      prepare() {
        written = writeFileNode(volume, path, data);
        if (written !== undefined) {
          const { mtimeMs, undo, bytes } = written;
          return { undo, bytes, record: () => ({ op: OP_WRITE, path, mtimeMs, data }) };
        }
        const created = firstMissing(volume, path, false);
        const before = created === undefined ? capture(volume, path) : null;
        return {
          undo: () => restore(volume, created ?? path, created === undefined ? before : null),
          record: () => ({ op: OP_WRITE, path, mtimeMs: Number(volume.statSync(path).mtimeMs), data }),
        };
      },
      apply: () => (written !== undefined ? Promise.resolve() : mem.writeFile(path, data)),
      applySync() {
        if (written === undefined) mem.sync.writeFile(path, data);
      },
    };
  }

  function mkdirChange(path: string, mkdirOptions: { recursive?: boolean } | undefined): Change {
    return {
      prepare() {
        const created = firstMissing(volume, path, true);
        return {
          undo: () => {
            if (created !== undefined) restore(volume, created, null);
          },
          record: () => ({ op: OP_MKDIR, path }),
        };
      },
      apply: () => mem.mkdir(path, mkdirOptions),
      applySync: () => mem.sync.mkdir(path, mkdirOptions),
    };
  }

  function rmChange(path: string, rmOptions: { recursive?: boolean; force?: boolean } | undefined): Change {
    return {
      prepare() {
        const before = capture(volume, path);
        return { undo: () => restore(volume, path, before), record: () => ({ op: OP_RM, path }) };
      },
      apply: () => mem.rm(path, rmOptions),
      applySync: () => mem.sync.rm(path, rmOptions),
    };
  }

  function renameChange(from: string, to: string): Change {
    return {
      prepare() {
        const source = capture(volume, from);
        const target = capture(volume, to);
        return {
          undo: () => {
            restore(volume, to, target);
            restore(volume, from, source);
          },
          record: () => ({ op: OP_RENAME, path: from, dest: to }),
        };
      },
      apply: () => mem.rename(from, to),
      applySync: () => mem.sync.rename(from, to),
    };
  }

  const whenLoaded = (syscall: string, path: string): void => {
    if (failure !== undefined) throw failure;
    if (!loaded)
      throw new FsError("EBUSY", { syscall, path, detail: "the mirror is still loading; await fs.ready() first" });
  };
  const sync: Required<FileSystemSync> = {
    readFile: (path) => (whenLoaded("open", path), mem.sync.readFile(path)),
    stat: (path) => (whenLoaded("stat", path), mem.sync.stat(path)),
    lstat: (path) => (whenLoaded("lstat", path), mem.sync.lstat(path)),
    readdir: (path) => (whenLoaded("scandir", path), mem.sync.readdir(path)),
    realpath: (path) => (whenLoaded("realpath", path), mem.sync.realpath(path)),
    readlink: (path) => (whenLoaded("readlink", path), mem.sync.readlink(path)),
    writeFile: (path, data) => mutateSync("open", path, undefined, writeChange(path, data)),
    mkdir: (path, mkdirOptions) => mutateSync("mkdir", path, undefined, mkdirChange(path, mkdirOptions)),
    rm: (path, rmOptions) => mutateSync("rm", path, undefined, rmChange(path, rmOptions)),
    rename: (from, to) => mutateSync("rename", from, to, renameChange(from, to)),
    symlink: (_target, path) => {
      throw new FsError("ENOTSUP", { syscall: "symlink", path, detail: "the OPFS mirror has no symlinks" });
    },
  };

  const fs: OpfsMirrorFileSystem = {
    name: "opfs-mirror",
    capabilities: { watch: true },
    root: label,
    sync,
    ...(locks === undefined ? {} : { locks }),
    readFile: (path) =>
      loaded
        ? beforeLoad(
            () => Promise.resolve(undefined),
            () => mem.readFile(path),
          )
        : readFileBeforeLoad(path),
    async readFileView<T>(path: string, use: (bytes: Uint8Array) => T): Promise<T> {
      if (failure === undefined && !loaded) {
        const bytes = await askDirect(path);
        if (bytes !== undefined) return use(bytes);
        // An error of `use` is the caller's: it is thrown, not taken for "ask the load".
        let thrown: { readonly error: unknown } | undefined;
        const answer = await askEarly((early) =>
          early.readFileView(path, (bytes) => {
            try {
              return use(bytes);
            } catch (error) {
              thrown = { error };
              throw error;
            }
          }),
        );
        if (thrown !== undefined) throw thrown.error;
        if (answer !== undefined) return answer.value;
      }
      return read(() => mem.readFileView(path, use))();
    },
    stat: (path) =>
      beforeLoad(
        (early) => early.stat(path),
        () => mem.stat(path),
      ),
    lstat: (path) =>
      beforeLoad(
        (early) => early.stat(path),
        () => mem.lstat(path),
      ),
    readdir: (path) =>
      beforeLoad(
        (early) => early.readdir(path),
        () => mem.readdir(path),
      ),
    realpath: (path) =>
      beforeLoad(
        async (early) => ((await early.stat(path)) === undefined ? undefined : path),
        () => mem.realpath(path),
      ),
    get role() {
      return role;
    },
    writeFile(path, data) {
      return dispatch(
        { op: "writeFile", path, data },
        () => fs.writeFile(path, data),
        () => mutate("open", path, undefined, writeChange(path, data)),
      );
    },
    mkdir(path, mkdirOptions) {
      return dispatch(
        { op: "mkdir", path, options: mkdirOptions },
        () => fs.mkdir(path, mkdirOptions),
        () => mutate("mkdir", path, undefined, mkdirChange(path, mkdirOptions)),
      );
    },
    rm(path, rmOptions) {
      return dispatch(
        { op: "rm", path, options: rmOptions },
        () => fs.rm(path, rmOptions),
        () => mutate("rm", path, undefined, rmChange(path, rmOptions)),
      );
    },
    rename(from, to) {
      return dispatch(
        { op: "rename", path: from, dest: to },
        () => fs.rename(from, to),
        () => mutate("rename", from, to, renameChange(from, to)),
      );
    },
    watch,
    ready,
    flush,
    async close() {
      if (failure !== undefined && port === undefined && channel === undefined) return;
      closing = true;
      // A writer (or a reader taking over) finishes its writes; a reader has none of its own, and
      // a load that has not got the lock yet stops where it is (the lock, if granted later, is let go).
      if (loading !== undefined && holdsLock) {
        await loading.catch(() => undefined);
        while (queued.length > 0 || inFlight !== undefined || compacting || compactScheduled) {
          await new Promise<void>((resolve) => {
            drained = resolve;
            setTimeout(resolve, 10);
          });
        }
        // The next cold start reads one indexed segment rather than a long journal as well.
        if (role === "writer" && failure === undefined && shouldCompactOnClose(journalBytes, segmentBytes))
          await compact();
        if (port !== undefined && failure === undefined) await request({ kind: "close" }).catch(() => undefined);
      }
      fail(new FsError("EIO", { syscall: "opfs", path: label, detail: "the file system was closed" }));
      shutdown();
    },
  };
  return fs;
}

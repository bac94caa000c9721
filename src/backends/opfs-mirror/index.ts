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
 * - Compaction: once the journal passes `compactMinBytes` and twice the last segment, the tree
 *   is written as segment `g + 1` (the seal written only after its records are flushed), then the
 *   old generation is removed; a crash in between leaves the old, whole generation in use.
 * - Quota: a mutation the disk refuses rejects with `ENOSPC` and is taken back in memory, so
 *   memory and disk hold the same tree. Calls in flight in the same batch are taken back too and
 *   reject with the same error.
 * - One writer: the backend holds an exclusive Web Lock named after its root while open; a second
 *   instance on the same root waits for it.
 * - No symlinks.
 *
 * @module
 */
import { FsError } from "../../contract/errors.js";
import { assertKnownOptions } from "../../contract/options.js";
import type { FileSystem } from "../../contract/types.js";
import { memoryFileSystem, type MemoryFileSystem } from "../memory/index.js";
import { describeRoot, hasOpfsApi, opfsUnavailableError } from "../opfs/root.js";
import { OP_MKDIR, OP_RENAME, OP_RM, OP_WRITE, decodeRecords, encodeRecord } from "./journal.js";
import {
  MirrorFault,
  OPFS_MIRROR_CONNECT_KIND,
  type MirrorAppended,
  type MirrorConnectMessage,
  type MirrorOpened,
  type MirrorReply,
  type MirrorRequest,
} from "./protocol.js";
import { replayRecords } from "./replay.js";
import { encodeSegment } from "./snapshot.js";
import { capture, firstMissing, restore } from "./undo.js";

/** Where the mirror keeps its files by default, under the origin's OPFS root. */
export const DEFAULT_OPFS_MIRROR_ROOT = "/better-fs-tools-mirror";
/** The journal is compacted once it is larger than this (and than twice the last segment), in bytes. */
export const DEFAULT_COMPACT_MIN_BYTES = 64 * 1024 * 1024;
/** Prefix of the Web Lock that makes one instance per root the writer. */
export const OPFS_MIRROR_LOCK_PREFIX = "better-fs-tools:opfs-mirror:";

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

/** The mirrored backend: a {@link FileSystem} plus `root`, `ready()` and `close()`. */
export interface OpfsMirrorFileSystem extends FileSystem {
  /** The root as given (`/better-fs-tools-mirror`), or `<handle name>`. */
  readonly root: string;
  /** Resolves once the durable copy is loaded into memory (every call waits for it anyway). */
  ready(): Promise<void>;
  /** Finish pending writes, close the journal, release the lock; with `worker: true`, end the Worker. Later calls reject with `EIO`. */
  close(): Promise<void>;
}

const OPTION_KEYS = ["root", "worker", "compactMinBytes"] as const;

interface Pending {
  readonly syscall: string;
  readonly path: string;
  readonly dest?: string;
  readonly record: Uint8Array;
  readonly undo: () => void;
  state: "applying" | "ready";
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
 *   `EIO` when the Worker fails or after `close()`.
 * @throws FsError `ENOTSUP` at creation where OPFS or `Worker` is missing, naming the fallback
 *   `better-fs-tools/idb`; TypeError for an unknown option or a bad value, naming the option.
 * @example
 * ```ts
 * import { opfsMirrorFileSystem } from "better-fs-tools/opfs-mirror";
 * const fs = opfsMirrorFileSystem({ root: "/projects/demo" });
 * await fs.writeFile("/src/a.ts", new TextEncoder().encode("export {};\n")); // on disk when this resolves
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
  let failure: FsError | undefined;
  let worker: Worker | undefined;
  let port: MessagePort | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  let releaseLock: (() => void) | undefined;

  type Unsent = MirrorRequest extends infer R ? (R extends MirrorRequest ? Omit<R, "id"> : never) : never;
  function request(message: Unsent, transfer: Transferable[] = []) {
    if (port === undefined) return Promise.reject(failure ?? new FsError("EIO", { syscall: "opfs", path: label }));
    const id = nextId++;
    return new Promise<unknown>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      port!.postMessage({ ...message, id } as MirrorRequest, transfer);
    });
  }

  function fail(error: FsError): void {
    failure ??= error;
    for (const waiter of waiting.values()) waiter.reject(failure);
    waiting.clear();
  }

  async function load(): Promise<void> {
    if (typeof navigator !== "undefined" && navigator.locks !== undefined) {
      await new Promise<void>((held) => {
        void navigator.locks.request(OPFS_MIRROR_LOCK_PREFIX + label, { mode: "exclusive" }, () => {
          held();
          return new Promise<void>((release) => (releaseLock = release));
        });
      });
    }
    worker =
      workerOption === true
        ? new Worker(new URL("./mirror-worker.js", import.meta.url), { type: "module" })
        : workerOption;
    worker.addEventListener("error", onWorkerError);
    const channel = new MessageChannel();
    port = channel.port1;
    port.onmessage = (event: MessageEvent<MirrorReply>) => {
      const reply = event.data;
      const waiter = waiting.get(reply.id);
      if (waiter === undefined) return;
      waiting.delete(reply.id);
      if ("error" in reply) waiter.reject(new MirrorFault(reply.error.code, reply.error.detail));
      else waiter.resolve(reply.value);
    };
    const connect: MirrorConnectMessage = { kind: OPFS_MIRROR_CONNECT_KIND, port: channel.port2, root };
    worker.postMessage(connect, [channel.port2]);
    const opened = (await request({ kind: "open" })) as MirrorOpened;
    if (opened.segment !== undefined) {
      // The Worker hands over a segment only with its seal checked: whole, and each file once.
      replayRecords(volume, decodeRecords(opened.segment, { checksums: false }).records, { shareBuffer: true });
    }
    const journal = decodeRecords(opened.journal);
    replayRecords(volume, journal.records);
    journalBytes = journal.validBytes;
    segmentBytes = opened.segment?.byteLength ?? 0;
    if (journal.validBytes < opened.journal.byteLength) await request({ kind: "truncate", length: journal.validBytes });
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
  }

  let loading: Promise<void> | undefined;
  let loaded = false;
  function ready(): Promise<void> {
    if (failure !== undefined) return Promise.reject(failure);
    loading ??= load().then(
      () => {
        loaded = true;
      },
      (error: unknown) => {
        const fsError = FsError.isInstance(error)
          ? error
          : error instanceof MirrorFault
            ? new FsError(error.code, { syscall: "opfs", path: label, detail: error.detail })
            : new FsError("EIO", { syscall: "opfs", path: label, detail: String(error) });
        fail(fsError);
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

  function pump(): void {
    if (inFlight !== undefined || compacting || failure !== undefined) return;
    let count = 0;
    while (count < queued.length && queued[count]!.state === "ready") count++;
    if (count === 0) {
      if (queued.length === 0) maybeCompact();
      return;
    }
    const batch = queued.slice(0, count);
    queued = queued.slice(count);
    inFlight = batch;
    let size = 0;
    for (const pending of batch) size += pending.record.byteLength;
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const pending of batch) {
      bytes.set(pending.record, at);
      at += pending.record.byteLength;
    }
    request({ kind: "append", bytes }, [bytes.buffer]).then(
      (value) => {
        journalBytes = (value as MirrorAppended).journalBytes;
        inFlight = undefined;
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

  function maybeCompact(): void {
    if (journalBytes < compactMinBytes || journalBytes < 2 * segmentBytes) {
      drained?.();
      return;
    }
    compacting = true;
    const segment = encodeSegment(volume);
    request({ kind: "compact", bytes: segment.bytes, seal: segment.seal })
      .then(
        () => {
          journalBytes = 0;
          segmentBytes = segment.bytes.byteLength + segment.seal.byteLength;
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

  /**
   * Run a mutation: capture its undo and its record, apply it to memory (memory backend calls
   * change the tree synchronously, so records are queued in the order the changes happened),
   * then wait until its batch is flushed.
   */
  function mutate(
    syscall: string,
    path: string,
    dest: string | undefined,
    prepare: () => { undo: () => void; record: () => Uint8Array },
    apply: () => Promise<void>,
  ): Promise<void> {
    if (failure !== undefined) return Promise.reject(failure);
    if (!loaded) return ready().then(() => mutate(syscall, path, dest, prepare, apply));
    let prepared: { undo: () => void; record: () => Uint8Array };
    try {
      prepared = prepare();
    } catch {
      // An invalid path: the memory backend's own call reports it.
      return apply();
    }
    const applied = apply();
    let record: Uint8Array;
    try {
      record = prepared.record();
    } catch {
      return applied;
    }
    return new Promise<void>((resolve, reject) => {
      const pending: Pending = {
        syscall,
        path,
        ...(dest === undefined ? {} : { dest }),
        record,
        undo: prepared.undo,
        state: "applying",
        resolve,
        reject,
      };
      queued.push(pending);
      applied.then(
        () => {
          pending.state = "ready";
          pump();
        },
        (error: unknown) => {
          queued = queued.filter((entry) => entry !== pending);
          reject(error);
          pump();
        },
      );
    });
  }

  function read<A extends unknown[], R>(call: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return (...args) => {
      if (failure !== undefined) return Promise.reject(failure);
      if (!loaded) return ready().then(() => call(...args));
      return call(...args);
    };
  }

  const fs: OpfsMirrorFileSystem = {
    name: "opfs-mirror",
    capabilities: {},
    root: label,
    readFile: read((path: string) => mem.readFile(path)),
    stat: read((path: string) => mem.stat(path)),
    lstat: read((path: string) => mem.lstat(path)),
    readdir: read((path: string) => mem.readdir(path)),
    realpath: read((path: string) => mem.realpath(path)),
    writeFile(path, data) {
      return mutate(
        "open",
        path,
        undefined,
        () => {
          const created = firstMissing(volume, path, false);
          const before = created === undefined ? capture(volume, path) : null;
          return {
            undo: () => restore(volume, created ?? path, created === undefined ? before : null),
            record: () => encodeRecord({ op: OP_WRITE, path, mtimeMs: Number(volume.statSync(path).mtimeMs), data }),
          };
        },
        () => mem.writeFile(path, data),
      );
    },
    mkdir(path, mkdirOptions) {
      return mutate(
        "mkdir",
        path,
        undefined,
        () => {
          const created = firstMissing(volume, path, true);
          return {
            undo: () => {
              if (created !== undefined) restore(volume, created, null);
            },
            record: () => encodeRecord({ op: OP_MKDIR, path }),
          };
        },
        () => mem.mkdir(path, mkdirOptions),
      );
    },
    rm(path, rmOptions) {
      return mutate(
        "rm",
        path,
        undefined,
        () => {
          const before = capture(volume, path);
          return { undo: () => restore(volume, path, before), record: () => encodeRecord({ op: OP_RM, path }) };
        },
        () => mem.rm(path, rmOptions),
      );
    },
    rename(from, to) {
      return mutate(
        "rename",
        from,
        to,
        () => {
          const source = capture(volume, from);
          const target = capture(volume, to);
          return {
            undo: () => {
              restore(volume, to, target);
              restore(volume, from, source);
            },
            record: () => encodeRecord({ op: OP_RENAME, path: from, dest: to }),
          };
        },
        () => mem.rename(from, to),
      );
    },
    ready,
    async close() {
      if (failure !== undefined && port === undefined) return;
      if (loading !== undefined) {
        await loading.catch(() => undefined);
        while (queued.length > 0 || inFlight !== undefined || compacting) {
          await new Promise<void>((resolve) => {
            drained = resolve;
            setTimeout(resolve, 10);
          });
        }
        if (port !== undefined && failure === undefined) await request({ kind: "close" }).catch(() => undefined);
      }
      fail(new FsError("EIO", { syscall: "opfs", path: label, detail: "the file system was closed" }));
      port?.close();
      port = undefined;
      worker?.removeEventListener("error", onWorkerError);
      if (workerOption === true) worker?.terminate();
      releaseLock?.();
    },
  };
  return fs;
}

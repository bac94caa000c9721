/**
 * File I/O for the OPFS backend inside a dedicated Worker: `createSyncAccessHandle()` handles
 * kept open across calls (opening one costs about as much as a `createWritable`), closed after
 * an idle time, beyond a count, and before a remove or a move.
 *
 * @module
 */
import type { OpfsFileIo } from "./core.js";

/** Sync access handles idle longer than this are closed, so other tabs can use the files (milliseconds). */
export const DEFAULT_SYNC_HANDLE_IDLE_MS = 1_000;
/** At most this many sync access handles stay open; the least recently used is closed first. */
export const DEFAULT_MAX_SYNC_HANDLES = 64;

/** Options of {@link syncAccessIo}. */
export interface SyncAccessIoOptions {
  /** Idle time after which a handle is closed, in milliseconds. @default DEFAULT_SYNC_HANDLE_IDLE_MS */
  readonly idleMs?: number;
  /** Most handles open at once. @default DEFAULT_MAX_SYNC_HANDLES */
  readonly maxHandles?: number;
}

/** `FileSystemSyncAccessHandle` (declared in the WebWorker lib only, which this package does not load). */
export interface SyncAccessHandle {
  read(buffer: Uint8Array, options?: { at?: number }): number;
  write(buffer: Uint8Array, options?: { at?: number }): number;
  truncate(newSize: number): void;
  getSize(): number;
  flush(): void;
  close(): void;
}

/** A file handle that can open a {@link SyncAccessHandle} (dedicated Workers). */
export type SyncCapableFileHandle = FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncAccessHandle> };

/** True where `createSyncAccessHandle` exists (dedicated Workers of current browsers). */
export function canUseSyncAccess(): boolean {
  return (
    typeof FileSystemFileHandle !== "undefined" &&
    typeof (FileSystemFileHandle.prototype as Partial<SyncCapableFileHandle>).createSyncAccessHandle === "function"
  );
}

interface Open {
  readonly access: SyncAccessHandle;
  /** Modification time of our last write, in milliseconds since the epoch. */
  mtimeMs: number | undefined;
  lastUsedMs: number;
}

function readAll(held: Open): Uint8Array {
  held.lastUsedMs = Date.now();
  const { access } = held;
  const size = access.getSize();
  const bytes = new Uint8Array(size);
  let offset = 0;
  while (offset < size) {
    const read = access.read(bytes.subarray(offset), { at: offset });
    if (read === 0) break;
    offset += read;
  }
  return offset === size ? bytes : bytes.slice(0, offset);
}

function writeAll(held: Open, data: Uint8Array): void {
  held.lastUsedMs = Date.now();
  const { access } = held;
  const oldSize = access.getSize();
  // Grow first: a quota error here leaves the old bytes untouched.
  if (data.byteLength > oldSize) access.truncate(data.byteLength);
  let offset = 0;
  while (offset < data.byteLength) {
    offset += access.write(data.subarray(offset), { at: offset });
  }
  if (data.byteLength < oldSize) access.truncate(data.byteLength);
  // No flush() per write: it is an fsync (milliseconds each). The bytes are in the file
  // already; close() (idle, release, or the file system's close()) flushes them.
  held.mtimeMs = Date.now();
}

/**
 * The Worker {@link OpfsFileIo}. Only usable where `createSyncAccessHandle` exists (dedicated
 * Workers).
 *
 * Writes keep the previous content on a quota error: the file is grown first (which fails
 * before anything changes), then written in place, then truncated. Writes are not fsynced one
 * by one: a handle is flushed when it closes (after `idleMs`, before a remove or move, or on
 * `close()`), so an operating-system crash may lose the writes of that last second.
 *
 * @param options - idle time and handle count.
 */
export function syncAccessIo(options: SyncAccessIoOptions = {}): OpfsFileIo {
  const idleMs = options.idleMs ?? DEFAULT_SYNC_HANDLE_IDLE_MS;
  const maxHandles = options.maxHandles ?? DEFAULT_MAX_SYNC_HANDLES;
  const open = new Map<string, Promise<Open>>();
  /** The handles of `open` that finished opening, for the synchronous fast path. */
  const settled = new Map<string, Open>();
  let sweepTimer: ReturnType<typeof setTimeout> | undefined;

  function closeOne(path: string): Promise<void> {
    const entry = open.get(path);
    if (entry === undefined) return Promise.resolve();
    open.delete(path);
    settled.delete(path);
    return entry.then(
      (held) => held.access.close(),
      () => undefined,
    );
  }

  function scheduleSweep(): void {
    if (sweepTimer !== undefined) return;
    sweepTimer = setTimeout(() => {
      sweepTimer = undefined;
      void sweep();
    }, idleMs);
  }

  async function sweep(): Promise<void> {
    const now = Date.now();
    for (const [path, entry] of open) {
      const held = await entry.catch(() => undefined);
      if (held === undefined || now - held.lastUsedMs >= idleMs) await closeOne(path);
    }
    if (open.size > 0) scheduleSweep();
  }

  async function acquire(handle: FileSystemFileHandle, path: string): Promise<Open> {
    let entry: Promise<Open> | undefined = open.get(path);
    if (entry === undefined) {
      if (open.size >= maxHandles) {
        // Close the least recently used settled handle.
        let oldestPath: string | undefined;
        let oldestMs = Infinity;
        for (const [candidate, pending] of open) {
          const held = await pending.catch(() => undefined);
          if (held !== undefined && held.lastUsedMs < oldestMs) {
            oldestMs = held.lastUsedMs;
            oldestPath = candidate;
          }
        }
        if (oldestPath !== undefined) await closeOne(oldestPath);
      }
      entry = open.get(path);
      if (entry === undefined) {
        const opening: Promise<Open> = (handle as SyncCapableFileHandle)
          .createSyncAccessHandle()
          .then((access): Open => {
            const held: Open = { access, mtimeMs: undefined, lastUsedMs: Date.now() };
            if (open.get(path) === opening) settled.set(path, held);
            return held;
          });
        open.set(path, opening);
        opening.catch(() => {
          if (open.get(path) === opening) open.delete(path);
        });
        entry = opening;
      }
    }
    const held = await entry;
    held.lastUsedMs = Date.now();
    scheduleSweep();
    return held;
  }

  return {
    syncAccess: true,
    async read(handle, path) {
      return readAll(await acquire(handle, path));
    },
    async write(handle, data, path) {
      writeAll(await acquire(handle, path), data);
    },
    readOpen(path) {
      const held = settled.get(path);
      return held === undefined ? undefined : readAll(held);
    },
    writeOpen(path, data) {
      const held = settled.get(path);
      if (held === undefined) return false;
      writeAll(held, data);
      return true;
    },
    async stat(handle, path) {
      const entry = open.get(path);
      const held = entry === undefined ? undefined : await entry.catch(() => undefined);
      if (held !== undefined) {
        const file = await handle.getFile();
        return { size: held.access.getSize(), mtimeMs: held.mtimeMs ?? file.lastModified };
      }
      const file = await handle.getFile();
      return { size: file.size, mtimeMs: file.lastModified };
    },
    async release(path) {
      const prefix = path === "/" ? "/" : path + "/";
      const closing: Array<Promise<void>> = [];
      for (const key of [...open.keys()]) {
        if (key === path || key.startsWith(prefix)) closing.push(closeOne(key));
      }
      await Promise.all(closing);
    },
    async close() {
      if (sweepTimer !== undefined) clearTimeout(sweepTimer);
      sweepTimer = undefined;
      await Promise.all([...open.keys()].map(closeOne));
    },
  };
}

/**
 * File I/O for the OPFS backend inside a dedicated Worker: reads through `createSyncAccessHandle()`
 * handles kept open across calls (opening one costs about as much as a `createWritable`), closed
 * after an idle time, beyond a count, and before a remove or a move; writes into a new temporary
 * file, flushed, that the core then moves onto the file's name (see `OpfsCoreOptions.writeThroughTemp`).
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
  /**
   * Set when the handle leaves the cache (idle, least recently used, released): whoever got it
   * earlier and has not used it yet must open the file again.
   */
  closed: boolean;
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

/**
 * Write `data` into a new empty file through a sync access handle of its own, flush it (the
 * bytes are on disk before the file is moved onto its name), and close it.
 */
async function writeNew(handle: FileSystemFileHandle, data: Uint8Array): Promise<void> {
  const access = await (handle as SyncCapableFileHandle).createSyncAccessHandle();
  try {
    // Size first: a quota error comes before any byte is written.
    access.truncate(data.byteLength);
    let offset = 0;
    while (offset < data.byteLength) {
      offset += access.write(data.subarray(offset), { at: offset });
    }
    access.flush();
  } finally {
    access.close();
  }
}

/**
 * The Worker {@link OpfsFileIo}. Only usable where `createSyncAccessHandle` exists (dedicated
 * Workers).
 *
 * Reads go through handles kept open. A write goes to a new temporary file (the core's
 * `writeThroughTemp`) through a handle of its own, flushed and closed before the core moves it onto the
 * file's name: the file is replaced whole or not at all, even when the Worker ends mid-write.
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

  /** Closes in progress, by path: a new handle on the path waits for the old one to close. */
  const closing = new Map<string, Promise<void>>();

  function closeOne(path: string): Promise<void> {
    const entry = open.get(path);
    if (entry === undefined) return closing.get(path) ?? Promise.resolve();
    open.delete(path);
    const held = settled.get(path);
    settled.delete(path);
    // Marked at once, not when close() runs: a caller holding it now opens the file again.
    if (held !== undefined) held.closed = true;
    const done = entry.then(
      (opened) => {
        opened.closed = true;
        opened.access.close();
      },
      () => undefined,
    );
    closing.set(path, done);
    void done.finally(() => {
      if (closing.get(path) === done) closing.delete(path);
    });
    return done;
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
    for (const [path, entry] of [...open]) {
      const held = await entry.catch(() => undefined);
      // Only if the entry is still the one looked at: it may have been closed and opened again.
      if (open.get(path) === entry && (held === undefined || now - held.lastUsedMs >= idleMs)) await closeOne(path);
    }
    if (open.size > 0) scheduleSweep();
  }

  /** Close the least recently used settled handle, to stay within `maxHandles`. */
  async function evictOldest(): Promise<void> {
    let oldestPath: string | undefined;
    let oldestMs = Infinity;
    for (const [candidate, pending] of [...open]) {
      const held = await pending.catch(() => undefined);
      if (held !== undefined && !held.closed && held.lastUsedMs < oldestMs) {
        oldestMs = held.lastUsedMs;
        oldestPath = candidate;
      }
    }
    if (oldestPath !== undefined) await closeOne(oldestPath);
  }

  /**
   * Run `use` on the open sync access handle of `path` (opened if needed), synchronously once it
   * is known to be open: a handle closed while this call waited (the idle sweep, the least
   * recently used one dropped for another file, a release) is never used; the file is opened
   * again, after the old handle has closed.
   */
  async function withHandle<T>(handle: FileSystemFileHandle, path: string, use: (held: Open) => T): Promise<T> {
    for (;;) {
      const pendingClose = closing.get(path);
      if (pendingClose !== undefined) {
        await pendingClose;
        continue;
      }
      let entry = open.get(path);
      if (entry === undefined) {
        if (open.size >= maxHandles) {
          await evictOldest();
          // The awaits let others open or close this path: look again.
          if (open.has(path) || closing.has(path)) continue;
        }
        const opening: Promise<Open> = (handle as SyncCapableFileHandle)
          .createSyncAccessHandle()
          .then((access): Open => {
            const held: Open = { access, closed: false, lastUsedMs: Date.now() };
            if (open.get(path) === opening) settled.set(path, held);
            return held;
          });
        open.set(path, opening);
        opening.catch(() => {
          if (open.get(path) === opening) open.delete(path);
        });
        entry = opening;
      }
      const held = await entry;
      if (held.closed) continue;
      held.lastUsedMs = Date.now();
      scheduleSweep();
      return use(held);
    }
  }

  /** The handle of `path` if one is open and usable now (synchronously). */
  function openNow(path: string): Open | undefined {
    const held = settled.get(path);
    return held === undefined || held.closed ? undefined : held;
  }

  return {
    syncAccess: true,
    async read(handle, path) {
      return withHandle(handle, path, readAll);
    },
    async write(handle, data) {
      await writeNew(handle, data);
    },
    readOpen(path) {
      const held = openNow(path);
      return held === undefined ? undefined : readAll(held);
    },
    async stat(handle, path) {
      // The size comes from the open handle when there is one (it sees every write at once), read
      // right after getFile() resolves: the handle may have closed while getFile() waited. A
      // handle closing meanwhile flushes first, so the file is read again once it has.
      for (let attempt = 0; ; attempt += 1) {
        const pendingClose = closing.get(path);
        if (pendingClose !== undefined) await pendingClose;
        const wasOpen = open.has(path);
        const file = await handle.getFile();
        const held = openNow(path);
        if (held !== undefined) return { size: held.access.getSize(), mtimeMs: file.lastModified };
        if (!wasOpen || attempt >= 3) return { size: file.size, mtimeMs: file.lastModified };
      }
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

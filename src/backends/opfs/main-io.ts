/**
 * File I/O for the OPFS backend on the main thread (or any context without sync access handles):
 * reads through `getFile()`, writes through `createWritable()`, which writes a swap file that
 * replaces the original only on `close()`.
 *
 * @module
 */
import type { OpfsFileIo } from "./core.js";
import { isDomError } from "./errors.js";

/** How many times a read re-fetches a `File` that went stale (`NotReadableError`) under it. */
export const STALE_FILE_RETRIES = 5;

/**
 * Read a whole file, re-fetching the `File` when it changed between `getFile()` and the read.
 *
 * @param handle - the file.
 * @returns the bytes.
 * @throws the last `NotReadableError` after {@link STALE_FILE_RETRIES} attempts, or any other error.
 */
export async function readWholeFile(handle: FileSystemFileHandle): Promise<Uint8Array> {
  for (let attempt = 0; ; attempt++) {
    try {
      const file = await handle.getFile();
      return new Uint8Array(await file.arrayBuffer());
    } catch (error) {
      if (!isDomError(error, "NotReadableError") || attempt >= STALE_FILE_RETRIES) throw error;
    }
  }
}

/**
 * Replace a file's bytes through a writable stream. The old content stays until `close()`
 * succeeds; on any failure the stream is aborted (in `finally`), which drops the swap file.
 *
 * @param handle - the file.
 * @param data - the new bytes.
 */
export async function writeWholeFile(handle: FileSystemFileHandle, data: Uint8Array): Promise<void> {
  const writable = await handle.createWritable({ keepExistingData: false });
  let closed = false;
  try {
    await writable.write(data as Uint8Array<ArrayBuffer>);
    await writable.close();
    closed = true;
  } finally {
    if (!closed) await writable.abort().catch(() => undefined);
  }
}

/** The main-thread {@link OpfsFileIo}: nothing held open between calls. */
export function mainThreadIo(): OpfsFileIo {
  return {
    syncAccess: false,
    read: (handle) => readWholeFile(handle),
    write: (handle, data) => writeWholeFile(handle, data),
    async stat(handle) {
      for (let attempt = 0; ; attempt++) {
        try {
          const file = await handle.getFile();
          return { size: file.size, mtimeMs: file.lastModified };
        } catch (error) {
          if (!isDomError(error, "NotReadableError") || attempt >= STALE_FILE_RETRIES) throw error;
        }
      }
    },
    release: async () => undefined,
    close: async () => undefined,
  };
}

/**
 * Moving many files in and out of the workspace: zip export and import (fflate), folder import
 * (directory picker or `<input webkitdirectory>`). Each reports progress in files and bytes done
 * of the total and stops at the next file when its signal aborts.
 *
 * @module
 */
import { unzipSync, Zip, ZipDeflate } from "fflate";
import type { FileSystem } from "better-fs-tools";

/** Progress of a transfer: files and bytes done of the totals. */
export interface TransferProgress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
}

export interface TransferOptions {
  /** Called after each file (and once at the start with zero done). */
  readonly onProgress?: (progress: TransferProgress) => void;
  /** Abort to stop: the transfer rejects with an `AbortError` at the next file. */
  readonly signal?: AbortSignal;
}

/** A file to import: its workspace-relative path, size in bytes and a way to read it. */
export interface ImportEntry {
  readonly path: string;
  readonly size: number;
  read(): Promise<Uint8Array>;
}

/** What an import did. */
export interface ImportSummary {
  readonly files: number;
  readonly bytes: number;
  /** Entries refused (unsafe names such as `../x` or absolute paths) with the reason. */
  readonly skipped: readonly string[];
}

/** Folders left out of folder imports: version control and installed packages. */
export const SKIPPED_FOLDERS: readonly string[] = [".git", "node_modules"];
/** Bytes decompressed per batch when importing a zip, before yielding to the page. */
const ZIP_BATCH_BYTES = 2 * 1024 * 1024;
/**
 * Backend calls in flight during bulk work (walks, imports, exports). OPFS is 2.5-4x faster with
 * many calls in flight than one at a time (see design.md); memory does not mind.
 */
export const TRANSFER_CONCURRENCY = 16;
const WALK_CONCURRENCY = TRANSFER_CONCURRENCY;

function abortError(): DOMException {
  return new DOMException("The transfer was cancelled", "AbortError");
}

/**
 * A cancelled import: an `AbortError` that carries what was imported before it stopped (every
 * write started had finished), so the page can say exactly what is in the workspace.
 */
export class ImportCancelledError extends DOMException {
  constructor(readonly summary: ImportSummary) {
    super("The transfer was cancelled", "AbortError");
  }
}

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A safe workspace-relative path for an entry name, or undefined for an unsafe one
 * (absolute, with `..`, a backslash or a NUL byte).
 */
export function safeRelativePath(name: string): string | undefined {
  if (name.includes("\0") || name.includes("\\") || name.startsWith("/")) return undefined;
  const segments = name.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.length === 0 || segments.includes("..")) return undefined;
  return segments.join("/");
}

/**
 * Every file under `root`, with its size in bytes, sorted by path.
 *
 * @param options.skip - true for an absolute path to leave out (a directory: with everything in it).
 */
export async function walkFiles(
  fs: FileSystem,
  root: string,
  signal?: AbortSignal,
  options: { readonly skip?: (path: string) => boolean } = {},
): Promise<Array<{ path: string; size: number }>> {
  const files: Array<{ path: string; size: number }> = [];
  let queue = [root];
  while (queue.length > 0) {
    if (signal?.aborted) throw abortError();
    const next: string[] = [];
    for (let index = 0; index < queue.length; index += WALK_CONCURRENCY) {
      await Promise.all(
        queue.slice(index, index + WALK_CONCURRENCY).map(async (dir) => {
          for (const entry of await fs.readdir(dir)) {
            const path = dir === "/" ? `/${entry.name}` : `${dir}/${entry.name}`;
            if (options.skip?.(path) === true) continue;
            if (entry.type === "directory") next.push(path);
            else if (entry.type === "file") files.push({ path, size: (await fs.stat(path)).size });
          }
        }),
      );
    }
    queue = next;
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Zip every file under `root` (paths in the zip are relative to it).
 *
 * @returns the zip's bytes.
 * @throws DOMException `AbortError` when `signal` aborts.
 */
export async function exportZip(fs: FileSystem, root: string, options: TransferOptions = {}): Promise<Uint8Array> {
  const files = await walkFiles(fs, root, options.signal);
  const bytesTotal = files.reduce((sum, file) => sum + file.size, 0);
  const chunks: Uint8Array[] = [];
  let failure: Error | undefined;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else chunks.push(chunk);
  });
  let bytesDone = 0;
  options.onProgress?.({ filesDone: 0, filesTotal: files.length, bytesDone, bytesTotal });
  let filesDone = 0;
  for (let start = 0; start < files.length; start += TRANSFER_CONCURRENCY) {
    if (options.signal?.aborted) {
      zip.terminate();
      throw abortError();
    }
    const group = files.slice(start, start + TRANSFER_CONCURRENCY);
    const contents = await Promise.all(group.map((file) => fs.readFile(file.path)));
    for (const [index, file] of group.entries()) {
      const data = contents[index]!;
      const entry = new ZipDeflate(file.path.slice(root.length + 1), { level: 6 });
      zip.add(entry);
      entry.push(data, true);
      if (failure) throw failure;
      filesDone += 1;
      bytesDone += data.byteLength;
      options.onProgress?.({ filesDone, filesTotal: files.length, bytesDone, bytesTotal });
    }
    await yieldToPage();
  }
  zip.end();
  if (failure) throw failure;
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** The entries of a zip (files only), read lazily in batches. */
export function zipEntries(zip: Uint8Array): ImportEntry[] {
  const infos: Array<{ name: string; originalSize: number }> = [];
  unzipSync(zip, {
    filter(info) {
      if (!info.name.endsWith("/")) infos.push({ name: info.name, originalSize: info.originalSize });
      return false;
    },
  });
  // Decompress in batches of about ZIP_BATCH_BYTES: one central-directory pass per batch.
  const batchOf = new Map<string, number>();
  let batch = 0;
  let batchBytes = 0;
  for (const info of infos) {
    if (batchBytes > ZIP_BATCH_BYTES) {
      batch += 1;
      batchBytes = 0;
    }
    batchOf.set(info.name, batch);
    batchBytes += info.originalSize;
  }
  // Imports read entries in order with a few in flight, so at most two batches are in use at once.
  const loaded = new Map<number, Record<string, Uint8Array>>();
  return infos.map((info) => ({
    path: info.name,
    size: info.originalSize,
    async read() {
      const wanted = batchOf.get(info.name)!;
      let files = loaded.get(wanted);
      if (files === undefined) {
        files = unzipSync(zip, { filter: (file) => batchOf.get(file.name) === wanted });
        loaded.set(wanted, files);
        for (const key of loaded.keys()) if (key < wanted - 1) loaded.delete(key);
      }
      return files[info.name] ?? new Uint8Array(0);
    },
  }));
}

/** Entries of a folder chosen with `<input webkitdirectory>` (the top folder's name is dropped). */
export function inputFolderEntries(files: ArrayLike<File>): ImportEntry[] {
  const entries: ImportEntry[] = [];
  for (const file of Array.from(files)) {
    const relative = (file.webkitRelativePath || file.name).split("/");
    if (relative.length > 1) relative.shift();
    if (relative.some((segment) => SKIPPED_FOLDERS.includes(segment))) continue;
    entries.push({
      path: relative.join("/"),
      size: file.size,
      read: async () => new Uint8Array(await file.arrayBuffer()),
    });
  }
  return entries;
}

/** Minimal shape of the File System Access API's directory handle (not in every TS DOM lib). */
interface DirectoryHandleLike {
  readonly kind: "directory";
  readonly name: string;
  values(): AsyncIterable<
    DirectoryHandleLike | { readonly kind: "file"; readonly name: string; getFile(): Promise<File> }
  >;
}

/** Entries of a folder chosen with `showDirectoryPicker()`. */
export async function handleFolderEntries(handle: DirectoryHandleLike, signal?: AbortSignal): Promise<ImportEntry[]> {
  const entries: ImportEntry[] = [];
  const walk = async (dir: DirectoryHandleLike, prefix: string) => {
    for await (const child of dir.values()) {
      if (signal?.aborted) throw abortError();
      if (child.kind === "directory") {
        if (!SKIPPED_FOLDERS.includes(child.name)) await walk(child, `${prefix}${child.name}/`);
      } else {
        const file = await child.getFile();
        entries.push({
          path: `${prefix}${child.name}`,
          size: file.size,
          read: async () => new Uint8Array(await file.arrayBuffer()),
        });
      }
    }
  };
  await walk(handle, "");
  return entries.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/**
 * Write `entries` under `root`, {@link TRANSFER_CONCURRENCY} at a time. Unsafe names are skipped
 * and listed in the summary (in the order met).
 *
 * @throws ImportCancelledError (an `AbortError`) when `signal` aborts: no new file starts, the
 *   writes in flight finish, and files written so far stay; its `summary` counts them.
 */
export async function importEntries(
  fs: FileSystem,
  root: string,
  entries: readonly ImportEntry[],
  options: TransferOptions = {},
): Promise<ImportSummary> {
  const bytesTotal = entries.reduce((sum, entry) => sum + entry.size, 0);
  const skipped: string[] = [];
  let bytesDone = 0;
  let filesDone = 0;
  let next = 0;
  options.onProgress?.({ filesDone, filesTotal: entries.length, bytesDone, bytesTotal });
  // A few writes in flight; each worker takes the next entry until none is left or the signal aborts.
  const worker = async () => {
    while (next < entries.length && !options.signal?.aborted) {
      const entry = entries[next++]!;
      const relative = safeRelativePath(entry.path);
      if (relative === undefined) skipped.push(`${entry.path}: unsafe name`);
      else await fs.writeFile(`${root}/${relative}`, await entry.read());
      filesDone += 1;
      bytesDone += entry.size;
      options.onProgress?.({ filesDone, filesTotal: entries.length, bytesDone, bytesTotal });
      if (filesDone % 10 === 0) await yieldToPage();
    }
  };
  await Promise.all(Array.from({ length: Math.min(TRANSFER_CONCURRENCY, entries.length) }, worker));
  const summary = { files: filesDone - skipped.length, bytes: bytesDone, skipped };
  if (options.signal?.aborted) throw new ImportCancelledError(summary);
  return summary;
}

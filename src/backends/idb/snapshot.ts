/**
 * Reading and rebuilding a memfs volume as per-path {@link IdbRecord}s, synchronously, so a
 * snapshot is never torn by a call running in between (every memory-backend call is one
 * synchronous memfs step).
 *
 * @module
 */
import type { Volume } from "memfs";
import type { IdbRecord } from "./store.js";
import { parentPath } from "../../contract/path.js";

const PERMISSION_BITS = 0o7777;

/** `/a/b/c` → `/a`, `/a/b` (the root is never stored). */
export function ancestorsOf(path: string): string[] {
  const result: string[] = [];
  for (let parent = parentPath(path); parent !== "/"; parent = parentPath(parent)) result.unshift(parent);
  return result;
}

/** The record for one path (not following a final symlink), or `undefined` when absent. */
export function recordAt(volume: Volume, path: string): IdbRecord | undefined {
  let stats;
  try {
    stats = volume.lstatSync(path);
  } catch {
    return undefined;
  }
  const mode = Number(stats.mode) & PERMISSION_BITS;
  const mtimeMs = Number(stats.mtimeMs);
  if (stats.isSymbolicLink()) return { kind: "symlink", target: String(volume.readlinkSync(path)) };
  if (stats.isDirectory()) return { kind: "directory", mode, mtimeMs };
  const data = volume.readFileSync(path) as Uint8Array;
  return { kind: "file", data: new Uint8Array(data), mode, mtimeMs };
}

/** Records for `path` and, for a directory, everything below it (symlinks are not followed). */
export function recordsUnder(volume: Volume, path: string, into: Map<string, IdbRecord>): void {
  if (path !== "/") {
    const record = recordAt(volume, path);
    if (record === undefined) return;
    into.set(path, record);
    if (record.kind !== "directory") return;
  }
  for (const name of volume.readdirSync(path) as string[]) {
    recordsUnder(volume, path === "/" ? `/${name}` : `${path}/${name}`, into);
  }
}

/**
 * Rebuild a volume from records (parents before children; directory times set last, since
 * creating children changes them).
 *
 * @param volume - an empty volume.
 * @param records - what was stored.
 */
export function restoreVolume(volume: Volume, records: ReadonlyMap<string, IdbRecord>): void {
  const paths = [...records.keys()].sort();
  for (const path of paths) {
    const record = records.get(path) as IdbRecord;
    if (record.kind === "directory") {
      volume.mkdirSync(path, { recursive: true });
      volume.chmodSync(path, record.mode);
      continue;
    }
    volume.mkdirSync(parentPath(path), { recursive: true });
    if (record.kind === "symlink") {
      volume.symlinkSync(record.target, path);
    } else {
      volume.writeFileSync(path, record.data);
      volume.chmodSync(path, record.mode);
      volume.utimesSync(path, record.mtimeMs / 1000, record.mtimeMs / 1000);
    }
  }
  for (const path of paths.reverse()) {
    const record = records.get(path) as IdbRecord;
    if (record.kind === "directory") volume.utimesSync(path, record.mtimeMs / 1000, record.mtimeMs / 1000);
  }
}

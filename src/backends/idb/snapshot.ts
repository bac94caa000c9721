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

/**
 * Whether `path` names an entry of its own parent directory, reached through no symlink (its
 * parent's real path is the parent itself). A path through a link (`/w/d/a.txt` once `/w/d` is
 * a link to `/out`) names the link target's entry: it is stored there, never under this name.
 */
function isPhysical(volume: Volume, path: string): boolean {
  const parent = parentPath(path);
  if (parent === "/") return true;
  try {
    return String(volume.realpathSync(parent)) === parent;
  } catch {
    return false;
  }
}

/**
 * The record for one path (not following a final symlink), or `undefined` when absent or when
 * a directory of the path is a symlink (the entry lives, and is stored, under its real path).
 * `checked`: the caller knows the path is physical (an ancestor of one), so it is not looked up again.
 */
export function recordAt(volume: Volume, path: string, checked = false): IdbRecord | undefined {
  if (!checked && !isPhysical(volume, path)) return undefined;
  return recordOf(volume, path);
}

function recordOf(volume: Volume, path: string): IdbRecord | undefined {
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

/**
 * Records for `path` and, for a directory, everything below it (symlinks are not followed;
 * nothing when a directory of `path` is a symlink, see {@link recordAt}).
 */
export function recordsUnder(volume: Volume, path: string, into: Map<string, IdbRecord>, below = false): void {
  if (path !== "/") {
    const record = below ? recordOf(volume, path) : recordAt(volume, path);
    if (record === undefined) return;
    into.set(path, record);
    if (record.kind !== "directory") return;
  }
  for (const name of volume.readdirSync(path) as string[]) {
    recordsUnder(volume, path === "/" ? `/${name}` : `${path}/${name}`, into, true);
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

/**
 * Undo for the mirrored backend's working set: what a mutation is about to change is captured
 * (synchronously, before the change), so that a mutation the disk refused (quota) can be taken
 * back and memory again equals the durable copy.
 *
 * @module
 */
import type { Volume } from "memfs";
import { joinPath } from "../../contract/path.js";

/** A captured path: absent, a file (bytes, mtime, mode) or a directory and its children. */
export type Captured =
  | null
  | { readonly kind: "file"; readonly data: Uint8Array; readonly mtimeMs: number; readonly mode: number }
  | { readonly kind: "directory"; readonly mode: number; readonly children: ReadonlyArray<[string, Captured]> };

interface Lstat {
  isDirectory(): boolean;
  readonly mode: number | bigint;
  readonly mtimeMs: number | bigint;
}

/**
 * Whether `path` exists (a final link not followed), asked of memfs's path walk, which builds no
 * error for a missing name: most writes are of new files, and a failed `lstatSync` builds an
 * error with its stack trace every time.
 */
function exists(volume: Volume, path: string): boolean {
  const found = volume._core.walk(path, false, false, false);
  return found.ok && found.value !== null;
}

function lstatOrNull(volume: Volume, path: string): Lstat | null {
  if (!exists(volume, path)) return null;
  try {
    return (volume.lstatSync(path) as Lstat | undefined) ?? null;
  } catch {
    return null;
  }
}

/**
 * Capture `path` and everything under it (symlinks are not part of this backend).
 *
 * @param volume - the working set.
 * @param path - an absolute path.
 * @returns what is there now, `null` when nothing is.
 */
export function capture(volume: Volume, path: string): Captured {
  const stats = lstatOrNull(volume, path);
  if (stats === null) return null;
  if (stats.isDirectory()) {
    const names = (volume.readdirSync(path) as unknown[]).map(String);
    return {
      kind: "directory",
      mode: Number(stats.mode) & 0o7777,
      children: names.map((name): [string, Captured] => [name, capture(volume, joinPath(path, name))]),
    };
  }
  const data = volume.readFileSync(path) as Uint8Array;
  return { kind: "file", data, mtimeMs: Number(stats.mtimeMs), mode: Number(stats.mode) & 0o7777 };
}

/**
 * Put `path` back as captured: whatever is there now is removed first.
 *
 * @param volume - the working set.
 * @param path - the captured path (its parent exists).
 * @param captured - from {@link capture}.
 */
export function restore(volume: Volume, path: string, captured: Captured): void {
  if (exists(volume, path)) volume.rmSync(path, { recursive: true, force: true });
  if (captured === null) return;
  if (captured.kind === "file") {
    volume.writeFileSync(path, captured.data, { mode: captured.mode });
    volume.utimesSync(path, captured.mtimeMs / 1000, captured.mtimeMs / 1000);
    return;
  }
  volume.mkdirSync(path, { mode: captured.mode });
  for (const [name, child] of captured.children) restore(volume, joinPath(path, name), child);
}

/**
 * The highest ancestor of `path` (or `path` itself) that does not exist yet: what a call that
 * creates missing parents would create, so removing it undoes the call. `undefined` when
 * `path` and all its parents exist.
 *
 * @param volume - the working set.
 * @param path - an absolute path.
 * @param includeSelf - consider `path` itself (mkdir) or only its parents (writeFile).
 */
export function firstMissing(volume: Volume, path: string, includeSelf: boolean): string | undefined {
  const parts = path.split("/").filter((part) => part !== "");
  const last = includeSelf ? parts.length : parts.length - 1;
  let current = "";
  for (let index = 0; index < last; index++) {
    current += "/" + parts[index];
    if (!exists(volume, current)) return current;
  }
  return undefined;
}

/**
 * Reading and rebuilding a memfs volume as per-path {@link IdbRecord}s, synchronously, so a
 * snapshot is never torn by a call running in between (every memory-backend call is one
 * synchronous memfs step).
 *
 * Reads walk memfs's tree of links name by name from the root, once per changed path, and then
 * down its subtree: a save costs the path's length plus, per record under it, its own path. (A
 * memfs call per record walks the whole path again from the root: a chain of 2,000 directories
 * took 2,000 × 2,000 steps.)
 *
 * @module
 */
import type { Volume } from "memfs";
import type { IdbRecord } from "./store.js";
import { FsError } from "../../contract/errors.js";
import { baseName, parentPath, resolvePath } from "../../contract/path.js";

const PERMISSION_BITS = 0o7777;
/** memfs's mode for a directory made on the way (`mkdirSync(path, { recursive: true })`). */
const DEFAULT_DIRECTORY_MODE = 0o777;
/** memfs's mode for a new entry before it is made a symlink (`symlinkSync`). */
const SYMLINK_MODE = 0o666;

type MemfsLink = Volume["_core"]["root"];

/** An entry of a directory link (not its `.` and `..`), read without touching access times. */
function childOf(link: MemfsLink, name: string): MemfsLink | undefined {
  if (name === "." || name === "..") return undefined;
  return link.children.get(name);
}

/**
 * The link of `path`, walked name by name from the root without following any symlink, with
 * its ancestors on the way (`/a`, `/a/b` for `/a/b/c`). `undefined` when a name is missing, or
 * when a directory of the path is a symlink or not a directory: an entry reached through a link
 * (`/w/d/a.txt` once `/w/d` is a link to `/out`) is the link target's entry, stored there and
 * never under this name.
 */
function physicalLink(
  volume: Volume,
  path: string,
): { link: MemfsLink; ancestors: Array<{ path: string; link: MemfsLink }> } | undefined {
  let link = volume._core.root;
  const ancestors: Array<{ path: string; link: MemfsLink }> = [];
  const names = path.split("/").filter((name) => name !== "");
  let at = "";
  for (let index = 0; index < names.length; index += 1) {
    const node = link.getNode();
    if (!node.isDirectory()) return undefined;
    if (index > 0) ancestors.push({ path: at, link });
    const name = names[index] as string;
    const child = childOf(link, name);
    if (child === undefined) return undefined;
    at = `${at}/${name}`;
    link = child;
    if (index < names.length - 1 && link.getNode().isSymlink()) return undefined;
  }
  return { link, ancestors };
}

/** The record of one link (not following a symlink); `undefined` for a kind not stored. */
function recordOfLink(link: MemfsLink): IdbRecord | undefined {
  const node = link.getNode();
  const mode = node.mode & PERMISSION_BITS;
  const mtimeMs = node.mtime.getTime();
  if (node.isSymlink()) return { kind: "symlink", target: node.symlink };
  if (node.isDirectory()) return { kind: "directory", mode, mtimeMs };
  if (node.isFile()) return { kind: "file", data: new Uint8Array(node.getBuffer()), mode, mtimeMs };
  return undefined;
}

/** What {@link recordsOf} reads at a changed path. */
export interface RecordsOfOptions {
  /** Also every record below `path` when it is a directory (symlinks are not followed). */
  readonly subtree: boolean;
  /** Whether an ancestor of `path` needs its record too (it is not stored yet). */
  readonly wantsAncestor: (ancestor: string) => boolean;
}

/**
 * Records for `path` (nothing when it is absent, or when a directory of it is a symlink: that
 * entry is the link target's, saved under the target's path), the ancestors `wantsAncestor`
 * asks for (made on the way by `mkdir -p` or a write into new directories), and with `subtree`
 * everything below it. The root itself is never stored: `/` with `subtree` gives every record.
 * One walk from the root, then one step per record below.
 *
 * @param volume - the memfs volume.
 * @param path - an absolute, normal path.
 * @param into - receives path → record.
 * @param options - see {@link RecordsOfOptions}.
 */
export function recordsOf(volume: Volume, path: string, into: Map<string, IdbRecord>, options: RecordsOfOptions): void {
  const found = physicalLink(volume, path);
  if (found === undefined) return;
  const record = path === "/" ? undefined : recordOfLink(found.link);
  if (path !== "/") {
    if (record === undefined) return;
    into.set(path, record);
  }
  for (const ancestor of found.ancestors) {
    if (into.has(ancestor.path) || !options.wantsAncestor(ancestor.path)) continue;
    const ancestorRecord = recordOfLink(ancestor.link);
    if (ancestorRecord !== undefined) into.set(ancestor.path, ancestorRecord);
  }
  if (!options.subtree || (path !== "/" && record?.kind !== "directory")) return;
  // Depth first, without recursion (a chain of directories can be thousands deep).
  const pending: Array<{ path: string; link: MemfsLink }> = [{ path, link: found.link }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const prefix = next.path === "/" ? "/" : `${next.path}/`;
    for (const [name, child] of next.link.children) {
      if (name === "." || name === ".." || child === undefined) continue;
      const childPath = `${prefix}${name}`;
      const childRecord = recordOfLink(child);
      if (childRecord === undefined) continue;
      into.set(childPath, childRecord);
      if (childRecord.kind === "directory") pending.push({ path: childPath, link: child });
    }
  }
}

/**
 * Rebuild a volume from records: each entry is made in its parent directory's link, found in a
 * map of the directories made so far (parents sort before children), so a load costs one step
 * per record, not a walk from the root per record. Directory times are set last, since making
 * children changes them. A record whose parent has no record gets the parent made on the way,
 * as `mkdir -p` would.
 *
 * @param volume - an empty volume.
 * @param records - what was stored.
 * @throws FsError `EINVAL` for a key that is not an absolute normal path, `ENOTDIR` for a record
 *   under a stored file or symlink (a store not written by this backend).
 */
export function restoreVolume(volume: Volume, records: ReadonlyMap<string, IdbRecord>): void {
  const core = volume._core;
  const directories = new Map<string, MemfsLink>([["/", core.root]]);

  /** The directory link at `path`, made (with its missing parents, as `mkdir -p` does) if absent. */
  function directoryAt(path: string): MemfsLink {
    const known = directories.get(path);
    if (known !== undefined) return known;
    const parent = directoryAt(parentPath(path));
    const name = baseName(path);
    const existing = childOf(parent, name);
    if (existing !== undefined && !existing.getNode().isDirectory()) {
      throw new FsError("ENOTDIR", { syscall: "restore", path, detail: "stored entries lie below a file or a link" });
    }
    const link = existing ?? core.createLink(parent, name, true, DEFAULT_DIRECTORY_MODE);
    directories.set(path, link);
    return link;
  }

  const paths = [...records.keys()].sort();
  for (const path of paths) {
    const record = records.get(path) as IdbRecord;
    if (resolvePath("/", path) !== path || path === "/") {
      throw new FsError("EINVAL", { syscall: "restore", path, detail: "a stored key is not an absolute normal path" });
    }
    const parent = directoryAt(parentPath(path));
    const name = baseName(path);
    if (record.kind === "directory") {
      directories.set(path, core.createLink(parent, name, true, record.mode));
    } else if (record.kind === "symlink") {
      // As memfs's symlinkSync: a new entry made a link to its target.
      core.createLink(parent, name, false, SYMLINK_MODE).getNode().makeSymlink(record.target);
    } else {
      const node = core.createLink(parent, name, false, record.mode).getNode();
      // memfs copies the bytes into its own Buffer (`Buffer.from` takes a Uint8Array).
      node.setBuffer(record.data as Parameters<typeof node.setBuffer>[0]);
      node.atime = node.mtime = new Date(record.mtimeMs);
    }
  }
  for (const path of paths.reverse()) {
    const record = records.get(path) as IdbRecord;
    if (record.kind !== "directory") continue;
    const node = (directories.get(path) as MemfsLink).getNode();
    node.atime = node.mtime = new Date(record.mtimeMs);
  }
}

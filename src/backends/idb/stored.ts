/**
 * What an IndexedDB workspace's store holds, path → kind, kept beside it so a save knows what to
 * delete without reading the store: `under(path)` lists a directory's stored descendants in time
 * proportional to their number (not to every stored path, as a scan of all keys would be).
 *
 * @module
 */
import { parentPath } from "../../contract/path.js";
import type { IdbRecord } from "./store.js";

/** Stored paths by kind, with their descendants. */
export interface StoredPaths {
  has(path: string): boolean;
  get(path: string): IdbRecord["kind"] | undefined;
  set(path: string, kind: IdbRecord["kind"]): void;
  delete(path: string): void;
  /** Every stored path below `path` (`/`: every stored path), in no particular order. */
  under(path: string): string[];
}

/**
 * An empty set of stored paths. Paths are absolute and normal; the root is never stored. A
 * stored path whose parent is not stored (a store written by hand) is still found by `under`.
 *
 * @example
 * ```ts
 * const stored = storedPaths();
 * stored.set("/a", "directory");
 * stored.set("/a/b.txt", "file");
 * stored.under("/a"); // ["/a/b.txt"]
 * ```
 */
export function storedPaths(): StoredPaths {
  /** A stored path, or a directory with stored paths below it (`kind` undefined). */
  interface Entry {
    readonly path: string;
    readonly parent: Entry | undefined;
    kind: IdbRecord["kind"] | undefined;
    readonly children: Set<Entry>;
  }
  const root: Entry = { path: "/", parent: undefined, kind: undefined, children: new Set() };
  const entries = new Map<string, Entry>([["/", root]]);

  /** The entry of `path`, made with its missing parents. */
  function entryOf(path: string): Entry {
    const missing: string[] = [];
    let parent = entries.get(path);
    for (let at = path; parent === undefined; parent = entries.get(at)) {
      missing.push(at);
      at = parentPath(at);
    }
    for (let index = missing.length - 1; index >= 0; index -= 1) {
      const entry: Entry = { path: missing[index] as string, parent, kind: undefined, children: new Set() };
      parent.children.add(entry);
      entries.set(entry.path, entry);
      parent = entry;
    }
    return parent;
  }

  return {
    has: (path) => entries.get(path)?.kind !== undefined,
    get: (path) => entries.get(path)?.kind,
    set(path, kind) {
      entryOf(path).kind = kind;
    },
    delete(path) {
      let entry = entries.get(path);
      if (entry === undefined) return;
      entry.kind = undefined;
      // Drop entries left with nothing stored at or below them.
      while (entry !== undefined && entry !== root && entry.kind === undefined && entry.children.size === 0) {
        entries.delete(entry.path);
        entry.parent?.children.delete(entry);
        entry = entry.parent;
      }
    },
    under(path) {
      const result: string[] = [];
      const pending = [...(entries.get(path)?.children ?? [])];
      for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
        if (next.kind !== undefined) result.push(next.path);
        for (const child of next.children) pending.push(child);
      }
      return result;
    },
  };
}

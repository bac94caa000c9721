/**
 * The OPFS backend's handle cache: the directory handles its calls have met, as a tree keyed by
 * name (so reaching a cached directory costs one `Map` look-up per name and no path strings),
 * and, in each directory, the file handles met there (by `readdir`, a lookup or a write).
 *
 * A cached handle is a hint, never proof: OPFS handles name a path, and another tab may remove
 * or replace what is there. The core checks a cached directory again when a call through it
 * meets `NotFoundError` ({@link HandleCache.confirm}), and reads through a cached file handle
 * only where a stale one cannot go unnoticed.
 *
 * @module
 */
import { isDomError } from "./errors.js";

/** A cached directory: its handle, its place in the tree, and the entries below it met so far. */
export interface DirNode {
  /** The directory's handle (replaced when it is looked up again). */
  handle: FileSystemDirectoryHandle;
  /** The directory holding this one; `undefined` for the root. */
  readonly parent: DirNode | undefined;
  /** This directory's name in `parent` (`""` for the root). */
  readonly name: string;
  /** Subdirectories met, by name. */
  readonly dirs: Map<string, DirNode>;
  /** Files met, by name. */
  readonly files: Map<string, FileSystemFileHandle>;
  /** Look-ups of subdirectories in flight, shared by concurrent walks (`create` as asked). */
  readonly pending: Map<string, { readonly create: boolean; readonly node: Promise<DirNode> }>;
}

/**
 * Most handles (directories and files) cached at once: past it the whole cache is dropped and
 * fills again on demand, so a walk over a huge tree holds no more than this many handles.
 */
export const MAX_CACHED_HANDLES = 65_536;

/** Options of {@link createHandleCache}. */
export interface HandleCacheOptions {
  /** Reach the root directory (creating it if needed). Called again after {@link HandleCache.clear}. */
  readonly getRoot: () => Promise<FileSystemDirectoryHandle>;
  /** Handles cached at most before the cache is dropped. @default MAX_CACHED_HANDLES */
  readonly maxHandles?: number;
}

/** The cache of {@link createHandleCache}. */
export interface HandleCache {
  /** The root's node, reached on first use (a failed attempt is not kept). */
  root(): Promise<DirNode>;
  /**
   * Walk `names` from the root: cached directories are reused, each name below the deepest
   * cached one is looked up once (created with `create`) and cached, concurrent walks sharing
   * a look-up in flight. Linear in `names.length`.
   *
   * @param names - directory names from the root.
   * @param create - create missing directories.
   * @param used - receives the deepest cached node the walk started below (checked by
   *   {@link confirm} when the call fails with `NotFoundError`).
   * @returns the node of the last name.
   * @throws the DOMException of the failed look-up (`NotFoundError`, `TypeMismatchError`...).
   */
  walk(names: readonly string[], create: boolean, used: Set<DirNode>): Promise<DirNode>;
  /** Cache `handle` as the subdirectory `name` of `parent` (kept node if already cached). */
  adoptDir(parent: DirNode, name: string, handle: FileSystemDirectoryHandle): DirNode;
  /** Cache `handle` as the file `name` of `parent`. */
  adoptFile(parent: DirNode, name: string, handle: FileSystemFileHandle): void;
  /** Replace what `parent` holds by what a full listing of it found (names not listed are dropped). */
  adoptListing(parent: DirNode, entries: ReadonlyArray<readonly [string, FileSystemHandle]>): void;
  /** Forget the entry at `names` (file or directory, with everything cached below it). O(depth). */
  forget(names: readonly string[]): void;
  /**
   * Check that a cached directory is still where it was: look its name up again in its parent
   * (one call), or reach the root again for the root. Its handle is replaced by the fresh one.
   *
   * @returns `false` when it is gone (or its parent's handle is stale); the caller then clears.
   * @throws errors other than `NotFoundError` and `TypeMismatchError` (e.g. the root refused).
   */
  confirm(node: DirNode): Promise<boolean>;
  /** Drop every cached handle, the root's too. */
  clear(): void;
  /** Handles cached now, counted as they were added (forgotten ones included until a clear). */
  readonly size: number;
}

function newNode(handle: FileSystemDirectoryHandle, parent: DirNode | undefined, name: string): DirNode {
  return { handle, parent, name, dirs: new Map(), files: new Map(), pending: new Map() };
}

/**
 * Create an empty {@link HandleCache}.
 *
 * @param options - how to reach the root, and the cap on cached handles.
 * @returns the cache.
 * @example
 * ```ts
 * const cache = createHandleCache({ getRoot: () => navigator.storage.getDirectory() });
 * const used = new Set<DirNode>();
 * const src = await cache.walk(["repo", "src"], false, used);
 * ```
 */
export function createHandleCache(options: HandleCacheOptions): HandleCache {
  const maxHandles = options.maxHandles ?? MAX_CACHED_HANDLES;
  let rootPromise: Promise<DirNode> | undefined;
  /** The resolved root node, for the synchronous `forget`. */
  let tree: DirNode | undefined;
  let added = 0;

  function root(): Promise<DirNode> {
    if (rootPromise === undefined) {
      const reaching = options.getRoot().then((handle) => {
        const node = newNode(handle, undefined, "");
        if (rootPromise === reaching) tree = node;
        return node;
      });
      rootPromise = reaching;
      reaching.catch(() => {
        if (rootPromise === reaching) rootPromise = undefined;
      });
    }
    return rootPromise;
  }

  /** Count one more handle; past the cap, drop everything below the root (it fills again). */
  function count(): void {
    added += 1;
    if (added <= maxHandles || tree === undefined) return;
    tree.dirs.clear();
    tree.files.clear();
    added = 1;
  }

  function adoptDir(parent: DirNode, name: string, handle: FileSystemDirectoryHandle): DirNode {
    parent.files.delete(name);
    const known = parent.dirs.get(name);
    if (known !== undefined) {
      known.handle = handle;
      return known;
    }
    count();
    const node = newNode(handle, parent, name);
    parent.dirs.set(name, node);
    return node;
  }

  function adoptFile(parent: DirNode, name: string, handle: FileSystemFileHandle): void {
    parent.dirs.delete(name);
    if (!parent.files.has(name)) count();
    parent.files.set(name, handle);
  }

  /**
   * Look a subdirectory up and cache it; concurrent walks share one look-up (one that creates
   * serves a walk that does not create too, not the reverse).
   */
  function lookUp(parent: DirNode, name: string, create: boolean): Promise<DirNode> {
    const shared = parent.pending.get(name);
    if (shared !== undefined && (shared.create || !create)) return shared.node;
    const node = parent.handle.getDirectoryHandle(name, { create }).then((handle) => adoptDir(parent, name, handle));
    const entry = { create, node };
    parent.pending.set(name, entry);
    const settle = () => {
      if (parent.pending.get(name) === entry) parent.pending.delete(name);
    };
    node.then(settle, settle);
    return node;
  }

  return {
    root,
    async walk(names, create, used) {
      let node = await root();
      let index = 0;
      for (; index < names.length; index++) {
        const child = node.dirs.get(names[index] as string);
        if (child === undefined) break;
        node = child;
      }
      used.add(node);
      for (; index < names.length; index++) {
        const name = names[index] as string;
        node = node.dirs.get(name) ?? (await lookUp(node, name, create));
      }
      return node;
    },
    adoptDir,
    adoptFile,
    adoptListing(parent, entries) {
      const listed = new Set<string>();
      for (const [name, handle] of entries) {
        listed.add(name);
        if (handle.kind === "directory") adoptDir(parent, name, handle as FileSystemDirectoryHandle);
        else adoptFile(parent, name, handle as FileSystemFileHandle);
      }
      for (const name of parent.dirs.keys()) if (!listed.has(name)) parent.dirs.delete(name);
      for (const name of parent.files.keys()) if (!listed.has(name)) parent.files.delete(name);
    },
    forget(names) {
      let node = tree;
      if (node === undefined) return;
      if (names.length === 0) {
        node.dirs.clear();
        node.files.clear();
        return;
      }
      for (let index = 0; index < names.length - 1; index++) {
        node = node.dirs.get(names[index] as string);
        if (node === undefined) return;
      }
      const last = names[names.length - 1] as string;
      node.dirs.delete(last);
      node.files.delete(last);
    },
    async confirm(node) {
      if (node.parent === undefined) {
        node.handle = await options.getRoot();
        return true;
      }
      try {
        node.handle = await node.parent.handle.getDirectoryHandle(node.name);
        return true;
      } catch (error) {
        if (isDomError(error, "NotFoundError") || isDomError(error, "TypeMismatchError")) return false;
        throw error;
      }
    },
    clear() {
      rootPromise = undefined;
      tree = undefined;
      added = 0;
    },
    get size() {
      return added;
    },
  };
}

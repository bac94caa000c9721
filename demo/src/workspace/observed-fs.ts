/**
 * A FileSystem wrapper that reports every change (write, remove, rename, mkdir) with the file's
 * content before and after, so the tree updates live and the viewer can show each edit as a diff,
 * whoever made it: a tool, bash, an import or the host.
 *
 * @module
 */
import { forwardFileSystem, type FileSystem } from "better-fs-tools";

/** Largest file whose previous content is kept for the diff, in bytes. */
export const MAX_DIFF_BYTES = 512 * 1024;

/** One change to the workspace. */
export interface FsChange {
  readonly type: "write" | "remove" | "rename" | "mkdir";
  /** Absolute path (the destination for `rename`). */
  readonly path: string;
  /** Source path of a `rename`. */
  readonly from?: string;
  /** Content before a `write` (undefined for a new file or one over {@link MAX_DIFF_BYTES}). */
  readonly before?: Uint8Array;
  /** Content after a `write`. */
  readonly after?: Uint8Array;
  /** True when the file did not exist before the `write`. */
  readonly created?: boolean;
}

export type FsChangeListener = (change: FsChange) => void;

/**
 * Wrap `inner` so every change is reported to the listeners. Everything else is `inner`'s
 * ({@link forwardFileSystem}): its name, capabilities, optional methods and `locks`, so the
 * tools over an observed OPFS workspace still take Web Locks.
 *
 * @returns the wrapped FileSystem and `onChange(listener)`, which returns an unsubscribe function.
 */
export function observeFileSystem(inner: FileSystem): {
  fs: FileSystem;
  onChange(listener: FsChangeListener): () => void;
  quiet<T>(fn: () => Promise<T>): Promise<T>;
  isQuiet(): boolean;
} {
  const listeners = new Set<FsChangeListener>();
  let quietDepth = 0;
  const emit = (change: FsChange) => {
    if (quietDepth > 0) return;
    for (const listener of listeners) listener(change);
  };
  // Reads, `readlink`, `watch`, the name, capabilities and the storage's own locks (OPFS: Web
  // Locks) pass through unchanged; `symlink` is observed only where `inner` has it.
  // The overrides are a function of the target: they wrap `inner` and its no-follow form alike,
  // so the gate keeps calling checked paths through a form that follows no swapped-in link.
  const fs: FileSystem = forwardFileSystem(inner, (target) => ({
    async writeFile(path, data) {
      let before: Uint8Array | undefined;
      let created = false;
      if (listeners.size > 0 && quietDepth === 0) {
        try {
          const stat = await target.stat(path);
          if (stat.type === "file" && stat.size <= MAX_DIFF_BYTES) before = await target.readFile(path);
        } catch {
          created = true;
        }
      }
      await target.writeFile(path, data);
      emit({
        type: "write",
        path,
        before,
        after: data.byteLength <= MAX_DIFF_BYTES ? data.slice() : undefined,
        created,
      });
    },
    async mkdir(path, options) {
      await target.mkdir(path, options);
      emit({ type: "mkdir", path });
    },
    async rm(path, options) {
      await target.rm(path, options);
      emit({ type: "remove", path });
    },
    async rename(from, to) {
      await target.rename(from, to);
      emit({ type: "rename", path: to, from });
    },
    async symlink(linkTarget, path) {
      await target.symlink!(linkTarget, path);
      emit({ type: "write", path });
    },
  }));
  return {
    fs,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Run bulk work (imports, reset) without a change event per file; the caller refreshes once. */
    async quiet(fn) {
      quietDepth += 1;
      try {
        return await fn();
      } finally {
        quietDepth -= 1;
      }
    },
    /** True while bulk work runs in {@link quiet}. */
    isQuiet: () => quietDepth > 0,
  };
}

/**
 * A concurrent directory walk over any backend, shared by the tools (list, glob, grep) and the
 * gate's `hashFiles`. Slow backends (OPFS) are several times faster with many calls in flight;
 * the worker count bounds them.
 *
 * @module
 */
import type { DirEntry, FileSystem } from "./types.js";

/** Options of {@link walkFiles}. */
export interface WalkOptions {
  readonly fs: FileSystem;
  /** Absolute directory to walk. */
  readonly root: string;
  /** Most backend calls in flight: the walk runs this many workers. */
  readonly concurrency: number;
  /** Directory names not entered (matched against the name only). */
  readonly ignoreDirectories?: readonly string[];
  /**
   * Keep an entry? Called for every entry (directories too, after `ignoreDirectories` and before
   * `enterDirectory`) with its absolute path, as its directory is read: `false` leaves it out, so
   * a directory is not entered and anything else is not passed to `onEntry`. Default: keep all.
   */
  readonly include?: (path: string, entry: DirEntry) => boolean;
  /** Enter a directory? Called with its path relative to the root. Default: yes. */
  readonly enterDirectory?: (relativePath: string) => boolean;
  /** Stops the walk: the returned promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * Called for every entry that is not a directory (files, symlinks (not followed), others),
   * by one of the workers, which waits for a returned promise before taking the next item: do
   * the per-file I/O here (it counts against `concurrency`).
   */
  readonly onEntry: (path: string, relativePath: string, entry: DirEntry) => void | Promise<void>;
}

interface WalkItem {
  /** Path relative to the root ("" for the root). */
  readonly relative: string;
  /** Set for a non-directory entry. */
  readonly entry?: DirEntry;
}

/** One directory's items, in its listing's order; `items` is unset while the listing is read. */
interface Frame {
  items: WalkItem[] | undefined;
  next: number;
}

/**
 * The walk's pending items, handed out in depth-first order as far as the directories being read
 * allow: a stack of frames, one per directory listing, where the frame of a directory taken
 * goes right above the frame it came from (below those of its earlier siblings, so each
 * directory's whole subtree comes before its next sibling's). A frame whose listing is still
 * being read is passed over, so the workers go on with what comes next.
 */
class WalkQueue {
  private readonly frames: Frame[];
  /** Items in the frames, not yet handed out. */
  length = 1;

  constructor(root: WalkItem) {
    this.frames = [{ items: [root], next: 0 }];
  }

  /**
   * The first item available, or undefined when none is; for a directory, also the frame to
   * {@link fill} with its entries.
   */
  take(): { readonly item: WalkItem; readonly frame?: Frame } | undefined {
    const frames = this.frames;
    for (let at = frames.length - 1; at >= 0; at--) {
      const frame = frames[at]!;
      const items = frame.items;
      if (items === undefined) continue;
      if (frame.next >= items.length) {
        frames.splice(at, 1);
        continue;
      }
      const item = items[frame.next++]!;
      this.length--;
      const spent = frame.next >= items.length;
      if (item.entry !== undefined) {
        if (spent) frames.splice(at, 1);
        return { item };
      }
      const listing: Frame = { items: undefined, next: 0 };
      if (spent) frames[at] = listing;
      else frames.splice(at + 1, 0, listing);
      return { item, frame: listing };
    }
    return undefined;
  }

  /** A directory's entries, read: they are handed out from its frame. */
  fill(frame: Frame, items: WalkItem[]): void {
    frame.items = items;
    this.length += items.length;
  }

  clear(): void {
    this.frames.length = 0;
    this.length = 0;
  }
}

/**
 * Walk a directory tree with `concurrency` workers sharing one queue of directories to read and
 * entries to handle, without following symlinks. One await per backend call and no promise per
 * queued item, so on a fast backend (memory) it costs about what a sequential walk costs, and on
 * a slow one (OPFS) `concurrency` calls are in flight. The queue hands out what it holds in
 * depth-first order (each listing in the order the backend gives it), so the calls in flight are
 * close together in that order: a backend that loads its tree in that order (the OPFS mirror's
 * cold start) can answer them as it goes. Entries finish in no defined order: sort results.
 *
 * @returns when every directory was read and every `onEntry` settled.
 * @throws TypeError when `concurrency` is not a whole number of at least 1 (a programming error:
 *   the tools check their settings at creation); the first error of a `readdir` (ENOENT,
 *   ENOTDIR...) or of `onEntry`, or the abort reason.
 */
export async function walkFiles(options: WalkOptions): Promise<void> {
  const count = options.concurrency;
  if (!Number.isSafeInteger(count) || count < 1)
    throw new TypeError(`walkFiles concurrency: expected a whole number of at least 1, got ${String(count)}`);
  const ignored = new Set(options.ignoreDirectories ?? []);
  const { fs, signal, onEntry, enterDirectory, include } = options;
  const prefix = options.root === "/" ? "/" : `${options.root}/`;
  const queue = new WalkQueue({ relative: "" });
  let busy = 0;
  let failure: { error: unknown } | undefined;
  let waiting: Array<() => void> = [];
  const wake = (): void => {
    const sleepers = waiting;
    waiting = [];
    for (const resume of sleepers) resume();
  };

  async function readDirectory(relativeDirectory: string, frame: Frame): Promise<void> {
    const entries = await fs.readdir(relativeDirectory === "" ? options.root : prefix + relativeDirectory);
    const items: WalkItem[] = [];
    for (const entry of entries) {
      const relative = relativeDirectory === "" ? entry.name : `${relativeDirectory}/${entry.name}`;
      if (entry.type === "directory") {
        if (ignored.has(entry.name)) continue;
        if (include !== undefined && !include(prefix + relative, entry)) continue;
        if (enterDirectory !== undefined && !enterDirectory(relative)) continue;
        items.push({ relative });
      } else {
        if (include !== undefined && !include(prefix + relative, entry)) continue;
        items.push({ relative, entry });
      }
    }
    queue.fill(frame, items);
    if (items.length > 0 && waiting.length > 0) wake();
  }

  async function worker(): Promise<void> {
    for (;;) {
      if (failure !== undefined) return;
      if (signal?.aborted) {
        failure ??= { error: signal.reason };
        wake();
        return;
      }
      const taken = queue.take();
      if (taken === undefined) {
        if (busy === 0) {
          wake();
          return;
        }
        await new Promise<void>((resume) => waiting.push(resume));
        continue;
      }
      busy++;
      try {
        // Entries call onEntry directly (no wrapper promise): one await per file on a fast backend.
        const { item, frame } = taken;
        if (item.entry !== undefined) {
          const pending = onEntry(prefix + item.relative, item.relative, item.entry);
          if (pending !== undefined) await pending;
        } else if (frame !== undefined) await readDirectory(item.relative, frame);
      } catch (error) {
        failure ??= { error };
        queue.clear();
      } finally {
        busy--;
      }
      if (busy === 0 && queue.length === 0) wake();
    }
  }

  const workers: Promise<void>[] = [];
  for (let i = 0; i < count; i++) workers.push(worker());
  await Promise.all(workers);
  if (failure !== undefined) throw failure.error;
}

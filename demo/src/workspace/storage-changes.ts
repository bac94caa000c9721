/**
 * The workspace's change feed: the changes the storage reports itself (`FileSystem.watch`; the
 * OPFS mirror has it), this tab's and other tabs' alike, so a tab whose files another tab changed
 * shows them without a reload; on a storage without `watch`, the changes this page makes
 * (observed-fs.ts) instead ({@link changeFeed}).
 * Events are gathered and handed over in batches, at most one batch every
 * {@link STORAGE_CHANGES_DELAY_MS} and never two at once, so a burst (another tab importing
 * 10,000 files) costs a few tree refreshes, not one per file.
 *
 * @module
 */
import type { FileSystem, WatchEvent } from "better-fs-tools";

/** A batch waits this long after its first change before it is handed over, in milliseconds. */
export const STORAGE_CHANGES_DELAY_MS = 50;

/** What changed in one batch. */
export interface StorageChanges {
  /**
   * True when everything under the root must be read again: an event at the root or above it
   * (the mirror's reload event, `rename` of `/`, when it loaded its whole tree again; the root
   * removed or moved).
   */
  readonly all: boolean;
  /** Root-relative paths that changed (`src/a.ts`; both paths of a rename). */
  readonly paths: ReadonlySet<string>;
}

/** True when `path` (root-relative) or a directory above it is among the changes. */
export function touches(changes: StorageChanges, path: string): boolean {
  if (changes.all) return true;
  for (let at = path.length; at > 0; at = path.lastIndexOf("/", at - 1)) {
    if (changes.paths.has(path.slice(0, at))) return true;
  }
  return false;
}

/** Options of {@link watchStorage}. */
export interface WatchStorageOptions {
  /** The storage (through the gate); nothing is watched when it has no `watch`. */
  readonly fs: FileSystem;
  /** The absolute directory watched; paths are handed over relative to it. */
  readonly root: string;
  /** Called with each batch; the next batch waits until the promise it returns settles. */
  readonly onChanges: (changes: StorageChanges) => void | Promise<void>;
  /** While this returns true (bulk work in this tab, which refreshes once at its end), batches wait. */
  readonly paused?: () => boolean;
  /** @default STORAGE_CHANGES_DELAY_MS */
  readonly delayMs?: number;
}

/** Options of {@link changeFeed}: those of {@link watchStorage} and the page's own changes. */
export interface ChangeFeedOptions extends WatchStorageOptions {
  /**
   * This tab's changes, for a storage that cannot watch (memory, OPFS, IndexedDB): subscribe a
   * listener called with the absolute path of each change (both paths of a rename); returns an
   * unsubscribe function.
   */
  readonly observe: (listener: (path: string) => void) => () => void;
}

/**
 * One change feed for every storage: the storage's own `watch` where it has one (the OPFS
 * mirror: this tab's and other tabs' changes), the page's observed changes otherwise, in the
 * same batches either way.
 *
 * @returns a function that stops the feed and drops the batch not yet handed over.
 */
export function changeFeed(options: ChangeFeedOptions): () => void {
  const { fs, root } = options;
  if (fs.capabilities.watch === true && fs.watch !== undefined) return watchStorage(options);
  return batchChanges(options, (onEvent) => options.observe((path) => onEvent({ path })));
}

/**
 * Watch `root` in `fs` and hand the changes over in batches.
 *
 * @returns a function that stops watching and drops the batch not yet handed over; a no-op stop
 *   when `fs` cannot watch (`capabilities.watch` not declared).
 */
export function watchStorage(options: WatchStorageOptions): () => void {
  const { fs, root } = options;
  if (fs.capabilities.watch !== true || fs.watch === undefined) return () => {};
  const watch = fs.watch.bind(fs);
  return batchChanges(options, (onEvent) => watch(root, onEvent));
}

/** Batch the events `subscribe` reports (see {@link watchStorage}). */
function batchChanges(
  options: WatchStorageOptions,
  subscribe: (onEvent: (event: Pick<WatchEvent, "path">) => void) => () => void,
): () => void {
  const { root, onChanges } = options;
  const delayMs = options.delayMs ?? STORAGE_CHANGES_DELAY_MS;
  let all = false;
  let paths = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let stopped = false;

  const schedule = () => {
    if (timer === undefined && !running && !stopped) timer = setTimeout(deliver, delayMs);
  };
  const deliver = () => {
    timer = undefined;
    if (stopped || (!all && paths.size === 0)) return;
    if (options.paused?.() === true) {
      schedule();
      return;
    }
    const changes: StorageChanges = { all, paths };
    all = false;
    paths = new Set();
    running = true;
    void Promise.resolve()
      .then(() => onChanges(changes))
      .catch(() => undefined)
      .finally(() => {
        running = false;
        if (all || paths.size > 0) schedule();
      });
  };
  const prefix = root === "/" ? "/" : `${root}/`;
  const stop = subscribe((event) => {
    if (event.path.startsWith(prefix)) paths.add(event.path.slice(prefix.length));
    else all = true;
    schedule();
  });
  return () => {
    stopped = true;
    clearTimeout(timer);
    timer = undefined;
    stop();
  };
}

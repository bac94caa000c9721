/**
 * `watch` for the mirrored backend: the changes an instance applies to its working set, as
 * {@link WatchEvent}s, to the listeners whose watched path they concern.
 *
 * Events come from journal records, so a writer and its readers report the same events for the
 * same change: one per record (`WRITE` → `write`, `MKDIR` → `mkdir`, `RM` → `remove`, `RENAME`
 * → `rename` for the old path then `rename` for the new one, as Node's `fs.watch` does), once the
 * record is durable (an `rm` with `force` of a missing path is a record too, so it reports
 * `remove`); a mutation taken back (quota) wrote no record and reports nothing. When the
 * whole tree is replaced (loaded from disk or from the writer's snapshot) the event is
 * {@link OPFS_MIRROR_RELOAD_EVENT}: re-read everything.
 *
 * @module
 */
import { OP_MKDIR, OP_RENAME, OP_RM, OP_WRITE, type JournalOp } from "./journal.js";
import { isWithin, resolvePath } from "../../contract/path.js";
import type { WatchEvent } from "../../contract/types.js";

/**
 * What a mirror reports when it replaced its whole tree (the first load, a reader loading the
 * writer's snapshot again after a handover, a new writer loading the disk): `rename` of `/`,
 * which no call can make. Every listener hears it, whatever path it watches: re-read it all.
 */
export const OPFS_MIRROR_RELOAD_EVENT: WatchEvent = Object.freeze({ type: "rename", path: "/" });

/**
 * The events of one journal record, paths normalised (`/w//a.txt` → `/w/a.txt`); none for a
 * seal. The parents a `WRITE` or a recursive `MKDIR` created are not reported apart.
 */
export function eventsOfRecord(record: JournalOp): WatchEvent[] {
  switch (record.op) {
    case OP_WRITE:
      return [{ type: "write", path: resolvePath("/", record.path) }];
    case OP_MKDIR:
      return [{ type: "mkdir", path: resolvePath("/", record.path) }];
    case OP_RM:
      return [{ type: "remove", path: resolvePath("/", record.path) }];
    case OP_RENAME:
      return [
        { type: "rename", path: resolvePath("/", record.path) },
        { type: "rename", path: resolvePath("/", record.dest) },
      ];
    default:
      return [];
  }
}

/**
 * Whether a listener on `watched` hears `event`: a change at `watched` or under it, or the
 * removal or move of `watched`'s directory or one above it (which takes `watched` away too).
 * Both paths absolute and normalised; compared name by name (`/w` never hears `/w-other`).
 */
export function concerns(watched: string, event: WatchEvent): boolean {
  if (isWithin(watched, event.path)) return true;
  return (event.type === "remove" || event.type === "rename") && isWithin(event.path, watched);
}

/** The listeners of one instance. */
export interface Watchers {
  /**
   * Add a listener on `path` (absolute; normalised here); the function returned removes it
   * (calling it again does nothing).
   */
  add(path: string, listener: (event: WatchEvent) => void): () => void;
  /**
   * Tell each listener the events it is concerned by, in order. A listener that throws does not
   * stop the others; its error is rethrown in a later task (reported as uncaught, not lost).
   */
  emit(events: readonly WatchEvent[]): void;
  /** True when someone listens (so the caller can skip building events). */
  readonly active: boolean;
}

/** An empty set of listeners. */
export function createWatchers(): Watchers {
  const listeners = new Set<{ readonly path: string; readonly listener: (event: WatchEvent) => void }>();
  return {
    add(path, listener) {
      const entry = { path: resolvePath("/", path), listener };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    emit(events) {
      if (listeners.size === 0) return;
      for (const event of events) {
        // A listener removed by an earlier one (or by itself) hears nothing more.
        for (const entry of [...listeners]) {
          if (!listeners.has(entry) || !concerns(entry.path, event)) continue;
          try {
            entry.listener(event);
          } catch (error) {
            setTimeout(() => {
              throw error;
            });
          }
        }
      }
    },
    get active() {
      return listeners.size > 0;
    },
  };
}

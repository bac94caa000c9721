/**
 * The mirror's watch events (src/backends/opfs-mirror/watch.ts): one per journal record (two for
 * a rename), which listeners hear which event, stop, and a listener that throws.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WatchEvent } from "../../../src/contract/types.js";
import { OP_MKDIR, OP_RENAME, OP_RM, OP_SEAL, OP_WRITE } from "../../../src/backends/opfs-mirror/journal.js";
import {
  OPFS_MIRROR_RELOAD_EVENT,
  concerns,
  createWatchers,
  eventsOfRecord,
} from "../../../src/backends/opfs-mirror/watch.js";

describe("eventsOfRecord", () => {
  it("maps each record to its events, paths normalised; a rename reports the old path then the new", () => {
    expect([
      eventsOfRecord({ op: OP_WRITE, path: "/w//a.txt", mtimeMs: 1, data: new Uint8Array(1) }),
      eventsOfRecord({ op: OP_MKDIR, path: "/w/d/" }),
      eventsOfRecord({ op: OP_RM, path: "/w/./d" }),
      eventsOfRecord({ op: OP_RENAME, path: "/w/a.txt", dest: "/w/d/../b.txt" }),
      eventsOfRecord({ op: OP_SEAL, count: 3 }),
    ]).toEqual([
      [{ type: "write", path: "/w/a.txt" }],
      [{ type: "mkdir", path: "/w/d" }],
      [{ type: "remove", path: "/w/d" }],
      [
        { type: "rename", path: "/w/a.txt" },
        { type: "rename", path: "/w/b.txt" },
      ],
      [],
    ]);
  });
});

describe("concerns", () => {
  const cases: ReadonlyArray<readonly [string, WatchEvent, boolean]> = [
    ["/w", { type: "write", path: "/w/a.txt" }, true],
    ["/w", { type: "mkdir", path: "/w" }, true],
    ["/w", { type: "write", path: "/w-other/a.txt" }, false],
    ["/w", { type: "write", path: "/a.txt" }, false],
    ["/w/a.txt", { type: "write", path: "/w/a.txt" }, true],
    ["/w/d", { type: "remove", path: "/w" }, true],
    ["/w/d", { type: "rename", path: "/w" }, true],
    ["/w/d", { type: "mkdir", path: "/w" }, false],
    ["/w/d", { type: "remove", path: "/w/e" }, false],
    ["/", { type: "write", path: "/anything/at/all" }, true],
    ["/w/deep/path", OPFS_MIRROR_RELOAD_EVENT, true],
  ];
  it.each(cases)("a listener on %s, event %o: %s", (watched, event, expected) => {
    expect(concerns(watched, event)).toBe(expected);
  });
});

describe("createWatchers", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("tells each listener the events under its path, in order, until it stops", () => {
    const watchers = createWatchers();
    expect(watchers.active).toBe(false);
    const heard: Record<string, string[]> = { w: [], root: [] };
    const stop = watchers.add("/w/", (event) => heard.w!.push(`${event.type} ${event.path}`));
    watchers.add("/", (event) => heard.root!.push(`${event.type} ${event.path}`));
    expect(watchers.active).toBe(true);
    watchers.emit([
      { type: "write", path: "/w/a.txt" },
      { type: "write", path: "/x.txt" },
      { type: "rename", path: "/w/a.txt" },
      { type: "rename", path: "/x/a.txt" },
    ]);
    stop();
    stop();
    watchers.emit([{ type: "remove", path: "/w" }]);
    expect(heard).toEqual({
      w: ["write /w/a.txt", "rename /w/a.txt"],
      root: ["write /w/a.txt", "write /x.txt", "rename /w/a.txt", "rename /x/a.txt", "remove /w"],
    });
  });

  it("a listener stopped by another during one emit hears nothing more of it", () => {
    const watchers = createWatchers();
    const heard: string[] = [];
    let stopSecond = (): void => {};
    watchers.add("/", (event) => {
      heard.push(`first ${event.path}`);
      stopSecond();
    });
    stopSecond = watchers.add("/", (event) => heard.push(`second ${event.path}`));
    watchers.emit([
      { type: "write", path: "/a" },
      { type: "write", path: "/b" },
    ]);
    expect(heard).toEqual(["first /a", "first /b"]);
  });

  it("a listener that throws does not stop the others; its error is thrown again in a later task", () => {
    vi.useFakeTimers();
    const watchers = createWatchers();
    const heard: string[] = [];
    watchers.add("/", () => {
      throw new Error("listener failed");
    });
    watchers.add("/", (event) => heard.push(event.path));
    watchers.emit([
      { type: "write", path: "/a" },
      { type: "write", path: "/b" },
    ]);
    expect(heard).toEqual(["/a", "/b"]);
    expect(() => vi.advanceTimersToNextTimer()).toThrow("listener failed");
  });
});

/**
 * The playground's batches of storage changes (demo/src/workspace/storage-changes.ts): events
 * under the root become relative paths, anything at or above it means "everything", one batch at
 * a time after the delay, held back while paused, nothing after stop, nothing without `watch`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  STORAGE_CHANGES_DELAY_MS,
  touches,
  watchStorage,
  type StorageChanges,
} from "../../../demo/src/workspace/storage-changes.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import type { FileSystem, WatchEvent } from "../../../src/contract/types.js";

/** A memory backend that declares watch; `emit` plays the storage reporting a change. */
function watchable() {
  const listeners = new Map<number, { path: string; listener: (event: WatchEvent) => void }>();
  let next = 0;
  const fs: FileSystem = {
    ...memoryFileSystem(),
    capabilities: { watch: true },
    watch(path, listener) {
      const id = next++;
      listeners.set(id, { path, listener });
      return () => listeners.delete(id);
    },
  };
  return {
    fs,
    listeners,
    emit: (...events: WatchEvent[]) => {
      for (const event of events) for (const { listener } of [...listeners.values()]) listener(event);
    },
  };
}

/** A batch as plain data, paths sorted. */
const plain = (changes: StorageChanges) => ({ all: changes.all, paths: [...changes.paths].sort() });

describe("watchStorage", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("hands over the changes under the root as one batch of relative paths, after the delay", async () => {
    const { fs, listeners, emit } = watchable();
    const batches: Array<ReturnType<typeof plain>> = [];
    watchStorage({ fs, root: "/workspace", onChanges: (changes) => void batches.push(plain(changes)) });
    expect([...listeners.values()].map((entry) => entry.path)).toEqual(["/workspace"]);
    emit(
      { type: "write", path: "/workspace/a.txt" },
      { type: "rename", path: "/workspace/src/old.ts" },
      { type: "rename", path: "/workspace/src/new.ts" },
      { type: "write", path: "/workspace/a.txt" },
    );
    await vi.advanceTimersByTimeAsync(STORAGE_CHANGES_DELAY_MS - 1);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([{ all: false, paths: ["a.txt", "src/new.ts", "src/old.ts"] }]);
    await vi.advanceTimersByTimeAsync(10 * STORAGE_CHANGES_DELAY_MS);
    expect(batches.length).toBe(1);
  });

  it("an event at the root or above it (the mirror's reload: rename of /) asks for everything", async () => {
    const { fs, emit } = watchable();
    const batches: Array<ReturnType<typeof plain>> = [];
    watchStorage({ fs, root: "/workspace", onChanges: (changes) => void batches.push(plain(changes)) });
    emit({ type: "rename", path: "/" });
    await vi.advanceTimersByTimeAsync(STORAGE_CHANGES_DELAY_MS);
    emit({ type: "mkdir", path: "/workspace" }, { type: "write", path: "/workspace/b.txt" });
    await vi.advanceTimersByTimeAsync(STORAGE_CHANGES_DELAY_MS);
    expect(batches).toEqual([
      { all: true, paths: [] },
      { all: true, paths: ["b.txt"] },
    ]);
  });

  it("one batch at a time: changes during a batch wait until it settles, then the delay", async () => {
    const { fs, emit } = watchable();
    const batches: Array<ReturnType<typeof plain>> = [];
    let finish = (): void => {};
    watchStorage({
      fs,
      root: "/workspace",
      onChanges: (changes) => {
        batches.push(plain(changes));
        return new Promise<void>((resolve) => (finish = resolve));
      },
    });
    emit({ type: "write", path: "/workspace/1.txt" });
    await vi.advanceTimersByTimeAsync(STORAGE_CHANGES_DELAY_MS);
    emit({ type: "write", path: "/workspace/2.txt" });
    emit({ type: "remove", path: "/workspace/3.txt" });
    await vi.advanceTimersByTimeAsync(10 * STORAGE_CHANGES_DELAY_MS);
    expect(batches).toEqual([{ all: false, paths: ["1.txt"] }]);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(batches.length).toBe(1);
    await vi.advanceTimersByTimeAsync(STORAGE_CHANGES_DELAY_MS);
    expect(batches).toEqual([
      { all: false, paths: ["1.txt"] },
      { all: false, paths: ["2.txt", "3.txt"] },
    ]);
  });

  it("while paused the batch waits, then comes whole", async () => {
    const { fs, emit } = watchable();
    const batches: Array<ReturnType<typeof plain>> = [];
    let paused = true;
    watchStorage({
      fs,
      root: "/workspace",
      onChanges: (changes) => void batches.push(plain(changes)),
      paused: () => paused,
    });
    emit({ type: "write", path: "/workspace/a.txt" });
    await vi.advanceTimersByTimeAsync(5 * STORAGE_CHANGES_DELAY_MS);
    emit({ type: "write", path: "/workspace/b.txt" });
    await vi.advanceTimersByTimeAsync(5 * STORAGE_CHANGES_DELAY_MS);
    expect(batches).toEqual([]);
    paused = false;
    await vi.advanceTimersByTimeAsync(STORAGE_CHANGES_DELAY_MS);
    expect(batches).toEqual([{ all: false, paths: ["a.txt", "b.txt"] }]);
  });

  it("stop removes the listener and drops the batch not yet handed over", async () => {
    const { fs, listeners, emit } = watchable();
    const batches: Array<ReturnType<typeof plain>> = [];
    const stop = watchStorage({ fs, root: "/workspace", onChanges: (changes) => void batches.push(plain(changes)) });
    emit({ type: "write", path: "/workspace/a.txt" });
    stop();
    expect(listeners.size).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * STORAGE_CHANGES_DELAY_MS);
    expect(batches).toEqual([]);
  });

  it("watches nothing where the storage does not declare capabilities.watch", () => {
    const fs: FileSystem = memoryFileSystem();
    expect(fs.capabilities.watch).toBeUndefined();
    const stop = watchStorage({ fs, root: "/workspace", onChanges: () => {} });
    expect(stop()).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("touches", () => {
  const changes = (paths: string[], all = false): StorageChanges => ({ all, paths: new Set(paths) });
  it.each([
    [["src/a.ts"], "src/a.ts", true],
    [["src"], "src/a.ts", true],
    [["src"], "srcs/a.ts", false],
    [["src/b.ts"], "src/a.ts", false],
    [["src/a.ts/x"], "src/a.ts", false],
    [[], "README.md", false],
  ] as const)("changes %j touch %s: %s", (paths, path, expected) => {
    expect(touches(changes([...paths]), path)).toBe(expected);
  });
  it("everything touches every path", () => {
    expect(touches(changes([], true), "any/path.md")).toBe(true);
  });
});

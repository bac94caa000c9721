// The model-based test of the tools (./model-based.ts) in Chromium: IndexedDB (committed: the
// store is checked too, by reloading it into a second instance at the end of each sequence),
// OPFS on the main thread and in a Worker, and the OPFS mirror (no links on OPFS; the mirror's
// store is reloaded at the end as IndexedDB's is); for the two Worker backends also with the
// Worker terminated at a random mutating call. More sequences: `npm run test:soak` (VITE_MODEL_RUNS).
import { describe, expect, test } from "vitest";
import type { FileSystem } from "../../../src/contract/types.js";
import { idbFileSystem } from "../../../src/backends/idb/index.js";
import { opfsFileSystem, type OpfsFileSystem } from "../../../src/backends/opfs/index.js";
import { opfsMirrorFileSystem, type OpfsMirrorFileSystem } from "../../../src/backends/opfs-mirror/index.js";
import { wipe } from "../../backends/opfs/wipe.js";
import { modelRuns, runModel, treeOf, type ModelPlace } from "./model-based.js";

const TIMEOUT_MS = Number((import.meta as { env?: Record<string, string> }).env?.VITE_MODEL_TIMEOUT_MS ?? 600_000);
let sequence = 0;

/** A fresh IndexedDB workspace; at cleanup, a second instance loads the store and must hold the same tree. */
const idb = async (): Promise<ModelPlace> => {
  const name = `test-model-based-${sequence++}`;
  const fs = idbFileSystem({ name });
  await fs.ready;
  await fs.mkdir("/w");
  return {
    fs,
    root: "/w",
    cleanup: async () => {
      const reloaded = idbFileSystem({ name });
      await reloaded.ready;
      expect(Object.fromEntries(await treeOf(reloaded, "/w"))).toEqual(Object.fromEntries(await treeOf(fs, "/w")));
      await reloaded.close();
      await fs.close();
      indexedDB.deleteDatabase(name);
    },
  };
};

const opfs = async (): Promise<ModelPlace> => {
  const root = "test-model-based-opfs";
  await wipe(root);
  const fs: OpfsFileSystem = opfsFileSystem({ root: `/${root}` });
  await fs.mkdir("/w");
  return { fs, root: "/w", cleanup: () => fs.close() };
};

const opfsWorker = () =>
  new Worker(new URL("../../../src/backends/opfs/opfs-worker.ts", import.meta.url), { type: "module" });
const mirrorWorker = () =>
  new Worker(new URL("../../../src/backends/opfs-mirror/mirror-worker.ts", import.meta.url), { type: "module" });

/** A backend instance with a Worker of its own (so the test can terminate it). */
interface Instance<F extends FileSystem> {
  readonly fs: F & { close(): Promise<void> };
  readonly worker: Worker;
}

/**
 * A fresh OPFS store under `root` served by a Worker backend; `reopen` gives a fresh instance on
 * the same store (a new Worker), and at cleanup a last fresh instance must load the same tree as
 * the one in use (what was reported written is on disk).
 */
async function workerPlace<F extends FileSystem>(root: string, open: () => Instance<F>): Promise<ModelPlace> {
  await wipe(root);
  let current = open();
  await current.fs.mkdir("/w", { recursive: true });
  const dispose = async (instance: Instance<F>) => {
    await instance.fs.close().catch(() => undefined);
    instance.worker.terminate();
  };
  return {
    fs: current.fs,
    root: "/w",
    worker: {
      kill: () => current.worker.terminate(),
      reopen: async () => {
        await dispose(current);
        current = open();
        return current.fs;
      },
    },
    cleanup: async () => {
      const seen = Object.fromEntries(await treeOf(current.fs, "/w"));
      await dispose(current);
      const again = open();
      const loaded = Object.fromEntries(await treeOf(again.fs, "/w"));
      await dispose(again);
      expect(loaded).toEqual(seen);
      await wipe(root);
    },
  };
}

const OPFS_WORKER_ROOT = "test-model-based-opfs-worker";
const opfsInWorker = () =>
  workerPlace<OpfsFileSystem>(OPFS_WORKER_ROOT, () => {
    const worker = opfsWorker();
    return { fs: opfsFileSystem({ root: `/${OPFS_WORKER_ROOT}`, worker }), worker };
  });

const MIRROR_ROOT = "test-model-based-mirror";
const mirror = () =>
  workerPlace<OpfsMirrorFileSystem>(MIRROR_ROOT, () => {
    const worker = mirrorWorker();
    return { fs: opfsMirrorFileSystem({ root: `/${MIRROR_ROOT}`, worker }), worker };
  });

describe("model-based in Chromium: the tools agree with a plain model after every step", () => {
  test(
    "IndexedDB (what a second instance loads from the store is the same tree)",
    { timeout: TIMEOUT_MS },
    async () => {
      const stats = await runModel({ create: idb, symlinks: true, runs: modelRuns(10), faults: false });
      expect(stats.steps).toBeGreaterThan(0);
    },
  );
  test("IndexedDB, with faults at random mutating backend calls", { timeout: TIMEOUT_MS }, async () => {
    const stats = await runModel({ create: idb, symlinks: true, runs: modelRuns(40), faults: "errors" });
    expect(stats.faultsFired).toBeGreaterThan(0);
  });
  test("OPFS (main thread, no links)", { timeout: TIMEOUT_MS }, async () => {
    const stats = await runModel({ create: opfs, symlinks: false, runs: modelRuns(40), faults: false });
    expect(stats.steps).toBeGreaterThan(0);
  });
  test("OPFS in a Worker (no links)", { timeout: TIMEOUT_MS }, async () => {
    const stats = await runModel({ create: opfsInWorker, symlinks: false, runs: modelRuns(10), faults: false });
    expect(stats.steps).toBeGreaterThan(0);
  });
  test(
    "OPFS in a Worker, the Worker terminated at a random mutating call (every file as before or after: writes go through a temporary file moved onto the name)",
    { timeout: TIMEOUT_MS },
    async () => {
      const stats = await runModel({
        create: opfsInWorker,
        symlinks: false,
        runs: modelRuns(10),
        faults: "dying-worker",
      });
      expect(stats.faultsFired).toBeGreaterThan(0);
    },
  );
  test(
    "OPFS mirror (what a fresh instance loads from the store is the same tree)",
    { timeout: TIMEOUT_MS },
    async () => {
      const stats = await runModel({ create: mirror, symlinks: false, runs: modelRuns(10), faults: false });
      expect(stats.steps).toBeGreaterThan(0);
    },
  );
  test("OPFS mirror, the Worker terminated at a random mutating call", { timeout: TIMEOUT_MS }, async () => {
    const stats = await runModel({ create: mirror, symlinks: false, runs: modelRuns(10), faults: "dying-worker" });
    expect(stats.faultsFired).toBeGreaterThan(0);
  });
});

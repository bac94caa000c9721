// The model-based test of the tools (./model-based.ts) in Chromium: IndexedDB (committed: the
// store is checked too, by reloading it into a second instance at the end of each sequence),
// OPFS on the main thread (no links). More sequences: `npm run test:soak` (VITE_MODEL_RUNS).
import { describe, expect, test } from "vitest";
import { idbFileSystem } from "../../../src/backends/idb/index.js";
import { opfsFileSystem, type OpfsFileSystem } from "../../../src/backends/opfs/index.js";
import { wipe } from "../../backends/opfs/wipe.js";
import { modelRuns, runModel, treeOf, type ModelPlace } from "./model-based.js";

const TIMEOUT_MS = 600_000;
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
    const stats = await runModel({ create: idb, symlinks: true, runs: modelRuns(10), faults: true });
    expect(stats.faultsFired).toBeGreaterThan(0);
  });
  test("OPFS (main thread, no links)", { timeout: TIMEOUT_MS }, async () => {
    const stats = await runModel({ create: opfs, symlinks: false, runs: modelRuns(10), faults: false });
    expect(stats.steps).toBeGreaterThan(0);
  });
});

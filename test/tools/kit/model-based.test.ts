// The model-based test of the tools on memory and Node (./model-based.ts): sequences of write,
// edit, apply_patch and bash mkdir/mv/rm/ln -s, concurrent pairs among them, checked step by step
// against a plain model; then with faults injected at random mutating backend calls. More
// sequences: `npm run test:soak` (MODEL_RUNS).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { nodeFileSystem } from "../../../src/backends/node/file-system.js";
import { modelRuns, runModel, type ModelPlace } from "./model-based.js";

const TIMEOUT_MS = 600_000;

const memory = async (): Promise<ModelPlace> => {
  const fs = memoryFileSystem();
  await fs.mkdir("/w");
  return { fs, root: "/w" };
};

const node = async (): Promise<ModelPlace> => {
  const base = await mkdtemp(join(tmpdir(), "bft-model-"));
  // The backend is rooted at the temporary folder and the workspace is /w inside it: a host path
  // would do as well, but not under /dev (TMPDIR may be /dev/shm), which the shell serves itself.
  const fs = nodeFileSystem({ root: base, cwd: "/w", allowedRoots: ["/w"] });
  await fs.mkdir("/w");
  return { fs, root: "/w", cleanup: () => rm(base, { recursive: true, force: true }) };
};

describe("model-based: the tools on a backend agree with a plain model after every step", () => {
  test("memory", { timeout: TIMEOUT_MS }, async () => {
    const stats = await runModel({ create: memory, symlinks: true, runs: modelRuns(80), faults: false });
    expect(stats.steps).toBeGreaterThan(0);
  });
  test("memory, with faults at random mutating backend calls", { timeout: TIMEOUT_MS }, async () => {
    const stats = await runModel({ create: memory, symlinks: true, runs: modelRuns(80), faults: "errors" });
    expect(stats.faultsFired).toBeGreaterThan(5);
  });
  test("Node", { timeout: TIMEOUT_MS }, async () => {
    const stats = await runModel({ create: node, symlinks: true, runs: modelRuns(20), faults: false });
    expect(stats.steps).toBeGreaterThan(0);
  });
  test("Node, with faults at random mutating backend calls", { timeout: TIMEOUT_MS }, async () => {
    const stats = await runModel({ create: node, symlinks: true, runs: modelRuns(20), faults: "errors" });
    expect(stats.faultsFired).toBeGreaterThan(1);
  });
});

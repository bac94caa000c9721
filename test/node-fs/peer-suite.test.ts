import * as realFs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNodeFs, type NodeFs } from "better-fs-tools/node-fs";
import { memoryFileSystem } from "better-fs-tools/memory";
import { nodeFileSystem } from "better-fs-tools/node";
import { createGate } from "better-fs-tools";
import { peerSuite } from "./peer-suite.js";

// The reference: Node's own fs, in a temporary directory. What the suite expects is what Node does.
peerSuite(
  "node:fs itself",
  async () => ({
    fs: realFs as unknown as NodeFs,
    root: await mkdtemp(join(tmpdir(), "bft-peer-")),
    sync: true,
    symlinks: true,
  }),
  (target) => rm(target.root, { recursive: true, force: true }),
);

peerSuite("createNodeFs over memory", async () => {
  const backend = memoryFileSystem();
  await backend.mkdir("/w", { recursive: true });
  return { fs: createNodeFs(backend, { cwd: "/w" }), root: "/w", sync: true, symlinks: true };
});

peerSuite(
  "createNodeFs over node",
  async () => {
    const dir = await mkdtemp(join(tmpdir(), "bft-peer-node-"));
    await realFs.promises.mkdir(join(dir, "w"));
    return { fs: createNodeFs(nodeFileSystem({ root: dir })), root: "/w", sync: false, symlinks: true, dir };
  },
  (target) => rm((target as unknown as { dir: string }).dir, { recursive: true, force: true }),
);

peerSuite("createNodeFs over a gate's fs (memory, root /w)", async () => {
  const backend = memoryFileSystem();
  await backend.mkdir("/w", { recursive: true });
  const gate = createGate({ fs: backend, cwd: "/w" });
  return { fs: createNodeFs(gate.fs), root: "/w", sync: false, symlinks: true };
});

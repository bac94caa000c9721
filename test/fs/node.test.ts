import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testFileSystem } from "../conformance/index.js";
import { nodeFileSystem, type NodeFileSystem } from "../../src/fs/node.js";

testFileSystem({
  name: "node",
  create: async () => nodeFileSystem({ root: await mkdtemp(join(tmpdir(), "bft-node-")) }),
  destroy: async (fs) => rm((fs as NodeFileSystem).root, { recursive: true, force: true }),
});

/** The backends available in Node, for the security corpus. */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { nodeFileSystem, type NodeFileSystem } from "../../src/backends/node/index.js";
import type { FileSystem } from "../../src/contract/types.js";
import { removeTree } from "./remove-tree.js";

export interface CorpusBackend {
  readonly name: string;
  /** A fresh, empty backend (one per case). */
  readonly backend: () => Promise<FileSystem>;
  /** Releases a backend after its case. */
  readonly destroy?: (fs: FileSystem) => Promise<void>;
  /** Releases what the cases shared (a Worker), once they have all run. */
  readonly end?: () => Promise<void>;
  /**
   * Every `backend()` call gives a store of its own (memory volume, temporary directory, OPFS
   * root, database, key prefix): the corpus may then share deep-path fixtures between targets
   * (`shareDeepFixtures` of runSecurityCorpus).
   */
  readonly independent?: boolean;
}

/** The backends available in Node. */
export const NODE_CORPUS_BACKENDS: readonly CorpusBackend[] = [
  { name: "memory", backend: async () => memoryFileSystem(), independent: true },
  {
    name: "node",
    backend: async () => nodeFileSystem({ root: await mkdtemp(join(tmpdir(), "bft-corpus-")), allowedRoots: ["/"] }),
    // The deep-path rows leave 2,000-deep chains: removeTree takes them in a twentieth of fs.rm's CPU.
    destroy: async (fs) => removeTree((fs as NodeFileSystem).root),
    independent: true,
  },
];

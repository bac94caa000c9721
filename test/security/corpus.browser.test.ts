/**
 * The attack corpus in real Chromium: through the gate, the gated FileSystem, the workspace
 * handle and every tool, on the memory backend and on OPFS (main thread).
 */
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { opfsFileSystem, type OpfsFileSystem } from "../../src/backends/opfs/index.js";
import type { FileSystem } from "../../src/contract/types.js";
import { runSecurityCorpus } from "./corpus.js";
import { CORE_TARGETS, TOOL_TARGETS } from "./targets.js";

const OPFS_ROOT = "/test-security-corpus";

async function wipe(root: string): Promise<void> {
  const directory = await navigator.storage.getDirectory();
  try {
    await directory.removeEntry(root.slice(1), { recursive: true });
  } catch (error) {
    if (!(error instanceof DOMException && error.name === "NotFoundError")) throw error;
  }
}

const BROWSER_BACKENDS: ReadonlyArray<{
  name: string;
  backend: () => Promise<FileSystem>;
  destroy?: (fs: FileSystem) => Promise<void>;
}> = [
  { name: "memory", backend: async () => memoryFileSystem() },
  {
    name: "opfs",
    backend: async () => {
      await wipe(OPFS_ROOT);
      return opfsFileSystem({ root: OPFS_ROOT });
    },
    destroy: async (fs) => (fs as OpfsFileSystem).close(),
  },
];

for (const { name: backendName, backend, destroy } of BROWSER_BACKENDS) {
  for (const { name, target, skip, gateCodes } of [...CORE_TARGETS, ...TOOL_TARGETS]) {
    runSecurityCorpus({
      name: `${name} on ${backendName} (Chromium)`,
      backend,
      target,
      checkGateCodes: gateCodes === true,
      ...(destroy === undefined ? {} : { destroy }),
      ...(skip === undefined ? {} : { skip }),
    });
  }
}

/**
 * The store backends in Node, for the security corpus: unstorage on its memory driver, and
 * Redis on a real redis-server (started by the test file that uses it). {@link runStoreCorpus}
 * registers the corpus through every target, core and tools, and, since these stores have no
 * symlinks, why the race rows cannot apply.
 */
import { createStorage } from "unstorage";
import memoryDriver from "unstorage/drivers/memory";
import { unstorageFileSystem } from "../../src/backends/unstorage/index.js";
import type { CorpusBackend } from "./backends.js";
import { runSecurityCorpus } from "./corpus.js";
import { runNoSymlinkChecks } from "./no-symlinks.js";
import { CORE_TARGETS, TOOL_TARGETS } from "./targets.js";

/** unstorage on its memory driver, a fresh storage per case. */
export const UNSTORAGE_MEMORY_BACKEND: CorpusBackend = {
  name: "unstorage (memory driver)",
  backend: async () => unstorageFileSystem(createStorage({ driver: memoryDriver() })),
};

/** Register the corpus through every target on `backend`, and the no-symlink checks. */
export function runStoreCorpus({ name: backendName, backend, destroy }: CorpusBackend): void {
  for (const { name, target, skip, gateCodes } of [...CORE_TARGETS, ...TOOL_TARGETS]) {
    runSecurityCorpus({
      name: `${name} on ${backendName}`,
      backend,
      target,
      checkGateCodes: gateCodes === true,
      ...(destroy === undefined ? {} : { destroy }),
      ...(skip === undefined ? {} : { skip }),
    });
  }
  runNoSymlinkChecks({ name: backendName, backend, ...(destroy === undefined ? {} : { destroy }) });
}

/**
 * The backends of the browser project, for the security corpus: memory, OPFS on the main thread
 * and through its Worker, IndexedDB, and the OPFS mirror. Each case gets a fresh one (a new or
 * wiped OPFS root, a new database). {@link runBrowserCorpus} registers the corpus through every
 * target on one of them, and, for a backend without symlinks, why the race rows cannot apply.
 */
import { it } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { opfsFileSystem, type OpfsFileSystem } from "../../src/backends/opfs/index.js";
import { idbFileSystem, type IdbFileSystem } from "../../src/backends/idb/index.js";
import { opfsMirrorFileSystem, type OpfsMirrorFileSystem } from "../../src/backends/opfs-mirror/index.js";
import type { CorpusBackend } from "./backends.js";
import { runSecurityCorpus } from "./corpus.js";
import { runNoSymlinkChecks } from "./no-symlinks.js";
import { CORE_TARGETS, TOOL_TARGETS } from "./targets.js";

async function wipe(root: string): Promise<void> {
  const directory = await navigator.storage.getDirectory();
  try {
    await directory.removeEntry(root.slice(1), { recursive: true });
  } catch (error) {
    if (!(error instanceof DOMException && error.name === "NotFoundError")) throw error;
  }
}

let databases = 0;

export const MEMORY_BACKEND: CorpusBackend = { name: "memory", backend: async () => memoryFileSystem() };

/**
 * A new, empty OPFS root for each case, `<parent>/<n>`, so that no case waits for the removal of
 * the last case's tree: Chromium's in-memory OPFS (vitest's browser context) takes about 25 s to
 * remove the 2,000-directory chain of a deep-path row, O(depth) per directory. The parent is
 * wiped once, before the first case; the roots left behind go with the browser context.
 */
function freshRoots(parent: string): () => Promise<string> {
  let cases = 0;
  return async () => {
    if (cases === 0) await wipe(parent);
    cases += 1;
    return `${parent}/${cases}`;
  };
}

const opfsMainRoot = freshRoots("/test-security-corpus");
const opfsWorkerRoot = freshRoots("/test-security-corpus-worker");

export const OPFS_MAIN_BACKEND: CorpusBackend = {
  name: "opfs",
  backend: async () => opfsFileSystem({ root: await opfsMainRoot() }),
  destroy: async (fs) => (fs as OpfsFileSystem).close(),
};

export const OPFS_WORKER_BACKEND: CorpusBackend = {
  name: "opfs (worker)",
  backend: async () => opfsFileSystem({ root: await opfsWorkerRoot(), worker: true }),
  destroy: async (fs) => (fs as OpfsFileSystem).close(),
};

export const IDB_BACKEND: CorpusBackend = {
  name: "idb",
  backend: async () => {
    databases += 1;
    const fs = idbFileSystem({ name: `test-security-corpus-${Date.now()}-${databases}` });
    await fs.ready;
    return fs;
  },
  destroy: async (fs) => (fs as IdbFileSystem).close(),
};

export const OPFS_MIRROR_BACKEND: CorpusBackend = {
  name: "opfs-mirror",
  backend: async () => {
    await wipe("/test-security-corpus-mirror");
    const fs = opfsMirrorFileSystem({ root: "/test-security-corpus-mirror" });
    await fs.ready();
    return fs;
  },
  destroy: async (fs) => (fs as OpfsMirrorFileSystem).close(),
};

/**
 * Register the corpus through every target (the gate, its FileSystem, the workspace handle, every
 * tool) on `backend`; `skip` names rows the backend cannot run, with the reason.
 */
export function runBrowserCorpus(
  { name: backendName, backend, destroy }: CorpusBackend,
  symlinks: boolean,
  backendSkip: Readonly<Record<string, string>> = {},
  tools: "all" | "first" = "first",
): void {
  // Every tool reaches the backend only through the gate and its FileSystem (the core targets):
  // each tool's own path through them runs on memory and node (Node project) and on opfs-mirror
  // here; other browser backends run the core targets and the first tool target, to keep
  // `npm test` within minutes.
  const toolTargets = tools === "all" ? TOOL_TARGETS : TOOL_TARGETS.slice(0, 1);
  for (const { name } of TOOL_TARGETS.slice(toolTargets.length)) {
    it.skip(`${name} on ${backendName} (Chromium): not run here, for time; the same attacks through this tool run on memory, node and opfs-mirror, and through the gate on ${backendName}`, () => {});
  }
  for (const { name, target, skip: targetSkip, gateCodes } of [...CORE_TARGETS, ...toolTargets]) {
    const skip = { ...backendSkip, ...targetSkip };
    runSecurityCorpus({
      name: `${name} on ${backendName} (Chromium)`,
      backend,
      target,
      checkGateCodes: gateCodes === true,
      ...(destroy === undefined ? {} : { destroy }),
      skip,
    });
  }
  if (!symlinks) {
    runNoSymlinkChecks({ name: backendName, backend, ...(destroy === undefined ? {} : { destroy }) });
  }
}

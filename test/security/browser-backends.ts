/**
 * The backends of the browser project, for the security corpus: memory, OPFS on the main thread
 * and through its Worker, IndexedDB, and the OPFS mirror. Each case gets a fresh one (a new
 * OPFS root, a new database) and closes it after; the OPFS Worker and the mirror's Worker are
 * started once per test file and serve every case's backend in turn (a backend's `close()` ends
 * its session in the Worker and leaves the Worker running), since starting a Worker per case cost
 * more than the case itself. {@link runBrowserCorpus} registers the corpus through every target
 * on one of them, and, for a backend without symlinks, why the race rows cannot apply.
 */
import { afterAll } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { opfsFileSystem, type OpfsFileSystem } from "../../src/backends/opfs/index.js";
import { idbFileSystem, type IdbFileSystem } from "../../src/backends/idb/index.js";
import { opfsMirrorFileSystem, type OpfsMirrorFileSystem } from "../../src/backends/opfs-mirror/index.js";
import type { CorpusBackend } from "./backends.js";
import { runSecurityCorpus } from "./corpus.js";
import { runNoSymlinkChecks } from "./no-symlinks.js";
import { wipe } from "../backends/opfs/wipe.js";
import { CORE_TARGETS, TOOL_TARGETS } from "./targets.js";

/**
 * One Worker of a kind for every case of a test file, started on first use; `end()` terminates it
 * (a later use starts another).
 */
export function sharedWorker(start: () => Worker): { get(): Worker; end(): void } {
  let worker: Worker | undefined;
  return {
    get: () => (worker ??= start()),
    end() {
      worker?.terminate();
      worker = undefined;
    },
  };
}

/** The OPFS Worker (src/backends/opfs/opfs-worker.ts) the OPFS Worker backend's cases share. */
const opfsWorker = sharedWorker(
  () => new Worker(new URL("../../src/backends/opfs/opfs-worker.ts", import.meta.url), { type: "module" }),
);

/** The mirror's Worker (src/backends/opfs-mirror/mirror-worker.ts) the mirror backends' cases share. */
export const mirrorWorker = sharedWorker(
  () => new Worker(new URL("../../src/backends/opfs-mirror/mirror-worker.ts", import.meta.url), { type: "module" }),
);

/** Remove the OPFS directory `root` (a path under the origin's root), if it is there. */
export { wipe };

let databases = 0;

export const MEMORY_BACKEND: CorpusBackend = {
  name: "memory",
  backend: async () => memoryFileSystem(),
  independent: true,
};

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
  independent: true,
};

export const OPFS_WORKER_BACKEND: CorpusBackend = {
  name: "opfs (worker)",
  backend: async () => opfsFileSystem({ root: await opfsWorkerRoot(), worker: opfsWorker.get() }),
  destroy: async (fs) => (fs as OpfsFileSystem).close(),
  end: async () => opfsWorker.end(),
  independent: true,
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
  independent: true,
};

export const OPFS_MIRROR_BACKEND: CorpusBackend = {
  name: "opfs-mirror",
  backend: async () => {
    await wipe("/test-security-corpus-mirror");
    const fs = opfsMirrorFileSystem({ root: "/test-security-corpus-mirror", worker: mirrorWorker.get() });
    await fs.ready();
    return fs;
  },
  destroy: async (fs) => (fs as OpfsMirrorFileSystem).close(),
  end: async () => mirrorWorker.end(),
};

/**
 * Register the corpus through every target (the gate, its FileSystem, the workspace handle, every
 * tool: read/write/list, edit, apply_patch Add File and Update File, glob and grep, bash) on
 * `backend`; `skip` names rows the backend cannot run, with the reason.
 */
export function runBrowserCorpus(
  { name: backendName, backend, destroy, end, independent }: CorpusBackend,
  symlinks: boolean,
  backendSkip: Readonly<Record<string, string>> = {},
): void {
  for (const { name, target, skip: targetSkip, contained, gateCodes } of [...CORE_TARGETS, ...TOOL_TARGETS]) {
    const skip = { ...backendSkip, ...targetSkip };
    runSecurityCorpus({
      name: `${name} on ${backendName} (Chromium)`,
      backend,
      target,
      checkGateCodes: gateCodes === true,
      ...(destroy === undefined ? {} : { destroy }),
      skip,
      ...(contained === undefined ? {} : { contained }),
      shareDeepFixtures: independent === true,
    });
  }
  if (!symlinks) {
    runNoSymlinkChecks({ name: backendName, backend, ...(destroy === undefined ? {} : { destroy }) });
  }
  if (end !== undefined) afterAll(end);
}

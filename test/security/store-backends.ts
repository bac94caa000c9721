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
  independent: true,
};

/**
 * The 2,000-name rows through the tool targets: a store keeps one key per full path, so every
 * level of such a path is a key of up to 20 KB, and each tool resolves the path name by name:
 * tens of seconds per row and target. They run through the core targets (gate, gated
 * FileSystem, workspace handle), which the tools call.
 */
const DEEP_2000_SKIP_REASON =
  "2,000-name paths cost tens of seconds per tool on a key-value store (a key per full path); the core targets run them";
const DEEP_2000_ROWS = [
  "deep-path: 2,000 names, present (read)",
  "deep-path: 2,000 names, present (list)",
  "deep-path: 2,000 names, missing (read)",
  "deep-path: 2,000 names, missing (write)",
];

const DEEP_2000_NETWORK_REASON =
  "2,000-name paths cost about 20 s per row over the network; they run here through gate.check, and through every core target on the memory driver";

/**
 * Register the corpus on `backend` through the core targets, and the no-symlink checks. With
 * `network`, the tool targets are left out and the 2,000-name rows run through the first core
 * target only (each costs about 20 s on Redis); without, every target runs.
 */
export function runStoreCorpus(
  { name: backendName, backend, destroy, independent }: CorpusBackend,
  network = false,
): void {
  const tools = !network;
  const skipDeep = (reason: string) => Object.fromEntries(DEEP_2000_ROWS.map((row) => [row, reason]));
  const targets = [
    ...CORE_TARGETS.map((target, index) => ({
      ...target,
      deepSkip: network && index > 0 ? skipDeep(DEEP_2000_NETWORK_REASON) : {},
    })),
    ...(tools ? TOOL_TARGETS : []).map((target) => ({
      ...target,
      deepSkip: skipDeep(DEEP_2000_SKIP_REASON),
    })),
  ];
  for (const { name, target, skip, contained, gateCodes, deepSkip } of targets) {
    runSecurityCorpus({
      name: `${name} on ${backendName}`,
      backend,
      target,
      checkGateCodes: gateCodes === true,
      ...(destroy === undefined ? {} : { destroy }),
      skip: { ...deepSkip, ...skip },
      ...(contained === undefined ? {} : { contained }),
      shareDeepFixtures: independent === true,
    });
  }
  runNoSymlinkChecks({ name: backendName, backend, ...(destroy === undefined ? {} : { destroy }) });
}

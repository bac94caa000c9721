/**
 * The attack corpus through the gate, the gated FileSystem and the workspace handle on every
 * backend available in Node (memory, node), and through the Node backend's own jail. The tools run
 * it in tools.test.ts; the browser backends in corpus*.browser.test.ts.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeFileSystem, type NodeFileSystem } from "../../src/backends/node/index.js";
import { FsError } from "../../src/contract/errors.js";
import { NODE_CORPUS_BACKENDS } from "./backends.js";
import { ATTACKS, runSecurityCorpus, type AttemptOutcome } from "./corpus.js";
import { removeTree } from "./remove-tree.js";
import { CORE_TARGETS, gateTarget } from "./targets.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function outcome(run: () => Promise<string>): Promise<AttemptOutcome> {
  try {
    return { ok: true, text: await run() };
  } catch (error) {
    return {
      ok: false,
      text: error instanceof Error ? error.message : String(error),
      ...(FsError.isInstance(error) ? { code: error.code } : {}),
    };
  }
}

const names = (entries: readonly { name: string }[]) =>
  entries
    .map((entry) => entry.name)
    .sort()
    .join("\n");

for (const { name: backendName, backend, destroy, independent } of NODE_CORPUS_BACKENDS) {
  for (const { name, target, gateCodes } of CORE_TARGETS) {
    runSecurityCorpus({
      name: `${name} on ${backendName}`,
      backend,
      destroy,
      target,
      checkGateCodes: gateCodes === true,
      shareDeepFixtures: independent === true,
    });
  }
}

// The gate taking a backslash as a name byte (as the MCP filesystem-server dialect does on the
// Node backend): the backslash rows are contained names, or refused where a `..` name leads out.
const nodeBackend = NODE_CORPUS_BACKENDS.find((entry) => entry.name === "node");
if (nodeBackend === undefined) throw new Error("no node backend in NODE_CORPUS_BACKENDS");
runSecurityCorpus({
  name: "gate.check with backslashNames on node",
  backend: nodeBackend.backend,
  ...(nodeBackend.destroy ? { destroy: nodeBackend.destroy } : {}),
  target: (fs) => gateTarget(fs, true),
  checkGateCodes: true,
  backslashNames: true,
});

// The Node backend alone (no gate), jailed to /w: defence in depth. Not the race rows: their
// swaps are timed on the calls of the backend object the runner hands over, and this target
// makes its own.
runSecurityCorpus(
  {
    name: "node backend jailed to /w, no gate",
    backslashNames: true,
    backend: async () =>
      nodeFileSystem({ root: await mkdtemp(join(tmpdir(), "bft-corpus-jail-")), allowedRoots: ["/"] }),
    destroy: async (fs) => removeTree((fs as NodeFileSystem).root),
    shareDeepFixtures: true,
    target: (fs) => {
      const jailed = nodeFileSystem({ root: (fs as NodeFileSystem).root, allowedRoots: ["/w"] });
      const absolute = (path: string) => (path.startsWith("/") ? path : `/w/${path}`);
      return {
        read: (path) => outcome(async () => decoder.decode(await jailed.readFile(absolute(path)))),
        write: (path, content) =>
          outcome(async () => (await jailed.writeFile(absolute(path), encoder.encode(content)), "written")),
        list: (path) => outcome(async () => names(await jailed.readdir(absolute(path)))),
      };
    },
  },
  ATTACKS.filter((attack) => attack.race === undefined),
);

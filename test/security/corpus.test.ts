/**
 * The attack corpus through the gate, the gated FileSystem, the workspace handle and the Node
 * backend's own jail, on every backend available in Node (memory, node).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NODE_CORPUS_BACKENDS } from "./backends.js";
import { createGate } from "../../src/fs/gate.js";
import { nodeFileSystem, type NodeFileSystem } from "../../src/fs/node.js";
import { createWorkspace } from "../../src/fs/workspace.js";
import { FsError, type FileSystem } from "../../src/fs/types.js";
import { runSecurityCorpus, type AttackTarget, type AttemptOutcome } from "./corpus.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function outcome(run: () => Promise<string>): Promise<AttemptOutcome> {
  try {
    return { ok: true, text: await run() };
  } catch (error) {
    return { ok: false, text: error instanceof Error ? error.message : String(error), ...(FsError.isInstance(error) ? { code: error.code } : {}) };
  }
}

const names = (entries: readonly { name: string }[]) => entries.map((entry) => entry.name).sort().join("\n");

function gateTarget(fs: FileSystem): AttackTarget {
  const gate = createGate({ fs, cwd: "/w" });
  const checked = async (path: string, access: "read" | "write" | "list", run: (real: string) => Promise<string>): Promise<AttemptOutcome> => {
    const check = await gate.check(path, access);
    if (!check.ok) return { ok: false, text: check.error.message, code: check.error.code };
    return outcome(() => run(check.path));
  };
  return {
    read: (path) => checked(path, "read", async (real) => decoder.decode(await gate.backend.readFile(real))),
    write: (path, content) => checked(path, "write", async (real) => (await gate.backend.writeFile(real, encoder.encode(content)), "written")),
    list: (path) => checked(path, "list", async (real) => names(await gate.backend.readdir(real))),
  };
}

function gatedFsTarget(fs: FileSystem): AttackTarget {
  const gated = createGate({ fs, cwd: "/w" }).fs;
  return {
    read: (path) => outcome(async () => decoder.decode(await gated.readFile(path))),
    write: (path, content) => outcome(async () => (await gated.writeFile(path, encoder.encode(content)), "written")),
    list: (path) => outcome(async () => names(await gated.readdir(path))),
  };
}

function workspaceTarget(fs: FileSystem): AttackTarget {
  const workspace = createWorkspace({ fs, root: "/w" });
  return {
    read: (path) => outcome(() => workspace.readFile(path)),
    write: (path, content) => outcome(async () => `wrote ${(await workspace.writeFile(path, content)).bytesWritten} bytes`),
    list: (path) => outcome(async () => (await workspace.listDir(path)).join("\n")),
  };
}

for (const { name, backend, destroy } of NODE_CORPUS_BACKENDS) {
  runSecurityCorpus({ name: `gate.check on ${name}`, backend, destroy, target: gateTarget, checkGateCodes: true });
  runSecurityCorpus({ name: `gate.fs on ${name}`, backend, destroy, target: gatedFsTarget });
  runSecurityCorpus({ name: `workspace handle on ${name}`, backend, destroy, target: workspaceTarget });
}

// The Node backend alone (no gate), jailed to /w: defence in depth.
runSecurityCorpus({
  name: "node backend jailed to /w, no gate",
  backend: async () => nodeFileSystem({ root: await mkdtemp(join(tmpdir(), "bft-corpus-jail-")), allowedRoots: ["/"] }),
  destroy: async (fs) => rm((fs as NodeFileSystem).root, { recursive: true, force: true }),
  target: (fs) => {
    const jailed = nodeFileSystem({ root: (fs as NodeFileSystem).root, allowedRoots: ["/w"] });
    const absolute = (path: string) => (path.startsWith("/") ? path : `/w/${path}`);
    return {
      read: (path) => outcome(async () => decoder.decode(await jailed.readFile(absolute(path)))),
      write: (path, content) => outcome(async () => (await jailed.writeFile(absolute(path), encoder.encode(content)), "written")),
      list: (path) => outcome(async () => names(await jailed.readdir(absolute(path)))),
    };
  },
});

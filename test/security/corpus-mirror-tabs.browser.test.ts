/**
 * The attack corpus in real Chromium on the mirrored OPFS backend across tabs: every attack
 * through the gate, the gated FileSystem, the workspace handle and every tool, on a reader
 * instance, whose mutations are forwarded to a writer instance on the same root (the two behave
 * as two tabs: Web Locks and BroadcastChannel). What the gate refuses never reaches the writer;
 * what it admits lands as it does on one instance.
 */
import { it } from "vitest";
import { opfsMirrorFileSystem, type OpfsMirrorFileSystem } from "../../src/backends/opfs-mirror/index.js";
import type { FileSystem } from "../../src/contract/types.js";
import { runSecurityCorpus } from "./corpus.js";
import { CORE_TARGETS, TOOL_TARGETS } from "./targets.js";

const ROOT = "/test-security-corpus-mirror-tabs";

async function wipe(root: string): Promise<void> {
  const directory = await navigator.storage.getDirectory();
  try {
    await directory.removeEntry(root.slice(1), { recursive: true });
  } catch (error) {
    if (!(error instanceof DOMException && error.name === "NotFoundError")) throw error;
  }
}

const writers = new WeakMap<FileSystem, OpfsMirrorFileSystem>();

async function reader(): Promise<FileSystem> {
  await wipe(ROOT);
  const writer = opfsMirrorFileSystem({ root: ROOT });
  await writer.ready();
  const fs = opfsMirrorFileSystem({ root: ROOT });
  await fs.ready();
  if (fs.role !== "reader") throw new Error(`expected a reader, got ${fs.role}`);
  writers.set(fs, writer);
  return fs;
}

async function destroy(fs: FileSystem): Promise<void> {
  await (fs as OpfsMirrorFileSystem).close();
  await writers.get(fs)?.close();
}

// Mutations from a reader go to the writer below the gate; the gate, its FileSystem, the workspace
// handle and the first tool target show it. Every tool runs the corpus on a single mirror
// instance (corpus-opfs-mirror.browser.test.ts).
for (const { name } of TOOL_TARGETS.slice(1)) {
  it.skip(`${name} on an opfs-mirror reader tab (Chromium): not run here, for time; every tool runs the corpus on one opfs-mirror instance`, () => {});
}
for (const { name, target, skip, gateCodes } of [...CORE_TARGETS, ...TOOL_TARGETS.slice(0, 1)]) {
  runSecurityCorpus({
    name: `${name} on an opfs-mirror reader tab (Chromium)`,
    backend: reader,
    target,
    checkGateCodes: gateCodes === true,
    destroy,
    ...(skip === undefined ? {} : { skip }),
  });
}

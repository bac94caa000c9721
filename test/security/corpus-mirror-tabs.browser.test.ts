/**
 * The attack corpus in real Chromium on the mirrored OPFS backend across tabs: every attack
 * through the gate, the gated FileSystem, the workspace handle and every tool (read/write/list,
 * edit, apply_patch Add File and Update File, glob and grep, bash), on a reader instance, whose
 * mutations are forwarded to a writer instance on the same root (the two behave as two tabs: Web
 * Locks and BroadcastChannel). What the gate refuses never reaches the writer; what it admits
 * lands as it does on one instance. Each case opens a fresh writer and reader on a wiped root and
 * closes both; the mirror's Worker is shared by every case of the file.
 */
import { afterAll } from "vitest";
import { opfsMirrorFileSystem, type OpfsMirrorFileSystem } from "../../src/backends/opfs-mirror/index.js";
import type { FileSystem } from "../../src/contract/types.js";
import { mirrorWorker, wipe } from "./browser-backends.js";
import { runSecurityCorpus } from "./corpus.js";
import { CORE_TARGETS, TOOL_TARGETS } from "./targets.js";

const ROOT = "/test-security-corpus-mirror-tabs";

const writers = new WeakMap<FileSystem, OpfsMirrorFileSystem>();

async function reader(): Promise<FileSystem> {
  await wipe(ROOT);
  const writer = opfsMirrorFileSystem({ root: ROOT, worker: mirrorWorker.get() });
  await writer.ready();
  const fs = opfsMirrorFileSystem({ root: ROOT, worker: mirrorWorker.get() });
  await fs.ready();
  if (fs.role !== "reader") throw new Error(`expected a reader, got ${fs.role}`);
  writers.set(fs, writer);
  return fs;
}

/** The reader first: closed before its writer, it never takes over. */
async function destroy(fs: FileSystem): Promise<void> {
  await (fs as OpfsMirrorFileSystem).close();
  await writers.get(fs)?.close();
}

for (const { name, target, skip, contained, gateCodes } of [...CORE_TARGETS, ...TOOL_TARGETS]) {
  runSecurityCorpus({
    name: `${name} on an opfs-mirror reader tab (Chromium)`,
    backend: reader,
    target,
    checkGateCodes: gateCodes === true,
    destroy,
    ...(skip === undefined ? {} : { skip }),
    ...(contained === undefined ? {} : { contained }),
  });
}

afterAll(() => mirrorWorker.end());

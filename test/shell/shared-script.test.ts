import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { nodeFileSystem } from "../../src/backends/node/index.js";
import type { FileSystem } from "../../src/contract/types.js";
import { justBashFileSystem } from "../../src/shell/just-bash-file-system.js";
import { binaryFixture, runSharedScript, SHARED_SCRIPT_OUTPUT } from "./shared-script.js";

const temporary: string[] = [];
afterEach(async () => {
  for (const dir of temporary.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function nodeBackend(): Promise<FileSystem> {
  const root = await mkdtemp(join(tmpdir(), "bft-shell-"));
  temporary.push(root);
  const fs = nodeFileSystem({ root, cwd: "/w" });
  await fs.mkdir("/w");
  return fs;
}

const backends: ReadonlyArray<readonly [string, () => Promise<FileSystem>]> = [
  ["memory", async () => memoryFileSystem()],
  ["node", nodeBackend],
  ["just-bash InMemoryFs", async () => justBashFileSystem()],
];

describe("the shared script gives the same output on every backend", () => {
  for (const [name, create] of backends) {
    it(name, async () => {
      const run = await runSharedScript(await create());
      expect(run.output).toEqual({ stdout: SHARED_SCRIPT_OUTPUT, stderr: "", exitCode: 0, timedOut: false });
      expect(run.names).toEqual(["copy.bin", "data.bin", "docs", "err.txt", "y.txt"]);
      expect(Array.from(run.copy)).toEqual(Array.from(binaryFixture()));
      expect(run.moved).toBe("beta two\ngamma three\n");
    });
  }
});

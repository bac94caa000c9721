/**
 * The core tools' own behaviour tests (test/tools/suite.ts) on the OPFS backend in Chromium,
 * on the main thread and through the Worker, each test on a wiped root.
 */
import { describe } from "vitest";
import { testTools } from "./suite.js";
import { opfsFileSystem, type OpfsFileSystem } from "../../../src/backends/opfs/index.js";
import { wipe } from "../../backends/opfs/wipe.js";

const open: OpfsFileSystem[] = [];

/** A fresh backend on a wiped root; the previous test's Worker is closed first. */
function factory(root: string, worker: boolean): () => Promise<OpfsFileSystem> {
  return async () => {
    for (const fs of open.splice(0)) await fs.close();
    await wipe(root);
    const fs = opfsFileSystem({ root: `/${root}`, worker });
    open.push(fs);
    return fs;
  };
}

describe("tools on opfs (main thread)", () => {
  testTools(factory("test-tools-opfs-main", false));
});

describe("tools on opfs (worker)", () => {
  testTools(factory("test-tools-opfs-worker", true));
});

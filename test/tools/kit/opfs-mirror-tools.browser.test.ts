/**
 * The core tools' behaviour tests (test/tools/suite.ts) on the mirrored OPFS backend in
 * Chromium, each test on a wiped root.
 */
import { describe } from "vitest";
import { testTools } from "./suite.js";
import { opfsMirrorFileSystem, type OpfsMirrorFileSystem } from "../../../src/backends/opfs-mirror/index.js";

const ROOT = "test-tools-opfs-mirror";
const open: OpfsMirrorFileSystem[] = [];

describe("tools on opfs-mirror", () => {
  testTools(async () => {
    for (const fs of open.splice(0)) await fs.close();
    const origin = await navigator.storage.getDirectory();
    await origin.removeEntry(ROOT, { recursive: true }).catch((error: unknown) => {
      if (!(error instanceof DOMException && error.name === "NotFoundError")) throw error;
    });
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}` });
    open.push(fs);
    return fs;
  });
});

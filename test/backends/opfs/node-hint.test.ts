/**
 * The OPFS backends created in Node (where no browser storage exists) fail on first use with a
 * hint to the Node backend, not to IndexedDB (which Node lacks too).
 */
import { describe, expect, it } from "vitest";
import { FsError } from "../../../src/contract/errors.js";
import { opfsFileSystem, OPFS_FALLBACK_HINT } from "../../../src/backends/opfs/index.js";
import { OPFS_NODE_HINT } from "../../../src/backends/opfs/root.js";
import { opfsMirrorFileSystem } from "../../../src/backends/opfs-mirror/index.js";

describe("OPFS in Node", () => {
  it("names nodeFileSystem and memoryFileSystem, not idbFileSystem", async () => {
    let error: unknown;
    try {
      await opfsFileSystem().readFile("/a.txt");
    } catch (reason) {
      error = reason;
    }
    expect(FsError.isInstance(error) && [error.code, error.message]).toEqual([
      "ENOTSUP",
      `ENOTSUP: operation not supported, opfs '/better-fs-tools' (${OPFS_NODE_HINT})`,
    ]);
    expect(OPFS_NODE_HINT).toBe(
      'the Origin Private File System (navigator.storage.getDirectory) exists only in browsers; in Node use nodeFileSystem from "better-fs-tools/node" (files on disk) or memoryFileSystem from "better-fs-tools/memory"',
    );
    expect(OPFS_FALLBACK_HINT).toContain("idbFileSystem");
  });

  it("the OPFS mirror says the same", async () => {
    let error: unknown;
    try {
      await opfsMirrorFileSystem().readFile("/a.txt");
    } catch (reason) {
      error = reason;
    }
    expect(FsError.isInstance(error) && [error.code, error.message]).toEqual([
      "ENOTSUP",
      `ENOTSUP: operation not supported, opfs '/better-fs-tools-mirror' (${OPFS_NODE_HINT})`,
    ]);
  });
});

/**
 * Test Worker: the OPFS Worker with a 1,000-byte "quota" (growing a file past it throws
 * QuotaExceededError, as Chromium does) and a fixed storage estimate (quota 5,000, usage 1,000).
 */
import "../../../src/backends/opfs/opfs-worker.js";

const QUOTA_BYTES = 1000;
const scope = globalThis as unknown as {
  FileSystemSyncAccessHandle: { prototype: { truncate(size: number): void } };
  StorageManager: { prototype: { estimate(): Promise<StorageEstimate> } };
};
const truncate = scope.FileSystemSyncAccessHandle.prototype.truncate;
scope.FileSystemSyncAccessHandle.prototype.truncate = function (this: unknown, size: number) {
  if (size > QUOTA_BYTES)
    throw new DOMException(
      "The operation failed because it would cause the application to exceed its storage quota.",
      "QuotaExceededError",
    );
  truncate.call(this, size);
};
scope.StorageManager.prototype.estimate = async () => ({ quota: 5000, usage: 1000 });

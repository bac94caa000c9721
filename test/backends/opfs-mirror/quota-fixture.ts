/**
 * Test Worker: the mirror Worker with a 4,096-byte "quota" per file (a write that would end past
 * it throws QuotaExceededError, as Chromium does when the origin's quota is used up).
 */
import "../../../src/backends/opfs-mirror/mirror-worker.js";

const QUOTA_BYTES = 4096;
const scope = globalThis as unknown as {
  FileSystemSyncAccessHandle: { prototype: { write(buffer: Uint8Array, options?: { at?: number }): number } };
};
const write = scope.FileSystemSyncAccessHandle.prototype.write;
scope.FileSystemSyncAccessHandle.prototype.write = function (this: unknown, buffer, options) {
  if ((options?.at ?? 0) + buffer.byteLength > QUOTA_BYTES)
    throw new DOMException(
      "The operation failed because it would cause the application to exceed its storage quota.",
      "QuotaExceededError",
    );
  return write.call(this, buffer, options);
};

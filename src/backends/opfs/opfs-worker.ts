/**
 * The OPFS Worker: serves `opfsFileSystem({ worker })` clients over message ports, reading and
 * writing through sync access handles kept open across calls. Loading this module in a
 * dedicated Worker starts it:
 *
 * ```ts
 * const worker = new Worker(new URL("better-fs-tools/opfs-worker", import.meta.url), { type: "module" });
 * const fs = opfsFileSystem({ worker });
 * ```
 *
 * @module
 */
import { createOpfsCore, type OpfsFileIo } from "./core.js";
import { mainThreadIo } from "./main-io.js";
import { OPFS_CONNECT_KIND, serveOpfsPort, type OpfsConnectMessage } from "./rpc.js";
import { resolveOpfsRoot } from "./root.js";
import { canUseSyncAccess, syncAccessIo } from "./sync-io.js";
import { holdWorkerLife } from "./worker-life.js";

function isConnect(data: unknown): data is OpfsConnectMessage {
  return typeof data === "object" && data !== null && (data as { kind?: unknown }).kind === OPFS_CONNECT_KIND;
}

/**
 * Serve OPFS sessions on a Worker scope (done automatically when this module is a Worker's entry;
 * call it yourself to host the service in a Worker of your own).
 *
 * @param scope - the Worker global scope (anything with `addEventListener("message")`).
 */
export function startOpfsWorker(scope: Pick<EventTarget, "addEventListener">): void {
  scope.addEventListener("message", (event) => {
    const data = (event as MessageEvent<unknown>).data;
    if (!isConnect(data)) return;
    const syncAccess = canUseSyncAccess();
    const io: OpfsFileIo = syncAccess
      ? syncAccessIo({
          ...(data.syncHandleIdleMs === undefined ? {} : { idleMs: data.syncHandleIdleMs }),
          ...(data.maxSyncHandles === undefined ? {} : { maxHandles: data.maxSyncHandles }),
        })
      : mainThreadIo();
    holdWorkerLife(data.lifeLock, () =>
      serveOpfsPort(
        data.port,
        createOpfsCore({
          getRoot: () => resolveOpfsRoot(data.root),
          io,
          busyTimeoutMs: data.busyTimeoutMs,
          // Sync access handles write in place: new bytes go through a temporary file instead.
          writeThroughTemp: syncAccess,
        }),
      ),
    );
  });
}

const workerScope = (globalThis as { WorkerGlobalScope?: abstract new () => unknown }).WorkerGlobalScope;
const isWorkerScope = typeof workerScope === "function" && globalThis instanceof workerScope;
if (isWorkerScope) startOpfsWorker(globalThis);

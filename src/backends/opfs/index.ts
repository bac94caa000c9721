/**
 * `better-fs-tools/opfs`: the Origin Private File System backend. `opfsFileSystem()` runs on the
 * main thread (async handles, writes through `createWritable`); with `worker` the same calls run
 * in a dedicated Worker through sync access handles kept open across calls, an order of magnitude faster
 * for read-modify-write loops, behind the same {@link FileSystem} interface. Also
 * `isOpfsSupported()` and `webLocks()` (cross-tab `Locks` for the tools).
 *
 * ```ts
 * import { isOpfsSupported, opfsFileSystem } from "better-fs-tools/opfs";
 * import { idbFileSystem } from "better-fs-tools/idb";
 *
 * const fs = (await isOpfsSupported())
 *   ? opfsFileSystem({ root: "/workspaces/demo", worker: true })
 *   : idbFileSystem({ name: "workspaces-demo" });
 * const tools = createFsTools({ fs }); // Web Locks across tabs by default (fs.locks)
 * ```
 *
 * - Workspaces: each `root` is a directory under the origin's OPFS root, created on first call.
 * - The Worker, in the forms tested in a Vite 8 app with no configuration, through `vite build`
 *   and through `vite dev` with dependency pre-bundling (test/package/consumer-storage.test.ts):
 *   1. `worker: true` starts `new Worker(new URL("./opfs-worker.js", import.meta.url), { type: "module" })`
 *      from inside the package. Vite emits it as a Worker chunk on build and serves it from
 *      `node_modules/better-fs-tools/dist/fs/` in dev. Other bundlers that understand that
 *      pattern (e.g. webpack 5) should do the same (not tested here).
 *   2. A Worker of your own, passed as `worker` (one Worker may serve several file systems;
 *      `close()` leaves it running, `terminate()` it yourself):
 *      `new Worker(new URL("better-fs-tools/opfs-worker", import.meta.url), { type: "module" })`,
 *      or in Vite `import OpfsWorker from "better-fs-tools/opfs-worker?worker"` then `new OpfsWorker()`.
 *   3. No bundler (not tested here): serve the package's `dist/` and start
 *      `new Worker("/<where you serve it>/dist/backends/opfs/opfs-worker.js", { type: "module" })`.
 *   A Worker script that cannot be loaded makes every call reject with `EIO` ("the OPFS worker
 *   failed: could not load its script ...") naming form 2; nothing hangs. A Worker that ends later
 *   (terminated, crashed) makes calls in flight and after reject with `EIO` ("the OPFS worker
 *   ended"), told by a Web Lock the Worker holds while it lives (`worker-life.ts`).
 * - Several tabs: writes are atomic per file; the backend carries `locks` (Web Locks named after
 *   its root, where `navigator.locks` exists), which the tools use by default, so two tabs never
 *   interleave a read-modify-write; pass `webLocks({ prefix })` as the tools' `locks` to choose.
 *   A Worker holds its files' sync access handles for
 *   {@link DEFAULT_SYNC_HANDLE_IDLE_MS} after last use; other tabs wait up to `busyTimeoutMs`.
 * - Not available (opaque origins, some private modes, old browsers): creation throws, or the
 *   first call rejects, with `ENOTSUP` naming the fallback, `idbFileSystem` from `better-fs-tools/idb`.
 * - Limits: no symlinks; directories have `mtimeMs` 0; names with `\` are refused (`EINVAL`);
 *   the folder `.better-fs-tools-tmp` at the root is the Worker's (hidden, paths through it
 *   refused with `EACCES`). Every write replaces the file whole or not at all, also when the
 *   Worker ends mid-write (the main thread through `createWritable`, the Worker through a
 *   flushed temporary file moved onto the name).
 *
 * @module
 */
import { type FileSystem } from "../../contract/types.js";
import { assertKnownOptions } from "../../contract/options.js";
import { FsError } from "../../contract/errors.js";
import { createOpfsCore } from "./core.js";
import { mainThreadIo } from "./main-io.js";
import { OPFS_CONNECT_KIND, opfsRpcClient, type OpfsConnectMessage } from "./rpc.js";
import { DEFAULT_OPFS_ROOT, describeRoot, hasOpfsApi, opfsUnavailableError, resolveOpfsRoot } from "./root.js";
import { DEFAULT_WEB_LOCKS_PREFIX, webLocks } from "./locks.js";
import { watchWorkerLife, workerLifeLockName } from "./worker-life.js";

export { DEFAULT_WEB_LOCKS_PREFIX, webLocks, type WebLocksOptions } from "./locks.js";
export { DEFAULT_OPFS_ROOT, OPFS_FALLBACK_HINT } from "./root.js";
export { DEFAULT_MAX_SYNC_HANDLES, DEFAULT_SYNC_HANDLE_IDLE_MS } from "./sync-io.js";
export { STALE_FILE_RETRIES } from "./main-io.js";

/** How long a call waits for a file that another tab or Worker holds open, in milliseconds. */
export const DEFAULT_OPFS_BUSY_TIMEOUT_MS = 3_000;

/** Options of {@link opfsFileSystem}. */
export interface OpfsFileSystemOptions {
  /**
   * The workspace root: a path under the origin's OPFS root (created on first call), or a
   * `FileSystemDirectoryHandle` (e.g. from `showDirectoryPicker`, or a test double). Several
   * workspaces can share an origin under different roots.
   * @default DEFAULT_OPFS_ROOT ("/better-fs-tools")
   */
  readonly root?: string | FileSystemDirectoryHandle;
  /**
   * Run the file I/O in a dedicated Worker with sync access handles: `true` starts the
   * package's own Worker (`opfs-worker.js` beside this module), or pass a `Worker` that loaded
   * `better-fs-tools/opfs-worker`. Several file systems may share one Worker.
   * @default false
   */
  readonly worker?: boolean | Worker;
  /** How long a call waits for a file another tab or Worker holds open before `EBUSY`, in milliseconds. @default DEFAULT_OPFS_BUSY_TIMEOUT_MS */
  readonly busyTimeoutMs?: number;
  /** Worker only: a sync access handle idle this long is closed, in milliseconds. @default DEFAULT_SYNC_HANDLE_IDLE_MS */
  readonly syncHandleIdleMs?: number;
  /** Worker only: at most this many sync access handles stay open. @default DEFAULT_MAX_SYNC_HANDLES */
  readonly maxSyncHandles?: number;
}

/** The OPFS backend: a {@link FileSystem} plus `root` and `close()`. */
export interface OpfsFileSystem extends FileSystem {
  /** The root as given (`/better-fs-tools`), or `<handle name>` for an injected handle. */
  readonly root: string;
  /** Close open handles; with `worker: true`, end the Worker. Calls after `close()` reject with `EIO`. */
  close(): Promise<void>;
}

/** The `EIO` detail when the Worker script could not be fetched or parsed (a plain `error` event). */
const WORKER_LOAD_FAILURE =
  'could not load its script; if your bundler did not emit opfs-worker.js, pass your own: worker: new Worker(new URL("better-fs-tools/opfs-worker", import.meta.url), { type: "module" })';

const OPTION_KEYS = ["root", "worker", "busyTimeoutMs", "syncHandleIdleMs", "maxSyncHandles"] as const;

function checkMs(options: OpfsFileSystemOptions, key: "busyTimeoutMs" | "syncHandleIdleMs" | "maxSyncHandles"): void {
  const value = options[key];
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`opfsFileSystem: option "${key}" must be a non-negative finite number, got ${String(value)}`);
  }
}

function isDirectoryHandle(value: unknown): value is FileSystemDirectoryHandle {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "directory";
}

/**
 * True when OPFS works in this context: the API exists and the origin's root can be opened
 * (opaque origins and some private modes refuse it).
 *
 * @returns a promise of `true` or `false`; never rejects.
 * @example
 * ```ts
 * const fs = (await isOpfsSupported()) ? opfsFileSystem() : idbFileSystem();
 * ```
 */
export async function isOpfsSupported(): Promise<boolean> {
  if (!hasOpfsApi()) return false;
  try {
    await navigator.storage.getDirectory();
    return true;
  } catch {
    return false;
  }
}

/**
 * A {@link FileSystem} over the Origin Private File System, rooted at a subdirectory.
 *
 * - Main thread (default): writes go through `createWritable`, a swap file that replaces the
 *   old content only on `close()`; a failed write aborts it and leaves the old content. Swap
 *   files (`*.crswap`) are hidden from `readdir`. A `File` that went stale while being read
 *   (`NotReadableError`) is fetched again.
 * - `worker`: the same calls run in a dedicated Worker through sync access handles (capability
 *   `syncAccess`); the main thread talks to it over a `MessagePort`. Reads use handles held
 *   open across calls; a write goes to a new file in `.better-fs-tools-tmp` at the root
 *   (written, flushed, closed), then `move()` puts it onto the name, so a Worker that ends
 *   mid-write leaves the old file; leftovers are removed on the first write of the next Worker.
 * - Paths through `/.better-fs-tools-tmp` are refused with `EACCES` and `readdir("/")` hides it.
 * - `rename` uses `FileSystemFileHandle.move()` where present; otherwise, and for directories,
 *   it copies, then removes the source only once the copy is complete.
 * - No symlinks (capability `symlink` not declared). Directories report `mtimeMs` 0.
 *
 * The root is reached lazily, on the first call.
 *
 * @param options - root, worker and timeouts; see {@link OpfsFileSystemOptions}.
 * @returns the backend; every method rejects with `FsError`: `ENOENT`, `EISDIR`, `ENOTDIR`,
 *   `EEXIST`, `ENOTEMPTY`, `EINVAL` (a name OPFS refuses: `\`), `EACCES` (a path through the
 *   reserved `/.better-fs-tools-tmp`), `EBUSY` (held open by another
 *   tab or Worker past `busyTimeoutMs`), `ENOSPC` (quota; the message gives the bytes asked and
 *   the quota left, and the old content is intact), `ENOTSUP` on the first call where OPFS is
 *   refused (naming the `idb` fallback), `EIO` otherwise.
 * @throws FsError `ENOTSUP` at creation where `navigator.storage.getDirectory` (or `Worker`,
 *   for `worker: true`) does not exist, naming the fallback `better-fs-tools/idb`;
 *   TypeError for an unknown option or a bad value, naming the option.
 * @example
 * ```ts
 * import { opfsFileSystem, webLocks } from "better-fs-tools/opfs";
 * const fs = opfsFileSystem({ root: "/projects/demo", worker: true });
 * await fs.writeFile("/src/a.ts", new TextEncoder().encode("export {};\n"));
 * ```
 */
export function opfsFileSystem(options: OpfsFileSystemOptions = {}): OpfsFileSystem {
  if (typeof options !== "object" || options === null) throw new TypeError("opfsFileSystem: options must be an object");
  assertKnownOptions("opfsFileSystem", options, OPTION_KEYS);
  const root = options.root ?? DEFAULT_OPFS_ROOT;
  if (typeof root !== "string" && !isDirectoryHandle(root)) {
    throw new TypeError('opfsFileSystem: option "root" must be a path string or a FileSystemDirectoryHandle');
  }
  if (typeof root === "string" && root.split("/").includes("..")) {
    throw new TypeError(`opfsFileSystem: option "root" must not contain "..", got "${root}"`);
  }
  const worker = options.worker ?? false;
  if (
    typeof worker !== "boolean" &&
    (typeof worker !== "object" || worker === null || typeof worker.postMessage !== "function")
  ) {
    throw new TypeError('opfsFileSystem: option "worker" must be true, false or a Worker');
  }
  checkMs(options, "busyTimeoutMs");
  checkMs(options, "syncHandleIdleMs");
  checkMs(options, "maxSyncHandles");
  const label = describeRoot(root);
  if (typeof root === "string" && !hasOpfsApi()) throw opfsUnavailableError(label);
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_OPFS_BUSY_TIMEOUT_MS;

  // Tools over this backend lock paths across tabs by default (Web Locks), where the API exists.
  const locks =
    typeof navigator !== "undefined" && navigator.locks !== undefined
      ? webLocks({ prefix: `${DEFAULT_WEB_LOCKS_PREFIX}opfs${label}:` })
      : undefined;

  if (worker === false) {
    const core = createOpfsCore({ getRoot: () => resolveOpfsRoot(root), io: mainThreadIo(), busyTimeoutMs });
    return Object.assign(core, { root: label }, locks === undefined ? {} : { locks });
  }

  if (worker === true && typeof Worker !== "function") {
    throw new FsError("ENOTSUP", {
      syscall: "opfs",
      path: label,
      detail: "Worker is not available in this context; use opfsFileSystem() without worker",
    });
  }
  const target =
    worker === true ? new Worker(new URL("./opfs-worker.js", import.meta.url), { type: "module" }) : worker;
  const channel = new MessageChannel();
  const client = opfsRpcClient(channel.port1);
  const onError = (event: Event) => {
    const message = event instanceof ErrorEvent ? event.message : "";
    client.fail(
      new FsError("EIO", {
        syscall: "opfs",
        path: label,
        detail: `the OPFS worker failed: ${message || WORKER_LOAD_FAILURE}`,
      }),
    );
  };
  target.addEventListener("error", onError);
  // A Worker that ends without an error (terminated by its owner or the browser) fires no `error`
  // event: its life lock tells (found by the model-based test's dying Worker: calls in flight
  // then waited forever).
  const lifeLock = workerLifeLockName();
  const stopWatching = watchWorkerLife(lifeLock, channel.port1, () => {
    client.fail(
      new FsError("EIO", { syscall: "opfs", path: label, detail: "the OPFS worker ended (terminated or crashed)" }),
    );
  });
  const connect: OpfsConnectMessage = {
    kind: OPFS_CONNECT_KIND,
    port: channel.port2,
    root,
    busyTimeoutMs,
    ...(options.syncHandleIdleMs === undefined ? {} : { syncHandleIdleMs: options.syncHandleIdleMs }),
    ...(options.maxSyncHandles === undefined ? {} : { maxSyncHandles: options.maxSyncHandles }),
    ...(lifeLock === undefined ? {} : { lifeLock }),
  };
  target.postMessage(connect, [channel.port2]);
  let closed = false;
  return {
    name: "opfs",
    capabilities: { syncAccess: true },
    root: label,
    ...(locks === undefined ? {} : { locks }),
    readFile: client.readFile,
    writeFile: client.writeFile,
    stat: client.stat,
    lstat: client.lstat,
    readdir: client.readdir,
    mkdir: client.mkdir,
    rm: client.rm,
    rename: client.rename,
    realpath: client.realpath,
    async close() {
      if (closed) return;
      closed = true;
      try {
        // A Worker that died unnoticed fails this close request too (the watch is still on).
        await client.close();
      } finally {
        stopWatching();
        client.fail(new FsError("EIO", { syscall: "opfs", path: label, detail: "the file system was closed" }));
        target.removeEventListener("error", onError);
        if (worker === true) target.terminate();
      }
    },
  };
}

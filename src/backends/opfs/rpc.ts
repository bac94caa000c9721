/**
 * The message protocol between `opfsFileSystem({ worker })` on the main thread and the OPFS
 * Worker: one `MessagePort` per client, one request per call, replies matched by id. Errors
 * cross as plain fields and are rebuilt as {@link FsError} with the same message.
 *
 * @module
 */
import { type FileSystem } from "../../contract/types.js";
import { FsError, type FsErrorCode } from "../../contract/errors.js";
import type { OpfsCore } from "./core.js";

/** The `kind` of the message that hands the Worker a port to serve. */
export const OPFS_CONNECT_KIND = "better-fs-tools/opfs:connect";

/** The FileSystem methods that cross the channel. */
export const OPFS_RPC_METHODS = [
  "readFile",
  "writeFile",
  "stat",
  "lstat",
  "readdir",
  "mkdir",
  "rm",
  "rename",
  "realpath",
] as const;
export type OpfsRpcMethod = (typeof OPFS_RPC_METHODS)[number];

/** Sent to the Worker (on the Worker itself) to open a session. */
export interface OpfsConnectMessage {
  readonly kind: typeof OPFS_CONNECT_KIND;
  readonly port: MessagePort;
  /** Root directory: a path under the origin's OPFS root, or a handle (structured-cloneable). */
  readonly root: string | FileSystemDirectoryHandle;
  readonly busyTimeoutMs: number;
  readonly syncHandleIdleMs?: number;
  readonly maxSyncHandles?: number;
  /** The session's life lock, held by the Worker while it lives (see `worker-life.ts`). */
  readonly lifeLock?: string;
}

interface Request {
  readonly id: number;
  readonly method: OpfsRpcMethod | "close";
  readonly args: readonly unknown[];
}

interface SerializedError {
  readonly code?: FsErrorCode;
  readonly syscall?: string;
  readonly path?: string;
  readonly dest?: string;
  readonly detail?: string;
  readonly message: string;
}

type Reply =
  { readonly id: number; readonly value: unknown } | { readonly id: number; readonly error: SerializedError };

function serializeError(error: unknown): SerializedError {
  if (FsError.isInstance(error)) {
    return {
      code: error.code,
      syscall: error.syscall,
      ...(error.path === undefined ? {} : { path: error.path }),
      ...(error.dest === undefined ? {} : { dest: error.dest }),
      ...(error.detail === undefined ? {} : { detail: error.detail }),
      message: error.message,
    };
  }
  return { message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/** Rebuild an error from the wire: same code, syscall, paths and detail, so the same message. */
export function deserializeError(error: SerializedError, fallback: { syscall: string; path?: string }): FsError {
  if (error.code === undefined || error.syscall === undefined) {
    return new FsError("EIO", { ...fallback, detail: error.message });
  }
  return new FsError(error.code, {
    syscall: error.syscall,
    ...(error.path === undefined ? {} : { path: error.path }),
    ...(error.dest === undefined ? {} : { dest: error.dest }),
    ...(error.detail === undefined ? {} : { detail: error.detail }),
  });
}

/**
 * Serve a backend on a port (Worker side). Calls run concurrently, as on any backend.
 *
 * @param port - the session's port.
 * @param fs - the backend to serve (the OPFS core with sync access handles).
 */
export function serveOpfsPort(port: MessagePort, fs: OpfsCore): void {
  port.onmessage = async (event: MessageEvent<Request>) => {
    const { id, method, args } = event.data;
    try {
      let value: unknown;
      if (method === "close") {
        await fs.close();
        value = undefined;
      } else {
        const call = fs[method] as (...callArgs: unknown[]) => Promise<unknown>;
        value = await call.apply(fs, [...args]);
      }
      const reply: Reply = { id, value };
      port.postMessage(reply, value instanceof Uint8Array ? [value.buffer as ArrayBuffer] : []);
    } catch (error) {
      const reply: Reply = { id, error: serializeError(error) };
      port.postMessage(reply);
    }
  };
}

/** A client for {@link serveOpfsPort}: the FileSystem methods, plus `close` and `fail`. */
export interface OpfsRpcClient extends Pick<FileSystem, OpfsRpcMethod> {
  /** Ask the Worker to close its handles for this session, then close the port. */
  close(): Promise<void>;
  /** Reject every pending and future call with this error (the Worker died). */
  fail(error: FsError): void;
}

const SYSCALL_OF: Readonly<Record<OpfsRpcMethod, string>> = {
  readFile: "open",
  writeFile: "open",
  stat: "stat",
  lstat: "lstat",
  readdir: "scandir",
  mkdir: "mkdir",
  rm: "rm",
  rename: "rename",
  realpath: "realpath",
};

/**
 * The bytes of a `writeFile` as they cross to the Worker: a copy of exactly the view's bytes, in
 * a buffer of its own that is transferred (not cloned). Posting the caller's view itself would
 * clone its whole backing buffer: a 1 KiB `subarray` of a 100 MiB pack costs 100 MiB per call.
 * The caller's buffer is never transferred (it stays usable). Anything else passes as is, for
 * the Worker's backend to refuse.
 */
function wireBytes(data: unknown): unknown {
  // `new Uint8Array(view)` copies into a fresh buffer; `slice()` could be a view (Buffer's is).
  return data instanceof Uint8Array ? new Uint8Array(data) : data;
}

/**
 * The main-thread end of a session.
 *
 * @param port - our end of the channel (the other end was sent to the Worker).
 */
export function opfsRpcClient(port: MessagePort): OpfsRpcClient {
  let nextId = 1;
  let failure: FsError | undefined;
  const pending = new Map<
    number,
    {
      resolve: (value: unknown) => void;
      reject: (error: unknown) => void;
      method: OpfsRpcMethod | "close";
      path?: string;
    }
  >();
  port.onmessage = (event: MessageEvent<Reply>) => {
    const reply = event.data;
    const waiter = pending.get(reply.id);
    if (waiter === undefined) return;
    pending.delete(reply.id);
    if ("error" in reply) {
      const syscall = waiter.method === "close" ? "close" : SYSCALL_OF[waiter.method];
      waiter.reject(
        deserializeError(reply.error, { syscall, ...(waiter.path === undefined ? {} : { path: waiter.path }) }),
      );
    } else {
      waiter.resolve(reply.value);
    }
  };

  function call(
    method: OpfsRpcMethod | "close",
    args: readonly unknown[],
    transfer: readonly Transferable[] = [],
  ): Promise<unknown> {
    if (failure !== undefined) return Promise.reject(failure);
    const id = nextId++;
    const path = typeof args[0] === "string" ? args[0] : undefined;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, method, ...(path === undefined ? {} : { path }) });
      const request: Request = { id, method, args };
      port.postMessage(request, [...transfer]);
    });
  }

  return {
    readFile: (path) => call("readFile", [path]) as Promise<Uint8Array>,
    writeFile: (path, data) => {
      const bytes = wireBytes(data);
      return call(
        "writeFile",
        [path, bytes],
        bytes instanceof Uint8Array ? [bytes.buffer as ArrayBuffer] : [],
      ) as Promise<void>;
    },
    stat: (path) => call("stat", [path]) as ReturnType<FileSystem["stat"]>,
    lstat: (path) => call("lstat", [path]) as ReturnType<FileSystem["lstat"]>,
    readdir: (path) => call("readdir", [path]) as ReturnType<FileSystem["readdir"]>,
    mkdir: (path, options) => call("mkdir", options === undefined ? [path] : [path, options]) as Promise<void>,
    rm: (path, options) => call("rm", options === undefined ? [path] : [path, options]) as Promise<void>,
    rename: (from, to) => call("rename", [from, to]) as Promise<void>,
    realpath: (path) => call("realpath", [path]) as Promise<string>,
    async close() {
      if (failure === undefined) await call("close", []);
      port.close();
    },
    fail(error) {
      failure = error;
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    },
  };
}

/**
 * Runs an operation (see `operations.ts`) against a backend: awaiting its promise calls, or
 * answering them from its synchronous form (`fs.sync`).
 *
 * @module
 */
import { FsError } from "../contract/errors.js";
import type { FileSystem } from "../contract/types.js";
import { NodeFsError, toNodeError } from "./errors.js";
import type { Call, Operation } from "./operations.js";

/** Node's syscall and the caller's paths, for the error of a failed call. */
export interface CallSite {
  readonly syscall: string;
  readonly path?: string;
  readonly dest?: string;
}

function rethrow(error: unknown, site: CallSite): never {
  if (error instanceof NodeFsError && error.syscall === "") {
    throw new NodeFsError({ code: error.code, syscall: site.syscall, cause: error });
  }
  throw toNodeError(error, site.syscall, site.path, site.dest);
}

function missingMethod(fs: FileSystem, call: Call): FsError {
  return new FsError("ENOTSUP", { syscall: call.method, detail: `the ${fs.name} backend has no ${call.method}` });
}

/**
 * The operation's result, its backend calls awaited one after another.
 *
 * @throws (rejects) a {@link NodeFsError} for a backend's `FsError`, with `site`'s syscall and paths.
 */
export async function runAsync<T>(fs: FileSystem, site: CallSite, operation: Operation<T>): Promise<T> {
  try {
    let step = operation.next();
    while (!step.done) {
      const call = step.value;
      const method = fs[call.method] as ((...args: readonly unknown[]) => Promise<unknown>) | undefined;
      let result: unknown;
      let failure: { error: unknown } | undefined;
      try {
        if (method === undefined) throw missingMethod(fs, call);
        result = await method.apply(fs, [...call.args]);
      } catch (error) {
        failure = { error };
      }
      step = failure === undefined ? operation.next(result) : operation.throw(failure.error);
    }
    return step.value;
  } catch (error) {
    rethrow(error, site);
  }
}

/** The error a sync call throws on a backend without a synchronous form. */
export function noSyncError(fs: FileSystem, site: CallSite): NodeFsError {
  return new NodeFsError({
    code: "ENOTSUP",
    syscall: site.syscall,
    ...(site.path === undefined ? {} : { path: site.path }),
    ...(site.dest === undefined ? {} : { dest: site.dest }),
    detail: `synchronous calls need a backend that holds its files in memory (memory, idb, opfs-mirror), called directly; this ${fs.name} filesystem has no sync form (nor has a gate or middleware): use fs.promises or the callback API`,
  });
}

/**
 * The operation's result, its backend calls answered by `fs.sync`.
 *
 * @throws {@link NodeFsError} as {@link runAsync}, and `ENOTSUP` when the backend has no `sync`.
 */
export function runSync<T>(fs: FileSystem, site: CallSite, operation: Operation<T>): T {
  const sync = fs.sync;
  if (sync === undefined) throw noSyncError(fs, site);
  try {
    let step = operation.next();
    while (!step.done) {
      const call = step.value;
      const method = sync[call.method] as ((...args: readonly unknown[]) => unknown) | undefined;
      let result: unknown;
      let failure: { error: unknown } | undefined;
      try {
        if (method === undefined) throw missingMethod(fs, call);
        result = method.apply(sync, [...call.args]);
      } catch (error) {
        failure = { error };
      }
      step = failure === undefined ? operation.next(result) : operation.throw(failure.error);
    }
    return step.value;
  } catch (error) {
    rethrow(error, site);
  }
}

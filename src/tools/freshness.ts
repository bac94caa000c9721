/**
 * Read-before-write: a mutation of an existing file must follow a read of it in this session,
 * and the file must not have changed since (compared by digest).
 *
 * @module
 */
import type { ToolContext } from "./context.js";
import type { ToolError } from "./result.js";

/**
 * Check that the file at `path`, whose current bytes are `bytes`, was read and has not changed
 * since. Without a store (`ctx.state` undefined) every file passes.
 *
 * @param verb - what the caller is about to do (`edit`, `overwrite`), used in messages.
 * @returns undefined when the mutation may go ahead; `ENOTREAD` when the file was not read in
 *   this session; `ESTALE` when its digest differs from the one recorded at the last read or write.
 */
export async function checkFresh(
  ctx: ToolContext,
  path: string,
  displayPath: string,
  bytes: Uint8Array | string,
  verb: string,
): Promise<ToolError | undefined> {
  if (ctx.state === undefined) return undefined;
  const record = await ctx.state.get(path);
  if (record === undefined) {
    return {
      code: "ENOTREAD",
      path,
      message: `${displayPath} has not been read in this session. Read it first with read, then ${verb} it.`,
    };
  }
  const digest = typeof bytes === "string" ? bytes : await ctx.digest(bytes);
  if (digest !== record.digest) {
    return {
      code: "ESTALE",
      path,
      message: `${displayPath} has changed since it was last read. Read it again, then ${verb} it.`,
    };
  }
  return undefined;
}

/**
 * Record that the tools have seen `path` with these bytes (or this digest), so a later write or
 * edit passes {@link checkFresh}. Does nothing without a store.
 */
export async function recordSeen(ctx: ToolContext, path: string, bytes: Uint8Array | string): Promise<void> {
  if (ctx.state === undefined) return;
  const digest = typeof bytes === "string" ? bytes : await ctx.digest(bytes);
  await ctx.state.set(path, { digest, atMs: ctx.clock() });
}

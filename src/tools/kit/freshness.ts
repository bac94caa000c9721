/**
 * Read-before-write: a mutation of an existing file must follow a read of it in this session,
 * and the file must not have changed since (compared by digest).
 *
 * Large files are not hashed twice: the last few large contents the tools saw (read or wrote)
 * are kept with their digest, per store, and a file whose bytes equal the kept bytes has the
 * kept digest, which a byte comparison proves far faster than SHA-256 (about 1 ms for 10 MiB
 * against 25 ms).
 *
 * @module
 */
import type { ToolContext } from "./context.js";
import type { ToolError } from "../../contract/errors.js";
import type { FileRecord, FileStateStore } from "./state.js";
import { sameBytes } from "../../contract/bytes.js";

/** Contents smaller than this are simply hashed: 256 KiB. */
export const SEEN_CACHE_MIN_BYTES = 256 * 1024;

/** Contents larger than this are not kept (memory): 16 MiB. */
export const SEEN_CACHE_MAX_BYTES = 16 * 1024 * 1024;

/** Most large contents kept per store (least recently used go first): 4, so at most 64 MiB. */
export const SEEN_CACHE_ENTRIES = 4;

interface SeenContent {
  readonly digest: string;
  readonly bytes: Uint8Array;
}

const seenByStore = new WeakMap<FileStateStore, Map<string, SeenContent>>();

function remember(store: FileStateStore, path: string, content: SeenContent): void {
  let seen = seenByStore.get(store);
  if (seen === undefined) {
    seen = new Map();
    seenByStore.set(store, seen);
  }
  seen.delete(path);
  seen.set(path, content);
  if (seen.size > SEEN_CACHE_ENTRIES) seen.delete(seen.keys().next().value!);
}

/** The digest of `bytes`, from the kept contents when they match, else computed. */
async function digestOf(
  ctx: ToolContext,
  store: FileStateStore,
  path: string,
  bytes: Uint8Array,
  expected: string,
): Promise<string> {
  const kept = seenByStore.get(store)?.get(path);
  if (kept !== undefined && kept.digest === expected && sameBytes(kept.bytes, bytes)) return kept.digest;
  return ctx.digest(bytes);
}

/**
 * The store's record of `path` as the call begins (before it waits for the lock), for
 * {@link checkFresh}'s `before`: a whole-file overwrite must not replace what another call wrote
 * while this one waited. `undefined` without a store or without a record.
 */
export async function recordBefore(ctx: ToolContext, path: string): Promise<FileRecord | undefined> {
  return ctx.state === undefined ? undefined : await ctx.state.get(path);
}

/**
 * Check that the file at `path`, whose current bytes are `bytes`, was read and has not changed
 * since. Without a store (`ctx.state` undefined) every file passes.
 *
 * Call it inside `ctx.locks.run([path, ...], ...)`, after reading the bytes and before writing,
 * so the check and the write are one step for every tool over the backend (write, edit and
 * apply_patch all do).
 *
 * @param verb - what the caller is about to do (`edit`, `overwrite`), used in messages.
 * @param before - for whole-file overwrites: the record from {@link recordBefore}, taken when the
 *   call began. When the record changed since (another call wrote or read the file while this
 *   one waited for the lock), the result is `ESTALE`.
 * @returns undefined when the mutation may go ahead; `ENOTREAD` when the file was not read in
 *   this session; `ESTALE` when its digest differs from the one recorded at the last read or
 *   write, or the record changed after the call began.
 */
export async function checkFresh(
  ctx: ToolContext,
  path: string,
  displayPath: string,
  bytes: Uint8Array | string,
  verb: string,
  before?: { readonly record: FileRecord | undefined },
): Promise<ToolError | undefined> {
  const store = ctx.state;
  if (store === undefined) return undefined;
  const record = await store.get(path);
  if (before !== undefined && record !== undefined && record.digest !== before.record?.digest) {
    return {
      code: "ESTALE",
      path,
      message: `${displayPath} was written by another call after this ${verb === "overwrite" ? "write" : verb} began. Read the file, then retry.`,
    };
  }
  if (record === undefined) {
    return {
      code: "ENOTREAD",
      path,
      message: `${displayPath} has not been read in this session. Read the file first, then retry.`,
    };
  }
  const digest = typeof bytes === "string" ? bytes : await digestOf(ctx, store, path, bytes, record.digest);
  if (digest !== record.digest) {
    return {
      code: "ESTALE",
      path,
      message: `${displayPath} has changed since it was last read. Read the file again, then retry.`,
    };
  }
  return undefined;
}

/**
 * Record that the tools have seen `path` with these bytes (or this digest), so a later write or
 * edit passes {@link checkFresh}. Does nothing without a store.
 *
 * @param bytes - the content seen, or its digest.
 * @param digest - the digest of `bytes` when the caller has it already (it is not recomputed).
 *   The bytes must not be changed afterwards: large ones are kept to spare a later hash.
 */
export async function recordSeen(
  ctx: ToolContext,
  path: string,
  bytes: Uint8Array | string,
  digest?: string,
): Promise<void> {
  const store = ctx.state;
  if (store === undefined) return;
  const value = digest ?? (typeof bytes === "string" ? bytes : await ctx.digest(bytes));
  await store.set(path, { digest: value, atMs: ctx.clock() });
  if (typeof bytes !== "string" && bytes.length >= SEEN_CACHE_MIN_BYTES && bytes.length <= SEEN_CACHE_MAX_BYTES) {
    remember(store, path, { digest: value, bytes });
  }
}

/** What the `write` and `edit` descriptions add when the tool has a read-before-write store: `<subject> must be read first in this session.` */
export const READ_FIRST_NOTE = "must be read first in this session.";

/**
 * A tool description, followed by the read-before-write rule only when the tool checks it (its
 * options carry a `state` store): a model is told of a rule exactly when it applies.
 *
 * @param description - the description without the rule.
 * @param options - the tool's options (only `state` is looked at).
 * @param subject - what must be read, `"An existing file"` or `"The file"`.
 * @returns the description, with ` <subject> must be read first in this session.` when `state` is given.
 */
export function describeReadFirst(description: string, options: { readonly state?: unknown }, subject: string): string {
  return options.state === undefined || options.state === false
    ? description
    : `${description} ${subject} ${READ_FIRST_NOTE}`;
}

/**
 * `apply_patch`: the Codex patch envelope as a core tool. A patch adds, deletes, updates and
 * moves files in one call; it is parsed, checked and computed entirely in memory first, then
 * written, all or nothing.
 *
 * Differences from the reference tool (codex-rs/apply-patch), on purpose:
 * - **Atomic.** Nothing is written until every operation has been computed; if a write fails
 *   midway, the files already written are restored (and directories it created removed). The
 *   reference applies operation by operation, so a failure after a successful `Add File` leaves
 *   that file behind (its scenario 015); here the tree stays as it was.
 * - **Ambiguity is an error.** Context is searched forward only, with the reference's fallbacks
 *   (exact, trailing whitespace ignored, surrounding whitespace ignored, Unicode punctuation
 *   normalised), but a pass that matches more than one place fails with `EAMBIGUOUS` instead of
 *   taking the first.
 * - **Line endings and BOM are kept** per line: untouched lines and context lines keep their own
 *   bytes and terminators (`\r\n`, `\n` or a lone `\r`), also when they matched only with
 *   whitespace folded; added lines take the file's dominant terminator (on a tie, the one that ends a line first).
 * - A hunk with only `+` lines after an `@@ context` line is inserted right after that line
 *   (the reference appends it at the end of the file); without context it is appended. Either
 *   way the next hunk is searched from where the previous one ended.
 * - An update that changes nothing (`-x` then `+x`) is an `EINPUT` error, not a rewrite.
 * - Read-before-write: with a `state` store, updating, deleting, moving or overwriting
 *   (`Add File` or `Move to` onto an existing file) needs a prior read of that file in the
 *   session, and the file must not have changed since (`ENOTREAD`, `ESTALE`), as for `edit`.
 *   An update whose every hunk matched the current file by context or removed lines counts as
 *   a read of it (a model that read the file with `cat` in bash shows it knows the text).
 *
 * @module
 */
import { pathFormError, trailingSlashError } from "../kit/path-form.js";
import { baseName, createResolutionCache, parentPath, resolvePath, type ResolutionCache } from "../../contract/path.js";
import { sameBytes } from "../../contract/bytes.js";
import { mapConcurrent } from "../../contract/concurrency.js";
import type { FileSystem } from "../../contract/types.js";
import { FsError } from "../../contract/errors.js";
import type { ToolContext, ToolContextOptions } from "../kit/context.js";
import { defineCoreTool } from "../kit/define.js";
import { checkFresh, recordBefore, recordSeen } from "../kit/freshness.js";
import type { InputSpec } from "../kit/input.js";
import type { FileRecord } from "../kit/state.js";
import { errorResult, textParts, type FileChange, type MutationResult } from "../kit/result.js";
import { type ToolError } from "../../contract/errors.js";
import { decodeUtf8, encodeUtf8, formatBytes } from "../kit/text.js";
import type { CoreTool } from "../kit/tool.js";
import { optionValueError } from "../../contract/options.js";
import { parsePatch, type PatchOperation } from "./parser.js";
import { applyChunks } from "./update.js";

/** Largest file an update will read and rewrite: 10 MiB. Larger files are refused with `EFBIG`. */
export const DEFAULT_MAX_PATCH_FILE_BYTES = 10 * 1024 * 1024;

/** How many backend calls a commit keeps in flight: 32 (OPFS is 2.5–4× faster so than one at a time). */
export const PATCH_WRITE_CONCURRENCY = 32;

/** The core input of `apply_patch`. */
export interface ApplyPatchInput {
  /** The whole patch, from `*** Begin Patch` to `*** End Patch` (a heredoc wrapper is accepted). */
  readonly patch: string;
}

/** Options of {@link createApplyPatchTool}. */
export interface ApplyPatchToolOptions extends ToolContextOptions {
  /**
   * Largest file, in bytes, an `Update File` section reads and rewrites.
   * @default DEFAULT_MAX_PATCH_FILE_BYTES (10 MiB)
   */
  readonly maxFileBytes?: number;
}

const FACTORY = "createApplyPatchTool";
/** The `apply_patch` tool's own option keys (besides the shared context keys). */
export const APPLY_PATCH_SETTING_KEYS = ["maxFileBytes"] as const;

const INPUT_SPEC: InputSpec = {
  patch: {
    type: "string",
    required: true,
    nonEmpty: true,
    description: "The entire patch, from '*** Begin Patch' to '*** End Patch'.",
  },
};

/** The description the model reads (the default signature's). */
export const APPLY_PATCH_DESCRIPTION = `Edit files with a patch. Adds, deletes, updates and moves files in one call; the whole patch applies or nothing does.
Format:
*** Begin Patch
*** Add File: path/new.ts
+every line of the new file, each starting with +
*** Delete File: path/old.ts
*** Update File: path/file.ts
*** Move to: path/renamed.ts   (optional)
@@ class or function the change is in   (optional; repeat @@ lines to narrow down)
 unchanged context line (leading space)
-line to remove
+line to add
*** End of File   (optional: the hunk ends at the end of the file)
*** End Patch
Give about 3 unchanged lines before and after each change, copied exactly; start each further change in a file with @@. Paths are relative to the working directory. A hunk must match exactly one place in the file.
A unified diff (as git diff prints it: --- a/path, +++ b/path, @@ -1,3 +1,4 @@ hunks; --- /dev/null adds a file, +++ /dev/null deletes one) is applied the same way.`;

/** A file's state before the patch. */
type Original =
  { readonly kind: "file"; readonly bytes: Uint8Array } | { readonly kind: "absent" } | { readonly kind: "directory" };

/**
 * A file's state as the patch goes: the bytes to write (encoded as soon as computed, so the text
 * is not held until the commit), or gone.
 */
type Pending = { readonly kind: "file"; readonly bytes: Uint8Array } | { readonly kind: "absent" };

/** A file's text while an update is computed. */
type Working = { readonly kind: "file"; readonly text: string; readonly bom: boolean };

interface Resolved {
  readonly operation: PatchOperation;
  readonly path: string;
  readonly moveTo?: string;
}

/** What the gate's checks learnt: which real paths existed (per path; undefined when unknown). */
type Existence = ReadonlyMap<string, boolean | undefined>;

type Step<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ToolError };

const NOTHING_CHANGED = "Nothing was changed.";

function fail(code: ToolError["code"], message: string, path?: string): { ok: false; error: ToolError } {
  return { ok: false, error: path === undefined ? { code, message } : { code, message, path } };
}

function header(operation: PatchOperation): string {
  const kind = operation.type === "add" ? "Add File" : operation.type === "delete" ? "Delete File" : "Update File";
  return `'*** ${kind}: ${operation.path}' at patch line ${operation.line}`;
}

async function loadOriginal(fs: FileSystem, path: string): Promise<Step<Original>> {
  try {
    return { ok: true, value: { kind: "file", bytes: await fs.readFile(path) } };
  } catch (error) {
    // A Delete File of a symlink names the link itself (checked without following it): the
    // no-follow form refuses to read through it, and the link's own text is its content.
    if (FsError.isInstance(error) && error.code === "ELOOP" && fs.readlink !== undefined) {
      const link = await fs.readlink(path).then(
        (target) => target,
        () => undefined,
      );
      if (link !== undefined) return { ok: true, value: { kind: "file", bytes: new TextEncoder().encode(link) } };
    }
    if (FsError.isInstance(error)) {
      if (error.code === "ENOENT") return { ok: true, value: { kind: "absent" } };
      if (error.code === "EISDIR") return { ok: true, value: { kind: "directory" } };
      return fail(error.code, error.message, path);
    }
    throw error;
  }
}

/**
 * The state of every path before the patch. A path the gate found missing is absent with no
 * call; other paths in `expectAbsent` are looked up in their parent's listing (one readdir per
 * directory); the rest are read. Fills `dirExists` with what it learns about parent directories.
 */
async function loadOriginals(
  fs: FileSystem,
  paths: readonly string[],
  expectAbsent: ReadonlySet<string>,
  existence: Existence,
  dirExists: Map<string, boolean>,
): Promise<Step<Map<string, Original>>> {
  const listings = new Map<string, Promise<Map<string, string> | "missing" | "unknown">>();
  const list = (dir: string): Promise<Map<string, string> | "missing" | "unknown"> => {
    let listing = listings.get(dir);
    if (listing === undefined) {
      listing = fs.readdir(dir).then(
        (entries) => new Map(entries.map((entry) => [entry.name, entry.type])),
        (error: unknown) =>
          FsError.isInstance(error) && (error.code === "ENOENT" || error.code === "ENOTDIR") ? "missing" : "unknown",
      );
      listings.set(dir, listing);
    }
    return listing;
  };
  const load = async (path: string): Promise<Step<Original>> => {
    if (existence.get(path) === false) return { ok: true, value: { kind: "absent" } };
    if (expectAbsent.has(path)) {
      const dir = parentPath(path);
      const listing = await list(dir);
      if (listing === "missing") {
        dirExists.set(dir, false);
        return { ok: true, value: { kind: "absent" } };
      }
      if (listing !== "unknown") {
        dirExists.set(dir, true);
        const type = listing.get(baseName(path));
        if (type === undefined) return { ok: true, value: { kind: "absent" } };
        if (type === "directory") return { ok: true, value: { kind: "directory" } };
      }
    }
    return loadOriginal(fs, path);
  };
  const loads = await Promise.all(paths.map(load));
  const originals = new Map<string, Original>();
  for (const [i, step] of loads.entries()) {
    if (!step.ok) return step;
    const path = paths[i] as string;
    originals.set(path, step.value);
    if (step.value.kind !== "absent") {
      for (let dir = parentPath(path); dir !== "/" && dirExists.get(dir) !== true; dir = parentPath(dir))
        dirExists.set(dir, true);
    }
  }
  return { ok: true, value: originals };
}

/** Run `tasks` with at most `limit` in flight; returns each task's outcome in order. */
function settleBounded<T>(tasks: ReadonlyArray<() => Promise<T>>, limit: number): Promise<PromiseSettledResult<T>[]> {
  return mapConcurrent(tasks, limit, async (task): Promise<PromiseSettledResult<T>> => {
    try {
      return { status: "fulfilled", value: await task() };
    } catch (reason) {
      return { status: "rejected", reason };
    }
  });
}

/** Directories above `path` that do not exist yet, deepest first (`cache`: what the gate's checks saw). */
async function missingParents(
  fs: FileSystem,
  path: string,
  known: Map<string, boolean>,
  cache: ResolutionCache,
): Promise<string[]> {
  const missing: string[] = [];
  for (let dir = parentPath(path); dir !== "/"; dir = parentPath(dir)) {
    let exists = known.get(dir) ?? cache.exists(dir);
    if (exists === undefined) {
      try {
        await fs.stat(dir);
        exists = true;
      } catch {
        exists = false;
      }
      known.set(dir, exists);
    }
    if (exists) break;
    missing.push(dir);
  }
  return missing;
}

/**
 * Create the `apply_patch` core tool.
 *
 * The tool takes `{ patch }` and returns a {@link MutationResult} whose `changes` list each file
 * `added`, `updated`, `moved` (`from` → `path`) and `deleted`, in patch order, and whose text is
 * `Success. Updated the following files:` followed by `A path`, `M path`,
 * `M new (moved from old)` and `D path` lines (paths as the model wrote them, relative to `cwd`).
 * As in Codex, `Add File` over an existing file and `Move to` onto one replace it; the result
 * says so: the change is `updated` and the line `A path (replaced the existing file)`, or the
 * `moved` change has `replaced: true` and the line `M new (moved from old, replacing the existing new)`.
 *
 * Expected failures return an error result and change no file:
 * - `EINPUT`: the input does not fit (`validate` runs first, also when `execute` is called
 *   directly: `apply_patch input patch must not be empty`), or the patch does not parse (the
 *   message names the patch line);
 * - `ENOENT`: `Update File`/`Delete File` of a missing file; `EISDIR`: of a directory;
 * - `ENOMATCH`/`EAMBIGUOUS`: a hunk's lines are not found / found at several places (the
 *   message names the file, the hunk number, its `@@` context, and lists the lines looked for);
 * - `EINPUT`: an `Update File` section (without `Move to`) changes no line's text, e.g.
 *   `-line2` then `+line2` (`No changes: ...`); the file is left as it was, byte for byte;
 * - `EILSEQ`: the file to update is not valid UTF-8; `EFBIG`: it is over `maxFileBytes`;
 * - `ENOTREAD`/`ESTALE`: with a `state` store, a file changed by the patch was not read first,
 *   or changed since it was read (an update whose hunks all matched the current file by
 *   context or removed lines counts as read; a delete, a pure move or an append does not); a file overwritten whole (`Add File` or `Move to` onto an
 *   existing file) is also `ESTALE` when another call wrote or read it after this call began
 *   (`n.txt was written by another call after this patch began. Read the file, then retry.`);
 * - `EDENIED` (or what the gate says): a path outside the workspace with no rule;
 * - a backend error while writing (e.g. `ENOSPC`, or `EIO` for a plain `Error`): the files
 *   already written are restored (`Writing b.txt failed: disk on fire. Every file was restored:
 *   nothing was changed.`); a backend error while reading is a result with its code (`EIO` and
 *   the message for a plain `Error`), before anything is written.
 *
 * Paths are checked by the gate once each, with one resolution cache for the call (each
 * directory resolved once; the gate also says which paths do not exist, so the tool looks up
 * nothing more before writing). Symlinks are resolved: an update writes through a link to its
 * target; `Delete File` removes a link itself, never its target. The locks of every touched path
 * are held from the checks (when no path goes through a symlink; else from the first read) to
 * the last write. An `abortSignal` that fires before the first write makes `execute` reject with
 * its reason, with nothing changed.
 *
 * @param options - the shared tool context options plus `maxFileBytes` (bytes).
 * @returns a {@link CoreTool} named `apply_patch`.
 * @throws TypeError for an unknown option key, a missing `fs`, or a `maxFileBytes` that is not a
 *   positive integer.
 * @example
 * ```ts
 * const applyPatch = createApplyPatchTool({ fs: memoryFileSystem(), state: memoryStore() });
 * const result = await applyPatch.execute({
 *   patch: "*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch",
 * });
 * // result.parts[0].text === "Success. Updated the following files:\nA hello.txt"
 * ```
 */
export function createApplyPatchTool(options: ApplyPatchToolOptions): CoreTool<ApplyPatchInput, MutationResult> {
  return applyPatchTool(options);
}

const applyPatchTool = defineCoreTool({
  factory: FACTORY,
  name: "apply_patch",
  kind: "mutation",
  spec: INPUT_SPEC,
  settings: APPLY_PATCH_SETTING_KEYS,
  description: APPLY_PATCH_DESCRIPTION,
  setup(options: ApplyPatchToolOptions) {
    const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_PATCH_FILE_BYTES;
    if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes <= 0) {
      optionValueError(
        FACTORY,
        "maxFileBytes",
        `must be a positive integer (bytes), got ${String(options.maxFileBytes)}`,
      );
    }
    return { maxFileBytes };
  },
  async run(input: ApplyPatchInput, ctx, { maxFileBytes }): Promise<MutationResult> {
    const parsed = parsePatch(input.patch);
    if (!parsed.ok) {
      return errorResult("mutation", { code: "EINPUT", message: `${parsed.message}\n${NOTHING_CHANGED}` });
    }
    // The paths are checked under the locks of their lexical paths, with one resolution cache
    // for the call (directories shared by the patch's paths resolve once) whose answers (this
    // path does not exist) stand in for the tool's own lookups. When every real path is its
    // lexical path (no symlinks), those locks are the ones other tools take, so the answers
    // stay true until the commit; otherwise the real paths are locked afterwards and looked
    // up again under their locks.
    const lexical = parsed.operations.flatMap((operation) =>
      operation.type === "update" && operation.moveTo !== undefined
        ? [operation.path, operation.moveTo]
        : [operation.path],
    );
    const lexicalKeys = new Set(lexical.map((path) => resolvePath(ctx.gate.cwd, path)));
    // What this session knew of each file the patch overwrites whole (Add File, Move to), as
    // the call began: the freshness check inside the locks refuses to overwrite what another
    // call wrote (or read) while this one waited.
    const before = await overwriteRecords(ctx, parsed.operations.flatMap(overwriteTarget), new Map());
    const first = await ctx.locks.run(
      [...lexicalKeys],
      async (): Promise<MutationResult | { resolved: Resolved[]; paths: string[] }> => {
        const cache = createResolutionCache();
        const existence = new Map<string, boolean | undefined>();
        const step = await resolveAll(ctx, parsed.operations, cache, existence);
        if (!step.ok)
          return errorResult("mutation", { ...step.error, message: `${step.error.message}\n${NOTHING_CHANGED}` });
        const resolved = step.value;
        const paths = [...new Set(resolved.flatMap((r) => (r.moveTo === undefined ? [r.path] : [r.path, r.moveTo])))];
        if (!paths.every((path) => lexicalKeys.has(path))) return { resolved, paths };
        return applyLocked(ctx, resolved, paths, maxFileBytes, cache, existence, before);
      },
    );
    if ("kind" in first) return first;
    const { resolved, paths } = first;
    // Through symlinks the real paths differ: their records are taken before their locks.
    const real = await overwriteRecords(ctx, resolved.flatMap(overwriteTarget), before);
    return ctx.locks.run(paths, () =>
      applyLocked(ctx, resolved, paths, maxFileBytes, createResolutionCache(), new Map(), real),
    );
  },
});

/** The path an operation overwrites whole, if any: an `Add File` path or a `Move to` destination. */
function overwriteTarget(item: PatchOperation | Resolved): string[] {
  if ("operation" in item) {
    if (item.operation.type === "add") return [item.path];
    return item.moveTo === undefined ? [] : [item.moveTo];
  }
  if (item.type === "add") return [item.path];
  return item.type === "update" && item.moveTo !== undefined ? [item.moveTo] : [];
}

/**
 * The store's records of `paths` (resolved against the cwd), keyed by absolute path; paths
 * already in `known` keep their record. Empty without a store.
 */
async function overwriteRecords(
  ctx: ToolContext,
  paths: readonly string[],
  known: ReadonlyMap<string, FileRecord | undefined>,
): Promise<ReadonlyMap<string, FileRecord | undefined>> {
  const records = new Map(known);
  if (ctx.state === undefined) return records;
  for (const path of new Set(paths.map((p) => resolvePath(ctx.gate.cwd, p)))) {
    if (!records.has(path)) records.set(path, await recordBefore(ctx, path));
  }
  return records;
}

type Checked = Awaited<ReturnType<ToolContext["gate"]["check"]>>;

/**
 * Check a path for writing, and for reading too when it must be read (an Update's source):
 * inside the allowed roots only a deny rule can refuse a read, so there the read is tested
 * against the deny rules alone; outside it is checked in full. A moved source (`moved`) must
 * not be denied for listing either: the move would show it under another name.
 */
async function checkPath(
  ctx: ToolContext,
  path: string,
  read: boolean,
  cache: ResolutionCache,
  followSymlinks = true,
  moved = false,
): Promise<Checked> {
  const { gate } = ctx;
  const write = await gate.check(path, "write", { followSymlinks, cache });
  if (!write.ok) return write;
  if (moved) {
    const unlisted = gate.denied(write.path, "list");
    if (unlisted !== undefined) return { ok: false, error: unlisted };
  }
  if (!read) return write;
  if (!write.outside) {
    const unreadable = gate.denied(write.path, "read");
    return unreadable === undefined ? write : { ok: false, error: unreadable };
  }
  const readable = await gate.check(path, "read", { cache });
  return readable.ok ? write : readable;
}

/**
 * Check the paths of every operation (all at once); records in `existence` whether each real path
 * existed (the gate says so when given a cache). A path checked twice (e.g. deleted, then updated
 * through a symlink to it) with different answers is recorded as unknown, so it is looked up again.
 */
async function resolveAll(
  ctx: ToolContext,
  operations: readonly PatchOperation[],
  cache: ResolutionCache,
  existence: Map<string, boolean | undefined>,
): Promise<Step<Resolved[]>> {
  // A Delete acts on the name itself: a symlink is removed, never the file it points to.
  const requests: Array<Promise<Checked>> = [];
  for (const operation of operations) {
    const moves = operation.type === "update" && operation.moveTo !== undefined;
    requests.push(
      checkPath(ctx, operation.path, operation.type === "update", cache, operation.type !== "delete", moves),
    );
    if (operation.type === "update" && operation.moveTo !== undefined)
      requests.push(checkPath(ctx, operation.moveTo, false, cache));
  }
  const outcomes = await Promise.all(requests);
  const resolved: Resolved[] = [];
  let next = 0;
  for (const operation of operations) {
    const moves = operation.type === "update" && operation.moveTo !== undefined;
    const mine = outcomes.slice(next, next + (moves ? 2 : 1));
    next += mine.length;
    for (const outcome of mine) {
      if (!outcome.ok)
        return {
          ok: false,
          error: { ...outcome.error, message: `${outcome.error.message} (in ${header(operation)})` },
        };
      const seen = existence.has(outcome.path) ? existence.get(outcome.path) : outcome.exists;
      existence.set(outcome.path, seen === outcome.exists ? seen : undefined);
    }
    // Admitted by the gate, but a form the model did not mean: a URL, `~`, or a directory's `/`.
    for (const given of moves ? [operation.path, operation.moveTo!] : [operation.path]) {
      const form = pathFormError(given) ?? trailingSlashError(given, operation.type);
      if (form !== undefined)
        return { ok: false, error: { ...form, message: `${form.message} (in ${header(operation)})` } };
    }
    const path = (mine[0] as { path: string }).path;
    const moveTo = moves ? (mine[1] as { path: string }).path : undefined;
    resolved.push(moveTo === undefined || moveTo === path ? { operation, path } : { operation, path, moveTo });
  }
  return { ok: true, value: resolved };
}

async function applyLocked(
  ctx: ToolContext,
  resolved: readonly Resolved[],
  paths: readonly string[],
  maxFileBytes: number,
  cache: ResolutionCache,
  existence: Existence,
  before: ReadonlyMap<string, FileRecord | undefined>,
): Promise<MutationResult> {
  // Every path was checked above (the check resolved symlinks and returned the real path), so the
  // I/O goes to the backend with those paths, as the workspace reads do, without a second check.
  const fs = ctx.gate.noFollow;
  // Paths the patch creates are usually absent: learn that from one readdir per parent directory
  // instead of a failing readFile per file (it also tells which parent directories exist).
  const expectAbsent = new Set<string>();
  for (const { operation, path, moveTo } of resolved) {
    if (operation.type === "add") expectAbsent.add(path);
    if (moveTo !== undefined) expectAbsent.add(moveTo);
  }
  const dirExists = new Map<string, boolean>();
  const loaded = await loadOriginals(fs, paths, expectAbsent, existence, dirExists);
  if (!loaded.ok)
    return errorResult("mutation", { ...loaded.error, message: `${loaded.error.message}\n${NOTHING_CHANGED}` });
  const originals = loaded.value;
  const computed = computeChanges(ctx, resolved, originals, maxFileBytes);
  if (!computed.ok) {
    return errorResult("mutation", { ...computed.error, message: `${computed.error.message}\n${NOTHING_CHANGED}` });
  }
  const { pending, changes, summary, matched } = computed.value;
  const finalBytes = new Map<string, Uint8Array>();
  for (const [path, next] of pending) if (next.kind === "file") finalBytes.set(path, next.bytes);

  // Read-before-write: every existing file the patch changes must have been read, unchanged since,
  // unless every hunk of its update matched the current file by its context and removed lines
  // (the model has shown it knows the text it changes, e.g. after reading it with cat).
  if (ctx.state !== undefined) {
    for (const [path, next] of pending) {
      const original = originals.get(path);
      if (original?.kind !== "file" || matched.has(path)) continue;
      const bytes = finalBytes.get(path);
      if (next.kind === "file" && bytes !== undefined && sameBytes(bytes, original.bytes)) continue;
      // A file overwritten whole must also not have been written or read by another call since
      // this one began.
      const overwrite = before.has(path) ? { record: before.get(path) } : undefined;
      const stale = await checkFresh(ctx, path, ctx.gate.display(path), original.bytes, "patch", overwrite);
      if (stale !== undefined)
        return errorResult("mutation", { ...stale, message: `${stale.message}\n${NOTHING_CHANGED}` });
    }
  }

  const writes: Array<{ path: string; bytes: Uint8Array }> = [];
  const removals: string[] = [];
  for (const [path, next] of pending) {
    const original = originals.get(path) ?? { kind: "absent" };
    const bytes = finalBytes.get(path);
    if (next.kind === "file" && bytes !== undefined) {
      if (original.kind === "file" && sameBytes(bytes, original.bytes)) continue;
      writes.push({ path, bytes });
    } else if (original.kind === "file") {
      removals.push(path);
    }
  }
  // Last point where an abort leaves every file as it was.
  ctx.call.abortSignal?.throwIfAborted();
  const committed = await commit(fs, writes, removals, originals, dirExists, cache, (path) => ctx.gate.display(path));
  if (!committed.ok) return errorResult("mutation", committed.error);

  if (ctx.state !== undefined) {
    for (const [path, next] of pending) {
      const bytes = finalBytes.get(path);
      if (next.kind === "file" && bytes !== undefined) await recordSeen(ctx, path, bytes);
      else await ctx.state.delete(path);
    }
  }
  const withBytes = changes.map((change): FileChange => {
    if (change.action === "deleted") return change;
    const bytes = finalBytes.get(change.path)?.length;
    return bytes === undefined ? change : { ...change, bytes };
  });
  return {
    kind: "mutation",
    ok: true,
    parts: textParts(`Success. Updated the following files:\n${summary.join("\n")}`),
    changes: withBytes,
  };
}

function encodeText(pending: { readonly text: string; readonly bom: boolean }): Uint8Array {
  return encodeUtf8(pending.bom ? `\uFEFF${pending.text}` : pending.text);
}

function computeChanges(
  ctx: ToolContext,
  resolved: readonly Resolved[],
  originals: ReadonlyMap<string, Original>,
  maxFileBytes: number,
): Step<{ pending: Map<string, Pending>; changes: FileChange[]; summary: string[]; matched: Set<string> }> {
  const pending = new Map<string, Pending>();
  /** Files whose current content the patch's context lines matched: they count as read. */
  const matched = new Set<string>();
  const changes: FileChange[] = [];
  const summary: string[] = [];
  const show = (path: string): string => ctx.gate.display(path);

  /** The file at `path` as the patch has left it so far. */
  const current = (path: string): Step<Working | { kind: "absent" } | { kind: "directory" }> => {
    const next = pending.get(path);
    if (next?.kind === "absent") return { ok: true, value: next };
    if (next !== undefined) {
      // Touched earlier in this patch: our own UTF-8, so it decodes.
      const decoded = decodeUtf8(next.bytes);
      return {
        ok: true,
        value: { kind: "file", text: decoded.ok ? decoded.text : "", bom: decoded.ok && decoded.bom },
      };
    }
    const original = originals.get(path) ?? { kind: "absent" };
    if (original.kind !== "file") return { ok: true, value: original };
    if (original.bytes.length > maxFileBytes) {
      return fail(
        "EFBIG",
        `${show(path)} is ${formatBytes(original.bytes.length)}, over the ${formatBytes(maxFileBytes)} apply_patch edits (maxFileBytes).`,
        path,
      );
    }
    const decoded = decodeUtf8(original.bytes);
    if (!decoded.ok) {
      return fail(
        "EILSEQ",
        `${show(path)} is not valid UTF-8 text (invalid byte at offset ${decoded.offset}); apply_patch only edits text files.`,
        path,
      );
    }
    return { ok: true, value: { kind: "file", text: decoded.text, bom: decoded.bom } };
  };

  for (const { operation, path, moveTo } of resolved) {
    const where = header(operation);
    if (operation.type === "add") {
      if (originals.get(path)?.kind === "directory" && pending.get(path) === undefined) {
        return fail("EISDIR", `Cannot add ${show(path)}: it is a directory (in ${where}).`, path);
      }
      // Codex overwrites an existing file here; so does this tool, and says so.
      const existed = (pending.get(path) ?? originals.get(path))?.kind === "file";
      if (existed && operation.createOnly === true) {
        return fail(
          "EEXIST",
          `Cannot create ${show(path)}: it already exists, and this diff creates it from nothing (--- /dev/null). ` +
            `To change it, diff against its current content (--- a/${show(path)} and +++ b/${show(path)}); to replace it whole, write it.`,
          path,
        );
      }
      pending.set(path, { kind: "file", bytes: encodeText({ text: operation.contents, bom: false }) });
      changes.push({ action: existed ? "updated" : "added", path });
      summary.push(existed ? `A ${show(path)} (replaced the existing file)` : `A ${show(path)}`);
      continue;
    }
    const state = current(path);
    if (!state.ok) return state;
    if (state.value.kind === "directory") {
      const verb = operation.type === "delete" ? "delete" : "update";
      return fail("EISDIR", `Cannot ${verb} ${show(path)}: it is a directory, not a file (in ${where}).`, path);
    }
    if (state.value.kind === "absent") {
      const hint = operation.type === "update" ? " Use '*** Add File:' to create a file." : "";
      const verb = operation.type === "delete" ? "delete" : "update";
      return fail("ENOENT", `Cannot ${verb} ${show(path)}: no such file (in ${where}).${hint}`, path);
    }
    if (operation.type === "delete") {
      pending.set(path, { kind: "absent" });
      changes.push({ action: "deleted", path });
      summary.push(`D ${show(path)}`);
      continue;
    }
    const untouched = pending.get(path) === undefined;
    const applied = applyChunks(state.value.text, operation.chunks, show(path));
    if (
      applied.ok &&
      untouched &&
      operation.chunks.length > 0 &&
      operation.chunks.every((chunk) => chunk.oldLines.some((line) => line.trim() !== ""))
    ) {
      matched.add(path);
    }
    if (!applied.ok) {
      const { code, message, occurrences, lines } = applied.failure;
      if (occurrences === undefined || lines === undefined) return fail(code, message, path);
      return {
        ok: false,
        error: { code, message, path, displayPath: show(path), occurrences, lines, lineCount: occurrences },
      };
    }
    if (!applied.changed && moveTo === undefined) {
      return fail(
        "EINPUT",
        `No changes: the hunks of ${where} leave every line of ${show(path)} as it is (each '-' line is added back unchanged).`,
        path,
      );
    }
    const at = applied.firstLine === undefined ? {} : { line: applied.firstLine };
    const next: Pending = { kind: "file", bytes: encodeText({ text: applied.text, bom: state.value.bom }) };
    if (moveTo === undefined) {
      pending.set(path, next);
      changes.push({ action: "updated", path, ...at });
      summary.push(`M ${show(path)}`);
      continue;
    }
    const destinationIsDirectory = pending.get(moveTo) === undefined && originals.get(moveTo)?.kind === "directory";
    if (destinationIsDirectory) {
      return fail(
        "EISDIR",
        `Cannot move ${show(path)} to ${show(moveTo)}: the destination is a directory (in ${where}).`,
        moveTo,
      );
    }
    // Codex replaces a file at the destination; so does this tool, and says so.
    const replaced = (pending.get(moveTo) ?? originals.get(moveTo))?.kind === "file";
    pending.set(moveTo, next);
    pending.set(path, { kind: "absent" });
    changes.push({
      action: "moved",
      path: moveTo,
      from: path,
      ...(replaced ? { replaced: true as const } : {}),
      ...at,
    });
    summary.push(
      replaced
        ? `M ${show(moveTo)} (moved from ${show(path)}, replacing the existing ${show(moveTo)})`
        : `M ${show(moveTo)} (moved from ${show(path)})`,
    );
  }
  return { ok: true, value: { pending, changes, summary, matched } };
}

/**
 * Write then remove; on the first failure restore every file already touched and remove the
 * directories the writes created, so the tree is as it was.
 */
async function commit(
  fs: FileSystem,
  writes: ReadonlyArray<{ path: string; bytes: Uint8Array }>,
  removals: readonly string[],
  originals: ReadonlyMap<string, Original>,
  known: Map<string, boolean>,
  cache: ResolutionCache,
  show: (path: string) => string,
): Promise<{ ok: true } | { ok: false; error: ToolError }> {
  const createdDirs = new Set<string>();
  for (const { path } of writes) {
    if (originals.get(path)?.kind === "file") continue;
    for (const dir of await missingParents(fs, path, known, cache)) createdDirs.add(dir);
  }
  const done: string[] = [];
  let failure: { path: string; reason: unknown } | undefined;
  const writeOutcomes = await settleBounded(
    writes.map(
      ({ path, bytes }) =>
        () =>
          fs.writeFile(path, bytes),
    ),
    PATCH_WRITE_CONCURRENCY,
  );
  for (const [i, outcome] of writeOutcomes.entries()) {
    const path = (writes[i] as { path: string }).path;
    if (outcome.status === "fulfilled") done.push(path);
    else failure ??= { path, reason: outcome.reason };
  }
  if (failure === undefined) {
    const removeOutcomes = await settleBounded(
      removals.map((path) => () => fs.rm(path)),
      PATCH_WRITE_CONCURRENCY,
    );
    for (const [i, outcome] of removeOutcomes.entries()) {
      const path = removals[i] as string;
      if (outcome.status === "fulfilled") done.push(path);
      else failure ??= { path, reason: outcome.reason };
    }
  }
  if (failure === undefined) return { ok: true };

  // Roll back: put every touched path back as it was.
  const unrestored: string[] = [];
  const restoreOutcomes = await settleBounded(
    done.map((path) => async () => {
      const original = originals.get(path) ?? { kind: "absent" };
      if (original.kind === "file") await fs.writeFile(path, original.bytes);
      else await fs.rm(path, { force: true });
    }),
    PATCH_WRITE_CONCURRENCY,
  );
  for (const [i, outcome] of restoreOutcomes.entries()) {
    if (outcome.status === "rejected") unrestored.push(done[i] as string);
  }
  for (const dir of [...createdDirs].sort((a, b) => b.length - a.length)) {
    try {
      await fs.rm(dir);
    } catch {
      // Not empty (someone else wrote there) or already gone: leave it.
    }
  }
  const reason = failure.reason;
  const code: ToolError["code"] = FsError.isInstance(reason) ? reason.code : "EIO";
  const detail = reason instanceof Error ? reason.message : String(reason);
  const restored =
    unrestored.length === 0
      ? "Every file was restored: nothing was changed."
      : `These files could not be restored: ${unrestored.map(show).join(", ")}.`;
  return {
    ok: false,
    error: { code, message: `Writing ${show(failure.path)} failed: ${detail}. ${restored}`, path: failure.path },
  };
}

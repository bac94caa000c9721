/**
 * The walk settings of list, glob and grep, and the backend a walk uses. The walk itself
 * ({@link walkFiles}) and the path order ({@link compareCodeUnits}) live in the contract layer,
 * shared with the gate's `hashFiles`; they are re-exported here for the tools.
 *
 * @module
 */
import { gateRefusal, type Gate } from "../../gate/gate.js";
import type { DirEntry, FileSystem } from "../../contract/types.js";
import { compareCodeUnits } from "../../contract/path.js";
import { offloadOutput, type OffloadContext, type OffloadOptions } from "./offload.js";
import { textParts, type DeniedPath, type SearchResult } from "./result.js";
import { plural } from "./text.js";

export { walkFiles, type WalkOptions } from "../../contract/walk.js";
export { compareCodeUnits } from "../../contract/path.js";

/** Default number of backend calls in flight during a walk: 32 (2.5–4× faster than 1 on OPFS). */
export const DEFAULT_WALK_CONCURRENCY = 32;

/** Directory names a walk does not enter by default (an explicit root inside them is still walked). */
export const DEFAULT_IGNORED_DIRECTORIES: readonly string[] = Object.freeze([".git", "node_modules", "tool-outputs"]);

/**
 * The backend a walk under a checked root uses. Inside the allowed roots the walk reads the
 * gate's backend directly, through its no-follow form (`gate.noFollow`): the root's real path
 * was checked, the walk never follows a symlink, so every path it reaches is a real path under
 * that root, and the no-follow form refuses one that a symlink swapped in since would lead
 * elsewhere; checking each one again would only cost time (a `realpath` per file). Outside the roots (admitted by a rule or approval
 * for the root only) every call goes through the gate's checked `fs`.
 *
 * Deny rules are not applied by this backend inside the roots: use {@link walkSource}, which
 * pairs it with the per-entry deny test.
 */
export function walkFileSystem(
  gate: Pick<Gate, "noFollow" | "fs">,
  checked: { readonly outside: boolean },
): FileSystem {
  return checked.outside ? gate.fs : gate.noFollow;
}

/** What a walk under a checked root reads through, with the gate's deny rules applied per entry. */
export interface WalkSource {
  /** The backend to walk (see {@link walkFileSystem}); outside the roots its `readdir` leaves no entry out, so apply `include`. */
  readonly fs: FileSystem;
  /**
   * For `walkFiles` (and for the entries of a plain `readdir` of `fs`): `false` for an entry
   * denied for `listDir`, which is recorded in `denied`. Absent without `listDir` deny rules,
   * so a walk then tests nothing per entry.
   */
  readonly include?: (path: string, entry?: DirEntry) => boolean;
  /** Whether the file at real path `path` may be read: `false` (recorded in `denied`) when a `readFile` deny rule matches. */
  readable(path: string): boolean;
  /** The paths left out so far, in the order met. */
  readonly denied: DeniedPath[];
}

/**
 * The source of a walk under `checked` (a root the gate admitted): the backend of
 * {@link walkFileSystem} and the gate's deny tests, which record what they leave out. Inside
 * the roots an entry costs one synchronous glob test per deny rule of its access, and nothing
 * when the gate has none; outside, each call is checked by the gate as before.
 *
 * @param gate - the call's gate.
 * @param checked - the walk's root as the gate admitted it.
 * @returns a {@link WalkSource} whose `denied` fills as the walk goes.
 * @example
 * ```ts
 * const source = walkSource(gate, checked);
 * await walkFiles({ fs: source.fs, root: checked.path, concurrency: 32, include: source.include, onEntry });
 * deniedNote(source.denied); // "[Skipped 1 path because of a deny rule for \"listDir\" in the permissions config.]"
 * ```
 */
export function walkSource(
  gate: Pick<Gate, "noFollow" | "fs" | "check" | "denies" | "denied">,
  checked: { readonly outside: boolean },
): WalkSource {
  const denied: DeniedPath[] = [];
  // Outside, the gate's own readdir would leave denied entries out uncounted: read through the
  // check without that filter, and filter (and count) here, as inside.
  const fs: FileSystem = checked.outside
    ? Object.freeze({
        ...gate.fs,
        readdir: async (path: string) => {
          const admitted = await gate.check(path, "list");
          if (!admitted.ok) throw gateRefusal(admitted.error, "scandir", path);
          return gate.noFollow.readdir(admitted.path);
        },
      })
    : gate.noFollow;
  const include = gate.denies("list")
    ? (path: string): boolean => {
        if (gate.denied(path, "list") === undefined) return true;
        denied.push({ path, tool: "listDir" });
        return false;
      }
    : undefined;
  const readsDenied = gate.denies("read");
  const readable = (path: string): boolean => {
    if (!readsDenied || gate.denied(path, "read") === undefined) return true;
    denied.push({ path, tool: "readFile" });
    return false;
  };
  return include === undefined ? { fs, readable, denied } : { fs, include, readable, denied };
}

/**
 * The note a search adds when a deny rule made it skip paths, or `undefined` when none was
 * skipped: `[Skipped 2 paths because of a deny rule for "readFile" in the permissions config.]`,
 * or with both tools `[Skipped 3 paths because of deny rules in the permissions config: 1 for
 * "listDir", 2 for "readFile".]`. The paths themselves are not named.
 */
export function deniedNote(denied: readonly DeniedPath[]): string | undefined {
  if (denied.length === 0) return undefined;
  const listed = denied.filter((entry) => entry.tool === "listDir").length;
  const read = denied.length - listed;
  if (listed === 0 || read === 0) {
    return `[Skipped ${plural(denied.length, "path")} because of a deny rule for "${listed === 0 ? "readFile" : "listDir"}" in the permissions config.]`;
  }
  return `[Skipped ${plural(denied.length, "path")} because of deny rules in the permissions config: ${listed} for "listDir", ${read} for "readFile".]`;
}

/** The `denied` field of a search result: the skipped paths sorted by path, or nothing when none was skipped. */
export function deniedField(denied: readonly DeniedPath[]): { readonly denied?: readonly DeniedPath[] } {
  if (denied.length === 0) return {};
  return { denied: [...denied].sort((a, b) => compareCodeUnits(a.path, b.path)) };
}

/**
 * A search's result (list, glob, grep): `text` as the model sees it, saved to a file with a
 * preview when it is long (see `offloadOutput`; not with `offload: false`), and its fields.
 *
 * @param ctx - the call's context, where a long output is saved.
 * @param offload - the tool's `offload` setting.
 * @param text - the whole output, notes included.
 * @param fields - `count` (entries or matches found, before caps), `truncated`, and the lists
 *   of what was left out (`denied`, `unreadable`, `skippedLongLines`).
 * @returns an `ok` search result.
 * @example
 * ```ts
 * return searchResult(ctx, settings.offload, text, { count: found.length, truncated, ...deniedField(source.denied) });
 * ```
 */
export async function searchResult(
  ctx: OffloadContext,
  offload: OffloadOptions | false | undefined,
  text: string,
  fields: Omit<SearchResult, "kind" | "ok" | "parts">,
): Promise<SearchResult> {
  const shown = offload === false ? text : (await offloadOutput(ctx, text, offload)).text;
  return { kind: "search", ok: true, parts: textParts(shown), ...fields };
}

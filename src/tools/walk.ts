/**
 * The walk settings of list, glob and grep, and the backend a walk uses. The walk itself
 * ({@link walkFiles}) and the path order ({@link compareCodeUnits}) live in the contract layer,
 * shared with the gate's `hashFiles`; they are re-exported here for the tools.
 *
 * @module
 */
import type { Gate } from "../gate/gate.js";
import type { FileSystem } from "../contract/types.js";

export { walkFiles, type WalkOptions } from "../contract/walk.js";
export { compareCodeUnits } from "../contract/path.js";

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
 */
export function walkFileSystem(
  gate: Pick<Gate, "noFollow" | "fs">,
  checked: { readonly outside: boolean },
): FileSystem {
  return checked.outside ? gate.fs : gate.noFollow;
}

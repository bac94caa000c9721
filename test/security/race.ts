/**
 * The race class's machinery: a backend whose `n`th call (counting every method, of the backend
 * and of its no-follow form) swaps a name for a link to outside before it returns, so the swap
 * lands exactly between two backend calls of a tool: between the gate's lookups, or between the
 * check and the use. The runner tries every `n` in turn (./corpus.ts).
 */
import { PROMISE_METHODS, forwardFileSystem } from "../../src/contract/forward.js";
import { trustedNoFollow } from "../../src/contract/no-follow.js";
import type { FileSystem } from "../../src/contract/types.js";
import { RACE_SWAPS, writeRowFiles, type Attack, type RaceSwap } from "./attacks.js";

const METHODS = PROMISE_METHODS;

type Method = (...args: unknown[]) => Promise<unknown>;

/** A backend whose calls count toward the swap, and whether the swap has happened. */
export interface SwappingBackend {
  readonly fs: FileSystem;
  /** The swap has run (after call number `after`, or before any call for `after` 0). */
  fired(): boolean;
}

/**
 * Wrap `raw` so that the swap runs once, when call number `after` has settled and before its
 * result is handed back (`after` 0: before the first call). The no-follow form is wrapped too
 * and stays declared, so the gate uses it as it would use the backend's own.
 */
export async function swappingBackend(
  raw: FileSystem,
  after: number,
  swap: () => Promise<void>,
): Promise<SwappingBackend> {
  let calls = 0;
  let fired = false;
  if (after === 0) {
    fired = true;
    await swap();
  }
  const counted = (target: FileSystem): Partial<FileSystem> => {
    const overrides: Record<string, Method> = {};
    for (const method of METHODS) {
      const own = target[method] as Method | undefined;
      if (typeof own !== "function") continue;
      overrides[method] = async (...args) => {
        try {
          return await own.apply(target, args);
        } finally {
          calls += 1;
          if (!fired && calls === after) {
            fired = true;
            await swap();
          }
        }
      };
    }
    return overrides as Partial<FileSystem>;
  };
  const view = trustedNoFollow(raw);
  const fs: FileSystem = forwardFileSystem(raw, {
    ...counted(raw),
    ...(view === undefined ? {} : { noFollow: forwardFileSystem(view, counted(view)) as FileSystem }),
  }) as FileSystem;
  return { fs, fired: () => fired };
}

/** Swap `RACE_SWAPS[kind].path` for a link to its outside target, through the raw backend. */
export async function swapForLink(raw: FileSystem, kind: RaceSwap): Promise<void> {
  const { path, aside, target } = RACE_SWAPS[kind];
  await raw.rename(path, aside);
  await raw.symlink!(target, path);
}

/**
 * Undo a swap (whatever the attempt left at the race paths): remove `/w/race` (the link itself
 * when it is one, never through it) and `/w/race.real`, and write the row's files again.
 */
export async function resetRace(raw: FileSystem, attack: Attack): Promise<void> {
  await raw.rm(RACE_SWAPS.parent.path, { recursive: true, force: true });
  await raw.rm(RACE_SWAPS.parent.aside, { recursive: true, force: true });
  await writeRowFiles(raw, attack);
}

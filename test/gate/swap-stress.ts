/**
 * The swap stress loop of issue 14 (browser-safe: no Node imports), run per backend by
 * ./no-follow-stress.test.ts (memory, node) and ./no-follow-stress-idb.browser.test.ts:
 * a concurrent task swaps a leaf file and its parent directory for symlinks to outside the
 * tools' root while read, write, edit, list, grep, apply_patch and bash run in a loop through
 * createFsTools. Nothing outside is read (no outside text or name in any result).
 */
import { expect } from "vitest";
import type { FileSystem } from "../../src/contract/types.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { resultText } from "../../src/tools/kit/result.js";

export const OUTSIDE: Readonly<Record<string, string>> = {
  "/outside/secret.txt": "SECRET-OUT\n",
  "/outside/OUTSIDE-ONLY-NAME.txt": "SECRET-NAME\n",
};
const encoder = new TextEncoder();

/** The namespace operations the swapper uses (the backend's own, or the host's under a root). */
export interface Swapper {
  rename(from: string, to: string): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Remove whatever the tools made at `path` in a gap of the swap (a write creates missing parents). */
  clear(path: string): Promise<void>;
}

export interface StressOutcome {
  readonly calls: number;
  readonly refused: number;
  readonly succeeded: number;
}

/**
 * Swap `/w/d/f.txt` and then `/w/d` for links to `/outside` (and back) `swaps` times, while the
 * tools run in a loop over the same backend; fails when a result shows outside text or names.
 */
export async function stress(fs: FileSystem, swapper: Swapper, swaps: number): Promise<StressOutcome> {
  await fs.writeFile("/w/d/f.txt", encoder.encode("inside-OUT\n"));
  for (const [path, text] of Object.entries(OUTSIDE)) await fs.writeFile(path, encoder.encode(text));
  const tools = createFsTools({ fs, cwd: "/w", state: false });
  let done = false;
  // The tools may create the path in a gap (a write makes missing parents): clear it and retry.
  const into = async (path: string, make: () => Promise<void>) => {
    for (;;) {
      try {
        return await make();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== "EEXIST" && code !== "ENOTEMPTY" && code !== "EISDIR") throw error;
        // A tool may write into the directory while it is being cleared: then clear it again.
        await swapper.clear(path).catch((cleared: unknown) => {
          if ((cleared as { code?: string }).code !== "ENOTEMPTY") throw cleared;
        });
      }
    }
  };
  // A tool may also remove the link in a gap (apply_patch rolling back a directory it made there
  // removes what is at that name now, the link itself, never its target): then there is nothing to unlink.
  const unlinkIfThere = async (path: string) => {
    try {
      await swapper.unlink(path);
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
    }
  };
  const swapping = (async () => {
    try {
      for (let i = 0; i < swaps; i++) {
        // A tool may have made the name aside in a gap (a write through a path resolved while
        // the file or directory was moved there): cleared first, it is inside the workspace.
        await into("/w/d/f.real", () => swapper.rename("/w/d/f.txt", "/w/d/f.real"));
        await into("/w/d/f.txt", () => swapper.symlink("/outside/secret.txt", "/w/d/f.txt"));
        await unlinkIfThere("/w/d/f.txt");
        await into("/w/d/f.txt", () => swapper.rename("/w/d/f.real", "/w/d/f.txt"));
        await into("/w/d.real", () => swapper.rename("/w/d", "/w/d.real"));
        await into("/w/d", () => swapper.symlink("/outside", "/w/d"));
        await unlinkIfThere("/w/d");
        await into("/w/d", () => swapper.rename("/w/d.real", "/w/d"));
      }
    } finally {
      done = true;
    }
  })();
  let calls = 0;
  let refused = 0;
  const texts: string[] = [];
  const runners = [
    () => tools.read.execute({ path: "d/f.txt" }),
    () => tools.write.execute({ path: "d/f.txt", content: "inside-OUT\n" }),
    () => tools.write.execute({ path: "d/new.txt", content: "PWNED\n" }),
    () => tools.edit.execute({ path: "d/f.txt", oldText: "-OUT", newText: "-OUX" }),
    () => tools.edit.execute({ path: "d/f.txt", oldText: "-OUX", newText: "-OUT" }),
    () => tools.list.execute({ path: "d" }),
    () => tools.grep.execute({ pattern: "OU", path: "d" }),
    () => tools.apply_patch.execute({ patch: "*** Begin Patch\n*** Add File: d/patched.txt\n+PWNED\n*** End Patch" }),
    () => tools.bash.execute({ command: "cat d/f.txt; ls d; printf PWNED > d/f.txt; printf PWNED > d/bash-new.txt" }),
    () =>
      tools.apply_patch.execute({
        patch: "*** Begin Patch\n*** Update File: d/f.txt\n@@\n-inside-OUT\n+inside-OUT\n+PWNED\n*** End Patch",
      }),
  ];
  while (!done) {
    for (const run of runners) {
      const result = await run();
      calls++;
      if (!result.ok) refused++;
      const text = resultText(result);
      if (text.includes("SECRET") || text.includes("OUTSIDE-ONLY-NAME")) texts.push(text);
    }
  }
  await swapping;
  expect(texts).toEqual([]);
  return { calls, refused, succeeded: calls - refused };
}

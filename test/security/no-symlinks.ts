/**
 * For backends without symlinks (OPFS, the OPFS mirror): why the race rows cannot apply. No
 * name can be swapped for a link when no link can be made: the backend has no `symlink`, the
 * gate's FileSystem has none either, the shell's `ln -s` is refused with `ENOTSUP`, and nothing
 * is created. Registered per backend, beside the corpus.
 */
import { describe, expect, it } from "vitest";
import type { FileSystem } from "../../src/contract/types.js";
import { FsError } from "../../src/contract/errors.js";
import { createGate } from "../../src/gate/gate.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { toJustBashFs } from "../../src/shell/to-just-bash-fs.js";
import { writeAttackFixture } from "./attacks.js";
import { snapshotOutside } from "./corpus.js";

export function runNoSymlinkChecks(options: {
  readonly name: string;
  readonly backend: () => Promise<FileSystem>;
  readonly destroy?: (fs: FileSystem) => Promise<void>;
}): void {
  describe(`race rows cannot apply on ${options.name}: it refuses symlinks`, () => {
    it("declares no symlinks and has no symlink call; the gate's FileSystem has none either", async () => {
      const fs = await options.backend();
      try {
        const gated = createGate({ fs, cwd: "/w" }).fs;
        expect({
          capability: fs.capabilities.symlink,
          symlink: typeof fs.symlink,
          readlink: typeof fs.readlink,
          gatedSymlink: typeof gated.symlink,
        }).toEqual({ capability: undefined, symlink: "undefined", readlink: "undefined", gatedSymlink: "undefined" });
      } finally {
        await options.destroy?.(fs);
      }
    });

    it("the shell bridge refuses symlink with ENOTSUP, and bash's ln -s fails; nothing is made", async () => {
      const fs = await options.backend();
      try {
        await writeAttackFixture(fs);
        const before = await snapshotOutside(fs);
        const bridge = toJustBashFs(createGate({ fs, cwd: "/w" }).fs);
        let refusal: unknown;
        await bridge.symlink("/outside/secret.txt", "/w/race-link").catch((error: unknown) => (refusal = error));
        expect(FsError.isInstance(refusal) ? [refusal.code, refusal.message] : refusal).toEqual([
          "ENOTSUP",
          `ENOTSUP: operation not supported, symlink '/outside/secret.txt' -> '/w/race-link' (the ${fs.name} backend has no symlinks)`,
        ]);
        const tools = createFsTools({ fs, cwd: "/w", state: false });
        const result = await tools.bash.execute({ command: "ln -s /outside/secret.txt race-link; echo $?" });
        expect({ ok: result.ok, stdout: result.stdout, notSupported: result.stderr.includes("ENOTSUP") }).toEqual({
          ok: true,
          stdout: "1\n",
          notSupported: true,
        });
        expect((await fs.readdir("/w")).map((entry) => entry.name).includes("race-link")).toBe(false);
        expect(await snapshotOutside(fs)).toEqual(before);
      } finally {
        await options.destroy?.(fs);
      }
    });
  });
}

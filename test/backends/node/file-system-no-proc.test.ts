/**
 * The Node backend where `/proc/self/fd` is absent (macOS, Windows, a container without /proc),
 * simulated here by making the probe say so: the conformance suite, and deep missing paths
 * (looked up by name below the deepest existing directory, made by Node's recursive mkdir).
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { testFileSystem } from "better-fs-tools/conformance";
import { nodeFileSystem, type NodeFileSystem } from "../../../src/backends/node/index.js";
import { hasDescriptorPaths } from "../../../src/backends/node/descriptors.js";
import { FsError } from "../../../src/contract/errors.js";
import { forwardFileSystem } from "../../../src/contract/forward.js";
import type { FileSystem } from "../../../src/contract/types.js";
import { createGate } from "../../../src/gate/gate.js";
import { createFsTools } from "../../../src/shell/defaults.js";

vi.mock("../../../src/backends/node/descriptors.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../../src/backends/node/descriptors.js")>()),
  hasDescriptorPaths: () => false,
}));

testFileSystem({
  name: "node without /proc/self/fd",
  create: async () => nodeFileSystem({ root: await mkdtemp(join(tmpdir(), "bft-node-noproc-")) }),
  destroy: async (fs) => rm((fs as NodeFileSystem).root, { recursive: true, force: true }),
});

const deep = (count: number, name: string) => Array.from({ length: count }, () => name).join("/");

describe("nodeFileSystem without /proc/self/fd: deep missing paths", () => {
  let box: string;
  beforeEach(async () => {
    box = await mkdtemp(join(tmpdir(), "bft-node-noproc-deep-"));
    await mkdir(join(box, "w", "sub"), { recursive: true });
    await symlink("sub", join(box, "w", "rel"));
  });
  afterEach(async () => {
    await rm(box, { recursive: true, force: true });
  });

  it("the probe is off here", () => {
    expect(hasDescriptorPaths()).toBe(false);
  });

  it("realpath of a missing path says how far it resolved; the gate checks it with that one call", async () => {
    const fs = nodeFileSystem({ root: box, cwd: "/w" });
    expect(
      await fs
        .realpath("/w/rel/new/x.txt")
        .catch((error: unknown) => (FsError.isInstance(error) ? error.resolvedPrefix : error)),
    ).toEqual({ real: "/w/sub", missing: ["new", "x.txt"] });
    await mkdir(join(box, "w", deep(500, "d")), { recursive: true });
    const calls: string[] = [];
    // Counting wrapper in the function form, so the gate keeps the backend's no-follow form.
    const counted = forwardFileSystem(fs, (target) => ({
      realpath: (path: string) => (calls.push(`realpath ${path}`), target.realpath(path)),
      lstat: (path: string) => (calls.push(`lstat ${path}`), target.lstat(path)),
    })) as FileSystem;
    const gate = createGate({ fs: counted });
    await gate.check(".", "list");
    calls.length = 0;
    const path = `${deep(500, "d")}/${deep(500, "m")}`;
    expect(await gate.check(path, "write")).toEqual({ ok: true, path: `/w/${path}`, outside: false });
    expect(calls).toEqual([`realpath /w/${path}`]);
  });

  it("the write tool and apply_patch make 1,000 new directories", async () => {
    const tools = createFsTools({ fs: nodeFileSystem({ root: box, cwd: "/w" }), state: false });
    const written = await tools.write.execute({ path: `rel/${deep(1000, "a")}/x.txt`, content: "one" });
    const patched = await tools.apply_patch.execute({
      patch: `*** Begin Patch\n*** Add File: ${deep(1000, "b")}/x.txt\n+two\n*** End Patch`,
    });
    expect([written.ok, patched.ok]).toEqual([true, true]);
    expect(await readFile(join(box, "w", "sub", deep(1000, "a"), "x.txt"), "utf8")).toBe("one");
    expect(await readFile(join(box, "w", deep(1000, "b"), "x.txt"), "utf8")).toBe("two\n");
    await writeFile(join(box, "w", "f.txt"), "f");
    const refused = await tools.write.execute({ path: "f.txt/x/y.txt", content: "no" });
    expect([refused.ok, refused.error?.code]).toEqual([false, "ENOTDIR"]);
  });
});

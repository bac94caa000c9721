/**
 * The node:fs face over a gate is checked as a tool is: attacks through it are refused, with
 * Node's error shape and the gate's reason, and nothing outside the workspace changes.
 */
import { describe, expect, it } from "vitest";
import { createGate } from "better-fs-tools";
import { memoryFileSystem } from "better-fs-tools/memory";
import { createNodeFs, NodeFsError } from "better-fs-tools/node-fs";

const encode = (text: string) => new TextEncoder().encode(text);

function setup() {
  const storage = memoryFileSystem({ files: { "/w/a.txt": "a", "/secret/key": "k" } });
  const fs = createNodeFs(createGate({ fs: storage, cwd: "/w" }).fs, { cwd: "/w" });
  return { storage, fs };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof NodeFsError ? error.code : `not a NodeFsError: ${String(error)}`),
  );
}

describe("createNodeFs over a gate, attacked", () => {
  it("../ and absolute paths out of the workspace are EACCES, for reads, writes, renames and handles", async () => {
    const { storage, fs } = setup();
    expect(
      await Promise.all([
        codeOf(fs.promises.readFile("../secret/key")),
        codeOf(fs.promises.writeFile("/secret/key", "owned")),
        codeOf(fs.promises.rename("a.txt", "/secret/a.txt")),
        codeOf(fs.promises.open("/secret/key", "r+")),
        codeOf(fs.promises.rm("/secret", { recursive: true })),
        codeOf(fs.promises.copyFile("/secret/key", "stolen.txt")),
      ]),
    ).toEqual(["EACCES", "EACCES", "EACCES", "EACCES", "EACCES", "EACCES"]);
    expect(new TextDecoder().decode(await storage.readFile("/secret/key"))).toBe("k");
    expect((await storage.readdir("/w")).map((entry) => entry.name)).toEqual(["a.txt"]);
  });

  it("a symlink planted in the workspace that points out is not followed", async () => {
    const { storage, fs } = setup();
    await storage.symlink("/secret", "/w/escape");
    expect(await codeOf(fs.promises.readFile("escape/key"))).toBe("EACCES");
    expect(await codeOf(fs.promises.writeFile("escape/key", "owned"))).toBe("EACCES");
    expect(new TextDecoder().decode(await storage.readFile("/secret/key"))).toBe("k");
  });

  it("a file swapped for a symlink after open: the handle's next write goes through the gate and is refused", async () => {
    const { storage, fs } = setup();
    const handle = await fs.promises.open("a.txt", "r+");
    await storage.rm("/w/a.txt");
    await storage.symlink("/secret/key", "/w/a.txt");
    expect(await codeOf(handle.write("owned", 0))).toBe("EACCES");
    await handle.close();
    expect(new TextDecoder().decode(await storage.readFile("/secret/key"))).toBe("k");
  });

  it("NUL bytes in a path are a TypeError before any call, as Node's", async () => {
    const { fs } = setup();
    await expect(fs.promises.readFile("a.txt\0../../secret/key")).rejects.toMatchObject({
      name: "TypeError",
      code: "ERR_INVALID_ARG_VALUE",
    });
    expect(() => fs.readFileSync("a\0")).toThrow(TypeError);
  });

  it("sync calls over a gate throw ENOTSUP saying why (the gate's checks are asynchronous)", () => {
    const { fs } = setup();
    let error: unknown;
    try {
      fs.writeFileSync("b.txt", encode("x"));
    } catch (caught) {
      error = caught;
    }
    expect((error as NodeFsError).message).toBe(
      "ENOTSUP: operation not supported, open 'b.txt' (synchronous calls need a backend that holds its files in memory (memory, idb, opfs-mirror), called directly; this memory filesystem has no sync form (nor has a gate or middleware): use fs.promises or the callback API)",
    );
  });
});

import { createStorage } from "unstorage";
import memoryDriver from "unstorage/drivers/memory";
import { describe, expect, it } from "vitest";
import { testFileSystem } from "better-fs-tools/conformance";
import { unstorageFileSystem } from "../../../src/backends/unstorage/index.js";

testFileSystem({
  name: "unstorage (memory driver)",
  create: async () => unstorageFileSystem(createStorage({ driver: memoryDriver() })),
});
testFileSystem({
  name: "unstorage (memory driver, base prefix)",
  create: async () => unstorageFileSystem(createStorage({ driver: memoryDriver() }), { base: "ws:one" }),
});

const encoder = new TextEncoder();
const fresh = () => createStorage({ driver: memoryDriver() });

describe("unstorageFileSystem layout and options", () => {
  it("one key per file, a marker key per directory, names escaped; readdir gives the names back", async () => {
    const storage = fresh();
    const fs = unstorageFileSystem(storage, { base: "ws" });
    const odd = "a:b?c#d*e$%f (1).txt";
    await fs.writeFile(`/w/${odd}`, encoder.encode("x"));
    await fs.mkdir("/w/empty");
    expect({
      keys: (await storage.getKeys()).sort(),
      entries: (await fs.readdir("/w")).map((entry) => `${entry.name}:${entry.type}`).sort(),
      read: new TextDecoder().decode(await fs.readFile(`/w/${odd}`)),
    }).toEqual({
      keys: ["ws:w:%", "ws:w:a%3Ab%3Fc%23d%2Ae%24%25f%20%281%29.txt", "ws:w:empty:%"],
      entries: [`${odd}:file`, "empty:directory"],
      read: "x",
    });
  });

  it("two bases in one storage are two workspaces", async () => {
    const storage = fresh();
    const one = unstorageFileSystem(storage, { base: "one" });
    const two = unstorageFileSystem(storage, { base: "two" });
    await one.writeFile("/a.txt", encoder.encode("1"));
    expect({ one: (await one.readdir("/")).map((e) => e.name), two: await two.readdir("/") }).toEqual({
      one: ["a.txt"],
      two: [],
    });
  });

  it("a value it did not write is EIO, and a foreign key is not listed", async () => {
    const storage = fresh();
    await storage.setItemRaw("w:foreign.txt", "a string, not our bytes");
    await storage.setItemRaw("w:%", new Uint8Array([0x44, 0, 0, 0, 0, 0, 0, 0, 0]));
    await storage.setItem("w:not%escaped", "x");
    const fs = unstorageFileSystem(storage);
    await expect(fs.readFile("/w/foreign.txt")).rejects.toThrow(
      "EIO: i/o error, open '/w/foreign.txt' (unstorage store: a value this backend did not write, at key 'w:foreign.txt')",
    );
    expect((await fs.readdir("/w")).map((entry) => entry.name)).toEqual(["foreign.txt"]);
  });

  it("a store that fails gives EIO naming the call, the path and the store's message", async () => {
    const storage = fresh();
    storage.getItemRaw = async () => {
      throw new Error("connection reset");
    };
    const fs = unstorageFileSystem(storage);
    await expect(fs.readFile("/a.txt")).rejects.toThrow(
      "EIO: i/o error, open '/a.txt' (unstorage store: connection reset)",
    );
  });

  it("a lone surrogate in a name is EINVAL; paths must be absolute", async () => {
    const fs = unstorageFileSystem(fresh());
    await expect(fs.writeFile("/a\ud800.txt", encoder.encode("x"))).rejects.toThrow(
      "EINVAL: invalid argument, open '/a\ud800.txt' (names must be valid Unicode (no lone surrogates))",
    );
    await expect(fs.readFile("a.txt")).rejects.toThrow(
      "EINVAL: invalid argument, open 'a.txt' (paths must be absolute, without NUL bytes)",
    );
  });

  it("declares no symlinks, its name, cwd and the locks given", () => {
    const locks = { run: <T>(_keys: readonly string[], fn: () => Promise<T>) => fn() };
    const fs = unstorageFileSystem(fresh(), { name: "kv", cwd: "/w", locks });
    expect({
      name: fs.name,
      capabilities: fs.capabilities,
      cwd: fs.cwd,
      locks: fs.locks === locks,
      symlink: fs.symlink,
    }).toEqual({
      name: "kv",
      capabilities: {},
      cwd: "/w",
      locks: true,
      symlink: undefined,
    });
  });

  it.each([
    [{ bas: "x" }, 'unstorageFileSystem got an unknown option "bas". Known options: name, base, cwd, locks, now'],
    [{ cwd: "w" }, 'unstorageFileSystem cwd must be an absolute path string, got "w"'],
    [{ base: "a?b" }, 'unstorageFileSystem base must be a string without ? or #, got "a?b"'],
    [{ locks: {} }, "unstorageFileSystem locks must be a Locks ({ run(keys, fn) })"],
  ])("options %j throw TypeError", (options, message) => {
    expect(() => unstorageFileSystem(fresh(), options as never)).toThrow(new TypeError(message));
  });

  it("a storage that is not an unstorage Storage throws TypeError", () => {
    expect(() => unstorageFileSystem({} as never)).toThrow(
      new TypeError("unstorageFileSystem needs an unstorage Storage (createStorage({ driver })) as its first argument"),
    );
  });
});

import { createStorage } from "unstorage";
import memoryDriver from "unstorage/drivers/memory";
import { describe, expect, it } from "vitest";
import { testFileSystem } from "better-fs-tools/conformance";
import { unstorageFileSystem } from "../../../src/backends/unstorage/index.js";
import { createFsTools } from "../../../src/shell/defaults.js";
import { resultText } from "../../../src/index.js";

testFileSystem({
  name: "unstorage (memory driver)",
  create: async () => unstorageFileSystem(createStorage({ driver: memoryDriver() })),
});
testFileSystem({
  name: "unstorage (memory driver, base prefix)",
  create: async () => unstorageFileSystem(createStorage({ driver: memoryDriver() }), { base: "ws.one" }),
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
    [
      { base: "a?b" },
      'unstorageFileSystem base must be "" or a string of letters, digits, _ . ~ - (no : or /, which would reach into another base\'s keys), got "a?b"',
    ],
    [
      { base: "team-a:w" },
      'unstorageFileSystem base must be "" or a string of letters, digits, _ . ~ - (no : or /, which would reach into another base\'s keys), got "team-a:w"',
    ],
    [{ locks: {} }, "unstorageFileSystem locks must be a Locks ({ run(keys, fn) })"],
  ])("options %j throw TypeError", (options, message) => {
    expect(() => unstorageFileSystem(fresh(), options as never)).toThrow(new TypeError(message));
  });

  it.each(["team-a:w", "team-a/w", "team-a:w:", "team-a\\w", ":team-a", "team a"])(
    "base %j (it would reach into the base team-a's keys) is refused at creation",
    (base) => {
      expect(() => unstorageFileSystem(fresh(), { base })).toThrow(
        new TypeError(
          `unstorageFileSystem base must be "" or a string of letters, digits, _ . ~ - (no : or /, which would reach into another base's keys), got ${JSON.stringify(base)}`,
        ),
      );
    },
  );

  it("a base that extends another one's name is its own workspace (team-a, team-a.w, team-aw)", async () => {
    const storage = fresh();
    const teamA = createFsTools({ fs: unstorageFileSystem(storage, { base: "team-a", cwd: "/w" }), cwd: "/w" });
    expect((await teamA.write.execute({ path: "secret.txt", content: "A's secret" })).ok).toBe(true);
    const seen = [];
    for (const base of ["team-a.w", "team-aw", "team-a-"]) {
      const other = unstorageFileSystem(storage, { base, cwd: "/" });
      seen.push({ base, root: (await other.readdir("/")).map((entry) => entry.name) });
    }
    expect(seen).toEqual([
      { base: "team-a.w", root: [] },
      { base: "team-aw", root: [] },
      { base: "team-a-", root: [] },
    ]);
    expect((await storage.getKeys()).sort()).toEqual(["team-a:w:%", "team-a:w:secret.txt"]);
  });

  it("two backend objects over one storage and base share one lock table: no acknowledged edit is lost", async () => {
    const storage = fresh();
    const lines = Array.from({ length: 10 }, (_, i) => `k${i}=old`);
    const one = createFsTools({ fs: unstorageFileSystem(storage, { base: "t", cwd: "/w" }), cwd: "/w", state: false });
    const two = createFsTools({ fs: unstorageFileSystem(storage, { base: "t", cwd: "/w" }), cwd: "/w", state: false });
    await one.write.execute({ path: "f.txt", content: lines.join("\n") + "\n" });
    const results = await Promise.all(
      lines.map((line, i) =>
        (i % 2 ? one : two).edit.execute({ path: "f.txt", oldText: line, newText: line.replace("old", "new") }),
      ),
    );
    expect(results.map((result) => result.ok)).toEqual(Array.from({ length: 10 }, () => true));
    expect(resultText(await one.read.execute({ path: "f.txt" }))).toBe(
      lines.map((line, i) => `${i + 1}|${line.replace("old", "new")}`).join("\n"),
    );
  });

  it("the default locks: one table per storage and base in the process", () => {
    const storage = fresh();
    const a = unstorageFileSystem(storage, { base: "t" });
    expect({
      sameBase: unstorageFileSystem(storage, { base: "t" }).locks === a.locks,
      otherBase: unstorageFileSystem(storage, { base: "u" }).locks === a.locks,
      otherStorage: unstorageFileSystem(fresh(), { base: "t" }).locks === a.locks,
    }).toEqual({ sameBase: true, otherBase: false, otherStorage: false });
  });

  it("a storage that is not an unstorage Storage throws TypeError", () => {
    expect(() => unstorageFileSystem({} as never)).toThrow(
      new TypeError("unstorageFileSystem needs an unstorage Storage (createStorage({ driver })) as its first argument"),
    );
  });
});

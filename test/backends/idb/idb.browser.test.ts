/**
 * The IndexedDB-persisted workspace in real Chromium: the shared conformance suite (a fresh
 * database per test), then persistence: restore, binary files, symlinks, atomic saves.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { testFileSystem } from "better-fs-tools/conformance";
import { idbFileSystem, type IdbFileSystem, type IdbFileSystemOptions } from "../../../src/backends/idb/index.js";
import { rejection } from "../../contract/rejection.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
let counter = 0;

function uniqueName(): string {
  counter += 1;
  return `test-idb-${Date.now()}-${counter}`;
}

async function open(options: IdbFileSystemOptions): Promise<IdbFileSystem> {
  const fs = idbFileSystem(options);
  await fs.ready;
  return fs;
}

testFileSystem({
  name: "idb",
  create: () => open({ name: uniqueName() }),
  destroy: async (fs) => (fs as IdbFileSystem).close(),
});

describe("idb persistence", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("a second instance on the same database restores files, directories, bytes and symlinks", async () => {
    const name = uniqueName();
    const first = await open({ name });
    const binary = new Uint8Array(256).map((_, index) => index);
    await first.writeFile("/bin/all-bytes.dat", binary);
    await first.writeFile("/docs/readme.md", encoder.encode("# hello\n"));
    await first.mkdir("/empty/nested", { recursive: true });
    await first.symlink("/docs/readme.md", "/link.md");
    await first.symlink("../docs", "/bin/docs-link");
    await first.flush();
    const firstStat = await first.stat("/docs/readme.md");

    const second = await open({ name });
    expect([...(await second.readFile("/bin/all-bytes.dat"))]).toEqual([...binary]);
    expect(decoder.decode(await second.readFile("/docs/readme.md"))).toBe("# hello\n");
    expect(decoder.decode(await second.readFile("/link.md"))).toBe("# hello\n");
    expect(await second.readlink("/link.md")).toBe("/docs/readme.md");
    expect(await second.readlink("/bin/docs-link")).toBe("../docs");
    expect(await second.realpath("/bin/docs-link/readme.md")).toBe("/docs/readme.md");
    expect((await second.readdir("/empty")).map(({ name: entry, type }) => ({ entry, type }))).toEqual([
      { entry: "nested", type: "directory" },
    ]);
    expect((await second.lstat("/link.md")).type).toBe("symlink");
    const secondStat = await second.stat("/docs/readme.md");
    expect(secondStat.mtimeMs).toBe(firstStat.mtimeMs);
    expect(secondStat.mode).toBe(firstStat.mode);
  });

  it("removals and renames persist, including whole trees", async () => {
    const name = uniqueName();
    const first = await open({ name });
    await first.writeFile("/a/one.txt", encoder.encode("1"));
    await first.writeFile("/a/sub/two.txt", encoder.encode("2"));
    await first.writeFile("/gone.txt", encoder.encode("x"));
    await first.flush();
    await first.rename("/a", "/b");
    await first.rm("/gone.txt");
    await first.writeFile("/b/sub/two.txt", encoder.encode("2 again"));
    await first.flush();
    const second = await open({ name });
    expect((await second.readdir("/")).map((entry) => entry.name).sort()).toEqual(["b"]);
    expect(decoder.decode(await second.readFile("/b/one.txt"))).toBe("1");
    expect(decoder.decode(await second.readFile("/b/sub/two.txt"))).toBe("2 again");
  });

  it("a 2,000-directory chain is saved and a second instance on the same database loads the same tree", async () => {
    const name = uniqueName();
    // Relaxed: one save of the whole chain (committed saves each call, and a directory's mtime
    // changed by a later call below it is not saved again).
    const first = await open({ name, durability: "relaxed" });
    const chain = (count: number) => `/w/${Array.from({ length: count }, () => "d").join("/")}`;
    const deep = chain(2000);
    await first.writeFile(`${deep}/x.txt`, encoder.encode("deep"));
    await first.mkdir(`${deep}/e`);
    await first.symlink("x.txt", `${deep}/l`);
    await first.flush();
    await first.writeFile(`${deep}/x.txt`, encoder.encode("deep, changed"));
    await first.close();

    const second = await open({ name });
    for (const path of ["/w", chain(1), chain(1000), deep, `${deep}/x.txt`, `${deep}/e`]) {
      expect({ path, stat: await second.lstat(path) }).toEqual({ path, stat: await first.lstat(path) });
    }
    expect(decoder.decode(await second.readFile(`${deep}/l`))).toBe("deep, changed");
    expect(await second.readlink(`${deep}/l`)).toBe("x.txt");
    expect((await second.readdir(deep)).map(({ name: entry, type }) => `${entry}:${type}`).sort()).toEqual([
      "e:directory",
      "l:symlink",
      "x.txt:file",
    ]);
    expect((await second.readdir(chain(1999))).map(({ name: entry }) => entry)).toEqual(["d"]);
    await second.close();
  });

  it("writes through a symlinked directory are saved at the real path", async () => {
    const name = uniqueName();
    const first = await open({ name });
    await first.mkdir("/real");
    await first.symlink("/real", "/alias");
    await first.writeFile("/alias/file.txt", encoder.encode("via link"));
    await first.flush();
    const second = await open({ name });
    expect(decoder.decode(await second.readFile("/real/file.txt"))).toBe("via link");
    expect((await second.lstat("/alias")).type).toBe("symlink");
  });

  it("relaxed: saves on its own after debounceMs", async () => {
    const name = uniqueName();
    const first = await open({ name, durability: "relaxed", debounceMs: 10 });
    await first.writeFile("/auto.txt", encoder.encode("saved"));
    await vi.waitFor(async () => {
      const second = await open({ name });
      expect(decoder.decode(await second.readFile("/auto.txt"))).toBe("saved");
    });
  });

  it("relaxed: unsaved changes are not in the store (the window a crash may lose)", async () => {
    const name = uniqueName();
    const first = await open({ name, durability: "relaxed", debounceMs: 60_000 });
    await first.writeFile("/kept.txt", encoder.encode("kept"));
    await first.flush();
    await first.writeFile("/unsaved.txt", encoder.encode("unsaved"));
    const second = await open({ name });
    expect((await second.readdir("/")).map((entry) => entry.name)).toEqual(["kept.txt"]);
    await first.close();
  });

  it("relaxed: a save that fails midway changes nothing in the store, and is retried by the next flush", async () => {
    const name = uniqueName();
    const first = await open({ name, durability: "relaxed", debounceMs: 60_000 });
    await first.writeFile("/a.txt", encoder.encode("old a"));
    await first.writeFile("/b.txt", encoder.encode("old b"));
    await first.flush();
    await first.writeFile("/a.txt", encoder.encode("new a"));
    await first.writeFile("/b.txt", encoder.encode("new b"));
    await first.rm("/a.txt");
    await first.writeFile("/c.txt", encoder.encode("new c"));
    const put = IDBObjectStore.prototype.put;
    let calls = 0;
    vi.spyOn(IDBObjectStore.prototype, "put").mockImplementation(function (this: IDBObjectStore, ...args) {
      calls += 1;
      if (calls === 2) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      return put.apply(this, args);
    });
    const error = await rejection(first.flush());
    expect(error.message).toBe(
      `ENOSPC: no space left on device, flush '${name}/files' (IndexedDB: QuotaExceededError: The quota has been exceeded.)`,
    );
    vi.restoreAllMocks();

    const crashed = await open({ name });
    expect((await crashed.readdir("/")).map((entry) => entry.name).sort()).toEqual(["a.txt", "b.txt"]);
    expect(decoder.decode(await crashed.readFile("/a.txt"))).toBe("old a");
    expect(decoder.decode(await crashed.readFile("/b.txt"))).toBe("old b");

    await first.flush();
    const recovered = await open({ name });
    expect((await recovered.readdir("/")).map((entry) => entry.name).sort()).toEqual(["b.txt", "c.txt"]);
    expect(decoder.decode(await recovered.readFile("/b.txt"))).toBe("new b");
  });

  it("committed (the default): a write is in the store when it resolves, with no flush", async () => {
    const name = uniqueName();
    const first = await open({ name });
    await Promise.all([
      first.writeFile("/one.txt", encoder.encode("1")),
      first.writeFile("/two.txt", encoder.encode("2")),
    ]);
    await first.mkdir("/dir");
    const second = await open({ name });
    expect((await second.readdir("/")).map((entry) => entry.name).sort()).toEqual(["dir", "one.txt", "two.txt"]);
    expect(decoder.decode(await second.readFile("/two.txt"))).toBe("2");
  });

  it("committed: sync writes only are in the store once their save settles, with no flush (a reload sees them)", async () => {
    const name = uniqueName();
    const first = await open({ name });
    first.sync.writeFile("/s/one.txt", encoder.encode("1"));
    first.sync.writeFile("/s/two.txt", encoder.encode("2"));
    first.sync.rename("/s/one.txt", "/s/uno.txt");
    await vi.waitFor(async () => {
      const reload = await open({ name });
      expect((await reload.readdir("/s")).map((entry) => entry.name).sort()).toEqual(["two.txt", "uno.txt"]);
      expect(decoder.decode(await reload.readFile("/s/uno.txt"))).toBe("1");
    });
  });

  it("committed: a write whose save fails rejects with ENOSPC and the file is as it was", async () => {
    const name = uniqueName();
    const first = await open({ name });
    await first.writeFile("/a.txt", encoder.encode("old"));
    vi.spyOn(IDBObjectStore.prototype, "put").mockImplementation(() => {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    });
    const error = await rejection(first.writeFile("/a.txt", encoder.encode("new")));
    expect(error.message).toBe(
      `ENOSPC: no space left on device, flush '${name}/files' (IndexedDB: QuotaExceededError: The quota has been exceeded.)`,
    );
    vi.restoreAllMocks();
    expect(decoder.decode(await first.readFile("/a.txt"))).toBe("old");
    const second = await open({ name });
    expect(decoder.decode(await second.readFile("/a.txt"))).toBe("old");
  });

  it("calls made before the load finishes wait for it", async () => {
    const name = uniqueName();
    const first = await open({ name });
    await first.writeFile("/early.txt", encoder.encode("there"));
    await first.flush();
    const second = idbFileSystem({ name });
    expect(decoder.decode(await second.readFile("/early.txt"))).toBe("there");
  });

  it("uses an injected createStore instead of importing idb-keyval", async () => {
    const { createStore } = await import("idb-keyval");
    const used: string[] = [];
    const fs = await open({
      name: uniqueName(),
      store: "custom",
      createStore: (db, store) => {
        used.push(store);
        return createStore(db, store);
      },
    });
    await fs.writeFile("/x", encoder.encode("x"));
    await fs.flush();
    expect(used).toEqual(["custom"]);
  });

  it("rejects unknown options and bad values with TypeError naming the option", () => {
    expect(() => idbFileSystem({ debounce: 1 } as never)).toThrow(
      new TypeError(
        'idbFileSystem got an unknown option "debounce". Known options: name, store, durability, debounceMs, createStore, onError',
      ),
    );
    expect(() => idbFileSystem({ debounceMs: Number.NaN })).toThrow(
      new TypeError('idbFileSystem: option "debounceMs" must be a non-negative finite number, got NaN'),
    );
    expect(() => idbFileSystem({ name: "" })).toThrow(
      new TypeError('idbFileSystem: option "name" must be a non-empty string, got ""'),
    );
  });
});

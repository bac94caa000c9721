/**
 * idbFileSystem in Node against an in-memory stand-in for idb-keyval's store: exactly which
 * records each save writes and deletes, one transaction per save, the creation checks, and the
 * no-follow form the gate uses (a link swapped in after the check is refused, and its changes persist).
 */
import { describe, expect, it, vi } from "vitest";
import type { UseStore } from "idb-keyval";
import { idbFileSystem, type IdbRecord } from "../../../src/backends/idb/index.js";
import { createGate } from "../../../src/gate/gate.js";
import { createFsTools } from "../../../src/shell/defaults.js";
import { RELAXED_DURABILITY_NOTE, resultText } from "../../../src/tools/kit/result.js";

const encoder = new TextEncoder();

/** A Map-backed object store: each transaction applies its changes at commit, or none if one throws. */
function fakeStore(options: { failOnPut?: string } = {}) {
  const data = new Map<string, IdbRecord>();
  const transactions: string[] = [];
  const use: UseStore = async (mode, callback) => {
    const staged: Array<() => void> = [];
    let aborted = false;
    const transaction = {
      oncomplete: null as null | (() => void),
      onabort: null as null | (() => void),
      onerror: null,
      error: null as unknown,
      abort() {
        aborted = true;
        transactions.push("aborted");
        queueMicrotask(() => transaction.onabort?.());
      },
    };
    const request = <T>(value: T) => {
      const req = { result: value, onsuccess: null as null | (() => void), onerror: null };
      queueMicrotask(() => req.onsuccess?.());
      return req;
    };
    const store = {
      transaction,
      put(record: IdbRecord, key: string) {
        if (key === options.failOnPut) throw new DOMException("quota", "QuotaExceededError");
        staged.push(() => data.set(key, structuredClone(record)));
      },
      delete(key: string) {
        staged.push(() => data.delete(key));
      },
      getAllKeys: () => request([...data.keys()].sort()),
      getAll: () => request([...data.keys()].sort().map((key) => structuredClone(data.get(key)))),
    };
    const result = callback(store as unknown as IDBObjectStore);
    if (mode === "readwrite") {
      queueMicrotask(() => {
        if (aborted) return;
        for (const change of staged) change();
        transactions.push(`readwrite:${staged.length}`);
        transaction.oncomplete?.();
      });
    }
    return result;
  };
  return { data, transactions, createStore: () => use };
}

function summary(data: Map<string, IdbRecord>): Record<string, string> {
  return Object.fromEntries(
    [...data].map(([key, record]) => [
      key,
      record.kind === "file"
        ? `file:${new TextDecoder().decode(record.data)}`
        : record.kind === "symlink"
          ? `symlink:${record.target}`
          : "directory",
    ]),
  );
}

describe("idbFileSystem records (Node, stand-in store)", () => {
  it("the sync form: EBUSY before the load, then the memory copy's calls, saved as the promise form's are", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, debounceMs: 60_000 });
    let early: unknown;
    try {
      fs.sync.readdir("/");
    } catch (error) {
      early = error;
    }
    expect((early as Error).message).toBe(
      "EBUSY: resource busy or locked, scandir '/' (the IndexedDB workspace is still loading; await fs.ready first)",
    );
    await fs.ready;
    fs.sync.writeFile("/d/a.txt", encoder.encode("a"));
    fs.sync.mkdir("/e");
    fs.sync.rename("/d/a.txt", "/d/b.txt");
    fs.sync.symlink("/d/b.txt", "/link");
    expect(new TextDecoder().decode(fs.sync.readFile("/link"))).toBe("a");
    await fs.flush();
    // The same calls through the promise form save the same records.
    const promised = fakeStore();
    const other = idbFileSystem({ name: "db", createStore: promised.createStore, debounceMs: 60_000 });
    await other.writeFile("/d/a.txt", encoder.encode("a"));
    await other.mkdir("/e");
    await other.rename("/d/a.txt", "/d/b.txt");
    await other.symlink("/d/b.txt", "/link");
    await other.flush();
    expect(summary(store.data)).toEqual(summary(promised.data));
    expect(summary(store.data)).toEqual({
      "/d": "directory",
      "/d/b.txt": "file:a",
      "/e": "directory",
      "/link": "symlink:/d/b.txt",
    });
  });

  it("a save writes one record per path, parents included, in one transaction", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, durability: "relaxed", debounceMs: 60_000 });
    await fs.writeFile("/a/b/c.txt", encoder.encode("c"));
    await fs.symlink("/a/b/c.txt", "/link");
    await fs.mkdir("/empty");
    await fs.flush();
    expect(summary(store.data)).toEqual({
      "/a": "directory",
      "/a/b": "directory",
      "/a/b/c.txt": "file:c",
      "/link": "symlink:/a/b/c.txt",
      "/empty": "directory",
    });
    expect(store.transactions).toEqual(["readwrite:5"]);
  });

  it("a save after a rename deletes the old subtree and writes the new one; unchanged paths are not rewritten", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, durability: "relaxed", debounceMs: 60_000 });
    await fs.writeFile("/d/one.txt", encoder.encode("1"));
    await fs.writeFile("/d/sub/two.txt", encoder.encode("2"));
    await fs.writeFile("/other.txt", encoder.encode("o"));
    await fs.flush();
    await fs.rename("/d", "/e");
    await fs.flush();
    expect(summary(store.data)).toEqual({
      "/e": "directory",
      "/e/one.txt": "file:1",
      "/e/sub": "directory",
      "/e/sub/two.txt": "file:2",
      "/other.txt": "file:o",
    });
    // 4 deletes (/d, /d/one.txt, /d/sub, /d/sub/two.txt) and 4 puts (/e...), nothing for /other.txt.
    expect(store.transactions).toEqual(["readwrite:5", "readwrite:8"]);
  });

  it("a flush with nothing changed opens no transaction", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, durability: "relaxed", debounceMs: 60_000 });
    await fs.flush();
    await fs.readFile("/missing").catch(() => undefined);
    await fs.flush();
    expect(store.transactions).toEqual([]);
  });

  it("a failed save leaves the store as it was and keeps the changes pending", async () => {
    const store = fakeStore({ failOnPut: "/b.txt" });
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, durability: "relaxed", debounceMs: 60_000 });
    await fs.writeFile("/a.txt", encoder.encode("a"));
    await fs.writeFile("/b.txt", encoder.encode("b"));
    await expect(fs.flush()).rejects.toThrow(
      "ENOSPC: no space left on device, flush 'db/files' (IndexedDB: QuotaExceededError: quota)",
    );
    expect(summary(store.data)).toEqual({});
    expect(store.transactions).toEqual(["aborted"]);
  });

  it("restores what it saved", async () => {
    const store = fakeStore();
    const first = idbFileSystem({
      name: "db",
      createStore: store.createStore,
      durability: "relaxed",
      debounceMs: 60_000,
    });
    await first.writeFile("/x/bytes.bin", Uint8Array.of(0, 1, 254, 255));
    await first.symlink("bytes.bin", "/x/rel-link");
    await first.flush();
    const second = idbFileSystem({ name: "db", createStore: store.createStore });
    expect([...(await second.readFile("/x/rel-link"))]).toEqual([0, 1, 254, 255]);
    expect(await second.readlink("/x/rel-link")).toBe("bytes.bin");
  });

  it("throws ENOTSUP at creation where indexedDB is missing, naming the fallback", () => {
    expect(() => idbFileSystem()).toThrow(
      "ENOTSUP: operation not supported, idb 'better-fs-tools/files' (IndexedDB is not available in this context; use memoryFileSystem from \"better-fs-tools/memory\" (nothing persists))",
    );
  });

  it("has a no-follow form: a leaf or parent swapped for a link after the check is refused; its writes persist, nothing is stored through a link", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, durability: "relaxed", debounceMs: 60_000 });
    await fs.writeFile("/w/d/a.txt", encoder.encode("inside"));
    await fs.writeFile("/out/a.txt", encoder.encode("SECRET"));
    const gate = createGate({ fs, cwd: "/w" });
    expect(gate.noFollow).toBe(fs.noFollow);
    expect({ name: gate.noFollow.name, capabilities: gate.noFollow.capabilities }).toEqual({
      name: "idb",
      capabilities: { symlink: true },
    });
    const leaf = await gate.check("d/a.txt", "read");
    const parent = await gate.check("d/new.txt", "write");
    expect([leaf, parent]).toEqual([
      { ok: true, path: "/w/d/a.txt", outside: false },
      { ok: true, path: "/w/d/new.txt", outside: false },
    ]);
    await gate.noFollow.writeFile("/w/d/b.txt", encoder.encode("through no-follow"));
    await fs.rm("/w/d/a.txt");
    await fs.symlink("/out/a.txt", "/w/d/a.txt");
    const refusals: string[] = [];
    await gate.noFollow.readFile("/w/d/a.txt").catch((error: Error) => refusals.push(error.message));
    await fs.rename("/w/d", "/w/d.real");
    await fs.symlink("/out", "/w/d");
    await gate.noFollow
      .writeFile("/w/d/new.txt", encoder.encode("pwned"))
      .catch((error: Error) => refusals.push(error.message));
    expect(refusals).toEqual([
      "ELOOP: too many symbolic links encountered, open '/w/d/a.txt' (/w/d/a.txt is a symbolic link; not followed)",
      "ELOOP: too many symbolic links encountered, open '/w/d/new.txt' (/w/d is a symbolic link; not followed)",
    ]);
    await fs.flush();
    expect(summary(store.data)).toEqual({
      "/w": "directory",
      "/w/d": "symlink:/out",
      "/w/d.real": "directory",
      "/w/d.real/a.txt": "symlink:/out/a.txt",
      "/w/d.real/b.txt": "file:through no-follow",
      "/out": "directory",
      "/out/a.txt": "file:SECRET",
    });
  });
});

/** `/w` then `count` directories named `d`, one inside the other. */
function chain(count: number): string {
  return `/w/${Array.from({ length: count }, () => "d").join("/")}`;
}

describe("idbFileSystem saves and loads deep trees in one walk per changed path", () => {
  it("a 2,000-directory chain is saved as one record per path, and a second instance restores the same tree", async () => {
    const store = fakeStore();
    const first = idbFileSystem({
      name: "db",
      createStore: store.createStore,
      durability: "relaxed",
      debounceMs: 60_000,
    });
    const deep = chain(2000);
    await first.writeFile(`${deep}/x.txt`, encoder.encode("deep"));
    await first.mkdir(`${deep}/e`);
    await first.symlink("x.txt", `${deep}/l`);
    await first.flush();
    const expected: Record<string, string> = { "/w": "directory" };
    for (let depth = 1; depth <= 2000; depth += 1) expected[chain(depth)] = "directory";
    expected[`${deep}/x.txt`] = "file:deep";
    expected[`${deep}/e`] = "directory";
    expected[`${deep}/l`] = "symlink:x.txt";
    expect(summary(store.data)).toEqual(expected);
    expect(store.transactions).toEqual(["readwrite:2004"]);

    // The whole tree round trip, record by record, is in snapshot.test.ts; here the ends of the chain.
    const second = idbFileSystem({
      name: "db",
      createStore: store.createStore,
      durability: "relaxed",
      debounceMs: 60_000,
    });
    for (const path of ["/w", chain(1), chain(1000), deep, `${deep}/x.txt`, `${deep}/e`]) {
      expect({ path, stat: await second.lstat(path) }).toEqual({ path, stat: await first.lstat(path) });
    }
    // A symlink's record keeps its target only (its time is the load's).
    expect(await second.lstat(`${deep}/l`)).toMatchObject({ type: "symlink", mode: 0o666 });
    expect(new TextDecoder().decode(await second.readFile(`${deep}/l`))).toBe("deep");
    expect(await second.readlink(`${deep}/l`)).toBe("x.txt");
    expect((await second.readdir(deep)).map(({ name, type }) => `${name}:${type}`).sort()).toEqual([
      "e:directory",
      "l:symlink",
      "x.txt:file",
    ]);
  });

  it("a link swapped into the chain before a save does not redirect a record: nothing is saved through it", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, durability: "relaxed", debounceMs: 60_000 });
    const deep = chain(2000);
    const middle = chain(1000);
    const below = deep.slice(middle.length); // `/d/d/...` (1,000 names)
    await fs.writeFile(`${deep}/x.txt`, encoder.encode("deep"));
    await fs.writeFile(`/out${below}/x.txt`, encoder.encode("OUTSIDE"));
    await fs.flush();
    // Changed, then its chain swapped for a link to /out before the save: the lexical path now
    // names /out's file, which must not be saved under it.
    await fs.writeFile(`${deep}/x.txt`, encoder.encode("deep, changed"));
    await fs.rename(middle, "/w/aside");
    await fs.symlink("/out", middle);
    await fs.writeFile(`${middle}/new.txt`, encoder.encode("through the link"));
    const noFollow = createGate({ fs, cwd: "/w" }).noFollow;
    const refusal = await noFollow.writeFile(`${middle}/refused.txt`, encoder.encode("x")).catch((e: Error) => e);
    expect((refusal as Error).message).toBe(
      `ELOOP: too many symbolic links encountered, open '${middle}/refused.txt' (${middle} is a symbolic link; not followed)`,
    );
    await fs.flush();
    const expected: Record<string, string> = { "/w": "directory", "/w/aside": "directory", "/out": "directory" };
    for (let depth = 1; depth < 1000; depth += 1) expected[chain(depth)] = "directory";
    expected[middle] = "symlink:/out";
    for (let depth = 1; depth <= 1000; depth += 1) {
      expected[`/w/aside${below.slice(0, 2 * depth)}`] = "directory";
      expected[`/out${below.slice(0, 2 * depth)}`] = "directory";
    }
    expected[`/w/aside${below}/x.txt`] = "file:deep, changed";
    expected[`/out${below}/x.txt`] = "file:OUTSIDE";
    expected["/out/new.txt"] = "file:through the link";
    expect(summary(store.data)).toEqual(expected);
    expect([...store.data.keys()].filter((key) => key.startsWith(`${middle}/`))).toEqual([]);
  });

  it("mkdir -p of a stored directory saves that directory alone, not what is below it", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, durability: "relaxed", debounceMs: 60_000 });
    await fs.writeFile("/a/one.txt", encoder.encode("1"));
    await fs.writeFile("/a/sub/two.txt", encoder.encode("2"));
    await fs.flush();
    await fs.mkdir("/a", { recursive: true });
    await fs.mkdir("/a/sub/new/deeper", { recursive: true });
    await fs.flush();
    // 4 puts, then /a again, and /a/sub/new with /a/sub/new/deeper (nothing below /a rewritten).
    expect(store.transactions).toEqual(["readwrite:4", "readwrite:3"]);
    expect(summary(store.data)).toEqual({
      "/a": "directory",
      "/a/one.txt": "file:1",
      "/a/sub": "directory",
      "/a/sub/two.txt": "file:2",
      "/a/sub/new": "directory",
      "/a/sub/new/deeper": "directory",
    });
  });

  it("a store written by hand with a record under a file, or a key that is not a normal path, fails the load", async () => {
    const underFile = fakeStore();
    underFile.data.set("/f", { kind: "file", data: encoder.encode("f"), mode: 0o644, mtimeMs: 0 });
    underFile.data.set("/f/x", { kind: "directory", mode: 0o755, mtimeMs: 0 });
    await expect(idbFileSystem({ name: "db", createStore: underFile.createStore }).ready).rejects.toThrow(
      "ENOTDIR: not a directory, restore '/f' (stored entries lie below a file or a link)",
    );
    const notNormal = fakeStore();
    notNormal.data.set("/a/../b", { kind: "directory", mode: 0o755, mtimeMs: 0 });
    await expect(idbFileSystem({ name: "db", createStore: notNormal.createStore }).ready).rejects.toThrow(
      "EINVAL: invalid argument, restore '/a/../b' (a stored key is not an absolute normal path)",
    );
  });
});

describe("idbFileSystem durability (Node, stand-in store)", () => {
  it("committed by default: each change is in the store when its call resolves", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore });
    await fs.writeFile("/a.txt", encoder.encode("a"));
    expect(summary(store.data)).toEqual({ "/a.txt": "file:a" });
    await fs.mkdir("/d");
    await fs.rename("/a.txt", "/d/a.txt");
    await fs.symlink("/d/a.txt", "/l");
    expect(summary(store.data)).toEqual({ "/d": "directory", "/d/a.txt": "file:a", "/l": "symlink:/d/a.txt" });
    await fs.rm("/l");
    expect(summary(store.data)).toEqual({ "/d": "directory", "/d/a.txt": "file:a" });
    expect(store.transactions).toEqual(["readwrite:1", "readwrite:1", "readwrite:2", "readwrite:1", "readwrite:1"]);
    expect(fs.durability).toBeUndefined();
  });

  it("calls in flight together share one transaction; those made while it runs share the next", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore });
    await fs.ready;
    const first = Array.from({ length: 5 }, (_, index) => fs.writeFile(`/f${index}.txt`, encoder.encode(`${index}`)));
    // Started once the first five are marked: they wait for the running save, then share one.
    await Promise.resolve();
    const second = Array.from({ length: 3 }, (_, index) => fs.writeFile(`/g${index}.txt`, encoder.encode("g")));
    await Promise.all([...first, ...second]);
    expect(store.transactions).toEqual(["readwrite:5", "readwrite:3"]);
    expect(Object.keys(summary(store.data)).length).toBe(8);
  });

  it("a failed save rejects the write and takes it back: the file is as it was, in memory and in the store", async () => {
    const store = fakeStore({ failOnPut: "/b.txt" });
    const fs = idbFileSystem({ name: "db", createStore: store.createStore });
    await fs.writeFile("/a.txt", encoder.encode("old"));
    await expect(fs.writeFile("/b.txt", encoder.encode("new"))).rejects.toThrow(
      "ENOSPC: no space left on device, flush 'db/files' (IndexedDB: QuotaExceededError: quota)",
    );
    await expect(fs.readFile("/b.txt")).rejects.toThrow(/^ENOENT/);
    expect(summary(store.data)).toEqual({ "/a.txt": "file:old" });
  });

  it("an overwrite whose save fails keeps the old bytes", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore });
    await fs.writeFile("/a.txt", encoder.encode("old"));
    const failing = fakeStore({ failOnPut: "/a.txt" });
    failing.data.set("/a.txt", store.data.get("/a.txt")!);
    const again = idbFileSystem({ name: "db", createStore: failing.createStore });
    await expect(again.writeFile("/a.txt", encoder.encode("new"))).rejects.toThrow(/^ENOSPC/);
    expect(new TextDecoder().decode(await again.readFile("/a.txt"))).toBe("old");
    expect(summary(failing.data)).toEqual({ "/a.txt": "file:old" });
  });

  it('durability: "relaxed" saves later, and every successful mutation result of the tools says so', async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, durability: "relaxed", debounceMs: 60_000 });
    expect(fs.durability).toBe("relaxed");
    const tools = createFsTools({ fs, cwd: "/w" });
    const wrote = await tools.write.execute({ path: "a.txt", content: "hi\n" });
    expect(wrote.durability).toBe("relaxed");
    expect(resultText(wrote)).toBe(`wrote 3 bytes to a.txt\n${RELAXED_DURABILITY_NOTE}`);
    expect(summary(store.data)).toEqual({});
    const missed = await tools.edit.execute({ path: "a.txt", oldText: "nope", newText: "x" });
    expect({ ok: missed.ok, durability: missed.durability }).toEqual({ ok: false, durability: undefined });
    const committed = createFsTools({
      fs: idbFileSystem({ name: "db2", createStore: fakeStore().createStore }),
      cwd: "/w",
    });
    const plain = await committed.write.execute({ path: "a.txt", content: "hi\n" });
    expect({ durability: plain.durability, text: resultText(plain) }).toEqual({
      durability: undefined,
      text: "wrote 3 bytes to a.txt",
    });
  });

  it("committed: sync changes of one task start one save on their own, with no flush or promise call", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore });
    await fs.ready;
    fs.sync.writeFile("/a.txt", encoder.encode("a"));
    fs.sync.mkdir("/d");
    fs.sync.rename("/a.txt", "/d/a.txt");
    fs.sync.symlink("/d/a.txt", "/l");
    expect(store.transactions).toEqual([]);
    await vi.waitFor(() => expect(store.transactions).toEqual(["readwrite:3"]));
    expect(summary(store.data)).toEqual({ "/d": "directory", "/d/a.txt": "file:a", "/l": "symlink:/d/a.txt" });
    // A later task's sync call starts the next save.
    fs.sync.rm("/l");
    await vi.waitFor(() => expect(store.transactions).toEqual(["readwrite:3", "readwrite:1"]));
    expect(summary(store.data)).toEqual({ "/d": "directory", "/d/a.txt": "file:a" });
  });

  it("committed: a promise write made with a sync change resolves with both in the store", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore });
    await fs.ready;
    const promised = fs.writeFile("/p.txt", encoder.encode("p"));
    fs.sync.writeFile("/s.txt", encoder.encode("s"));
    await promised;
    expect(summary(store.data)).toEqual({ "/p.txt": "file:p", "/s.txt": "file:s" });
  });

  it("committed: a sync change whose save fails goes to onError and stays pending for the next save", async () => {
    const store = fakeStore({ failOnPut: "/b.txt" });
    const errors: string[] = [];
    const fs = idbFileSystem({
      name: "db",
      createStore: store.createStore,
      onError: (error) => errors.push(error.message),
    });
    await fs.ready;
    fs.sync.writeFile("/b.txt", encoder.encode("b"));
    await vi.waitFor(() =>
      expect(errors).toEqual([
        "ENOSPC: no space left on device, flush 'db/files' (IndexedDB: QuotaExceededError: quota)",
      ]),
    );
    expect(summary(store.data)).toEqual({});
    expect(new TextDecoder().decode(fs.sync.readFile("/b.txt"))).toBe("b");
    await expect(fs.flush()).rejects.toThrow(/^ENOSPC/);
    expect(errors.length).toBe(1);
  });

  it("relaxed: a sync change waits for the debounce, not saved on its own", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, durability: "relaxed", debounceMs: 60_000 });
    await fs.ready;
    fs.sync.writeFile("/a.txt", encoder.encode("a"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.transactions).toEqual([]);
    await fs.flush();
    expect(store.transactions).toEqual(["readwrite:1"]);
  });

  it("refuses an unknown durability at creation, naming the option", () => {
    expect(() => idbFileSystem({ durability: "fast" as never, createStore: fakeStore().createStore })).toThrow(
      new TypeError('idbFileSystem: option "durability" must be "committed" or "relaxed", got "fast"'),
    );
  });
});

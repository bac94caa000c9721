/**
 * idbFileSystem in Node against an in-memory stand-in for idb-keyval's store: exactly which
 * records each save writes and deletes, one transaction per save, the creation checks, and the
 * no-follow form the gate uses (a link swapped in after the check is refused, and its changes persist).
 */
import { describe, expect, it } from "vitest";
import type { UseStore } from "idb-keyval";
import { idbFileSystem, type IdbRecord } from "../../../src/backends/idb/index.js";
import { createGate } from "../../../src/gate/gate.js";

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
  it("a save writes one record per path, parents included, in one transaction", async () => {
    const store = fakeStore();
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, debounceMs: 60_000 });
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
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, debounceMs: 60_000 });
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
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, debounceMs: 60_000 });
    await fs.flush();
    await fs.readFile("/missing").catch(() => undefined);
    await fs.flush();
    expect(store.transactions).toEqual([]);
  });

  it("a failed save leaves the store as it was and keeps the changes pending", async () => {
    const store = fakeStore({ failOnPut: "/b.txt" });
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, debounceMs: 60_000 });
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
    const first = idbFileSystem({ name: "db", createStore: store.createStore, debounceMs: 60_000 });
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
    const fs = idbFileSystem({ name: "db", createStore: store.createStore, debounceMs: 60_000 });
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

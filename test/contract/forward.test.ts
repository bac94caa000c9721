import { describe, expect, it } from "vitest";
import { forwardFileSystem } from "../../src/contract/forward.js";
import { lostNoFollow, trustedNoFollow } from "../../src/contract/no-follow.js";
import { memoryLocks } from "../../src/contract/locks.js";
import type { FileSystem, WatchEvent } from "../../src/contract/types.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { testFileSystem } from "../../src/conformance/index.js";

const encode = (value: string) => new TextEncoder().encode(value);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A backend that records each call with its arguments and answers from fixed values. */
function recordingBackend(options: { optional: boolean }) {
  const calls: Array<[string, ...unknown[]]> = [];
  const locks = memoryLocks();
  const capabilities = Object.freeze({ symlink: options.optional, watch: options.optional });
  const stop = () => calls.push(["stop"]);
  const record =
    <T>(method: string, answer: T) =>
    (...args: unknown[]) => {
      calls.push([method, ...args]);
      return answer;
    };
  const stat = { type: "file", size: 3, mtimeMs: 7 } as const;
  const backend: FileSystem = {
    name: "recording",
    capabilities,
    locks,
    readFile: record("readFile", Promise.resolve(encode("abc"))),
    writeFile: record("writeFile", Promise.resolve()),
    stat: record("stat", Promise.resolve(stat)),
    lstat: record("lstat", Promise.resolve(stat)),
    readdir: record("readdir", Promise.resolve([{ name: "a", type: "file" } as const])),
    mkdir: record("mkdir", Promise.resolve()),
    rm: record("rm", Promise.resolve()),
    rename: record("rename", Promise.resolve()),
    realpath: record("realpath", Promise.resolve("/real")),
    ...(options.optional
      ? {
          symlink: record("symlink", Promise.resolve()),
          readlink: record("readlink", Promise.resolve("/target")),
          watch: record("watch", stop),
        }
      : {}),
  };
  return { backend, calls, locks, capabilities, stop };
}

// A wrapper with no overrides keeps the whole contract.
testFileSystem({
  name: "forwardFileSystem(memory, {})",
  create: async () => forwardFileSystem(memoryFileSystem(), {}),
});

describe("forwardFileSystem", () => {
  it("forwards every method of the contract with its arguments and answers", async () => {
    const { backend, calls, stop } = recordingBackend({ optional: true });
    const fs = forwardFileSystem(backend, {});
    const data = encode("x");
    const listener = (_event: WatchEvent) => {};
    expect(text(await fs.readFile("/a"))).toBe("abc");
    expect(await fs.writeFile("/a", data)).toBeUndefined();
    expect(await fs.stat("/a")).toEqual({ type: "file", size: 3, mtimeMs: 7 });
    expect(await fs.lstat("/a")).toEqual({ type: "file", size: 3, mtimeMs: 7 });
    expect(await fs.readdir("/")).toEqual([{ name: "a", type: "file" }]);
    await fs.mkdir("/d", { recursive: true });
    await fs.rm("/d", { recursive: true, force: true });
    await fs.rename("/a", "/b");
    expect(await fs.realpath("/b")).toBe("/real");
    await fs.symlink!("/b", "/l");
    expect(await fs.readlink!("/l")).toBe("/target");
    expect(fs.watch!("/", listener)).toBe(stop);
    expect(calls).toEqual([
      ["readFile", "/a"],
      ["writeFile", "/a", data],
      ["stat", "/a"],
      ["lstat", "/a"],
      ["readdir", "/"],
      ["mkdir", "/d", { recursive: true }],
      ["rm", "/d", { recursive: true, force: true }],
      ["rename", "/a", "/b"],
      ["realpath", "/b"],
      ["symlink", "/b", "/l"],
      ["readlink", "/l"],
      ["watch", "/", listener],
    ]);
  });

  it("carries name, capabilities and locks as the same objects", () => {
    const { backend, locks, capabilities } = recordingBackend({ optional: true });
    const fs = forwardFileSystem(backend, {});
    expect(fs.name).toBe("recording");
    expect(fs.capabilities).toBe(capabilities);
    expect(fs.locks).toBe(locks);
  });

  it("leaves absent optional members absent, overridden or not", () => {
    const { backend } = recordingBackend({ optional: false });
    const { locks: _locks, ...withoutLocks } = backend;
    const fs = forwardFileSystem(withoutLocks, {
      symlink: async () => {},
      readlink: async () => "/x",
      watch: () => () => {},
    });
    expect(Object.keys(fs).sort()).toEqual([
      "capabilities",
      "lstat",
      "mkdir",
      "name",
      "readFile",
      "readdir",
      "realpath",
      "rename",
      "rm",
      "stat",
      "writeFile",
    ]);
    expect("symlink" in fs).toBe(false);
    expect("readlink" in fs).toBe(false);
    expect("watch" in fs).toBe(false);
    expect("locks" in fs).toBe(false);
  });

  it("carries readFileView, and drops it where readFile is replaced and it is not", async () => {
    const backend = memoryFileSystem({ files: { "/a.txt": "abc" } });
    const length = (bytes: Uint8Array) => bytes.length;
    const carried = forwardFileSystem(backend, {});
    const replaced = forwardFileSystem(backend, { readFile: async () => encode("other") });
    const both = forwardFileSystem(backend, {
      readFile: async () => encode("other"),
      readFileView: async <T>(_path: string, use: (bytes: Uint8Array) => T) => use(encode("other")),
    });
    expect({
      carried: await carried.readFileView?.("/a.txt", length),
      replaced: "readFileView" in replaced,
      both: await both.readFileView?.("/a.txt", length),
    }).toEqual({ carried: 3, replaced: false, both: 5 });
  });

  it("overrides as a function of the target wrap the backend and its no-follow form alike, and the form stays trusted", async () => {
    const backend = memoryFileSystem({ files: { "/w/a.txt": "a" } });
    const seen: string[] = [];
    const fs = forwardFileSystem(backend, (target) => ({
      writeFile: async (path: string, data: Uint8Array) => {
        seen.push(`${target === backend ? "backend" : "noFollow"} ${path}`);
        return target.writeFile(path, data);
      },
    }));
    await fs.writeFile("/w/b.txt", encode("b"));
    await fs.noFollow!.writeFile("/w/c.txt", encode("c"));
    expect(seen).toEqual(["backend /w/b.txt", "noFollow /w/c.txt"]);
    expect(trustedNoFollow(fs)).toBe(fs.noFollow);
    expect(fs.noFollow).not.toBe(backend.noFollow);
    expect(lostNoFollow(fs)).toBe(false);
    // A backend without a form: the function is applied once, and no form appears.
    const { backend: plain } = recordingBackend({ optional: false });
    let applied = 0;
    const wrapped = forwardFileSystem(plain, (target) => (applied++, { readFile: target.readFile }));
    expect({ applied, noFollow: "noFollow" in wrapped, lost: lostNoFollow(wrapped) }).toEqual({
      applied: 1,
      noFollow: false,
      lost: false,
    });
  });

  it("plain-object overrides of a method drop the no-follow form and mark the wrapper as having lost it", () => {
    const backend = memoryFileSystem();
    const logged = forwardFileSystem(backend, { writeFile: (path, data) => backend.writeFile(path, data) });
    expect({ noFollow: "noFollow" in logged, lost: lostNoFollow(logged) }).toEqual({ noFollow: false, lost: true });
    const fieldsOnly = forwardFileSystem(backend, { cwd: "/w" });
    expect({ trusted: trustedNoFollow(fieldsOnly) === backend.noFollow, lost: lostNoFollow(fieldsOnly) }).toEqual({
      trusted: true,
      lost: false,
    });
  });

  it("lets overrides win, and keeps the forwarded member for an undefined override", async () => {
    const { backend, calls } = recordingBackend({ optional: true });
    const otherLocks = memoryLocks();
    const fs = forwardFileSystem(backend, {
      name: "wrapped",
      capabilities: { symlink: true },
      locks: otherLocks,
      readFile: async (path: string) => encode(`override ${path}`),
      readlink: async () => "/overridden",
      stat: undefined,
      flushCount: 2,
    });
    expect(fs.name).toBe("wrapped");
    expect(fs.capabilities).toEqual({ symlink: true });
    expect(fs.locks).toBe(otherLocks);
    expect(fs.flushCount).toBe(2);
    expect(text(await fs.readFile("/a"))).toBe("override /a");
    expect(await fs.readlink!("/l")).toBe("/overridden");
    expect(await fs.stat("/s")).toEqual({ type: "file", size: 3, mtimeMs: 7 });
    expect(calls).toEqual([["stat", "/s"]]);
  });

  it("calls the backend's methods with `this` bound to the backend", async () => {
    class CountingBackend {
      readonly name = "class";
      readonly capabilities = { symlink: true };
      readonly inner = memoryFileSystem({ files: { "/a.txt": "hello" } });
      reads = 0;
      async readFile(path: string) {
        this.reads += 1;
        return this.inner.readFile(path);
      }
      writeFile(path: string, data: Uint8Array) {
        return this.inner.writeFile(path, data);
      }
      stat(path: string) {
        return this.inner.stat(path);
      }
      lstat(path: string) {
        return this.inner.lstat(path);
      }
      readdir(path: string) {
        return this.inner.readdir(path);
      }
      mkdir(path: string, options?: { recursive?: boolean }) {
        return this.inner.mkdir(path, options);
      }
      rm(path: string, options?: { recursive?: boolean; force?: boolean }) {
        return this.inner.rm(path, options);
      }
      rename(from: string, to: string) {
        return this.inner.rename(from, to);
      }
      realpath(path: string) {
        return this.inner.realpath(path);
      }
      symlink(target: string, path: string) {
        return this.inner.symlink(target, path);
      }
      readlink(path: string) {
        return this.inner.readlink(path);
      }
    }
    const backend = new CountingBackend();
    const fs = forwardFileSystem(backend, {});
    expect(text(await fs.readFile("/a.txt"))).toBe("hello");
    await fs.symlink!("/a.txt", "/link");
    expect(await fs.readlink!("/link")).toBe("/a.txt");
    expect(backend.reads).toBe(1);
  });

  it("returns a new frozen object and changes neither argument", () => {
    const { backend } = recordingBackend({ optional: true });
    const overrides = { name: "x" };
    const fs = forwardFileSystem(backend, overrides);
    expect(Object.isFrozen(fs)).toBe(true);
    expect(fs).not.toBe(backend);
    expect(backend.name).toBe("recording");
    expect(overrides).toEqual({ name: "x" });
  });

  it("does not carry fields outside the contract", () => {
    const backend = memoryFileSystem();
    const fs = forwardFileSystem(backend, {});
    expect("volume" in fs).toBe(false);
  });

  it("throws TypeError at creation for a backend without its methods or a bad override", () => {
    const { backend } = recordingBackend({ optional: false });
    const { readdir: _readdir, ...incomplete } = backend;
    expect(() => forwardFileSystem(incomplete as FileSystem, {})).toThrow(
      new TypeError("forwardFileSystem: next.readdir must be a function (next is not a FileSystem)"),
    );
    expect(() => forwardFileSystem(null as unknown as FileSystem, {})).toThrow(
      new TypeError("forwardFileSystem: next must be a FileSystem object"),
    );
    expect(() => forwardFileSystem(backend, null as unknown as object)).toThrow(
      new TypeError("forwardFileSystem: overrides must be an object, or a function of the target returning one"),
    );
    expect(() => forwardFileSystem(backend, (() => null) as unknown as () => object)).toThrow(
      new TypeError("forwardFileSystem: the overrides function must return an object of overrides"),
    );
    expect(() => forwardFileSystem(backend, (target) => ({ noFollow: target }))).toThrow(
      new TypeError(
        "forwardFileSystem: an overrides function must not give noFollow (it is applied to the no-follow form itself)",
      ),
    );
    expect(() => forwardFileSystem(backend, { stat: "no" } as unknown as object)).toThrow(
      new TypeError('forwardFileSystem: override "stat" must be a function, got string'),
    );
  });
});

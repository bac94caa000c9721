import { afterEach, describe, expect, it, vi } from "vitest";
import {
  compose,
  type FilesystemLogEntry,
  formatFilesystemLogEntry,
  readOnly,
  withFilesystemLogging,
  withQuota,
  type FileSystemMiddleware,
} from "../../src/gate/middleware.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { createGate } from "../../src/gate/gate.js";
import { type FileSystem } from "../../src/contract/types.js";
import { testFileSystem } from "better-fs-tools/conformance";
import { rejection } from "../contract/rejection.js";

const encode = (value: string) => new TextEncoder().encode(value);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

// Each middleware keeps the contract: the conformance suite through it.
testFileSystem({
  name: "memory + logging + quota",
  create: async () =>
    compose(
      withFilesystemLogging({ destination: () => {} }),
      withQuota({ maxBytes: 64 * 1024 * 1024 }),
    )(memoryFileSystem()),
});

describe("compose", () => {
  it("applies the first middleware outermost", async () => {
    const order: string[] = [];
    const tag =
      (name: string): FileSystemMiddleware =>
      (next) => ({ ...next, readFile: (path) => (order.push(name), next.readFile(path)) });
    const fs = compose(tag("a"), tag("b"), tag("c"))(memoryFileSystem({ files: { "/x": "x" } }));
    expect(text(await fs.readFile("/x"))).toBe("x");
    expect(order).toEqual(["a", "b", "c"]);
  });

  it("compose() returns the backend itself; a non-function throws", () => {
    const backend = memoryFileSystem();
    expect(compose()(backend)).toBe(backend);
    expect(() => compose(readOnly(), "x" as unknown as FileSystemMiddleware)).toThrow(
      new TypeError("compose argument 1 must be a middleware function (next) => FileSystem"),
    );
  });
});

describe("withFilesystemLogging", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("hands each call to destination as { method, args }: the whole content of writes, never what is read", async () => {
    const entries: FilesystemLogEntry[] = [];
    const fs = withFilesystemLogging({ destination: (entry) => entries.push(entry) })(memoryFileSystem());
    await fs.writeFile("/w/a.txt", encode("line one\nline two"));
    await fs.readFile("/w/a.txt");
    await fs.writeFile("/w/b.bin", new Uint8Array([0xff, 0xfe, 0x00]));
    await fs.readFile("/w/b.bin");
    await fs.stat("/w/a.txt");
    await fs.lstat("/w/a.txt");
    await fs.readdir("/w");
    await fs.mkdir("/w/d", { recursive: true });
    await fs.rename("/w/b.bin", "/w/c.bin");
    await fs.realpath("/w/c.bin");
    await fs.symlink!("/w/a.txt", "/w/l");
    await fs.readlink!("/w/l");
    await fs.rm("/w/d", { recursive: true, force: true });
    expect(entries).toEqual([
      { method: "writeFile", args: ["/w/a.txt", "line one\nline two"] },
      { method: "readFile", args: ["/w/a.txt"] },
      { method: "writeFile", args: ["/w/b.bin", { bytes: 3 }] },
      { method: "readFile", args: ["/w/b.bin"] },
      { method: "stat", args: ["/w/a.txt"] },
      { method: "lstat", args: ["/w/a.txt"] },
      { method: "readdir", args: ["/w"] },
      { method: "mkdir", args: ["/w/d", { recursive: true }] },
      { method: "rename", args: ["/w/b.bin", "/w/c.bin"] },
      { method: "realpath", args: ["/w/c.bin"] },
      { method: "symlink", args: ["/w/a.txt", "/w/l"] },
      { method: "readlink", args: ["/w/l"] },
      { method: "rm", args: ["/w/d", { recursive: true, force: true }] },
    ]);
    expect(entries.map(formatFilesystemLogEntry)).toEqual([
      'fs.writeFile("/w/a.txt", "line one\\nline two")',
      'fs.readFile("/w/a.txt")',
      'fs.writeFile("/w/b.bin", <3 bytes, not UTF-8>)',
      'fs.readFile("/w/b.bin")',
      'fs.stat("/w/a.txt")',
      'fs.lstat("/w/a.txt")',
      'fs.readdir("/w")',
      'fs.mkdir("/w/d", {"recursive":true})',
      'fs.rename("/w/b.bin", "/w/c.bin")',
      'fs.realpath("/w/c.bin")',
      'fs.symlink("/w/a.txt", "/w/l")',
      'fs.readlink("/w/l")',
      'fs.rm("/w/d", {"recursive":true,"force":true})',
    ]);
  });

  it("entries are frozen copies: a destination cannot change the call's options", async () => {
    const options = { recursive: true };
    const fs = withFilesystemLogging({
      destination: (entry) => {
        expect(Object.isFrozen(entry) && Object.isFrozen(entry.args)).toBe(true);
        expect(entry.args[1]).not.toBe(options);
      },
    })(memoryFileSystem());
    await fs.mkdir("/w/d", options);
    expect(options).toEqual({ recursive: true });
  });

  it("defaults to console.error (stderr in Node, the console in browsers)", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const fs = withFilesystemLogging()(memoryFileSystem({ files: { "/a": "secret" } }));
    await fs.readFile("/a");
    expect(spy.mock.calls).toEqual([['fs.readFile("/a")']]);
  });

  it("keeps optional methods only where the backend has them; validates options", () => {
    const base = memoryFileSystem();
    const { symlink: _symlink, readlink: _readlink, watch: _watch, ...plain } = base;
    const logged = withFilesystemLogging({ destination: () => {} })(plain as FileSystem);
    expect([typeof logged.symlink, typeof logged.readlink, typeof logged.watch]).toEqual([
      "undefined",
      "undefined",
      "undefined",
    ]);
    expect(() => withFilesystemLogging({ destination: "stderr" as unknown as () => void })).toThrow(
      new TypeError("withFilesystemLogging destination must be a function of one entry ({ method, args })"),
    );
    expect(() => withFilesystemLogging({ dest: () => {} } as never)).toThrow(
      new TypeError('withFilesystemLogging got an unknown option "dest". Known options: destination'),
    );
  });
});

describe("readOnly", () => {
  it("rejects every change with EROFS and lets reads through", async () => {
    const backend = memoryFileSystem({ files: { "/a.txt": "a", "/d/x": "x" } });
    const fs = readOnly()(backend);
    expect(text(await fs.readFile("/a.txt"))).toBe("a");
    const messages = await Promise.all([
      rejection(fs.writeFile("/a.txt", encode("b"))),
      rejection(fs.mkdir("/e")),
      rejection(fs.rm("/d", { recursive: true })),
      rejection(fs.rename("/a.txt", "/b.txt")),
      rejection(fs.symlink!("/a.txt", "/l")),
    ]).then((errors) => errors.map((error) => `${error.code} ${error.message}`));
    expect(messages).toEqual([
      "EROFS EROFS: read-only file system, open '/a.txt'",
      "EROFS EROFS: read-only file system, mkdir '/e'",
      "EROFS EROFS: read-only file system, rm '/d'",
      "EROFS EROFS: read-only file system, rename '/a.txt' -> '/b.txt'",
      "EROFS EROFS: read-only file system, symlink '/l'",
    ]);
    expect(text(await backend.readFile("/a.txt"))).toBe("a");
    expect((await backend.readdir("/")).map((entry) => entry.name).sort()).toEqual(["a.txt", "d"]);
  });
});

describe("withQuota", () => {
  it("counts existing bytes, refuses a write over the quota naming bytes asked and left, keeps the old content", async () => {
    const backend = memoryFileSystem({ files: { "/w/old.txt": "x".repeat(300) } });
    const fs = withQuota({ maxBytes: 1000 })(backend);
    await fs.writeFile("/w/a.bin", new Uint8Array(600));
    const error = await rejection(fs.writeFile("/w/old.txt", new Uint8Array(500)));
    expect([error.code, error.message]).toEqual([
      "ENOSPC",
      "ENOSPC: no space left on device, open '/w/old.txt' (quota: writing 500 bytes needs 200 more, 100 of 1000 bytes left)",
    ]);
    expect(text(await backend.readFile("/w/old.txt"))).toBe("x".repeat(300));
    await fs.writeFile("/w/old.txt", new Uint8Array(400)); // exactly fills it
    await expect(fs.writeFile("/w/one.txt", new Uint8Array(1))).rejects.toThrow(
      "ENOSPC: no space left on device, open '/w/one.txt' (quota: writing 1 bytes needs 1 more, 0 of 1000 bytes left)",
    );
  });

  it("rm and rename over a file give bytes back", async () => {
    const fs = withQuota({ maxBytes: 100 })(memoryFileSystem());
    await fs.writeFile("/d/a", new Uint8Array(40));
    await fs.writeFile("/d/b", new Uint8Array(40));
    await fs.rename("/d/a", "/d/b"); // 40 bytes left in use
    await fs.writeFile("/c", new Uint8Array(60));
    await expect(fs.writeFile("/e", new Uint8Array(1))).rejects.toMatchObject({ code: "ENOSPC" });
    await fs.rm("/d", { recursive: true });
    await fs.writeFile("/e", new Uint8Array(40));
  });

  it("concurrent writes cannot overshoot together", async () => {
    const fs = withQuota({ maxBytes: 100 })(memoryFileSystem());
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, index) => fs.writeFile(`/f${index}`, new Uint8Array(30))),
    );
    expect(results.map((result) => result.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "rejected",
      "rejected",
    ]);
  });

  it("through the gate: refusals and quota compose", async () => {
    const gate = createGate({ fs: withQuota({ maxBytes: 10 })(memoryFileSystem()), cwd: "/w" });
    await expect(gate.fs.writeFile("big.txt", new Uint8Array(11))).rejects.toMatchObject({ code: "ENOSPC" });
  });

  it("validates options", () => {
    expect(() => withQuota({ maxBytes: -1 })).toThrow(
      new TypeError("withQuota maxBytes must be a non-negative integer (bytes), got -1"),
    );
    expect(() => withQuota({} as never)).toThrow(
      new TypeError("withQuota maxBytes must be a non-negative integer (bytes), got undefined"),
    );
    expect(() => withQuota({ maxBytes: 1, root: "w" })).toThrow(
      new TypeError('withQuota root must be an absolute path, got "w"'),
    );
  });
});

import { describe, expect, it } from "vitest";
import { FsError } from "../../../src/contract/errors.js";
import { MEMORY_FILE_SYSTEM_NAME, memoryFileSystem } from "../../../src/backends/memory/index.js";
import { toMemoryFsError } from "../../../src/backends/memory/errors.js";
import { testFileSystem } from "better-fs-tools/conformance";

testFileSystem({ name: "memory", create: async () => memoryFileSystem() });

const decoder = new TextDecoder();

describe("memoryFileSystem options", () => {
  it("declares its name and the symlink capability", () => {
    const fs = memoryFileSystem();
    expect({ name: fs.name, capabilities: fs.capabilities }).toEqual({
      name: "memory",
      capabilities: { symlink: true },
    });
    expect(MEMORY_FILE_SYSTEM_NAME).toBe("memory");
  });

  it("files: strings are UTF-8, Uint8Array values become files (not directories)", async () => {
    const fs = memoryFileSystem({
      files: { "/w/a.txt": "héllo", "/w/img/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
    });
    expect(decoder.decode(await fs.readFile("/w/a.txt"))).toBe("héllo");
    expect(Array.from(await fs.readFile("/w/img/logo.png"))).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect((await fs.stat("/w/img/logo.png")).type).toBe("file");
    expect((await fs.readdir("/w")).map((entry) => `${entry.name}:${entry.type}`).sort()).toEqual([
      "a.txt:file",
      "img:directory",
    ]);
  });

  it("files: relative keys resolve against cwd, with . and .. resolved", async () => {
    const fs = memoryFileSystem({
      cwd: "/work/project",
      files: { "src/a.ts": "a", "./b.ts": "b", "../up.txt": "up", "/abs.txt": "abs" },
    });
    expect(decoder.decode(await fs.readFile("/work/project/src/a.ts"))).toBe("a");
    expect(decoder.decode(await fs.readFile("/work/project/b.ts"))).toBe("b");
    expect(decoder.decode(await fs.readFile("/work/up.txt"))).toBe("up");
    expect(decoder.decode(await fs.readFile("/abs.txt"))).toBe("abs");
  });

  it("files: empty strings and empty arrays are empty files", async () => {
    const fs = memoryFileSystem({ files: { "/e.txt": "", "/e.bin": new Uint8Array(0) } });
    expect((await fs.stat("/e.txt")).size).toBe(0);
    expect((await fs.stat("/e.bin")).type).toBe("file");
  });

  it("files: the caller's arrays are copied", async () => {
    const data = new Uint8Array([1, 2, 3]);
    const fs = memoryFileSystem({ files: { "/a.bin": data } });
    data[0] = 9;
    expect(Array.from(await fs.readFile("/a.bin"))).toEqual([1, 2, 3]);
  });

  it("files: a file used as a directory is an FsError at creation", () => {
    expect(() => memoryFileSystem({ files: { "/a": "file", "/a/b": "below a file" } })).toThrow(
      "ENOTDIR: not a directory, open '/a/b'",
    );
  });

  it("instances are independent", async () => {
    const one = memoryFileSystem({ files: { "/a.txt": "1" } });
    const two = memoryFileSystem();
    await one.writeFile("/b.txt", new Uint8Array([1]));
    expect(await two.readdir("/")).toEqual([]);
  });

  it("stat reports permission bits only", async () => {
    const fs = memoryFileSystem({ files: { "/a.txt": "a" } });
    expect((await fs.stat("/a.txt")).mode).toBe(0o666);
  });

  it("the volume escape hatch sees the same files", async () => {
    const fs = memoryFileSystem({ files: { "/a.txt": "a" } });
    await fs.writeFile("/d/b.txt", new TextEncoder().encode("b"));
    expect(fs.volume.toJSON()).toEqual({ "/a.txt": "a", "/d/b.txt": "b" });
    fs.volume.writeFileSync("/c.txt", "c");
    expect(decoder.decode(await fs.readFile("/c.txt"))).toBe("c");
  });

  it("readFile returns a plain Uint8Array of its own: changing it changes nothing stored", async () => {
    const fs = memoryFileSystem({ files: { "/d/a.bin": new Uint8Array([1, 2, 3]) } });
    await fs.writeFile("/d/a.bin", new Uint8Array([4, 5])); // memfs keeps a larger store after shrinking
    const first = await fs.readFile("/d/a.bin");
    first[0] = 9;
    const second = await fs.readFile("/d/a.bin");
    expect({
      constructor: first.constructor.name,
      whole: first.buffer.byteLength === first.byteLength,
      bytes: Array.from(second),
      through: Array.from(await fs.noFollow!.readFile("/d/a.bin")),
    }).toEqual({ constructor: "Uint8Array", whole: true, bytes: [4, 5], through: [4, 5] });
  });

  it("readdir lists entries sorted by code unit, with types, through links and directly", async () => {
    const fs = memoryFileSystem({ files: { "/d/b.txt": "b", "/d/B/x": "x", "/d/a": "a", "/d/_": "_" } });
    await fs.symlink("/d", "/link");
    await fs.symlink("/d/a", "/d/l");
    const listed = ["B:directory", "_:file", "a:file", "b.txt:file", "l:symlink"];
    const show = (entries: readonly { name: string; type: string }[]) => entries.map((e) => `${e.name}:${e.type}`);
    expect(show(await fs.readdir("/d"))).toEqual(listed);
    expect(show(await fs.readdir("/link"))).toEqual(listed);
    expect(show(await fs.noFollow!.readdir("/d"))).toEqual(listed);
    await expect(fs.noFollow!.readdir("/link")).rejects.toThrow("ELOOP");
    await expect(fs.readdir("/d/a")).rejects.toThrow("ENOTDIR: not a directory, scandir '/d/a'");
  });

  it("a path ending in / that names a file (or a link to one) fails with ENOTDIR, as on Node", async () => {
    const fs = memoryFileSystem({ files: { "/f": "x", "/d/a": "a" } });
    await fs.symlink("/f", "/lf");
    await fs.symlink("/d", "/ld");
    const code = (call: Promise<unknown>) =>
      call.then(
        () => "ok",
        (error: { code?: string }) => error.code,
      );
    const view = (path: string) => fs.readFileView(path, (bytes) => bytes.length);
    expect({
      readFile: await code(fs.readFile("/f/")),
      readFileView: await code(view("/f/")),
      noFollowRead: await code(fs.noFollow!.readFile("/f/")),
      stat: await code(fs.stat("/f/")),
      lstatLink: await code(fs.lstat("/lf/")),
      readdir: await code(fs.readdir("/f/")),
      realpath: await code(fs.realpath("/f/")),
      readlink: await code(fs.readlink("/lf/")),
      rm: await code(fs.rm("/f/")),
      rename: await code(fs.rename("/f/", "/g")),
      renameTo: await code(fs.rename("/d/a", "/f/")),
      writeFile: await code(fs.writeFile("/f/", new Uint8Array(1))),
      directory: await code(fs.readdir("/d/")),
      linkToDirectory: await code(fs.stat("/ld/")),
      missing: await code(fs.stat("/missing/")),
    }).toEqual({
      readFile: "ENOTDIR",
      readFileView: "ENOTDIR",
      noFollowRead: "ENOTDIR",
      stat: "ENOTDIR",
      lstatLink: "ENOTDIR",
      readdir: "ENOTDIR",
      realpath: "ENOTDIR",
      readlink: "ENOTDIR",
      rm: "ENOTDIR",
      rename: "ENOTDIR",
      renameTo: "ENOTDIR",
      writeFile: "EISDIR",
      directory: "ok",
      linkToDirectory: "ok",
      missing: "ENOENT",
    });
    expect(decoder.decode(await fs.readFile("/f"))).toBe("x");
  });

  it("a directory without search or read permission still refuses (EACCES)", async () => {
    const fs = memoryFileSystem({ files: { "/d/a.txt": "a" } });
    fs.volume.chmodSync("/d", 0o600);
    await expect(fs.readFile("/d/a.txt")).rejects.toMatchObject({ code: "EACCES" });
    fs.volume.chmodSync("/d", 0o300);
    await expect(fs.readdir("/d")).rejects.toMatchObject({ code: "EACCES" });
    expect(decoder.decode(await fs.readFile("/d/a.txt"))).toBe("a");
  });

  it.each([
    [{ file: {} }, 'memoryFileSystem got an unknown option "file". Known options: files, cwd'],
    [{ cwd: "relative" }, 'memoryFileSystem option "cwd" must be an absolute path string, got "relative"'],
    [{ cwd: 3 }, 'memoryFileSystem option "cwd" must be an absolute path string, got 3'],
    [
      { files: ["a"] },
      'memoryFileSystem option "files" must be an object mapping paths to string or Uint8Array contents',
    ],
    [{ files: { "/a": 1 } }, 'memoryFileSystem option "files["/a"]" must be a string or a Uint8Array'],
    [{ files: { "/a\0b": "x" } }, 'memoryFileSystem option "files" has an invalid path "/a\\u0000b"'],
    [{ files: { "/": "x" } }, 'memoryFileSystem option "files" path "/" names the root, not a file'],
  ])("options %j throw TypeError", (options, message) => {
    expect(() => memoryFileSystem(options as never)).toThrow(new TypeError(message));
  });

  it("null options throw TypeError", () => {
    expect(() => memoryFileSystem(null as never)).toThrow(
      new TypeError("memoryFileSystem needs an options object or no argument"),
    );
  });
});

describe("memoryFileSystem paths", () => {
  it.each([
    [
      "readFile",
      (fs: ReturnType<typeof memoryFileSystem>) => fs.readFile("a.txt"),
      "EINVAL: invalid argument, open 'a.txt' (paths must be absolute, without NUL bytes)",
    ],
    [
      "writeFile",
      (fs: ReturnType<typeof memoryFileSystem>) => fs.writeFile("/a\0b", new Uint8Array(0)),
      "EINVAL: invalid argument, open '/a\0b' (paths must be absolute, without NUL bytes)",
    ],
    [
      "rename",
      (fs: ReturnType<typeof memoryFileSystem>) => fs.rename("/a.txt", "b.txt"),
      "EINVAL: invalid argument, rename '/a.txt' -> 'b.txt' (paths must be absolute, without NUL bytes)",
    ],
  ])("%s of a relative path or a NUL byte is EINVAL and changes nothing", async (_, call, message) => {
    const fs = memoryFileSystem({ files: { "/a.txt": "a" } });
    await expect(call(fs)).rejects.toThrow(message);
    expect(fs.volume.toJSON()).toEqual({ "/a.txt": "a" });
  });
});

describe("toMemoryFsError", () => {
  it("keeps a known code and rewords with our syscall and paths", () => {
    const memfsError = Object.assign(new Error("EISDIR: illegal operation on a directory, read"), {
      code: "EISDIR",
      syscall: "read",
    });
    const error = toMemoryFsError(memfsError, { syscall: "open", path: "/d" });
    expect({ isFsError: FsError.isInstance(error), message: error.message, cause: error.cause }).toEqual({
      isFsError: true,
      message: "EISDIR: illegal operation on a directory, open '/d'",
      cause: memfsError,
    });
  });

  it("passes an FsError through unchanged", () => {
    const original = new FsError("ENOTEMPTY", { syscall: "rm", path: "/d" });
    expect(toMemoryFsError(original, { syscall: "open", path: "/x" })).toBe(original);
  });

  it("turns anything else into EIO with the original message", () => {
    expect(toMemoryFsError(new RangeError("boom"), { syscall: "rename", path: "/a", dest: "/b" }).message).toBe(
      "EIO: i/o error, rename '/a' -> '/b' (boom)",
    );
    expect(
      toMemoryFsError(Object.assign(new Error("odd"), { code: "EWHAT" }), { syscall: "stat", path: "/a" }).code,
    ).toBe("EIO");
  });
});

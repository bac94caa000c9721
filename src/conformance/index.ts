/**
 * The backend conformance suite: one function every backend's test file calls with its own
 * factory. It runs the whole {@link FileSystem} contract of `src/contract/types.ts`, in Node or in
 * Chromium (it imports nothing but vitest and the contract).
 *
 * @example
 * ```ts
 * import { testFileSystem } from "./index.js";
 * import { memoryFileSystem } from "../backends/memory/index.js";
 *
 * testFileSystem({ name: "memory", create: async () => memoryFileSystem() });
 * ```
 *
 * @module
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FsError } from "../contract/errors.js";
import type { DirEntry, FileSystem, FileSystemCapabilities, FileSystemFactory, WatchEvent } from "../contract/types.js";
import type { FsErrorCode } from "../contract/errors.js";
import { ERROR_CASES, writeErrorFixture } from "./error-cases.js";

export { ERROR_CASES } from "./error-cases.js";
export type { ErrorCase } from "./error-cases.js";

/** Options of {@link testFileSystem}. */
export interface TestFileSystemOptions {
  /** Names the `describe` block: `conformance: <name>`. */
  readonly name: string;
  /** Makes a fresh, empty instance; called once per test (and once at collection to read `capabilities`). */
  readonly create: FileSystemFactory;
  /**
   * Test names (exactly as registered, without the describe prefix) that are known gaps of this
   * backend: they are registered as `it.todo`. An entry that names no test fails the test `every todo entry names a conformance test`.
   */
  readonly todo?: readonly string[];
  /** Releases an instance after its test (close handles, delete a temporary directory). */
  readonly destroy?: (fs: FileSystem) => Promise<void>;
}

/** Size of the large-file case, in bytes (20 MiB). */
export const LARGE_FILE_BYTES = 20 * 1024 * 1024;
/** Depth of the deep-tree case, in directory levels. */
export const DEEP_TREE_LEVELS = 200;
/** Calls in flight in the concurrency cases. */
export const CONCURRENT_CALLS = 64;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

async function readText(fs: FileSystem, path: string): Promise<string> {
  return decoder.decode(await fs.readFile(path));
}

/** Index of the first differing byte, or -1 when equal (fast on 20 MiB, short failure output). */
function firstDifference(actual: Uint8Array, expected: Uint8Array): number {
  const length = Math.min(actual.length, expected.length);
  for (let index = 0; index < length; index++) {
    if (actual[index] !== expected[index]) return index;
  }
  return actual.length === expected.length ? -1 : length;
}

function entries(list: DirEntry[]): { name: string; type: string }[] {
  return list
    .map(({ name, type }) => ({ name, type }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function names(list: DirEntry[]): string[] {
  return list.map((entry) => entry.name).sort();
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to reject, but it resolved");
}

/** Asserts an `FsError` with exactly this code and a message starting with exactly `message`. */
export async function expectFsError(promise: Promise<unknown>, code: FsErrorCode, message: string): Promise<void> {
  const error = await rejection(promise);
  if (!FsError.isInstance(error)) {
    throw new Error(
      `expected an FsError (${code}), got: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    );
  }
  expect({ code: error.code, message: error.message.slice(0, message.length) }).toEqual({ code, message });
}

function symlinkOf(fs: FileSystem): NonNullable<FileSystem["symlink"]> {
  if (fs.symlink === undefined) throw new Error(`${fs.name} declares capabilities.symlink but has no symlink()`);
  return fs.symlink.bind(fs);
}

function readlinkOf(fs: FileSystem): NonNullable<FileSystem["readlink"]> {
  if (fs.readlink === undefined) throw new Error(`${fs.name} declares capabilities.symlink but has no readlink()`);
  return fs.readlink.bind(fs);
}

async function expectFixtureIntact(fs: FileSystem): Promise<void> {
  expect({
    file: await readText(fs, "/file.txt"),
    inner: await readText(fs, "/dir/inner.txt"),
    empty: entries(await fs.readdir("/empty")),
  }).toEqual({ file: "x", inner: "inner", empty: [] });
}

function deepPath(levels: number): string {
  return `/${Array.from({ length: levels }, (_, index) => `d${index}`).join("/")}`;
}

/**
 * Registers the conformance suite for one backend: `describe("conformance: <name>")` with every
 * method of {@link FileSystem}, the error table ({@link ERROR_CASES}), parents created on write,
 * rename over a file, rm with and without `recursive`/`force`, readdir types, binary and empty
 * files, names with spaces and Unicode (NFC and NFD distinct), a 200-level tree, a 20 MiB file,
 * calls in flight, and the symlink and watch cases when the backend declares those capabilities
 * (otherwise they are skipped with the reason in their name).
 *
 * Each test gets a fresh instance from `create`; `destroy` (if given) runs after it.
 *
 * @param options - the backend's name, factory, known gaps and clean-up.
 * @throws Error at collection when `create` rejects. A `todo` entry that names no test fails the
 *   test `every todo entry names a conformance test`.
 */
export function testFileSystem(options: TestFileSystemOptions): void {
  const todo = new Set(options.todo ?? []);
  describe(`conformance: ${options.name}`, async () => {
    const probe = await options.create();
    const capabilities: FileSystemCapabilities = { ...probe.capabilities };
    const lends = typeof probe.readFileView === "function";
    await options.destroy?.(probe);

    const registered = new Set<string>();
    let instance: FileSystem | undefined;

    beforeEach(async () => {
      instance = await options.create();
    });
    afterEach(async () => {
      const done = instance;
      instance = undefined;
      if (done !== undefined) await options.destroy?.(done);
    });

    function check(
      name: string,
      body: (fs: FileSystem) => Promise<void>,
      capability?: keyof FileSystemCapabilities | "readFileView",
    ): void {
      if (registered.has(name)) throw new Error(`duplicate conformance test name: ${name}`);
      registered.add(name);
      if (todo.has(name)) {
        it.todo(`${name} (todo: known gap of ${options.name})`);
        return;
      }
      const missing =
        capability === "readFileView" ? !lends : capability !== undefined && capabilities[capability] !== true;
      const title = !missing
        ? name
        : capability === "readFileView"
          ? `${name} (skipped: ${options.name} has no readFileView, an optional method)`
          : `${name} (skipped: ${options.name} does not declare capabilities.${capability})`;
      it.skipIf(missing)(title, async () => {
        if (instance === undefined) throw new Error("no instance: create() did not run");
        await body(instance);
      });
    }

    describe("contract", () => {
      check("declares a name and its capabilities", async (fs) => {
        expect(typeof fs.name).toBe("string");
        expect(fs.name.length).toBeGreaterThan(0);
        expect(typeof fs.capabilities).toBe("object");
        if (fs.capabilities.symlink === true) {
          expect({ symlink: typeof fs.symlink, readlink: typeof fs.readlink }).toEqual({
            symlink: "function",
            readlink: "function",
          });
        }
        if (fs.capabilities.watch === true) expect(typeof fs.watch).toBe("function");
      });

      check("a fresh instance has an empty root", async (fs) => {
        expect(await fs.readdir("/")).toEqual([]);
        expect((await fs.stat("/")).type).toBe("directory");
      });
    });

    describe("readFile and writeFile", () => {
      check("writeFile then readFile returns the same bytes", async (fs) => {
        await fs.writeFile("/a.txt", bytes("hello\n"));
        const read = await fs.readFile("/a.txt");
        expect(read).toBeInstanceOf(Uint8Array);
        expect(Array.from(read)).toEqual([104, 101, 108, 108, 111, 10]);
      });

      check("writeFile replaces a longer file entirely", async (fs) => {
        await fs.writeFile("/a.txt", bytes("a much longer content"));
        await fs.writeFile("/a.txt", bytes("ab"));
        expect(await readText(fs, "/a.txt")).toBe("ab");
        expect((await fs.stat("/a.txt")).size).toBe(2);
      });

      check("writeFile creates missing parent directories", async (fs) => {
        await fs.writeFile("/a/b/c/file.txt", bytes("deep"));
        expect(await readText(fs, "/a/b/c/file.txt")).toBe("deep");
        expect(entries(await fs.readdir("/"))).toEqual([{ name: "a", type: "directory" }]);
        expect(entries(await fs.readdir("/a"))).toEqual([{ name: "b", type: "directory" }]);
        expect(entries(await fs.readdir("/a/b"))).toEqual([{ name: "c", type: "directory" }]);
        expect((await fs.stat("/a/b/c")).type).toBe("directory");
      });

      check("writeFile into an existing directory keeps its other entries", async (fs) => {
        await fs.writeFile("/d/one.txt", bytes("1"));
        await fs.writeFile("/d/two.txt", bytes("2"));
        expect(entries(await fs.readdir("/d"))).toEqual([
          { name: "one.txt", type: "file" },
          { name: "two.txt", type: "file" },
        ]);
        expect(await readText(fs, "/d/one.txt")).toBe("1");
      });

      check("stored bytes are a copy of the caller's arrays", async (fs) => {
        const input = bytes("abc");
        await fs.writeFile("/a.txt", input);
        input[0] = 0x7a;
        const first = await fs.readFile("/a.txt");
        first[1] = 0x7a;
        expect(await readText(fs, "/a.txt")).toBe("abc");
      });

      check("writeFile of a Uint8Array view writes only the view", async (fs) => {
        const buffer = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]).buffer;
        await fs.writeFile("/view.bin", new Uint8Array(buffer, 2, 3));
        expect(Array.from(await fs.readFile("/view.bin"))).toEqual([2, 3, 4]);
        expect((await fs.stat("/view.bin")).size).toBe(3);
      });

      check("binary round trip of all 256 byte values", async (fs) => {
        const data = new Uint8Array(512);
        for (let index = 0; index < 256; index++) {
          data[index] = index;
          data[511 - index] = index;
        }
        await fs.writeFile("/all.bin", data);
        const read = await fs.readFile("/all.bin");
        expect(read.length).toBe(512);
        expect(firstDifference(read, data)).toBe(-1);
        expect((await fs.stat("/all.bin")).size).toBe(512);
      });

      check("empty file round trip", async (fs) => {
        await fs.writeFile("/empty.txt", new Uint8Array(0));
        expect((await fs.readFile("/empty.txt")).length).toBe(0);
        const stat = await fs.stat("/empty.txt");
        expect({ type: stat.type, size: stat.size }).toEqual({ type: "file", size: 0 });
        expect(entries(await fs.readdir("/"))).toEqual([{ name: "empty.txt", type: "file" }]);
      });

      check("writeFile of empty content truncates a file", async (fs) => {
        await fs.writeFile("/a.txt", bytes("content"));
        await fs.writeFile("/a.txt", new Uint8Array(0));
        expect((await fs.readFile("/a.txt")).length).toBe(0);
      });

      check("a 20 MiB file round trip", async (fs) => {
        const data = new Uint8Array(LARGE_FILE_BYTES);
        for (let index = 0; index < data.length; index++) data[index] = (index * 31 + (index >>> 11)) & 0xff;
        await fs.writeFile("/large.bin", data);
        expect((await fs.stat("/large.bin")).size).toBe(LARGE_FILE_BYTES);
        const read = await fs.readFile("/large.bin");
        expect(read.length).toBe(LARGE_FILE_BYTES);
        expect(firstDifference(read, data)).toBe(-1);
      });
    });

    describe("readFileView", () => {
      const view = (fs: FileSystem) => fs.readFileView as NonNullable<FileSystem["readFileView"]>;
      check(
        "readFileView lends the bytes readFile returns, and resolves with what use returns",
        async (fs) => {
          const data = new Uint8Array(300);
          for (let index = 0; index < data.length; index++) data[index] = (index * 7) & 0xff;
          await fs.writeFile("/d/all.bin", data);
          await fs.writeFile("/empty.txt", new Uint8Array(0));
          expect(await view(fs)("/d/all.bin", (lent) => firstDifference(lent, data) === -1 && lent.length)).toBe(300);
          expect(await view(fs)("/empty.txt", (lent) => lent.length)).toBe(0);
          expect(await view(fs)("/d/all.bin", () => "done")).toBe("done");
        },
        "readFileView",
      );

      check(
        "readFileView fails as readFile does, without calling use",
        async (fs) => {
          await fs.mkdir("/dir");
          let calls = 0;
          const use = () => ++calls;
          await expect(view(fs)("/missing.txt", use)).rejects.toMatchObject({ code: "ENOENT" });
          await expect(view(fs)("/dir", use)).rejects.toMatchObject({ code: "EISDIR" });
          expect(calls).toBe(0);
        },
        "readFileView",
      );

      check(
        "readFileView rejects with what use throws; the file is unchanged",
        async (fs) => {
          await fs.writeFile("/a.txt", bytes("abc"));
          const thrown = new Error("use failed");
          await expect(
            view(fs)("/a.txt", () => {
              throw thrown;
            }),
          ).rejects.toBe(thrown);
          expect(await readText(fs, "/a.txt")).toBe("abc");
        },
        "readFileView",
      );

      check(
        "readFileView next to a write in flight sees the old or the new bytes, never a mix",
        async (fs) => {
          await fs.writeFile("/a.txt", bytes("old content, longer"));
          const seen = view(fs)("/a.txt", (lent) => new TextDecoder().decode(lent));
          await fs.writeFile("/a.txt", bytes("new"));
          expect(["old content, longer", "new"]).toContain(await seen);
          expect(await view(fs)("/a.txt", (lent) => new TextDecoder().decode(lent))).toBe("new");
        },
        "readFileView",
      );
    });

    describe("stat and lstat", () => {
      check("stat of a file gives type, size and mtimeMs", async (fs) => {
        await fs.writeFile("/a.txt", bytes("hello"));
        const stat = await fs.stat("/a.txt");
        expect({ type: stat.type, size: stat.size }).toEqual({ type: "file", size: 5 });
        expect(Number.isFinite(stat.mtimeMs)).toBe(true);
        // Milliseconds since the epoch (not seconds): within a day of now.
        expect(Math.abs(stat.mtimeMs - Date.now())).toBeLessThan(24 * 60 * 60 * 1000);
        if (stat.mode !== undefined) expect(Number.isInteger(stat.mode)).toBe(true);
      });

      check("stat of a directory and of the root", async (fs) => {
        await fs.mkdir("/d");
        expect((await fs.stat("/d")).type).toBe("directory");
        expect((await fs.stat("/")).type).toBe("directory");
      });

      check("lstat of a file and a directory", async (fs) => {
        await fs.writeFile("/d/a.txt", bytes("abc"));
        const file = await fs.lstat("/d/a.txt");
        expect({ type: file.type, size: file.size }).toEqual({ type: "file", size: 3 });
        expect((await fs.lstat("/d")).type).toBe("directory");
      });

      check("stat size follows a rewrite", async (fs) => {
        await fs.writeFile("/a.txt", bytes("1234567890"));
        expect((await fs.stat("/a.txt")).size).toBe(10);
        await fs.writeFile("/a.txt", bytes("123"));
        expect((await fs.stat("/a.txt")).size).toBe(3);
      });
    });

    describe("readdir", () => {
      check("readdir lists names with their types", async (fs) => {
        await fs.writeFile("/d/a.txt", bytes("a"));
        await fs.mkdir("/d/sub");
        await fs.writeFile("/d/sub/nested.txt", bytes("n"));
        await fs.writeFile("/d/z.bin", new Uint8Array([0]));
        expect(entries(await fs.readdir("/d"))).toEqual([
          { name: "a.txt", type: "file" },
          { name: "sub", type: "directory" },
          { name: "z.bin", type: "file" },
        ]);
      });

      check("readdir of an empty directory is empty", async (fs) => {
        await fs.mkdir("/d");
        expect(await fs.readdir("/d")).toEqual([]);
      });

      check("readdir of the root lists the top level only", async (fs) => {
        await fs.writeFile("/top.txt", bytes("t"));
        await fs.writeFile("/d/e/f.txt", bytes("f"));
        expect(entries(await fs.readdir("/"))).toEqual([
          { name: "d", type: "directory" },
          { name: "top.txt", type: "file" },
        ]);
      });
    });

    describe("mkdir", () => {
      check("mkdir creates one directory", async (fs) => {
        await fs.mkdir("/d");
        expect(entries(await fs.readdir("/"))).toEqual([{ name: "d", type: "directory" }]);
        await fs.mkdir("/d/e");
        expect(entries(await fs.readdir("/d"))).toEqual([{ name: "e", type: "directory" }]);
      });

      check("mkdir recursive creates every missing parent", async (fs) => {
        await fs.mkdir("/a/b/c", { recursive: true });
        expect((await fs.stat("/a")).type).toBe("directory");
        expect((await fs.stat("/a/b")).type).toBe("directory");
        expect(await fs.readdir("/a/b/c")).toEqual([]);
      });

      check("mkdir recursive of an existing directory keeps its content", async (fs) => {
        await fs.writeFile("/a/b/keep.txt", bytes("keep"));
        await fs.mkdir("/a/b", { recursive: true });
        await fs.mkdir("/a", { recursive: true });
        expect(await readText(fs, "/a/b/keep.txt")).toBe("keep");
      });

      check("mkdir recursive of the root succeeds", async (fs) => {
        await fs.mkdir("/", { recursive: true });
        expect(await fs.readdir("/")).toEqual([]);
      });
    });

    describe("rm", () => {
      check("rm removes a file", async (fs) => {
        await fs.writeFile("/d/a.txt", bytes("a"));
        await fs.writeFile("/d/b.txt", bytes("b"));
        await fs.rm("/d/a.txt");
        await expectFsError(fs.stat("/d/a.txt"), "ENOENT", "ENOENT: no such file or directory, stat '/d/a.txt'");
        expect(names(await fs.readdir("/d"))).toEqual(["b.txt"]);
      });

      check("rm removes an empty directory without recursive", async (fs) => {
        await fs.mkdir("/d");
        await fs.rm("/d");
        expect(await fs.readdir("/")).toEqual([]);
      });

      check("rm of a non-empty directory without recursive leaves it intact", async (fs) => {
        await fs.writeFile("/d/sub/a.txt", bytes("a"));
        await expectFsError(fs.rm("/d"), "ENOTEMPTY", "ENOTEMPTY: directory not empty, rm '/d'");
        expect(await readText(fs, "/d/sub/a.txt")).toBe("a");
      });

      check("rm recursive removes a whole tree", async (fs) => {
        await fs.writeFile("/t/a/b/c.txt", bytes("c"));
        await fs.writeFile("/t/x.txt", bytes("x"));
        await fs.mkdir("/t/empty");
        await fs.writeFile("/keep.txt", bytes("k"));
        await fs.rm("/t", { recursive: true });
        await expectFsError(fs.stat("/t"), "ENOENT", "ENOENT: no such file or directory, stat '/t'");
        await expectFsError(
          fs.stat("/t/a/b/c.txt"),
          "ENOENT",
          "ENOENT: no such file or directory, stat '/t/a/b/c.txt'",
        );
        expect(names(await fs.readdir("/"))).toEqual(["keep.txt"]);
      });

      check("rm recursive removes a file", async (fs) => {
        await fs.writeFile("/a.txt", bytes("a"));
        await fs.rm("/a.txt", { recursive: true });
        expect(await fs.readdir("/")).toEqual([]);
      });

      check("rm force of a missing path resolves", async (fs) => {
        await fs.rm("/missing", { force: true });
        await fs.rm("/missing/deeper", { force: true, recursive: true });
        expect(await fs.readdir("/")).toEqual([]);
      });

      check("rm force removes an existing file", async (fs) => {
        await fs.writeFile("/a.txt", bytes("a"));
        await fs.rm("/a.txt", { force: true });
        expect(await fs.readdir("/")).toEqual([]);
      });
    });

    describe("rename", () => {
      check("rename moves a file", async (fs) => {
        await fs.writeFile("/a.txt", bytes("content"));
        await fs.rename("/a.txt", "/b.txt");
        expect(await readText(fs, "/b.txt")).toBe("content");
        await expectFsError(fs.readFile("/a.txt"), "ENOENT", "ENOENT: no such file or directory, open '/a.txt'");
        expect(names(await fs.readdir("/"))).toEqual(["b.txt"]);
      });

      check("rename over an existing file replaces it", async (fs) => {
        await fs.writeFile("/from.txt", bytes("new"));
        await fs.writeFile("/to.txt", bytes("old and longer"));
        await fs.rename("/from.txt", "/to.txt");
        expect(await readText(fs, "/to.txt")).toBe("new");
        expect((await fs.stat("/to.txt")).size).toBe(3);
        expect(names(await fs.readdir("/"))).toEqual(["to.txt"]);
      });

      check("rename moves a directory with its content", async (fs) => {
        await fs.writeFile("/src/a.txt", bytes("a"));
        await fs.writeFile("/src/sub/b.txt", bytes("b"));
        await fs.rename("/src", "/dst");
        expect(await readText(fs, "/dst/a.txt")).toBe("a");
        expect(await readText(fs, "/dst/sub/b.txt")).toBe("b");
        expect(names(await fs.readdir("/"))).toEqual(["dst"]);
      });

      check("rename into another directory", async (fs) => {
        await fs.writeFile("/a.txt", bytes("a"));
        await fs.mkdir("/d");
        await fs.rename("/a.txt", "/d/a.txt");
        expect(await readText(fs, "/d/a.txt")).toBe("a");
        expect(entries(await fs.readdir("/"))).toEqual([{ name: "d", type: "directory" }]);
      });

      check("rename of a file onto itself keeps it", async (fs) => {
        await fs.writeFile("/a.txt", bytes("a"));
        await fs.rename("/a.txt", "/a.txt");
        expect(await readText(fs, "/a.txt")).toBe("a");
      });
    });

    describe("realpath", () => {
      check("realpath of the root, a directory and a file", async (fs) => {
        await fs.writeFile("/d/a.txt", bytes("a"));
        expect(await fs.realpath("/")).toBe("/");
        expect(await fs.realpath("/d")).toBe("/d");
        expect(await fs.realpath("/d/a.txt")).toBe("/d/a.txt");
      });
    });

    describe("names", () => {
      check("names with spaces round trip", async (fs) => {
        await fs.writeFile("/my dir/a file.txt", bytes("spaced"));
        expect(await readText(fs, "/my dir/a file.txt")).toBe("spaced");
        expect(entries(await fs.readdir("/my dir"))).toEqual([{ name: "a file.txt", type: "file" }]);
        expect(await fs.realpath("/my dir/a file.txt")).toBe("/my dir/a file.txt");
      });

      check("Unicode names round trip", async (fs) => {
        await fs.writeFile("/日本語/ünïcödé 🎉.txt", bytes("uni"));
        expect(await readText(fs, "/日本語/ünïcödé 🎉.txt")).toBe("uni");
        expect(names(await fs.readdir("/"))).toEqual(["日本語"]);
        expect(names(await fs.readdir("/日本語"))).toEqual(["ünïcödé 🎉.txt"]);
      });

      check("NFC and NFD names are two distinct files", async (fs) => {
        const nfc = "/caf\u00e9.txt";
        const nfd = "/cafe\u0301.txt";
        await fs.writeFile(nfc, bytes("nfc"));
        await fs.writeFile(nfd, bytes("nfd"));
        expect(await readText(fs, nfc)).toBe("nfc");
        expect(await readText(fs, nfd)).toBe("nfd");
        expect(names(await fs.readdir("/"))).toEqual(["cafe\u0301.txt", "caf\u00e9.txt"]);
      });

      check("names with leading dots, several dots and dashes", async (fs) => {
        await fs.writeFile("/.hidden", bytes("h"));
        await fs.writeFile("/a.b.c", bytes("abc"));
        await fs.writeFile("/-dash", bytes("d"));
        await fs.writeFile("/..double", bytes("dd"));
        expect(names(await fs.readdir("/"))).toEqual(["-dash", "..double", ".hidden", "a.b.c"]);
        expect(await readText(fs, "/..double")).toBe("dd");
      });
    });

    describe("deep trees", () => {
      check("a 200-level tree: write, read, list and remove", async (fs) => {
        const dir = deepPath(DEEP_TREE_LEVELS);
        await fs.writeFile(`${dir}/leaf.txt`, bytes("leaf"));
        expect(await readText(fs, `${dir}/leaf.txt`)).toBe("leaf");
        expect(entries(await fs.readdir(dir))).toEqual([{ name: "leaf.txt", type: "file" }]);
        expect(entries(await fs.readdir(deepPath(100)))).toEqual([{ name: "d100", type: "directory" }]);
        expect(await fs.realpath(`${dir}/leaf.txt`)).toBe(`${dir}/leaf.txt`);
        await fs.rm("/d0", { recursive: true });
        expect(await fs.readdir("/")).toEqual([]);
      });

      check("mkdir recursive of a 200-level tree", async (fs) => {
        const dir = deepPath(DEEP_TREE_LEVELS);
        await fs.mkdir(dir, { recursive: true });
        expect((await fs.stat(dir)).type).toBe("directory");
        expect(await fs.readdir(dir)).toEqual([]);
      });
    });

    describe("calls in flight", () => {
      check("many writes and reads in flight on different files", async (fs) => {
        const indexes = Array.from({ length: CONCURRENT_CALLS }, (_, index) => index);
        await Promise.all(indexes.map((index) => fs.writeFile(`/c/f${index}.txt`, bytes(`file ${index}`))));
        const texts = await Promise.all(indexes.map((index) => readText(fs, `/c/f${index}.txt`)));
        expect(texts).toEqual(indexes.map((index) => `file ${index}`));
        expect(names(await fs.readdir("/c"))).toEqual(indexes.map((index) => `f${index}.txt`).sort());
      });

      check("concurrent writes that create the same parents", async (fs) => {
        const indexes = Array.from({ length: 20 }, (_, index) => index);
        await Promise.all(indexes.map((index) => fs.writeFile(`/p/q/r/f${index}.txt`, bytes(String(index)))));
        expect((await fs.readdir("/p/q/r")).length).toBe(20);
        expect(entries(await fs.readdir("/p"))).toEqual([{ name: "q", type: "directory" }]);
      });
    });

    describe("errors", () => {
      for (const errorCase of ERROR_CASES) {
        check(
          errorCase.name,
          async (fs) => {
            await writeErrorFixture(fs);
            await expectFsError(errorCase.call(fs), errorCase.code, errorCase.message);
            await expectFixtureIntact(fs);
          },
          errorCase.capability,
        );
      }
    });

    describe("symlinks", () => {
      check(
        "symlink and readlink keep the target as written",
        async (fs) => {
          await fs.writeFile("/d/file.txt", bytes("x"));
          await symlinkOf(fs)("/d/file.txt", "/absolute");
          await symlinkOf(fs)("file.txt", "/d/relative");
          expect(await readlinkOf(fs)("/absolute")).toBe("/d/file.txt");
          expect(await readlinkOf(fs)("/d/relative")).toBe("file.txt");
        },
        "symlink",
      );

      check(
        "lstat reports a symlink, stat follows it",
        async (fs) => {
          await fs.writeFile("/file.txt", bytes("xyz"));
          await symlinkOf(fs)("/file.txt", "/link");
          expect((await fs.lstat("/link")).type).toBe("symlink");
          const stat = await fs.stat("/link");
          expect({ type: stat.type, size: stat.size }).toEqual({ type: "file", size: 3 });
        },
        "symlink",
      );

      check(
        "readdir reports a symlink entry as symlink",
        async (fs) => {
          await fs.mkdir("/dir");
          await fs.writeFile("/file.txt", bytes("x"));
          await symlinkOf(fs)("/file.txt", "/to-file");
          await symlinkOf(fs)("/dir", "/to-dir");
          expect(entries(await fs.readdir("/"))).toEqual([
            { name: "dir", type: "directory" },
            { name: "file.txt", type: "file" },
            { name: "to-dir", type: "symlink" },
            { name: "to-file", type: "symlink" },
          ]);
        },
        "symlink",
      );

      check(
        "readFile and writeFile follow a symlink",
        async (fs) => {
          await fs.writeFile("/file.txt", bytes("x"));
          await symlinkOf(fs)("/file.txt", "/link");
          expect(await readText(fs, "/link")).toBe("x");
          await fs.writeFile("/link", bytes("through the link"));
          expect(await readText(fs, "/file.txt")).toBe("through the link");
          expect((await fs.lstat("/link")).type).toBe("symlink");
        },
        "symlink",
      );

      check(
        "a relative symlink resolves against its own directory",
        async (fs) => {
          await fs.writeFile("/d/b.txt", bytes("b"));
          await symlinkOf(fs)("b.txt", "/d/link");
          await symlinkOf(fs)("../d/b.txt", "/d/up");
          expect(await readText(fs, "/d/link")).toBe("b");
          expect(await fs.realpath("/d/link")).toBe("/d/b.txt");
          expect(await fs.realpath("/d/up")).toBe("/d/b.txt");
        },
        "symlink",
      );

      check(
        "realpath resolves a symlinked directory in the middle of a path",
        async (fs) => {
          await fs.writeFile("/real/inner.txt", bytes("inner"));
          await symlinkOf(fs)("/real", "/alias");
          expect(await fs.realpath("/alias/inner.txt")).toBe("/real/inner.txt");
          expect(await fs.realpath("/alias")).toBe("/real");
          expect(names(await fs.readdir("/alias"))).toEqual(["inner.txt"]);
          expect(await readText(fs, "/alias/inner.txt")).toBe("inner");
        },
        "symlink",
      );

      check(
        "a chain of symlinks resolves to the end",
        async (fs) => {
          await fs.writeFile("/end.txt", bytes("end"));
          await symlinkOf(fs)("/end.txt", "/one");
          await symlinkOf(fs)("/one", "/two");
          expect(await fs.realpath("/two")).toBe("/end.txt");
          expect(await readlinkOf(fs)("/two")).toBe("/one");
          expect(await readText(fs, "/two")).toBe("end");
        },
        "symlink",
      );

      check(
        "a dangling symlink: lstat works, stat, readFile and realpath give ENOENT",
        async (fs) => {
          await symlinkOf(fs)("/nowhere", "/dangling");
          expect((await fs.lstat("/dangling")).type).toBe("symlink");
          expect(await readlinkOf(fs)("/dangling")).toBe("/nowhere");
          await expectFsError(fs.stat("/dangling"), "ENOENT", "ENOENT: no such file or directory, stat '/dangling'");
          await expectFsError(
            fs.readFile("/dangling"),
            "ENOENT",
            "ENOENT: no such file or directory, open '/dangling'",
          );
          await expectFsError(
            fs.realpath("/dangling"),
            "ENOENT",
            "ENOENT: no such file or directory, realpath '/dangling'",
          );
        },
        "symlink",
      );

      check(
        "a symlink loop gives ELOOP, not a hang",
        async (fs) => {
          await symlinkOf(fs)("/loop-b", "/loop-a");
          await symlinkOf(fs)("/loop-a", "/loop-b");
          await expectFsError(
            fs.stat("/loop-a"),
            "ELOOP",
            "ELOOP: too many symbolic links encountered, stat '/loop-a'",
          );
          await expectFsError(
            fs.realpath("/loop-a"),
            "ELOOP",
            "ELOOP: too many symbolic links encountered, realpath '/loop-a'",
          );
        },
        "symlink",
      );

      check(
        "rm of a symlink removes the link, not its target",
        async (fs) => {
          await fs.writeFile("/real/inner.txt", bytes("inner"));
          await fs.writeFile("/file.txt", bytes("x"));
          await symlinkOf(fs)("/real", "/dir-link");
          await symlinkOf(fs)("/file.txt", "/file-link");
          await fs.rm("/dir-link", { recursive: true });
          await fs.rm("/file-link");
          expect(await readText(fs, "/real/inner.txt")).toBe("inner");
          expect(await readText(fs, "/file.txt")).toBe("x");
          expect(entries(await fs.readdir("/"))).toEqual([
            { name: "file.txt", type: "file" },
            { name: "real", type: "directory" },
          ]);
        },
        "symlink",
      );

      check(
        "rm recursive of a directory keeps what its symlinks point to",
        async (fs) => {
          await fs.writeFile("/keep/k.txt", bytes("k"));
          await fs.writeFile("/d/f.txt", bytes("f"));
          await symlinkOf(fs)("/keep", "/d/dir-link");
          await symlinkOf(fs)("/keep/k.txt", "/d/file-link");
          await fs.rm("/d", { recursive: true });
          expect(names(await fs.readdir("/"))).toEqual(["keep"]);
          expect(await readText(fs, "/keep/k.txt")).toBe("k");
        },
        "symlink",
      );

      check(
        "rename moves a symlink, not its target",
        async (fs) => {
          await fs.writeFile("/file.txt", bytes("x"));
          await symlinkOf(fs)("/file.txt", "/link");
          await fs.rename("/link", "/moved");
          expect(await readlinkOf(fs)("/moved")).toBe("/file.txt");
          expect(entries(await fs.readdir("/"))).toEqual([
            { name: "file.txt", type: "file" },
            { name: "moved", type: "symlink" },
          ]);
        },
        "symlink",
      );
    });

    describe("watch", () => {
      check(
        "watch reports a write under the watched path",
        async (fs) => {
          if (fs.watch === undefined) throw new Error(`${fs.name} declares capabilities.watch but has no watch()`);
          await fs.mkdir("/w");
          const seen: WatchEvent[] = [];
          const reported = new Promise<void>((resolve) => {
            const stop = fs.watch?.("/w", (event) => {
              seen.push(event);
              if (event.path === "/w/a.txt") {
                stop?.();
                resolve();
              }
            });
          });
          await fs.writeFile("/w/a.txt", bytes("a"));
          await reported;
          expect(seen.filter((event) => event.path === "/w/a.txt").map((event) => event.type)).toContain("write");
        },
        "watch",
      );

      check(
        "watch reports nothing for a sibling of the watched path, and nothing after it is stopped",
        async (fs) => {
          if (fs.watch === undefined) throw new Error(`${fs.name} declares capabilities.watch but has no watch()`);
          await fs.mkdir("/w");
          await fs.mkdir("/w-sibling");
          const seen: WatchEvent[] = [];
          const stop = fs.watch("/w", (event) => seen.push(event));
          // A second listener, never stopped, tells when the last change was reported.
          const reported = new Promise<void>((resolve) => {
            const stopAll = fs.watch?.("/", (event) => {
              if (event.path === "/w/after-stop.txt") {
                stopAll?.();
                resolve();
              }
            });
          });
          await fs.writeFile("/w-sibling/s.txt", bytes("s"));
          await fs.writeFile("/w/a.txt", bytes("a"));
          await fs.writeFile("/w/b.txt", bytes("b"));
          stop();
          await fs.writeFile("/w/after-stop.txt", bytes("x"));
          await reported;
          expect(seen.filter((event) => !event.path.startsWith("/w/") && event.path !== "/w")).toEqual([]);
          expect(seen.map((event) => event.path)).not.toContain("/w/after-stop.txt");
        },
        "watch",
      );
    });

    // Nested describe blocks are collected after this callback returns: check todo entries in a test.
    it("every todo entry names a conformance test", () => {
      expect([...todo].filter((name) => !registered.has(name))).toEqual([]);
    });
  });
}

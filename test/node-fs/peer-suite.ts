/**
 * The `node:fs` tests of a peer, ZenFS (`tests/fs/*` of zen-fs/core: directories, rename, links,
 * reading, appendFile, open, error messages, stats, FileHandle, exists, truncate, write), written
 * anew for our face, with exact expected values. Every case runs on the real `node:fs` too, so
 * what it expects is Node's behaviour, not ours.
 */
import { describe, expect, it } from "vitest";
import type { NodeFs } from "better-fs-tools/node-fs";

/** A `node:fs`-shaped object to test, with the directory the tests work in. */
export interface PeerTarget {
  readonly fs: NodeFs;
  /** An existing, empty directory (absolute) the tests work in. */
  readonly root: string;
  /** Whether the `*Sync` calls work (memory-backed backends and Node). */
  readonly sync: boolean;
  /** Whether symlinks are offered. */
  readonly symlinks: boolean;
}

/** How many cases {@link peerSuite} defines when every kind is offered (stated in docs/node-fs.md). */
export const PEER_CASES = 49;

async function rejection(promise: Promise<unknown>): Promise<{ code: unknown; message: unknown; syscall: unknown }> {
  return promise.then(
    () => ({ code: "resolved", message: "", syscall: "" }),
    (error: { code?: unknown; message?: unknown; syscall?: unknown }) => ({
      code: error.code,
      message: error.message,
      syscall: error.syscall,
    }),
  );
}
function thrown(run: () => unknown): { code: unknown; message: unknown } {
  try {
    run();
    return { code: "returned", message: "" };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { code, message };
  }
}

/** Runs the ported suite against `create()`'s target (a fresh one per case). */
export function peerSuite(
  name: string,
  create: () => Promise<PeerTarget>,
  destroy?: (target: PeerTarget) => Promise<void>,
): void {
  const withTarget =
    (body: (target: PeerTarget, p: (relative: string) => string) => Promise<void> | void) => async () => {
      const target = await create();
      try {
        await body(target, (relative) => `${target.root}/${relative}`);
      } finally {
        await destroy?.(target);
      }
    };
  const decode = (value: unknown) => new TextDecoder().decode(value as Uint8Array);

  describe(`${name}: ZenFS's directory tests`, () => {
    it(
      "mkdir, then mkdir again is EEXIST",
      withTarget(async ({ fs }, p) => {
        await fs.promises.mkdir(p("one"), 0o755);
        expect((await fs.promises.stat(p("one"))).isDirectory()).toBe(true);
        expect(await rejection(fs.promises.mkdir(p("one")))).toEqual({
          code: "EEXIST",
          syscall: "mkdir",
          message: `EEXIST: file already exists, mkdir '${p("one")}'`,
        });
      }),
    );
    it(
      "mkdir of a nested path with a missing parent is ENOENT and creates nothing",
      withTarget(async ({ fs }, p) => {
        expect((await rejection(fs.promises.mkdir(p("nested/dir")))).code).toBe("ENOENT");
        expect(
          fs.existsSync === undefined
            ? true
            : await fs.promises.access(p("nested")).then(
                () => true,
                () => false,
              ),
        ).toBe(false);
      }),
    );
    it(
      "mkdir recursive returns the first directory it created, then undefined",
      withTarget(async ({ fs }, p) => {
        expect(await fs.promises.mkdir(p("recursiveP/A/B"), { recursive: true, mode: 0o755 })).toBe(p("recursiveP"));
        expect(await fs.promises.mkdir(p("recursiveP/A/B/C/D"), { recursive: true })).toBe(p("recursiveP/A/B/C"));
        expect(await fs.promises.mkdir(p("recursiveP/A/B/C/D"), { recursive: true })).toBeUndefined();
        expect((await fs.promises.stat(p("recursiveP/A/B/C/D"))).mode & 0o170000).toBe(fs.constants.S_IFDIR);
      }),
    );
    it(
      "rmdir of a non-empty directory is ENOTEMPTY",
      withTarget(async ({ fs }, p) => {
        await fs.promises.mkdir(p("rmdirTest/rmdirTest2"), { recursive: true });
        expect(await rejection(fs.promises.rmdir(p("rmdirTest")))).toEqual({
          code: "ENOTEMPTY",
          syscall: "rmdir",
          message: `ENOTEMPTY: directory not empty, rmdir '${p("rmdirTest")}'`,
        });
      }),
    );
    it(
      "readdir of a file is ENOTDIR, of a missing directory ENOENT",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("a.js"), "x");
        expect(await rejection(fs.promises.readdir(p("a.js")))).toEqual({
          code: "ENOTDIR",
          syscall: "scandir",
          message: `ENOTDIR: not a directory, scandir '${p("a.js")}'`,
        });
        expect(await rejection(fs.promises.readdir(p("does/not/exist")))).toEqual({
          code: "ENOENT",
          syscall: "scandir",
          message: `ENOENT: no such file or directory, scandir '${p("does/not/exist")}'`,
        });
      }),
    );
    it(
      "rm recursive removes a tree",
      withTarget(async ({ fs }, p) => {
        await fs.promises.mkdir(p("rmDir/nested"), { recursive: true });
        await fs.promises.writeFile(p("rmDir/nested/test.txt"), "hello world!");
        await fs.promises.rm(p("rmDir"), { recursive: true });
        expect(await fs.promises.readdir(p(""))).toEqual([]);
      }),
    );
    const tree = async (fs: NodeFs, p: (relative: string) => string) => {
      await fs.promises.mkdir(p("test-dir/subdir1"), { recursive: true });
      await fs.promises.mkdir(p("test-dir/subdir2"), { recursive: true });
      for (const file of ["file1.txt", "file2.txt", "file3.txt"])
        await fs.promises.writeFile(p(`test-dir/${file}`), "Sample content");
      for (const dir of ["subdir1", "subdir2"])
        for (const file of ["file4.txt", "file5.txt"])
          await fs.promises.writeFile(p(`test-dir/${dir}/${file}`), "Sample content");
    };
    it(
      "readdir withFileTypes gives Dirent objects that tell files from directories",
      withTarget(async ({ fs }, p) => {
        await tree(fs, p);
        const dirents = (await fs.promises.readdir(p("test-dir"), { withFileTypes: true })) as InstanceType<
          NodeFs["Dirent"]
        >[];
        const sorted = dirents.slice().sort((a, b) => (a.name < b.name ? -1 : 1));
        expect(sorted.map((entry) => [entry.name, entry.isFile(), entry.isDirectory(), entry.parentPath])).toEqual([
          ["file1.txt", true, false, p("test-dir")],
          ["file2.txt", true, false, p("test-dir")],
          ["file3.txt", true, false, p("test-dir")],
          ["subdir1", false, true, p("test-dir")],
          ["subdir2", false, true, p("test-dir")],
        ]);
        expect(dirents[0]).toBeInstanceOf(fs.Dirent);
      }),
    );
    it(
      "readdir recursive lists paths relative to the directory",
      withTarget(async ({ fs }, p) => {
        await tree(fs, p);
        const entries = (await fs.promises.readdir(p("test-dir"), { recursive: true })) as string[];
        expect(entries.slice().sort()).toEqual([
          "file1.txt",
          "file2.txt",
          "file3.txt",
          "subdir1",
          "subdir1/file4.txt",
          "subdir1/file5.txt",
          "subdir2",
          "subdir2/file4.txt",
          "subdir2/file5.txt",
        ]);
      }),
    );
    it(
      "Cyrillic file names",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("мой-файл.txt"), "HELLO!", "utf-8");
        expect(await fs.promises.readdir(p(""))).toEqual(["мой-файл.txt"]);
      }),
    );
  });

  describe(`${name}: ZenFS's sync directory tests`, () => {
    it(
      "mkdirSync recursive, readdirSync, rmSync, on a backend with a sync form",
      withTarget(({ fs, sync }, p) => {
        if (!sync) {
          expect(thrown(() => fs.mkdirSync(p("x"))).code).toBe("ENOTSUP");
          return;
        }
        expect(fs.mkdirSync(p("recursiveS/A/B"), { recursive: true })).toBe(p("recursiveS"));
        fs.writeFileSync(p("recursiveS/A/B/f.txt"), "x");
        expect(fs.readdirSync(p("recursiveS/A"))).toEqual(["B"]);
        expect(fs.readdirSync(p("recursiveS"), { recursive: true })).toEqual(["A", "A/B", "A/B/f.txt"]);
        expect(thrown(() => fs.readdirSync(p("recursiveS/A/B/f.txt")))).toEqual({
          code: "ENOTDIR",
          message: `ENOTDIR: not a directory, scandir '${p("recursiveS/A/B/f.txt")}'`,
        });
        fs.rmSync(p("recursiveS"), { recursive: true });
        expect(fs.existsSync(p("recursiveS"))).toBe(false);
      }),
    );
  });

  describe(`${name}: sync writes (ZenFS's writeFileSync, appendFileSync, rename and unlink tests)`, () => {
    it(
      "writeFileSync and appendFileSync, with flags; the promise API sees the bytes at once",
      withTarget(async ({ fs, sync }, p) => {
        if (!sync) {
          expect(thrown(() => fs.writeFileSync(p("s.txt"), "one")).code).toBe("ENOTSUP");
          expect(await fs.promises.readdir(p(""))).toEqual([]);
          return;
        }
        fs.writeFileSync(p("s.txt"), "one");
        fs.appendFileSync(p("s.txt"), new TextEncoder().encode("+two"));
        fs.writeFileSync(p("s.txt"), "+three", { flag: "a" });
        expect(await fs.promises.readFile(p("s.txt"), "utf8")).toBe("one+two+three");
        expect(thrown(() => fs.writeFileSync(p("s.txt"), "x", { flag: "wx" }))).toEqual({
          code: "EEXIST",
          message: `EEXIST: file already exists, open '${p("s.txt")}'`,
        });
        expect(thrown(() => fs.writeFileSync(p("no/s.txt"), "x"))).toEqual({
          code: "ENOENT",
          message: `ENOENT: no such file or directory, open '${p("no/s.txt")}'`,
        });
        expect(thrown(() => fs.writeFileSync(p(""), "x"))).toEqual({
          code: "EISDIR",
          message: `EISDIR: illegal operation on a directory, open '${p("")}'`,
        });
        expect([fs.readFileSync(p("s.txt"), "utf8"), fs.readdirSync(p(""))]).toEqual(["one+two+three", ["s.txt"]]);
      }),
    );
    it(
      "renameSync, copyFileSync, truncateSync, unlinkSync, rmdirSync; refusals change nothing",
      withTarget(async ({ fs, sync }, p) => {
        if (!sync) {
          expect(thrown(() => fs.renameSync(p("a"), p("b"))).code).toBe("ENOTSUP");
          return;
        }
        expect(fs.mkdirSync(p("d"))).toBe(undefined);
        fs.writeFileSync(p("d/a"), "abc");
        fs.renameSync(p("d/a"), p("d/b"));
        fs.copyFileSync(p("d/b"), p("d/c"));
        fs.truncateSync(p("d/c"), 1);
        expect([(fs.readdirSync(p("d")) as string[]).sort(), fs.readFileSync(p("d/c"), "utf8")]).toEqual([
          ["b", "c"],
          "a",
        ]);
        expect(thrown(() => fs.renameSync(p("d/missing"), p("d/x")))).toEqual({
          code: "ENOENT",
          message: `ENOENT: no such file or directory, rename '${p("d/missing")}' -> '${p("d/x")}'`,
        });
        expect(thrown(() => fs.rmdirSync(p("d")))).toEqual({
          code: "ENOTEMPTY",
          message: `ENOTEMPTY: directory not empty, rmdir '${p("d")}'`,
        });
        expect(thrown(() => fs.mkdirSync(p("x/y")))).toEqual({
          code: "ENOENT",
          message: `ENOENT: no such file or directory, mkdir '${p("x/y")}'`,
        });
        expect((await fs.promises.readdir(p("d"))).sort()).toEqual(["b", "c"]);
        fs.unlinkSync(p("d/b"));
        fs.rmSync(p("d/c"));
        fs.rmdirSync(p("d"));
        expect([fs.existsSync(p("d")), await fs.promises.readdir(p(""))]).toEqual([false, []]);
      }),
    );
  });

  describe(`${name}: ZenFS's rename tests`, () => {
    it(
      "rename a directory onto itself changes nothing; to a new name moves the tree",
      withTarget(async ({ fs }, p) => {
        await fs.promises.mkdir(p("old/_rename_me"), { recursive: true });
        await fs.promises.writeFile(p("old/file.dat"), "filedata");
        await fs.promises.writeFile(p("old/_rename_me/lol.txt"), "lololol");
        await fs.promises.rename(p("old"), p("old"));
        expect((await fs.promises.readdir(p("old"))).length).toBe(2);
        await fs.promises.rename(p("old"), p("new"));
        expect(await fs.promises.readdir(p(""))).toEqual(["new"]);
        expect(await fs.promises.readFile(p("new/_rename_me/lol.txt"), "utf8")).toBe("lololol");
      }),
    );
    it(
      "rename a file over another replaces it",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("fun.js"), 'while(1) alert("Hey! Listen!");');
        await fs.promises.rename(p("fun.js"), p("fun.js"));
        await fs.promises.rename(p("fun.js"), p("fun2.js"));
        await fs.promises.writeFile(p("fun.js"), "hey");
        await fs.promises.rename(p("fun.js"), p("fun2.js"));
        expect(await fs.promises.readFile(p("fun2.js"), "utf8")).toBe("hey");
        expect(await fs.promises.readdir(p(""))).toEqual(["fun2.js"]);
      }),
    );
    it(
      "rename a file over a directory is EISDIR; of a missing file ENOENT with both paths",
      withTarget(async ({ fs }, p) => {
        await fs.promises.mkdir(p("dir"));
        await fs.promises.writeFile(p("file.txt"), "file contents go here");
        expect((await rejection(fs.promises.rename(p("file.txt"), p("dir")))).code).toBe("EISDIR");
        expect(await rejection(fs.promises.rename(p("missing"), p("foo")))).toEqual({
          code: "ENOENT",
          syscall: "rename",
          message: `ENOENT: no such file or directory, rename '${p("missing")}' -> '${p("foo")}'`,
        });
      }),
    );
    it(
      "rename a directory into itself is EINVAL",
      withTarget(async ({ fs }, p) => {
        await fs.promises.mkdir(p("renamedir_1"));
        expect((await rejection(fs.promises.rename(p("renamedir_1"), p("renamedir_1/lol")))).code).toBe("EINVAL");
      }),
    );
  });

  describe(`${name}: ZenFS's link tests`, () => {
    const links = (body: (target: PeerTarget, p: (relative: string) => string) => Promise<void>) =>
      withTarget(async (target, p) => {
        if (!target.symlinks) {
          expect((await rejection(target.fs.promises.symlink(p("a"), p("b")))).code).toBe("ENOTSUP");
          return;
        }
        await body(target, p);
      });
    it(
      "symlink, lstat sees the link, readlink gives the target, reads go through",
      links(async ({ fs }, p) => {
        await fs.promises.writeFile(p("a1.js"), "target");
        await fs.promises.symlink(p("a1.js"), p("symlink1.js"));
        expect((await fs.promises.lstat(p("symlink1.js"))).isSymbolicLink()).toBe(true);
        expect((await fs.promises.stat(p("symlink1.js"))).isFile()).toBe(true);
        expect(await fs.promises.readlink(p("symlink1.js"))).toBe(p("a1.js"));
        expect(await fs.promises.readFile(p("symlink1.js"), "utf8")).toBe("target");
        expect((await rejection(fs.promises.readlink(p("a1.js")))).code).toBe("EINVAL");
      }),
    );
    it(
      "lstat of a file inside a symlinked directory",
      links(async ({ fs }, p) => {
        await fs.promises.mkdir(p("a"));
        await fs.promises.writeFile(p("a/hello.txt"), "hello world");
        await fs.promises.symlink(p("a"), p("b"));
        expect((await fs.promises.lstat(p("b/hello.txt"))).isFile()).toBe(true);
      }),
    );
    it(
      "nested symlinks resolve in realpath and reads",
      links(async ({ fs }, p) => {
        await fs.promises.mkdir(p("real-dir"));
        await fs.promises.writeFile(p("real-dir/realfile.txt"), "hello world");
        await fs.promises.symlink(p("real-dir"), p("symlink-dir"));
        await fs.promises.symlink(p("real-dir/realfile.txt"), p("real-dir/symfile.txt"));
        expect(await fs.promises.realpath(p("symlink-dir/symfile.txt"))).toBe(p("real-dir/realfile.txt"));
        expect(await fs.promises.readFile(p("symlink-dir/symfile.txt"), "utf8")).toBe("hello world");
      }),
    );
    it(
      "unlink of a link keeps its target",
      links(async ({ fs }, p) => {
        await fs.promises.writeFile(p("a1.js"), "target");
        await fs.promises.symlink(p("a1.js"), p("link"));
        await fs.promises.unlink(p("link"));
        expect(await fs.promises.readdir(p(""))).toEqual(["a1.js"]);
      }),
    );
    it(
      "a relative link to the directory it is in",
      links(async ({ fs }, p) => {
        await fs.promises.writeFile(p("a1.js"), "target");
        await fs.promises.symlink(".", p("link"));
        expect(await fs.promises.realpath(p("link/a1.js"))).toBe(p("a1.js"));
        expect(await fs.promises.readFile(p("link/a1.js"), "utf8")).toBe("target");
      }),
    );
  });

  describe(`${name}: ZenFS's reading tests`, () => {
    it(
      "an unknown encoding is a TypeError",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("a.js"), "x");
        expect(await rejection(fs.promises.readFile(p("a.js"), "wrong-encoding" as "utf8"))).toMatchObject({
          code: "ERR_INVALID_ARG_VALUE",
        });
      }),
    );
    it(
      "reading past the end of a file reads 0 bytes",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("a.js"), "short");
        const handle = await fs.promises.open(p("a.js"), "r");
        const { bytesRead } = await handle.read(new Uint8Array(10), 0, 10, 10000);
        await handle.close();
        expect(bytesRead).toBe(0);
      }),
    );
    it(
      "bytes written are the bytes read; unlink and rmdir remove them",
      withTarget(async ({ fs }, p) => {
        await fs.promises.mkdir(p("test-readfile-unlink"));
        await fs.promises.writeFile(p("test-readfile-unlink/test.bin"), new Uint8Array(512).fill(42));
        const read = (await fs.promises.readFile(p("test-readfile-unlink/test.bin"))) as Uint8Array;
        expect([read.length, read[0], read[511]]).toEqual([512, 42, 42]);
        await fs.promises.unlink(p("test-readfile-unlink/test.bin"));
        await fs.promises.rmdir(p("test-readfile-unlink"));
        expect(await fs.promises.readdir(p(""))).toEqual([]);
      }),
    );
    it(
      "an empty file reads as '' and as 0 bytes",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("empty.txt"), "");
        expect(await fs.promises.readFile(p("empty.txt"), "utf8")).toBe("");
        expect(((await fs.promises.readFile(p("empty.txt"))) as Uint8Array).byteLength).toBe(0);
      }),
    );
    it(
      "10000 ellipses read back in utf8, latin1-safe base64 and hex round trips",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("elipses.txt"), "…".repeat(10000));
        const content = (await fs.promises.readFile(p("elipses.txt"), "utf8")) as string;
        expect([content.length, new Set(content).size]).toEqual([10000, 1]);
        await fs.promises.writeFile(p("b64"), "aGVsbG8=", "base64");
        expect(await fs.promises.readFile(p("b64"), "utf8")).toBe("hello");
        expect(await fs.promises.readFile(p("b64"), "hex")).toBe("68656c6c6f");
        expect(await fs.promises.readFile(p("b64"), { encoding: "base64" })).toBe("aGVsbG8=");
      }),
    );
  });

  describe(`${name}: ZenFS's appendFile tests`, () => {
    it(
      "appendFile creates a missing file",
      withTarget(async ({ fs }, p) => {
        await fs.promises.appendFile(p("append.txt"), "Sample content");
        expect(await fs.promises.readFile(p("append.txt"), "utf8")).toBe("Sample content");
      }),
    );
    it(
      "appendFile adds to a file's end (a string, then bytes)",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("append2.txt"), "ABCD");
        await fs.promises.appendFile(p("append2.txt"), "Sample content");
        await fs.promises.appendFile(p("append2.txt"), new TextEncoder().encode("!"));
        expect(await fs.promises.readFile(p("append2.txt"), "utf8")).toBe("ABCDSample content!");
      }),
    );
    it(
      "writeFile with flag wx refuses an existing file; with flag a appends",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("f"), "one");
        expect((await rejection(fs.promises.writeFile(p("f"), "two", { flag: "wx" }))).code).toBe("EEXIST");
        await fs.promises.writeFile(p("f"), "+", { flag: "a" });
        expect(await fs.promises.readFile(p("f"), "utf8")).toBe("one+");
      }),
    );
    it(
      "writeFile into a missing directory is ENOENT (no parents are made)",
      withTarget(async ({ fs }, p) => {
        expect(await rejection(fs.promises.writeFile(p("no/such/f.txt"), "x"))).toEqual({
          code: "ENOENT",
          syscall: "open",
          message: `ENOENT: no such file or directory, open '${p("no/such/f.txt")}'`,
        });
        expect(await fs.promises.readdir(p(""))).toEqual([]);
      }),
    );
  });

  describe(`${name}: ZenFS's open tests`, () => {
    it(
      "open of a missing file is ENOENT",
      withTarget(async ({ fs, sync }, p) => {
        expect(await rejection(fs.promises.open(p("path/to/file/that/does/not/exist"), "r"))).toEqual({
          code: "ENOENT",
          syscall: "open",
          message: `ENOENT: no such file or directory, open '${p("path/to/file/that/does/not/exist")}'`,
        });
        if (sync) expect(thrown(() => fs.openSync(p("missing"), "r")).code).toBe("ENOENT");
      }),
    );
    it(
      "open with r and rs gives a descriptor number",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("a.js"), "x");
        for (const flag of ["r", "rs"]) {
          const handle = await fs.promises.open(p("a.js"), flag);
          expect(typeof handle.fd).toBe("number");
          await handle.close();
        }
      }),
    );
  });

  describe(`${name}: ZenFS's error-message tests`, () => {
    const missing = (syscall: string, path: string, dest?: string) => ({
      code: "ENOENT",
      message: `ENOENT: no such file or directory, ${syscall} '${path}'${dest === undefined ? "" : ` -> '${dest}'`}`,
      syscall,
    });
    it(
      "each call on a missing path: ENOENT with Node's syscall and message",
      withTarget(async ({ fs, symlinks }, p) => {
        const path = p("non-existent");
        expect(await rejection(fs.promises.stat(path))).toEqual(missing("stat", path));
        expect(await rejection(fs.promises.lstat(path))).toEqual(missing("lstat", path));
        expect(await rejection(fs.promises.rmdir(path))).toEqual(missing("rmdir", path));
        expect(await rejection(fs.promises.open(path, "r"))).toEqual(missing("open", path));
        expect(await rejection(fs.promises.readFile(path))).toEqual(missing("open", path));
        expect(await rejection(fs.promises.readdir(path))).toEqual(missing("scandir", path));
        expect(await rejection(fs.promises.unlink(path))).toEqual(missing("unlink", path));
        expect(await rejection(fs.promises.access(path))).toEqual(missing("access", path));
        expect(await rejection(fs.promises.copyFile(path, p("x")))).toEqual(missing("copyfile", path, p("x")));
        if (symlinks) expect(await rejection(fs.promises.readlink(path))).toEqual(missing("readlink", path));
      }),
    );
    it(
      "mkdir of an existing file is EEXIST; rmdir of a file ENOTDIR",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("exit.js"), "x");
        expect(await rejection(fs.promises.mkdir(p("exit.js")))).toEqual({
          code: "EEXIST",
          syscall: "mkdir",
          message: `EEXIST: file already exists, mkdir '${p("exit.js")}'`,
        });
        expect(await rejection(fs.promises.rmdir(p("exit.js")))).toEqual({
          code: "ENOTDIR",
          syscall: "rmdir",
          message: `ENOTDIR: not a directory, rmdir '${p("exit.js")}'`,
        });
      }),
    );
    it(
      "errors carry errno, and the callback API passes them as the first argument",
      withTarget(async ({ fs }, p) => {
        const error = await new Promise<{ code?: string; errno?: number; path?: string }>((resolve) =>
          fs.stat(p("nope"), (failure: unknown) =>
            resolve(failure as { code?: string; errno?: number; path?: string }),
          ),
        );
        expect([error.code, error.errno, error.path]).toEqual(["ENOENT", -2, p("nope")]);
      }),
    );
    it(
      "sync calls throw the same errors",
      withTarget(({ fs, sync }, p) => {
        if (!sync) return;
        const path = p("non-existent");
        expect(thrown(() => fs.statSync(path))).toEqual({
          code: "ENOENT",
          message: `ENOENT: no such file or directory, stat '${path}'`,
        });
        expect(thrown(() => fs.readdirSync(path)).code).toBe("ENOENT");
        expect(thrown(() => fs.unlinkSync(path)).code).toBe("ENOENT");
        expect(thrown(() => fs.rmdirSync(path)).code).toBe("ENOENT");
        expect(thrown(() => fs.renameSync(path, p("foo"))).code).toBe("ENOENT");
      }),
    );
  });

  describe(`${name}: ZenFS's stats tests`, () => {
    it(
      "stat of a file: isFile and no other kind; size in bytes",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("x.txt"), "héllo");
        const stats = await fs.promises.stat(p("x.txt"));
        expect([
          stats.isFile(),
          stats.isDirectory(),
          stats.isSocket(),
          stats.isBlockDevice(),
          stats.isCharacterDevice(),
          stats.isFIFO(),
          stats.isSymbolicLink(),
          stats.size,
          stats.mode & 0o170000,
        ]).toEqual([true, false, false, false, false, false, false, 6, fs.constants.S_IFREG]);
        expect(stats).toBeInstanceOf(fs.Stats);
        expect(Math.abs(stats.mtime.getTime() - stats.mtimeMs)).toBeLessThan(1); // Node rounds, memfs floors
      }),
    );
    it(
      "stat and lstat of a directory",
      withTarget(async ({ fs, root }) => {
        expect((await fs.promises.stat(root)).isDirectory()).toBe(true);
        expect((await fs.promises.lstat(root)).isDirectory()).toBe(true);
      }),
    );
    it(
      "stat of an empty path is ENOENT",
      withTarget(async ({ fs }) => {
        expect((await rejection(fs.promises.stat(""))).code).toBe("ENOENT");
      }),
    );
    it(
      "FileHandle.stat and fstatSync",
      withTarget(async ({ fs, sync }, p) => {
        await fs.promises.writeFile(p("x.txt"), "abc");
        const handle = await fs.promises.open(p("x.txt"), "r");
        expect((await handle.stat()).size).toBe(3);
        await handle.close();
        if (sync) {
          const fd = fs.openSync(p("x.txt"), "r");
          expect(fs.fstatSync(fd).size).toBe(3);
          fs.closeSync(fd);
        }
      }),
    );
  });

  describe(`${name}: ZenFS's FileHandle tests`, () => {
    it(
      "open w+, writeFile, readFile, appendFile, truncate, stat, close",
      withTarget(async ({ fs }, p) => {
        const handle = await fs.promises.open(p("test.txt"), "w+");
        await handle.writeFile("The cake is a lie");
        await handle.sync();
        expect(await handle.readFile("utf8")).toBe("");
        await handle.appendFile("\nAnother lie");
        expect(await fs.promises.readFile(p("test.txt"), "utf8")).toBe("The cake is a lie\nAnother lie");
        await handle.truncate(5);
        expect(await fs.promises.readFile(p("test.txt"), "utf8")).toBe("The c");
        expect((await handle.stat()).isFile()).toBe(true);
        await handle.close();
        expect((await rejection(handle.stat())).code).toBe("EBADF");
      }),
    );
    it(
      "write at positions and read them back",
      withTarget(async ({ fs }, p) => {
        const handle = await fs.promises.open(p("pos.txt"), "w+");
        await handle.write(new TextEncoder().encode("hello world"));
        await handle.write("HELLO", 0);
        const buffer = new Uint8Array(11);
        const { bytesRead } = await handle.read(buffer, 0, 11, 0);
        await handle.close();
        expect([bytesRead, decode(buffer)]).toEqual([11, "HELLO world"]);
      }),
    );
  });

  describe(`${name}: ZenFS's exists, truncate and write tests`, () => {
    it(
      "existsSync and exists",
      withTarget(async ({ fs, sync }, p) => {
        await fs.promises.writeFile(p("here"), "");
        const exists = (path: string) => new Promise<boolean>((resolve) => fs.exists(path, resolve));
        expect([await exists(p("here")), await exists(p("gone"))]).toEqual([true, false]);
        if (sync) expect([fs.existsSync(p("here")), fs.existsSync(p("gone"))]).toEqual([true, false]);
      }),
    );
    it(
      "truncate shortens and zero-extends",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("t"), "abcdef");
        await fs.promises.truncate(p("t"), 3);
        expect(await fs.promises.readFile(p("t"), "utf8")).toBe("abc");
        await fs.promises.truncate(p("t"), 5);
        expect(Array.from((await fs.promises.readFile(p("t"))) as Uint8Array)).toEqual([97, 98, 99, 0, 0]);
      }),
    );
    it(
      "the callback API: open, write, close, readFile",
      withTarget(async ({ fs }, p) => {
        const call = <T>(run: (callback: (error: unknown, value?: T) => void) => void) =>
          new Promise<T>((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));
        const fd = await call<number>((cb) => fs.open(p("cb.txt"), "w", cb));
        const written = await call<number>((cb) => fs.write(fd, "callback", cb));
        await call((cb) => fs.close(fd, cb));
        expect([written, await call<string>((cb) => fs.readFile(p("cb.txt"), "utf8", cb))]).toEqual([8, "callback"]);
      }),
    );
    it(
      "writeSync and readSync through a descriptor",
      withTarget(({ fs, sync }, p) => {
        if (!sync) return;
        const fd = fs.openSync(p("sync.txt"), "w+");
        expect(fs.writeSync(fd, "sync write")).toBe(10);
        const buffer = new Uint8Array(4);
        expect(fs.readSync(fd, buffer, 0, 4, 5)).toBe(4);
        fs.closeSync(fd);
        expect([decode(buffer), fs.readFileSync(p("sync.txt"), "utf8")]).toEqual(["writ", "sync write"]);
      }),
    );
    it(
      "copyFile copies; with COPYFILE_EXCL it refuses an existing destination",
      withTarget(async ({ fs }, p) => {
        await fs.promises.writeFile(p("src"), "data");
        await fs.promises.copyFile(p("src"), p("dst"));
        expect(await fs.promises.readFile(p("dst"), "utf8")).toBe("data");
        expect((await rejection(fs.promises.copyFile(p("src"), p("dst"), fs.constants.COPYFILE_EXCL))).code).toBe(
          "EEXIST",
        );
      }),
    );
    it(
      "rm of a missing path is ENOENT, with force nothing; rm of a directory without recursive is refused",
      withTarget(async ({ fs }, p) => {
        expect((await rejection(fs.promises.rm(p("gone")))).code).toBe("ENOENT");
        await fs.promises.rm(p("gone"), { force: true });
        await fs.promises.mkdir(p("d"));
        expect((await rejection(fs.promises.rm(p("d")))).code).toMatch(/^(EISDIR|ERR_FS_EISDIR)$/);
      }),
    );
    it(
      "a file: URL and a relative-looking path with .. resolve as Node's do",
      withTarget(async ({ fs }, p) => {
        await fs.promises.mkdir(p("d"));
        await fs.promises.writeFile(new URL(`file://${p("u.txt")}`), "url");
        expect(await fs.promises.readFile(p("d/../u.txt"), "utf8")).toBe("url");
      }),
    );
  });
}

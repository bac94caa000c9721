import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { locksFor } from "../../../src/tools/kit/context.js";
import { createEditTool } from "../../../src/tools/edit/index.js";
import { createFsTools } from "../../../src/shell/defaults.js";
import { createGlobTool } from "../../../src/tools/glob/index.js";
import { createGrepTool } from "../../../src/tools/grep/index.js";
import { createListTool } from "../../../src/tools/list/index.js";
import { createReadTool } from "../../../src/tools/read/index.js";
import { resultText } from "../../../src/tools/kit/result.js";
import { memoryStore } from "../../../src/tools/kit/state.js";
import { createWriteTool } from "../../../src/tools/write/index.js";
import type { FileSystem } from "../../../src/contract/types.js";

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function creationError(options: Record<string, unknown>): string {
  const fs = memoryFileSystem({ files: { "/w/a.txt": "x\n" } });
  try {
    createFsTools({ fs, cwd: "/w", ...options } as never);
  } catch (error) {
    return error instanceof TypeError ? error.message : `not a TypeError: ${String(error)}`;
  }
  return "no error";
}

function readError(options: Record<string, unknown>): string {
  const fs = memoryFileSystem({ files: { "/w/a.txt": "x\n" } });
  try {
    createReadTool({ fs, cwd: "/w", ...options } as never);
  } catch (error) {
    return error instanceof TypeError ? error.message : `not a TypeError: ${String(error)}`;
  }
  return "no error";
}

describe("shared options checked at creation", () => {
  it("names the option in a TypeError", () => {
    expect(readError({ state: 3 })).toBe(
      "createReadTool state must be a store (get, set, delete), a function of the call returning one, or false; got number 3",
    );
    expect(readError({ state: {} })).toBe(
      "createReadTool state must be a store (get, set, delete), a function of the call returning one, or false; got an object",
    );
    expect(readError({ locks: {} })).toBe(
      "createReadTool locks must be an object with a run function (see memoryLocks), got an object",
    );
    expect(readError({ digest: "sha" })).toBe(
      'createReadTool digest must be a function (bytes => hex string), got the string "sha"',
    );
    expect(readError({ clock: 5 })).toBe(
      "createReadTool clock must be a function returning milliseconds, got number 5",
    );
    expect(readError({ permissions: { block: [] } })).toBe(
      'createReadTool permissions got an unknown option "block". Known options: allow, deny, approve',
    );
    expect(readError({ permissions: { allow: "x" } })).toBe(
      'createReadTool permissions.allow must be an array of rules, got the string "x"',
    );
    expect(readError({ permissions: { allow: [{ tool: "read", path: "/x" }] } })).toBe(
      'createReadTool permissions.allow[0].tool must be one of readFile, writeFile, listDir, runBash, got "read"',
    );
    expect(readError({ permissions: { approve: true } })).toBe(
      "createReadTool permissions.approve must be a function, got boolean true",
    );
    expect(readError({ allowedRoots: "/w" })).toBe(
      'createReadTool allowedRoots must be an array of absolute paths, got the string "/w"',
    );
    expect(readError({ cwd: "/elsewhere", allowedRoots: ["/w", "/v"] })).toBe(
      'createReadTool cwd "/elsewhere" is outside every allowed root (/w, /v)',
    );
    expect(readError({ cwd: "/w/sub", allowedRoots: ["/w"] })).toBe("no error");
    expect(readError({ state: false })).toBe("no error");
  });

  it("createFsTools names a tool's setting under the bundle", () => {
    expect(creationError({ read: { maxbytes: 1 } })).toBe(
      'createFsTools read got an unknown option "maxbytes". Known options: maxBytes, maxLineLength, converters, signature',
    );
    expect(creationError({ write: { mode: 1 } })).toBe(
      'createFsTools write got an unknown option "mode". Known options: signature',
    );
    expect(creationError({ read: { maxBytes: 0 } })).toBe(
      "createFsTools read.maxBytes must be a positive integer, got 0",
    );
    expect(creationError({ read: { maxBytes: "10" } })).toBe(
      'createFsTools read.maxBytes must be a positive integer, got "10"',
    );
    expect(creationError({ grep: { offload: { foo: 1 } } })).toBe(
      'createFsTools grep.offload got an unknown option "foo". Known options: thresholdBytes, previewBytes',
    );
    expect(creationError({ permissions: { block: [] } })).toBe(
      'createFsTools permissions got an unknown option "block". Known options: allow, deny, approve',
    );
  });
});

describe("execute never throws for bad input or a failing backend", () => {
  it("validates input inside execute", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "x\n" } });
    const read = createReadTool({ fs, cwd: "/w" });
    const result = await read.execute({ path: "a.txt", offset: 0 });
    expect(result).toEqual({
      kind: "read",
      ok: false,
      parts: [{ type: "text", text: "read input offset must be ≥ 1, got 0" }],
      error: { code: "EINPUT", message: "read input offset must be ≥ 1, got 0" },
    });
    const grep = createGrepTool({ fs, cwd: "/w" });
    expect((await grep.execute({ pattern: "(" })).error).toEqual({
      code: "EINPUT",
      message: "grep input pattern is not a valid regular expression: Unterminated group",
    });
    const list = createListTool({ fs, cwd: "/w" });
    expect((await list.execute({ path: 3 } as never)).error).toEqual({
      code: "EINPUT",
      message: "list input path must be a string, got number",
    });
  });

  it("turns a plain Error from the backend into EIO", async () => {
    const base = memoryFileSystem({ files: { "/w/a.txt": "x\n" } });
    const broken: FileSystem = new Proxy(base, {
      get(target, key, receiver) {
        if (key === "readFile" || key === "readdir" || key === "writeFile") {
          return async () => {
            throw new Error("disk on fire");
          };
        }
        // Called by name (check, then use): this test injects a fault, it is not about swaps.
        if (key === "noFollow") return undefined;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const tools = createFsTools({ fs: broken, cwd: "/w", state: false });
    expect((await tools.read.execute({ path: "a.txt" })).error).toEqual({
      code: "EIO",
      path: "/w/a.txt",
      message: "a.txt: disk on fire",
    });
    expect((await tools.write.execute({ path: "a.txt", content: "y" })).error).toEqual({
      code: "EIO",
      path: "/w/a.txt",
      message: "a.txt: disk on fire",
    });
    expect((await tools.edit.execute({ path: "a.txt", oldText: "x", newText: "y" })).error).toEqual({
      code: "EIO",
      path: "/w/a.txt",
      message: "a.txt: disk on fire",
    });
    expect((await tools.list.execute({})).error).toEqual({ code: "EIO", path: "/w", message: ".: disk on fire" });
  });

  it("turns an fs or state function that throws or gives null into EIO", async () => {
    const throwing = createReadTool({
      fs: () => {
        throw new Error("no workspace");
      },
      cwd: "/w",
    });
    expect((await throwing.execute({ path: "a.txt" })).error).toEqual({
      code: "EIO",
      message: "The fs option of this call failed: no workspace",
    });
    const nullFs = createGlobTool({ fs: () => null as unknown as FileSystem, cwd: "/w" });
    expect((await nullFs.execute({ pattern: "*" })).error).toEqual({
      code: "EIO",
      message: "The fs option of this call gave null, not a FileSystem",
    });
    const fs = memoryFileSystem({ files: { "/w/a.txt": "x\n" } });
    const nullState = createWriteTool({ fs, cwd: "/w", state: () => null as never });
    expect((await nullState.execute({ path: "a.txt", content: "y" })).error).toEqual({
      code: "EIO",
      message: "The state option of this call gave null, not a store",
    });
    expect(text(await fs.readFile("/w/a.txt"))).toBe("x\n");
  });
});

describe("default locks are shared per backend", () => {
  it("locksFor gives one Locks per backend object", () => {
    const a = memoryFileSystem();
    const b = memoryFileSystem();
    expect(locksFor(a)).toBe(locksFor(a));
    expect(locksFor(a)).not.toBe(locksFor(b));
  });

  it("20 parallel edits by 20 single tools over one store all land", async () => {
    const fs = memoryFileSystem({
      files: { "/w/a.txt": Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n") + "\n" },
    });
    const state = memoryStore();
    await createReadTool({ fs, cwd: "/w", state }).execute({ path: "a.txt" });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createEditTool({ fs, cwd: "/w", state }).execute({
          path: "a.txt",
          oldText: `line ${i}\n`,
          newText: `LINE ${i}\n`,
        }),
      ),
    );
    expect(results.map((r) => r.ok)).toEqual(Array.from({ length: 20 }, () => true));
    expect(text(await fs.readFile("/w/a.txt"))).toBe(
      Array.from({ length: 20 }, (_, i) => `LINE ${i}`).join("\n") + "\n",
    );
  });

  it("two bundles over one backend serialize their edits", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\nb\n" } });
    const one = createFsTools({ fs, cwd: "/w", state: false });
    const two = createFsTools({ fs, cwd: "/w", state: false });
    const [x, y] = await Promise.all([
      one.edit.execute({ path: "a.txt", oldText: "a\n", newText: "A\n" }),
      two.edit.execute({ path: "a.txt", oldText: "b\n", newText: "B\n" }),
    ]);
    expect([x.ok, y.ok]).toEqual([true, true]);
    expect(text(await fs.readFile("/w/a.txt"))).toBe("A\nB\n");
  });

  it("two parallel writes to one new path: the second does not overwrite what it never saw", async () => {
    const fs = memoryFileSystem({ files: { "/w/keep.txt": "" } });
    const tools = createFsTools({ fs, cwd: "/w", state: memoryStore() });
    const [first, second] = await Promise.all([
      tools.write.execute({ path: "new.txt", content: "first" }),
      tools.write.execute({ path: "new.txt", content: "second" }),
    ]);
    expect(resultText(first)).toBe("wrote 5 bytes to new.txt");
    expect(second.error).toEqual({
      code: "ESTALE",
      path: "/w/new.txt",
      message: "new.txt was written by another call after this write began. Read the file, then retry.",
    });
    expect(text(await fs.readFile("/w/new.txt"))).toBe("first");
    // Sequentially, a second write of a file this session wrote goes through.
    expect(resultText(await tools.write.execute({ path: "new.txt", content: "third" }))).toBe(
      "wrote 5 bytes to new.txt",
    );
  });

  it("a host's own locks are used instead", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const seen: string[][] = [];
    const locks = { run: <T>(keys: readonly string[], fn: () => Promise<T>) => (seen.push([...keys]), fn()) };
    await createEditTool({ fs, cwd: "/w", locks }).execute({ path: "a.txt", oldText: "a", newText: "b" });
    expect(seen).toEqual([["/w/a.txt"]]);
  });
});

describe("locksFor and a backend's own locks", () => {
  it("uses the locks a backend carries (e.g. OPFS Web Locks), else one set per backend object", async () => {
    const taken: string[][] = [];
    const own = { run: async <T>(keys: readonly string[], fn: () => Promise<T>) => (taken.push([...keys]), fn()) };
    const fs = Object.assign(memoryFileSystem({ files: { "/w/a.txt": "x\n" } }), { locks: own });
    expect(locksFor(fs)).toBe(own);
    const plain = memoryFileSystem();
    expect(locksFor(plain)).toBe(locksFor(plain));
    expect(locksFor(plain)).not.toBe(locksFor(memoryFileSystem()));
    const edit = createEditTool({ fs, cwd: "/w" });
    const result = await edit.execute({ path: "a.txt", oldText: "x", newText: "y" });
    expect(resultText(result)).toBe("replaced 1 occurrence in a.txt at line 1");
    expect(taken).toEqual([["/w/a.txt"]]);
  });
});

describe("the fs option: a mistake says what to pass", () => {
  const BACKENDS =
    'a FileSystem such as memoryFileSystem() from "better-fs-tools/memory" or, in Node, nodeFileSystem({ cwd }) from "better-fs-tools/node" (or a function of the call returning one)';
  it("a path given as fs names the mistake and nodeFileSystem, from the factory called", () => {
    const path =
      'must be a FileSystem, not a path: to work on the directory "/tmp" of this machine, pass fs: nodeFileSystem({ cwd: "/tmp" }) ' +
      'from "better-fs-tools/node" (Node only; cwd: "/tmp" too), or memoryFileSystem() from "better-fs-tools/memory" for files in memory';
    expect(() => createFsTools({ fs: "/tmp" } as never)).toThrow(new TypeError(`createFsTools fs ${path}`));
    expect(() => createReadTool({ fs: "/tmp" } as never)).toThrow(new TypeError(`createReadTool fs ${path}`));
    expect(() => createGrepTool({} as never)).toThrow(new TypeError(`createGrepTool fs must be given: ${BACKENDS}`));
    expect(() => createListTool({ fs: 42 } as never)).toThrow(
      new TypeError(`createListTool fs must be ${BACKENDS}, got number 42`),
    );
  });
});

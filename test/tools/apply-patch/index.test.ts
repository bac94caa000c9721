import { PROMISE_METHODS } from "../../../src/contract/forward.js";
import { describe, expect, test } from "vitest";
import { memoryFileSystem, type MemoryFileSystem } from "../../../src/backends/memory/index.js";
import { type FileSystem } from "../../../src/contract/types.js";
import { FsError } from "../../../src/contract/errors.js";
import { createApplyPatchTool } from "../../../src/tools/apply-patch/index.js";
import { resultText } from "../../../src/tools/kit/result.js";
import { memoryStore } from "../../../src/tools/kit/state.js";
import { sha256Digest } from "../../../src/contract/digest.js";
import { memoryLocks } from "../../../src/contract/locks.js";
import { ToolInputError } from "../../../src/tools/kit/tool.js";

const wrap = (body: string): string => `*** Begin Patch\n${body}\n*** End Patch`;
const text = async (fs: FileSystem, path: string): Promise<string> =>
  new TextDecoder("utf-8", { ignoreBOM: true }).decode(await fs.readFile(path));

function setup(files: Record<string, string | Uint8Array>): {
  fs: MemoryFileSystem;
  run: (patch: string) => ReturnType<ReturnType<typeof createApplyPatchTool>["execute"]>;
} {
  const fs = memoryFileSystem({ files });
  const tool = createApplyPatchTool({ fs, cwd: "/w" });
  return { fs, run: (patch) => tool.execute(tool.validate({ patch })) };
}

describe("apply_patch success", () => {
  test("lists added, updated, moved and deleted files in patch order", async () => {
    const { fs, run } = setup({ "/w/mod.txt": "a\nb\n", "/w/old/name.txt": "x\n", "/w/gone.txt": "bye\n" });
    const result = await run(
      wrap(
        "*** Add File: new/dir/file.txt\n+hello\n*** Update File: mod.txt\n@@\n-b\n+B\n*** Update File: old/name.txt\n*** Move to: moved.txt\n@@\n-x\n+y\n*** Delete File: gone.txt",
      ),
    );
    expect(result).toEqual({
      kind: "mutation",
      ok: true,
      parts: [
        {
          type: "text",
          text: "Success. Updated the following files:\nA new/dir/file.txt\nM mod.txt\nM moved.txt (moved from old/name.txt)\nD gone.txt",
        },
      ],
      changes: [
        { action: "added", path: "/w/new/dir/file.txt", bytes: 6 },
        { action: "updated", path: "/w/mod.txt", bytes: 4, line: 2 },
        { action: "moved", path: "/w/moved.txt", from: "/w/old/name.txt", bytes: 2, line: 1 },
        { action: "deleted", path: "/w/gone.txt" },
      ],
    });
    expect(fs.volume.toJSON()).toEqual({
      "/w/mod.txt": "a\nB\n",
      "/w/moved.txt": "y\n",
      "/w/new/dir/file.txt": "hello\n",
      "/w/old": null,
    });
  });

  test("CRLF files stay CRLF, new lines included; untouched lines keep their own endings", async () => {
    const { fs, run } = setup({ "/w/a.txt": "one\r\ntwo\r\nthree\r\n", "/w/mixed.txt": "a\r\nb\nc\r\nd\r\n" });
    const result = await run(
      wrap("*** Update File: a.txt\n@@\n one\n-two\n+TWO\n+2b\n*** Update File: mixed.txt\n@@\n-c\n+C"),
    );
    expect(result.ok).toBe(true);
    expect(await text(fs, "/w/a.txt")).toBe("one\r\nTWO\r\n2b\r\nthree\r\n");
    expect(await text(fs, "/w/mixed.txt")).toBe("a\r\nb\nC\r\nd\r\n");
  });

  test("a BOM is kept; a file without a final newline gets one", async () => {
    const { fs, run } = setup({ "/w/bom.txt": "\uFEFFfirst\nsecond", "/w/n.txt": "x" });
    expect(
      (await run(wrap("*** Update File: bom.txt\n@@\n-second\n+2nd\n*** Update File: n.txt\n@@\n-x\n+y"))).ok,
    ).toBe(true);
    expect([...(await fs.readFile("/w/bom.txt")).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(await text(fs, "/w/bom.txt")).toBe("\uFEFFfirst\n2nd\n");
    expect(await text(fs, "/w/n.txt")).toBe("y\n");
  });

  test("files without a final newline: appended lines, a replaced last line, untouched tails", async () => {
    const { fs, run } = setup({ "/w/a.txt": "a\nb", "/w/b.txt": "a\nb", "/w/c.txt": "a\nb", "/w/e.txt": "" });
    const result = await run(
      wrap(
        "*** Update File: a.txt\n@@\n+c\n*** Update File: b.txt\n@@\n-b\n+B\n@@\n+c\n*** Update File: c.txt\n@@\n-a\n+A\n*** Update File: e.txt\n@@\n+x",
      ),
    );
    expect(result.ok).toBe(true);
    expect(fs.volume.toJSON()).toEqual({
      "/w/a.txt": "a\nb\nc\n",
      "/w/b.txt": "a\nB\nc\n",
      "/w/c.txt": "A\nb\n",
      "/w/e.txt": "x\n",
    });
  });

  test("@@ context lines narrow the search; a pure addition goes right after the last one", async () => {
    const source = "class A:\n  def f():\n    return 1\nclass B:\n  def f():\n    return 1\n";
    const { fs, run } = setup({ "/w/m.py": source });
    const result = await run(
      wrap("*** Update File: m.py\n@@ class B:\n@@   def f():\n-    return 1\n+    return 2\n@@ class A:\n+  x = 0"),
    );
    expect(result.ok).toBe(false);
    // Hunks go forward only: class A is before class B, so the second hunk is not found.
    expect(resultText(result)).toBe(
      "Could not find the @@ context line in m.py, hunk 2 (@@ class A:), patch line 7 (searching after file line 6):\n    class A:\nNothing was changed.",
    );
    const ok = await run(
      wrap("*** Update File: m.py\n@@ class A:\n+  x = 0\n@@ class B:\n@@   def f():\n-    return 1\n+    return 2"),
    );
    expect(resultText(ok)).toBe("Success. Updated the following files:\nM m.py");
    expect(await text(fs, "/w/m.py")).toBe(
      "class A:\n  x = 0\n  def f():\n    return 1\nclass B:\n  def f():\n    return 2\n",
    );
  });

  test("typographic punctuation in the file matches ASCII in the patch", async () => {
    const { fs, run } = setup({ "/w/u.py": "import asyncio  # local import \u2013 avoids top\u2011level dep\n" });
    expect(
      (
        await run(
          wrap(
            "*** Update File: u.py\n@@\n-import asyncio  # local import - avoids top-level dep\n+import asyncio  # HELLO",
          ),
        )
      ).ok,
    ).toBe(true);
    expect(await text(fs, "/w/u.py")).toBe("import asyncio  # HELLO\n");
  });

  test("operations on one file apply in order (add, then update, then move)", async () => {
    const { fs, run } = setup({});
    const result = await run(
      wrap("*** Add File: a.txt\n+one\n+two\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-two\n+2"),
    );
    expect(resultText(result)).toBe("Success. Updated the following files:\nA a.txt\nM b.txt (moved from a.txt)");
    expect(fs.volume.toJSON()).toEqual({ "/w/b.txt": "one\n2\n" });
  });

  test("the heredoc wrapper is accepted", async () => {
    const { fs, run } = setup({});
    expect((await run("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: h.txt\n+hi\n*** End Patch\nEOF\n")).ok).toBe(
      true,
    );
    expect(await text(fs, "/w/h.txt")).toBe("hi\n");
  });
});

describe("apply_patch failures change nothing", () => {
  const files = { "/w/dup.txt": "x\ny\nx\ny\n", "/w/keep.txt": "keep\n", "/w/dir/f.txt": "f\n" };

  test.each([
    [
      "ambiguous old lines",
      "*** Update File: dup.txt\n@@\n-x\n+z",
      "EAMBIGUOUS",
      "The expected lines match 2 places (file lines 1, 3) in dup.txt, hunk 1, patch line 3:\n    x\nAdd more context lines, or an @@ line naming the enclosing function or class, so the hunk matches once.\nNothing was changed.",
    ],
    [
      "ambiguous @@ context",
      "*** Update File: dup.txt\n@@ y\n-x\n+z",
      "EAMBIGUOUS",
      "The @@ context line matches 2 places (file lines 2, 4) in dup.txt, hunk 1 (@@ y), patch line 3:\n    y\nUse a more specific @@ line (add an enclosing class or function as an earlier @@ line).\nNothing was changed.",
    ],
    [
      "missing lines in the second hunk",
      "*** Add File: new.txt\n+n\n*** Update File: keep.txt\n@@\n-keep\n+KEEP\n@@\n-nope\n-nope2\n+z",
      "ENOMATCH",
      "Could not find the expected lines after file line 1 in keep.txt, hunk 2, patch line 8:\n    nope\n    nope2\nRead the file again and copy the context and '-' lines exactly.\nNothing was changed.",
    ],
    [
      "end-of-file hunk not at the end",
      "*** Update File: dup.txt\n@@\n-x\n*** End of File",
      "ENOMATCH",
      "Could not find the expected lines at the end of the file in dup.txt, hunk 1, patch line 3:\n    x\nRead the file again and copy the context and '-' lines exactly.\nNothing was changed.",
    ],
    [
      "update of a missing file",
      "*** Add File: new.txt\n+n\n*** Update File: missing.txt\n@@\n-old\n+new",
      "ENOENT",
      "Cannot update missing.txt: no such file (in '*** Update File: missing.txt' at patch line 4). Use '*** Add File:' to create a file.\nNothing was changed.",
    ],
    [
      "delete of a missing file",
      "*** Delete File: missing.txt",
      "ENOENT",
      "Cannot delete missing.txt: no such file (in '*** Delete File: missing.txt' at patch line 2).\nNothing was changed.",
    ],
    [
      "delete of a directory",
      "*** Delete File: dir",
      "EISDIR",
      "Cannot delete dir: it is a directory, not a file (in '*** Delete File: dir' at patch line 2).\nNothing was changed.",
    ],
    [
      "add over a directory",
      "*** Add File: dir\n+x",
      "EISDIR",
      "Cannot add dir: it is a directory (in '*** Add File: dir' at patch line 2).\nNothing was changed.",
    ],
    [
      "move onto a directory",
      "*** Update File: keep.txt\n*** Move to: dir\n@@\n-keep\n+k",
      "EISDIR",
      "Cannot move keep.txt to dir: the destination is a directory (in '*** Update File: keep.txt' at patch line 2).\nNothing was changed.",
    ],
    [
      "a parse error",
      "*** Frobnicate File: foo",
      "EINPUT",
      "Invalid patch hunk on line 2: '*** Frobnicate File: foo' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'\nNothing was changed.",
    ],
  ])("%s", async (_name, body, code, message) => {
    const { fs, run } = setup(files);
    const before = fs.volume.toJSON();
    const result = await run(wrap(body));
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe(code);
    expect(resultText(result)).toBe(message);
    expect(result.changes).toEqual([]);
    expect(fs.volume.toJSON()).toEqual(before);
  });

  test("a path outside the workspace is refused by the gate, before anything is read", async () => {
    const { fs, run } = setup({ "/etc/passwd": "root\n", ...files });
    const result = await run(wrap("*** Add File: ok.txt\n+x\n*** Update File: ../etc/passwd\n@@\n-root\n+evil"));
    expect(result.error?.code).toBe("EDENIED");
    expect(resultText(result)).toMatch(
      /^Permission denied: \/etc\/passwd is outside the workspace.*\(in '\*\*\* Update File: \.\.\/etc\/passwd' at patch line 4\)\nNothing was changed\.$/s,
    );
    expect(await text(fs, "/etc/passwd")).toBe("root\n");
    await expect(fs.stat("/w/ok.txt")).rejects.toThrow("ENOENT");
  });

  test("a file that is not UTF-8 is refused untouched", async () => {
    const { fs, run } = setup({ "/w/bin.dat": Uint8Array.of(0x61, 0x0a, 0xff, 0x0a) });
    const result = await run(wrap("*** Update File: bin.dat\n@@\n-a\n+b"));
    expect(resultText(result)).toBe(
      "bin.dat is not valid UTF-8 text (invalid byte at offset 2); apply_patch only edits text files.\nNothing was changed.",
    );
    expect([...(await fs.readFile("/w/bin.dat"))]).toEqual([0x61, 0x0a, 0xff, 0x0a]);
  });

  test("a file over maxFileBytes is refused with EFBIG", async () => {
    const fs = memoryFileSystem({ files: { "/w/big.txt": "0123456789\n" } });
    const tool = createApplyPatchTool({ fs, cwd: "/w", maxFileBytes: 10 });
    const result = await tool.execute({ patch: wrap("*** Update File: big.txt\n@@\n-0123456789\n+x") });
    expect(result.error?.code).toBe("EFBIG");
    expect(resultText(result)).toBe(
      "big.txt is 11 bytes, over the 10 bytes apply_patch edits (maxFileBytes).\nNothing was changed.",
    );
  });

  test("a write failing midway restores what was written and removes the directories it created", async () => {
    const memory = memoryFileSystem({ files: { "/w/a.txt": "a\n", "/w/z.txt": "z\n", "/w/gone.txt": "g\n" } });
    const failing: FileSystem = {
      ...memory,
      // Called by name (check, then use): this test injects a fault, it is not about swaps.
      noFollow: undefined,
      async writeFile(path, data) {
        if (path === "/w/z.txt") throw new FsError("ENOSPC", { syscall: "write", path });
        return memory.writeFile(path, data);
      },
    };
    const tool = createApplyPatchTool({ fs: failing, cwd: "/w" });
    const before = memory.volume.toJSON();
    const result = await tool.execute({
      patch: wrap(
        "*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: deep/new/file.txt\n+n\n*** Delete File: gone.txt\n*** Update File: z.txt\n@@\n-z\n+Z",
      ),
    });
    expect(result.error?.code).toBe("ENOSPC");
    expect(resultText(result)).toBe(
      "Writing z.txt failed: ENOSPC: no space left on device, write '/w/z.txt'. Every file was restored: nothing was changed.",
    );
    expect(memory.volume.toJSON()).toEqual(before);
  });
});

describe("apply_patch symlinks and aborts", () => {
  test("Delete File of a symlink removes the link, not its target; Update writes through it", async () => {
    const fs = memoryFileSystem({ files: { "/w/target.txt": "t\n" } });
    await fs.symlink("/w/target.txt", "/w/link.txt");
    const tool = createApplyPatchTool({ fs, cwd: "/w" });
    expect(resultText(await tool.execute({ patch: wrap("*** Update File: link.txt\n@@\n-t\n+T") }))).toBe(
      "Success. Updated the following files:\nM target.txt",
    );
    expect(resultText(await tool.execute({ patch: wrap("*** Delete File: link.txt") }))).toBe(
      "Success. Updated the following files:\nD link.txt",
    );
    expect(fs.volume.toJSON()).toEqual({ "/w/target.txt": "T\n" });
  });

  test("an aborted call throws the abort reason and changes nothing", async () => {
    const { fs } = setup({ "/w/a.txt": "a\n" });
    const tool = createApplyPatchTool({ fs, cwd: "/w" });
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(
      tool.execute({ patch: wrap("*** Update File: a.txt\n@@\n-a\n+A") }, { abortSignal: controller.signal }),
    ).rejects.toThrow("stop");
    expect(fs.volume.toJSON()).toEqual({ "/w/a.txt": "a\n" });
  });
});

describe("apply_patch read-before-write", () => {
  test("with a store, changing an existing file needs a prior read; new files and matched updates do not", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n", "/w/b.txt": "b\n" } });
    const state = memoryStore();
    const digest = sha256Digest();
    const tool = createApplyPatchTool({ fs, cwd: "/w", state, digest, clock: () => 42 });
    const patch = wrap("*** Add File: c.txt\n+c\n*** Update File: a.txt\n@@\n-a\n+A\n*** Delete File: b.txt");

    // a.txt: its hunk matched the current file, so it counts as read; b.txt is deleted unread.
    const unread = await tool.execute({ patch });
    expect(unread.error?.code).toBe("ENOTREAD");
    expect(resultText(unread)).toBe(
      "b.txt has not been read in this session. Read the file first, then retry.\nNothing was changed.",
    );

    await state.set("/w/b.txt", { digest: await digest(new TextEncoder().encode("old b\n")), atMs: 1 });
    const stale = await tool.execute({ patch });
    expect(stale.error?.code).toBe("ESTALE");
    expect(resultText(stale)).toBe(
      "b.txt has changed since it was last read. Read the file again, then retry.\nNothing was changed.",
    );
    expect(fs.volume.toJSON()).toEqual({ "/w/a.txt": "a\n", "/w/b.txt": "b\n" });

    await state.set("/w/b.txt", { digest: await digest(new TextEncoder().encode("b\n")), atMs: 1 });
    const ok = await tool.execute({ patch });
    expect(resultText(ok)).toBe("Success. Updated the following files:\nA c.txt\nM a.txt\nD b.txt");
    expect(await state.get("/w/a.txt")).toEqual({ digest: await digest(new TextEncoder().encode("A\n")), atMs: 42 });
    expect(await state.get("/w/c.txt")).toEqual({ digest: await digest(new TextEncoder().encode("c\n")), atMs: 42 });
    expect(await state.get("/w/b.txt")).toBeUndefined();
  });

  test("with a store, an update that matched the current file counts as a read; one that proves nothing does not", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\ntwo\n", "/w/b.txt": "b\n" } });
    const state = memoryStore();
    const digest = sha256Digest();
    const tool = createApplyPatchTool({ fs, cwd: "/w", state, digest });
    // Read once, then changed by someone else: the hunk still matches the current text.
    await state.set("/w/a.txt", { digest: await digest(new TextEncoder().encode("old\n")), atMs: 1 });
    const matched = await tool.execute({ patch: wrap("*** Update File: a.txt\n@@\n one\n-two\n+2") });
    expect(resultText(matched)).toBe("Success. Updated the following files:\nM a.txt");
    expect(await text(fs, "/w/a.txt")).toBe("one\n2\n");
    // A hunk of + lines only (an append) shows nothing of the file: a read is still needed.
    const append = await tool.execute({ patch: wrap("*** Update File: b.txt\n@@\n+more") });
    expect(resultText(append)).toBe(
      "b.txt has not been read in this session. Read the file first, then retry.\nNothing was changed.",
    );
    expect(await text(fs, "/w/b.txt")).toBe("b\n");
  });

  test("without a store no read is needed", async () => {
    const { fs, run } = setup({ "/w/a.txt": "a\n" });
    expect((await run(wrap("*** Update File: a.txt\n@@\n-a\n+A"))).ok).toBe(true);
    expect(await text(fs, "/w/a.txt")).toBe("A\n");
  });
});

describe("apply_patch checks and lookups", () => {
  /** The backend calls made, as `method path` (failures marked `!`), in order. */
  function counting(fs: FileSystem): { fs: FileSystem; calls: string[] } {
    const calls: string[] = [];
    // Called by name (check, then use), so every call is counted here.
    const wrapped: FileSystem = { ...fs, noFollow: undefined };
    for (const method of PROMISE_METHODS) {
      const original = fs[method] as ((...args: unknown[]) => Promise<unknown>) | undefined;
      if (original === undefined) continue;
      (wrapped as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method] = async (
        ...args: unknown[]
      ) => {
        try {
          const value = await original.apply(fs, args);
          calls.push(`${method} ${String(args[0])}`);
          return value;
        } catch (error) {
          calls.push(`${method} ${String(args[0])} !`);
          throw error;
        }
      };
    }
    return { fs: wrapped, calls };
  }

  test("each directory is resolved once and a created file is looked up once, by the gate", async () => {
    const { fs, calls } = counting(memoryFileSystem({ files: { "/w/src/a.ts": "a\n", "/w/src/b.ts": "b\n" } }));
    const tool = createApplyPatchTool({ fs, cwd: "/w" });
    const result = await tool.execute({
      patch: wrap(
        "*** Update File: src/a.ts\n@@\n-a\n+A\n*** Delete File: src/b.ts\n*** Add File: src/c.ts\n+c\n*** Add File: new/d.ts\n+d",
      ),
    });
    expect(resultText(result)).toBe(
      "Success. Updated the following files:\nM src/a.ts\nD src/b.ts\nA src/c.ts\nA new/d.ts",
    );
    expect(calls.slice(0, 8).sort()).toStrictEqual(
      [
        "realpath /w",
        "realpath /w/src",
        "realpath /w/new !",
        "lstat /w/new !",
        "lstat /w/src/a.ts",
        "lstat /w/src/b.ts",
        "lstat /w/src/c.ts !",
        "realpath /w",
      ].sort(),
    );
    expect(calls.slice(8).sort()).toStrictEqual(
      [
        "readFile /w/src/a.ts",
        "readFile /w/src/b.ts",
        "writeFile /w/src/a.ts",
        "writeFile /w/src/c.ts",
        "writeFile /w/new/d.ts",
        "rm /w/src/b.ts",
      ].sort(),
    );
  });

  test("a file another call creates while the patch waits for its lock is seen as existing (read-before-write applies)", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const locks = memoryLocks();
    const tool = createApplyPatchTool({ fs, cwd: "/w", locks, state: memoryStore() });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const other = locks.run(["/w/n.txt"], async () => {
      await held;
      await fs.writeFile("/w/n.txt", new TextEncoder().encode("theirs\n"));
    });
    const patched = tool.execute({ patch: wrap("*** Add File: n.txt\n+mine") });
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    await other;
    const result = await patched;
    expect(result.error?.code).toBe("ENOTREAD");
    expect(fs.volume.toJSON()).toEqual({ "/w/a.txt": "a\n", "/w/n.txt": "theirs\n" });
  });

  test("through a symlinked directory the real paths are locked and looked up again", async () => {
    const fs = memoryFileSystem({ files: { "/w/real/a.txt": "a\n" } });
    await fs.symlink("/w/real", "/w/alias");
    const tool = createApplyPatchTool({ fs, cwd: "/w" });
    const result = await tool.execute({
      patch: wrap("*** Update File: alias/a.txt\n@@\n-a\n+A\n*** Add File: alias/b.txt\n+b"),
    });
    expect(resultText(result)).toBe("Success. Updated the following files:\nM real/a.txt\nA real/b.txt");
    expect(fs.volume.toJSON()).toEqual({ "/w/real/a.txt": "A\n", "/w/real/b.txt": "b\n" });
    expect(await fs.readlink("/w/alias")).toBe("/w/real");
  });
});

describe("apply_patch concurrency, input and options", () => {
  test("two patches of one file at once both land (per-path locks)", async () => {
    const { fs, run } = setup({ "/w/log.txt": "start\n" });
    const [first, second] = await Promise.all([
      run(wrap("*** Update File: log.txt\n@@\n+one")),
      run(wrap("*** Update File: log.txt\n@@\n+two")),
    ]);
    expect([first.ok, second.ok]).toEqual([true, true]);
    const lines = (await text(fs, "/w/log.txt")).split("\n");
    expect(lines.slice().sort()).toEqual(["", "one", "start", "two"]);
  });

  test("validate names the expected key", () => {
    const tool = createApplyPatchTool({ fs: memoryFileSystem() });
    expect(() => tool.validate({ input: "x" })).toThrow(
      new ToolInputError("Unknown apply_patch input key: input. Expected patch"),
    );
    expect(() => tool.validate({ patch: "" })).toThrow(new ToolInputError("apply_patch input patch must not be empty"));
    expect(tool.validate({ patch: "p" })).toEqual({ patch: "p" });
    expect(tool.name).toBe("apply_patch");
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: {
        patch: {
          type: "string",
          description: "The entire patch, from '*** Begin Patch' to '*** End Patch'.",
          minLength: 1,
        },
      },
      required: ["patch"],
      additionalProperties: false,
    });
  });

  test("unknown or bad options throw TypeError at creation", () => {
    const fs = memoryFileSystem();
    expect(() => createApplyPatchTool({ fs, maxBytes: 1 } as never)).toThrow(
      new TypeError(
        'createApplyPatchTool got an unknown option "maxBytes". Known options: fs, cwd, allowedRoots, permissions, state, locks, digest, clock, maxFileBytes',
      ),
    );
    expect(() => createApplyPatchTool({ fs, maxFileBytes: 0 })).toThrow(
      new TypeError("createApplyPatchTool maxFileBytes must be a positive integer (bytes), got 0"),
    );
  });
});

describe("apply_patch guarded execute", () => {
  const encode = (value: string): Uint8Array => new TextEncoder().encode(value);

  test("bad input given straight to execute is an EINPUT result, not a throw", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const tool = createApplyPatchTool({ fs, cwd: "/w" });
    expect(await tool.execute({ patch: "" })).toEqual({
      kind: "mutation",
      ok: false,
      parts: [{ type: "text", text: "apply_patch input patch must not be empty" }],
      error: { code: "EINPUT", message: "apply_patch input patch must not be empty" },
      changes: [],
    });
    expect(await tool.execute({ patch: 7 } as never)).toEqual({
      kind: "mutation",
      ok: false,
      parts: [{ type: "text", text: "apply_patch input patch must be a string, got number" }],
      error: { code: "EINPUT", message: "apply_patch input patch must be a string, got number" },
      changes: [],
    });
    expect(fs.volume.toJSON()).toEqual({ "/w/a.txt": "a\n" });
  });

  test("a backend write throwing a plain Error mid-patch is EIO and every file is as it was", async () => {
    const base = memoryFileSystem({ files: { "/w/a.txt": "a\n", "/w/b.txt": "b\n", "/w/c.txt": "c\n" } });
    const fs: FileSystem = {
      ...base,
      // Called by name (check, then use): this test injects a fault, it is not about swaps.
      noFollow: undefined,
      readFile: (path, ...rest) => base.readFile(path, ...rest),
      readdir: (path, ...rest) => base.readdir(path, ...rest),
      stat: (path) => base.stat(path),
      rm: (path, ...rest) => base.rm(path, ...rest),
      writeFile: async (path, data, ...rest) => {
        if (path === "/w/b.txt") throw new Error("disk on fire");
        return base.writeFile(path, data, ...rest);
      },
    };
    const tool = createApplyPatchTool({ fs, cwd: "/w" });
    const result = await tool.execute({
      patch: wrap(
        "*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: new/d.txt\n+d\n*** Update File: b.txt\n@@\n-b\n+B\n*** Delete File: c.txt",
      ),
    });
    expect(result).toEqual({
      kind: "mutation",
      ok: false,
      parts: [
        { type: "text", text: "Writing b.txt failed: disk on fire. Every file was restored: nothing was changed." },
      ],
      error: {
        code: "EIO",
        message: "Writing b.txt failed: disk on fire. Every file was restored: nothing was changed.",
        path: "/w/b.txt",
      },
      changes: [],
    });
    expect(base.volume.toJSON()).toEqual({ "/w/a.txt": "a\n", "/w/b.txt": "b\n", "/w/c.txt": "c\n" });
  });

  test("a backend read throwing a plain Error is EIO with its message and nothing changes", async () => {
    const base = memoryFileSystem({ files: { "/w/a.txt": "a\n", "/w/b.txt": "b\n" } });
    const fs: FileSystem = {
      ...base,
      // Called by name (check, then use): this test injects a fault, it is not about swaps.
      noFollow: undefined,
      readFile: async (path, ...rest) => {
        if (path === "/w/b.txt") throw new Error("connection reset");
        return base.readFile(path, ...rest);
      },
    };
    const tool = createApplyPatchTool({ fs, cwd: "/w" });
    const result = await tool.execute({
      patch: wrap("*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B"),
    });
    expect(result).toEqual({
      kind: "mutation",
      ok: false,
      parts: [{ type: "text", text: "connection reset" }],
      error: { code: "EIO", message: "connection reset" },
      changes: [],
    });
    expect(base.volume.toJSON()).toEqual({ "/w/a.txt": "a\n", "/w/b.txt": "b\n" });
  });

  test("Add File over a read file that another call rewrote while the patch waited is ESTALE", async () => {
    const fs = memoryFileSystem({ files: { "/w/n.txt": "old\n" } });
    const locks = memoryLocks();
    const state = memoryStore();
    const digest = sha256Digest();
    await state.set("/w/n.txt", { digest: await digest(encode("old\n")), atMs: 1 });
    const tool = createApplyPatchTool({ fs, cwd: "/w", locks, state, digest });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Another call writes the file and records it as seen (as write does) while the patch waits.
    const other = locks.run(["/w/n.txt"], async () => {
      await held;
      await fs.writeFile("/w/n.txt", encode("theirs\n"));
      await state.set("/w/n.txt", { digest: await digest(encode("theirs\n")), atMs: 2 });
    });
    const patched = tool.execute({ patch: wrap("*** Add File: n.txt\n+mine") });
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    await other;
    const result = await patched;
    expect(result.error).toEqual({
      code: "ESTALE",
      path: "/w/n.txt",
      message:
        "n.txt was written by another call after this patch began. Read the file, then retry.\nNothing was changed.",
    });
    expect(fs.volume.toJSON()).toEqual({ "/w/n.txt": "theirs\n" });

    // Read again (the record is current): the overwrite goes ahead.
    const again = await tool.execute({ patch: wrap("*** Add File: n.txt\n+mine") });
    expect(resultText(again)).toBe("Success. Updated the following files:\nA n.txt (replaced the existing file)");
    expect(fs.volume.toJSON()).toEqual({ "/w/n.txt": "mine\n" });
  });
});

// Issue 14: the cases where the reference's own tests disagreed with us.
describe("apply_patch as the reference applies it", () => {
  const bytes = (value: string): Uint8Array => new TextEncoder().encode(value);

  test("a pure addition without @@ context keeps the search position: a later hunk with context applies", async () => {
    const { fs, run } = setup({ "/w/f.txt": "a\nb\nc\n" });
    const result = await run(wrap("*** Update File: f.txt\n@@\n+end\n@@\n a\n-b\n+B"));
    expect(resultText(result)).toBe("Success. Updated the following files:\nM f.txt");
    expect(await text(fs, "/w/f.txt")).toBe("a\nB\nc\nend\n");
  });

  test("two hunks at the end of the file never match the lines the first one consumed", async () => {
    const original = "x\ny\nz\n";
    const { fs, run } = setup({ "/w/f.txt": original });
    const result = await run(wrap("*** Update File: f.txt\n@@\n-z\n+Z\n*** End of File\n@@\n-z\n+ZZ\n*** End of File"));
    expect(result.ok).toBe(false);
    expect(resultText(result)).toBe(
      "Could not find the expected lines at the end of the file after file line 3 in f.txt, hunk 2, patch line 7:\n    z\nRead the file again and copy the context and '-' lines exactly.\nNothing was changed.",
    );
    expect(await fs.readFile("/w/f.txt")).toEqual(bytes(original));
    const overlap = await run(wrap("*** Update File: f.txt\n@@\n-y\n-z\n+Y\n@@\n z\n+after\n*** End of File"));
    expect(overlap.ok).toBe(false);
    expect(await fs.readFile("/w/f.txt")).toEqual(bytes(original));
  });

  test("mixed line endings: context and untouched lines keep theirs, added lines take the dominant one", async () => {
    const { fs, run } = setup({ "/w/m.txt": "a\r\nb\nc\r\nd\r\ne\r\n", "/w/lf.txt": "a\nb\r\nc\nd\n" });
    const result = await run(
      wrap("*** Update File: m.txt\n@@\n b\n-c\n+C\n+C2\n d\n*** Update File: lf.txt\n@@\n a\n b\n-c\n+C"),
    );
    expect(result.ok).toBe(true);
    expect(await text(fs, "/w/m.txt")).toBe("a\r\nb\nC\r\nC2\r\nd\r\ne\r\n");
    expect(await text(fs, "/w/lf.txt")).toBe("a\nb\r\nC\nd\n");
  });

  test("lone CR line ends (classic Mac OS) are line ends, kept, and taken by added lines", async () => {
    const { fs, run } = setup({ "/w/mac.txt": "one\rtwo\rthree\r", "/w/mixed.txt": "x\ry\nz\n" });
    const result = await run(
      wrap("*** Update File: mac.txt\n@@\n one\n-two\n+TWO\n+2b\n three\n*** Update File: mixed.txt\n@@\n x\n-y\n+Y"),
    );
    expect(result.ok).toBe(true);
    expect(await text(fs, "/w/mac.txt")).toBe("one\rTWO\r2b\rthree\r");
    expect(await text(fs, "/w/mixed.txt")).toBe("x\rY\nz\n");
  });

  test("an added empty line after a lone CR line stays its own line", async () => {
    const { fs, run } = setup({ "/w/f.txt": "a\rb\nc\n" });
    expect((await run(wrap("*** Update File: f.txt\n@@\n a\n+\n b"))).ok).toBe(true);
    // "a\r" + "\n" would read as one CRLF line end: the empty line ends with a CR instead.
    expect(await text(fs, "/w/f.txt")).toBe("a\r\rb\nc\n");
  });

  test("context lines matched with whitespace folded are kept as the file has them", async () => {
    const source = "def f():\n\tif a:  \n\t\treturn 1\n\treturn 0\n";
    const { fs, run } = setup({ "/w/f.py": source });
    const result = await run(
      wrap("*** Update File: f.py\n@@\n def f():\n     if a:\n-        return 1\n+        return 2\n     return 0"),
    );
    expect(result.ok).toBe(true);
    expect(await text(fs, "/w/f.py")).toBe("def f():\n\tif a:  \n        return 2\n\treturn 0\n");
  });

  test("an update that changes nothing is EINPUT and the file stays byte-identical", async () => {
    const { fs, run } = setup({ "/w/f.txt": "line1\nline2", "/w/g.txt": "a\r\nb\r\n" });
    const result = await run(wrap("*** Update File: f.txt\n@@\n line1\n-line2\n+line2"));
    expect(result).toEqual({
      kind: "mutation",
      ok: false,
      changes: [],
      parts: [
        {
          type: "text",
          text: "No changes: the hunks of '*** Update File: f.txt' at patch line 2 leave every line of f.txt as it is (each '-' line is added back unchanged).\nNothing was changed.",
        },
      ],
      error: {
        code: "EINPUT",
        message:
          "No changes: the hunks of '*** Update File: f.txt' at patch line 2 leave every line of f.txt as it is (each '-' line is added back unchanged).\nNothing was changed.",
        path: "/w/f.txt",
      },
    });
    expect(await fs.readFile("/w/f.txt")).toEqual(bytes("line1\nline2"));
    // Context-only hunks change nothing either; and one no-op section refuses the whole patch.
    const mixed = await run(wrap("*** Update File: g.txt\n@@\n-a\n+A\n*** Update File: f.txt\n@@\n line2"));
    expect(mixed.ok).toBe(false);
    expect(fs.volume.toJSON()).toEqual({ "/w/f.txt": "line1\nline2", "/w/g.txt": "a\r\nb\r\n" });
  });

  test("a move whose hunks change nothing moves the file as it is", async () => {
    const { fs, run } = setup({ "/w/a.txt": "x\ny" });
    const result = await run(wrap("*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x\n+x"));
    expect(resultText(result)).toBe("Success. Updated the following files:\nM b.txt (moved from a.txt)");
    expect(fs.volume.toJSON()).toEqual({ "/w/b.txt": "x\ny" });
  });

  test("the heredoc wrapper may name the command applypatch", async () => {
    const { fs, run } = setup({});
    const result = await run("applypatch <<'EOF'\n*** Begin Patch\n*** Add File: h.txt\n+hi\n*** End Patch\nEOF\n");
    expect(resultText(result)).toBe("Success. Updated the following files:\nA h.txt");
    expect(await text(fs, "/w/h.txt")).toBe("hi\n");
  });
});

describe("apply_patch overwrites as Codex does, and says so", () => {
  test("Add File over an existing file is an update whose line says it replaced the file", async () => {
    const { fs, run } = setup({ "/w/b.txt": "bbb\n" });
    const result = await run(wrap("*** Add File: b.txt\n+new"));
    expect(resultText(result)).toBe("Success. Updated the following files:\nA b.txt (replaced the existing file)");
    expect(result.changes).toEqual([{ action: "updated", path: "/w/b.txt", bytes: 4 }]);
    expect(await text(fs, "/w/b.txt")).toBe("new\n");
  });

  test("Add File of a new path is still added", async () => {
    const { run } = setup({});
    const result = await run(wrap("*** Add File: n.txt\n+new"));
    expect(resultText(result)).toBe("Success. Updated the following files:\nA n.txt");
    expect(result.changes).toEqual([{ action: "added", path: "/w/n.txt", bytes: 4 }]);
  });

  test("Move to onto an existing file says the destination was replaced", async () => {
    const { fs, run } = setup({ "/w/a.txt": "one\ntwo\nthree\n", "/w/dup.txt": "x\ny\nx\ny\n" });
    const result = await run(wrap("*** Update File: a.txt\n*** Move to: dup.txt\n@@\n-one\n+1"));
    expect(resultText(result)).toBe(
      "Success. Updated the following files:\nM dup.txt (moved from a.txt, replacing the existing dup.txt)",
    );
    expect(result.changes).toEqual([
      { action: "moved", path: "/w/dup.txt", from: "/w/a.txt", replaced: true, line: 1, bytes: 12 },
    ]);
    expect(await text(fs, "/w/dup.txt")).toBe("1\ntwo\nthree\n");
    await expect(fs.stat("/w/a.txt")).rejects.toMatchObject({ code: "ENOENT" });
  });

  test("a file deleted earlier in the patch is added, not replaced", async () => {
    const { run } = setup({ "/w/b.txt": "bbb\n" });
    const result = await run(wrap("*** Delete File: b.txt\n*** Add File: b.txt\n+new"));
    expect(resultText(result)).toBe("Success. Updated the following files:\nD b.txt\nA b.txt");
    expect(result.changes).toEqual([
      { action: "deleted", path: "/w/b.txt" },
      { action: "added", path: "/w/b.txt", bytes: 4 },
    ]);
  });
});

describe("apply_patch and deny rules", () => {
  const DENIED_READ =
    'Permission denied: /w/secret/k.txt matches a deny rule for "readFile" in the permissions config.';
  function denySetup() {
    const fs = memoryFileSystem({
      files: { "/w/secret/k.txt": "TOKEN=hunter2\n", "/w/hidden/h.txt": "h\n", "/w/locked/l.txt": "l\n" },
    });
    const tool = createApplyPatchTool({
      fs,
      cwd: "/w",
      permissions: {
        deny: [
          { tool: "readFile", path: "/w/secret/**" },
          { tool: "listDir", path: "/w/hidden/**" },
          { tool: "writeFile", path: "/w/locked/**" },
        ],
      },
    });
    return { fs, run: (patch: string) => tool.execute(tool.validate({ patch })) };
  }
  const unchanged = async (fs: FileSystem) => ({
    secret: await text(fs, "/w/secret/k.txt"),
    hidden: await text(fs, "/w/hidden/h.txt"),
    locked: await text(fs, "/w/locked/l.txt"),
    root: (await fs.readdir("/w")).map((entry) => entry.name).sort(),
  });
  const ORIGINAL = { secret: "TOKEN=hunter2\n", hidden: "h\n", locked: "l\n", root: ["hidden", "locked", "secret"] };

  test("an Update (with or without a move) of a readFile-denied file is refused, naming the rule; nothing leaks", async () => {
    const { fs, run } = denySetup();
    const moved = await run(wrap("*** Update File: secret/k.txt\n*** Move to: leak.txt\n@@\n+# x"));
    expect({ ok: moved.ok, text: resultText(moved) }).toEqual({
      ok: false,
      text: `${DENIED_READ} (in '*** Update File: secret/k.txt' at patch line 2)\nNothing was changed.`,
    });
    const updated = await run(wrap("*** Update File: secret/k.txt\n@@\n+# x"));
    expect(resultText(updated)).toBe(
      `${DENIED_READ} (in '*** Update File: secret/k.txt' at patch line 2)\nNothing was changed.`,
    );
    expect(await unchanged(fs)).toEqual(ORIGINAL);
  });

  test("a moved source denied for listDir is refused; writeFile-denied paths are neither added, updated, deleted nor moved onto", async () => {
    const { fs, run } = denySetup();
    expect(resultText(await run(wrap("*** Update File: hidden/h.txt\n*** Move to: shown.txt\n@@\n-h\n+h2")))).toBe(
      `Permission denied: /w/hidden/h.txt matches a deny rule for "listDir" in the permissions config. (in '*** Update File: hidden/h.txt' at patch line 2)\nNothing was changed.`,
    );
    const lockedRefusal = (path: string, header: string) =>
      `Permission denied: ${path} matches a deny rule for "writeFile" in the permissions config. (in '${header}' at patch line 2)\nNothing was changed.`;
    expect(resultText(await run(wrap("*** Add File: locked/new.txt\n+x")))).toBe(
      lockedRefusal("/w/locked/new.txt", "*** Add File: locked/new.txt"),
    );
    expect(resultText(await run(wrap("*** Delete File: locked/l.txt")))).toBe(
      lockedRefusal("/w/locked/l.txt", "*** Delete File: locked/l.txt"),
    );
    expect(resultText(await run(wrap("*** Update File: locked/l.txt\n@@\n-l\n+L")))).toBe(
      lockedRefusal("/w/locked/l.txt", "*** Update File: locked/l.txt"),
    );
    expect(await unchanged(fs)).toEqual(ORIGINAL);
    // A file only hidden from listings may still be updated in place, and one only unreadable deleted.
    expect((await run(wrap("*** Update File: hidden/h.txt\n@@\n-h\n+h2"))).ok).toBe(true);
    expect(resultText(await run(wrap("*** Delete File: secret/k.txt")))).toBe(
      "Success. Updated the following files:\nD secret/k.txt",
    );
  });
});

describe("apply_patch: paths ending in /, file: URLs and ~ (trial findings 5 and 9)", () => {
  test("each is refused naming the operation, and nothing changes", async () => {
    const { fs, run } = setup({ "/w/a.txt": "one\n" });
    const add = await run(wrap("*** Add File: newdir/\n+x\n*** Update File: a.txt\n@@\n-one\n+ONE"));
    expect(add.error).toEqual({
      code: "EISDIR",
      message: `Cannot add "newdir/": a path ending in "/" names a directory, not a file. For the file "newdir" itself, leave out the final "/". (in '*** Add File: newdir/' at patch line 2)\nNothing was changed.`,
    });
    const update = await run(wrap("*** Update File: a.txt/\n@@\n-one\n+ONE"));
    expect(resultText(update)).toBe(
      `Cannot update "a.txt/": a path ending in "/" names a directory, not a file. For the file "a.txt" itself, leave out the final "/". (in '*** Update File: a.txt/' at patch line 2)\nNothing was changed.`,
    );
    const url = await run(wrap("*** Update File: a.txt\n*** Move to: file:///w/b.txt\n@@\n-one\n+ONE"));
    expect(resultText(url)).toBe(
      `"file:///w/b.txt" is a URL; give the path itself: "/w/b.txt". (in '*** Update File: a.txt' at patch line 2)\nNothing was changed.`,
    );
    const home = await run(wrap("*** Delete File: ~/a.txt"));
    expect(home.error?.code).toBe("EINPUT");
    expect(await text(fs, "/w/a.txt")).toBe("one\n");
    expect((await fs.readdir("/w")).map((entry) => entry.name)).toEqual(["a.txt"]);
  });
});

import { describe, expect, it } from "vitest";
import { createWorkspace, DEFAULT_WORKSPACE_MAX_READ_BYTES } from "../../src/gate/workspace.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { compose, readOnly } from "../../src/gate/middleware.js";

async function message(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "resolved",
    (error: unknown) => `${(error as { code?: string }).code} ${(error as Error).message}`,
  );
}

describe("createWorkspace", () => {
  it("reads throw ENOENT until the workspace root exists; writing creates it", async () => {
    const workspace = createWorkspace({ fs: memoryFileSystem(), root: "/w" });
    expect(await message(workspace.readFile("a.txt"))).toBe(
      "ENOENT ENOENT: no such file or directory, open 'a.txt' (the workspace root /w does not exist yet)",
    );
    expect(await message(workspace.listDir())).toBe(
      "ENOENT ENOENT: no such file or directory, scandir '.' (the workspace root /w does not exist yet)",
    );
    expect(await workspace.writeFile("notes/a.md", "# A\n")).toEqual({ bytesWritten: 4 });
    expect(await workspace.readFile("notes/a.md")).toBe("# A\n");
    expect(await workspace.listDir()).toEqual(["notes"]);
  });

  it("reads, writes and lists workspace-relative paths; names sorted", async () => {
    const fs = memoryFileSystem({ files: { "/w/b.txt": "b", "/w/a.txt": "a", "/w/d/é.txt": "é", "/w/d/Z.txt": "z" } });
    const workspace = createWorkspace({ fs, root: "/w" });
    expect(await workspace.listDir()).toEqual(["a.txt", "b.txt", "d"]);
    expect(await workspace.listDir("d")).toEqual(["Z.txt", "é.txt"]);
    expect(await workspace.listDir("/w/d")).toEqual(["Z.txt", "é.txt"]);
    expect(await workspace.writeFile("bin/x", new Uint8Array([0, 255]))).toEqual({ bytesWritten: 2 });
    expect(Array.from(await workspace.readBinaryFile("bin/x"))).toEqual([0, 255]);
    expect(await workspace.writeFile("ünï.txt", "ü")).toEqual({ bytesWritten: 2 });
    expect(await workspace.readFile("report..final.md").catch((error: Error) => error.message)).toBe(
      "ENOENT: no such file or directory, open '/w/report..final.md'",
    );
    expect(workspace.root).toBe("/w");
  });

  it("goes through the gate: outside paths are refused with EACCES, allow rules admit", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a", "/etc/hosts": "h", "/w-evil/x": "x" } });
    await fs.symlink!("/etc", "/w/etc");
    const workspace = createWorkspace({ fs, root: "/w" });
    expect(await message(workspace.readFile("../etc/hosts"))).toBe(
      `EACCES EACCES: permission denied, open '../etc/hosts' (Permission denied: /etc/hosts is outside the workspace and interactive permission prompts are not available in this execution context. Add an allow rule for "readFile" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.)`,
    );
    expect(await message(workspace.writeFile("etc/hosts", "pwned"))).toMatch(
      /^EACCES EACCES: permission denied, open 'etc\/hosts'/,
    );
    expect(await message(workspace.listDir("../w-evil"))).toMatch(/^EACCES /);
    expect(await message(workspace.readFile("a\0b"))).toBe(
      "EINVAL EINVAL: invalid argument, open 'a\u0000b' (Invalid path \"a\\u0000b\": NUL bytes are not allowed in paths. Allowed roots: /w.)",
    );
    expect(new TextDecoder().decode(await fs.readFile("/etc/hosts"))).toBe("h");
    const allowed = createWorkspace({ fs, root: "/w", permissions: { allow: [{ tool: "readFile", path: "/etc/*" }] } });
    expect(await allowed.readFile("etc/hosts")).toBe("h");
  });

  it("maxBytes caps reads; invalid UTF-8 is refused by readFile", async () => {
    const workspace = createWorkspace({
      fs: memoryFileSystem({ files: { "/w/a.txt": "0123456789", "/w/bad": new Uint8Array([0xc3, 0x28]) } }),
      root: "/w",
    });
    expect(await workspace.readFile("a.txt", { maxBytes: 10 })).toBe("0123456789");
    expect(await message(workspace.readFile("a.txt", { maxBytes: 9 }))).toBe(
      "EFBIG EFBIG: file too large, open 'a.txt' (the file is 10 bytes, over maxBytes 9)",
    );
    expect(await message(workspace.readFile("bad"))).toBe(
      "EINVAL EINVAL: invalid argument, open 'bad' (the file is not valid UTF-8; use readBinaryFile)",
    );
    expect(Array.from(await workspace.readBinaryFile("bad"))).toEqual([0xc3, 0x28]);
    expect(DEFAULT_WORKSPACE_MAX_READ_BYTES).toBe(262144);
  });

  it("a backend without readFile: readBinaryFile rejects with a TypeError naming the method and the fix", async () => {
    const { readFile: _readFile, ...partial } = memoryFileSystem({ files: { "/w/logo.png": "png" } });
    const workspace = createWorkspace({ fs: { ...partial, name: "remote" } as never, root: "/w" });
    await expect(workspace.readBinaryFile("logo.png")).rejects.toThrow(
      new TypeError(
        'The backend "remote" has no readFile method, which every FileSystem needs (readFile, writeFile, stat, lstat, readdir, mkdir, rm, rename, realpath). ' +
          "Add readFile(path) → Promise<Uint8Array> (the file's bytes; text and binary reads both use it) to it, " +
          "or build it on a backend that has every method with forwardFileSystem(backend, overrides).",
      ),
    );
    const { stat: _stat, ...noStat } = memoryFileSystem({ files: { "/w/a.txt": "a" } });
    await expect(createWorkspace({ fs: noStat as never, root: "/w" }).listDir()).rejects.toThrow(
      /^The backend "memory" has no stat method/,
    );
  });

  it("the default cap is 256 KiB; maxBytes: Infinity lifts it; other values throw TypeError", async () => {
    const big = "x".repeat(262145);
    const workspace = createWorkspace({
      fs: memoryFileSystem({ files: { "/w/big.txt": big, "/w/fits.txt": big.slice(1) } }),
      root: "/w",
    });
    expect((await workspace.readFile("fits.txt")).length).toBe(262144);
    expect(await message(workspace.readFile("big.txt"))).toBe(
      "EFBIG EFBIG: file too large, open 'big.txt' (the file is 262145 bytes, over maxBytes 262144)",
    );
    expect((await workspace.readFile("big.txt", { maxBytes: Number.POSITIVE_INFINITY })).length).toBe(262145);
    expect((await workspace.readBinaryFile("big.txt", { maxBytes: Infinity })).byteLength).toBe(262145);
    await expect(workspace.readFile("big.txt", { maxBytes: -1 })).rejects.toThrow(
      new TypeError("maxBytes must be a non-negative integer (bytes) or Infinity (no cap), got -1"),
    );
    await expect(workspace.readFile("big.txt", { maxBytes: Number.NaN })).rejects.toThrow(TypeError);
  });

  it("middleware under it applies (read-only)", async () => {
    const workspace = createWorkspace({
      fs: compose(readOnly())(memoryFileSystem({ files: { "/w/a": "a" } })),
      root: "/w",
    });
    expect(await message(workspace.writeFile("a", "b"))).toBe("EROFS EROFS: read-only file system, open '/w/a'");
    expect(await workspace.readFile("a")).toBe("a");
  });

  it("validates options at creation", () => {
    const fs = memoryFileSystem();
    expect(() => createWorkspace({ fs, root: "w" })).toThrow(
      new TypeError('createWorkspace root must be an absolute path, got "w"'),
    );
    expect(() => createWorkspace({ fs, root: "/w", cwd: "/w" } as never)).toThrow(
      new TypeError('createWorkspace got an unknown option "cwd". Known options: fs, root, allowedRoots, permissions'),
    );
    expect(() => createWorkspace({ root: "/w" } as never)).toThrow(
      new TypeError("createWorkspace needs an fs option (a FileSystem)"),
    );
    expect(() => createWorkspace({ fs })).toThrow(
      new TypeError(
        'createWorkspace needs a root (an absolute path): the backend "memory" declares no cwd to default to',
      ),
    );
  });

  it("without root, takes the backend's cwd and allowed roots", async () => {
    const fs = Object.assign(
      memoryFileSystem({ files: { "/w/a.txt": "a\n", "/shared/s.txt": "s\n", "/etc/x": "x\n" } }),
      {
        cwd: "/w",
        allowedRoots: ["/w", "/shared"],
      },
    );
    const workspace = createWorkspace({ fs });
    expect(workspace.root).toBe("/w");
    expect(await workspace.readFile("a.txt")).toBe("a\n");
    expect(await workspace.readFile("/shared/s.txt")).toBe("s\n");
    expect(await message(workspace.readFile("/etc/x"))).toMatch(/^EACCES /);
    expect(createWorkspace({ fs, root: "/shared" }).root).toBe("/shared");
    expect(await message(createWorkspace({ fs, root: "/shared" }).readFile("/w/a.txt"))).toMatch(/^EACCES /);
  });
});

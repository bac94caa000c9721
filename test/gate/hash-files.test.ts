import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashFiles } from "../../src/gate/hash-files.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { nodeDigest } from "../../src/backends/node/index.js";
import { sha256Digest } from "../../src/contract/digest.js";
import { OptionError } from "../../src/contract/options.js";

const sha = (value: string | Uint8Array) => createHash("sha256").update(value).digest("hex");

describe("hashFiles", () => {
  it("rejects an unknown option with a TypeError before reading anything", async () => {
    const fs = memoryFileSystem({ files: { "/w/a": "1" } });
    let reads = 0;
    const counting = { ...fs, readFile: (path: string) => (reads++, fs.readFile(path)) };
    const error: unknown = await hashFiles(counting, ["**"], { cdw: "/w" } as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(OptionError.isInstance(error) && [error.factory, error.option, error.message]).toEqual([
      "hashFiles",
      "cdw",
      'hashFiles got an unknown option "cdw". Known options: cwd, digest',
    ]);
    expect(reads).toBe(0);
    expect(await hashFiles(counting, ["**"], { cwd: "/w" })).toBe(sha(`"a" 1 ${sha("1")}\n`));
    expect(reads).toBe(1);
  });

  it("hashes the sorted record of matching paths, sizes and content digests", async () => {
    const fs = memoryFileSystem({
      files: { "/w/src/b.ts": "b", "/w/src/a.ts": "a", "/w/README.md": "r", "/w/.env": "e" },
    });
    const expected = sha(`"src/a.ts" 1 ${sha("a")}\n"src/b.ts" 1 ${sha("b")}\n`);
    expect(await hashFiles(fs, ["src/**/*.ts"], { cwd: "/w" })).toBe(expected);
    expect(await hashFiles(fs, [".env"], { cwd: "/w" })).toBe(sha(`".env" 1 ${sha("e")}\n`));
  });

  it("is stable across listing order and changes with a path or a byte", async () => {
    const one = memoryFileSystem({ files: { "/w/a": "1", "/w/b": "2" } });
    const two = memoryFileSystem({ files: { "/w/b": "2", "/w/a": "1" } });
    const renamed = memoryFileSystem({ files: { "/w/a2": "1", "/w/b": "2" } });
    const edited = memoryFileSystem({ files: { "/w/a": "3", "/w/b": "2" } });
    const [h1, h2, h3, h4] = await Promise.all(
      [one, two, renamed, edited].map((fs) => hashFiles(fs, ["**"], { cwd: "/w" })),
    );
    expect(h1).toBe(h2);
    expect(new Set([h1, h3, h4]).size).toBe(3);
  });

  it("no match, or a missing cwd, gives the digest of the empty record", async () => {
    const empty = sha("");
    expect(await hashFiles(memoryFileSystem({ files: { "/w/a": "a" } }), ["*.none"], { cwd: "/w" })).toBe(empty);
    expect(await hashFiles(memoryFileSystem(), ["**"], { cwd: "/missing" })).toBe(empty);
    expect(empty).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("does not follow symlinks; takes another digest", async () => {
    const fs = memoryFileSystem({ files: { "/w/a": "a", "/outside/secret": "s" } });
    await fs.symlink!("/outside", "/w/link");
    await fs.symlink!("/w/a", "/w/file-link");
    const plain = sha(`"a" 1 ${sha("a")}\n`);
    expect(await hashFiles(fs, ["**"], { cwd: "/w" })).toBe(plain);
    expect(await hashFiles(fs, ["**"], { cwd: "/w", digest: nodeDigest() })).toBe(plain);
  });

  it("refuses bad globs", async () => {
    await expect(hashFiles(memoryFileSystem(), "**" as never)).rejects.toThrow(
      new TypeError("hashFiles globs must be an array of non-empty glob strings"),
    );
  });
});

describe("nodeDigest", () => {
  it("gives the same hex as sha256Digest", async () => {
    const data = new TextEncoder().encode("abc");
    expect(await nodeDigest()(data)).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await nodeDigest()(data)).toBe(await sha256Digest()(data));
    const bytes = new Uint8Array(256).map((_, index) => index);
    expect(await nodeDigest()(bytes)).toBe(await sha256Digest()(bytes));
  });
});

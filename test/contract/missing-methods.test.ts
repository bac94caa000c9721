import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { missingMethodMessage, withMissingMethods } from "../../src/contract/missing-methods.js";
import type { FileSystem } from "../../src/contract/types.js";

describe("withMissingMethods", () => {
  it("returns a complete backend itself", () => {
    const fs = memoryFileSystem();
    expect(withMissingMethods(fs)).toBe(fs);
  });

  it("gives a missing method a stand-in that rejects with a TypeError naming it and the fix", async () => {
    const { readFile: _readFile, ...partial } = memoryFileSystem({ files: { "/a.txt": "a" } });
    const fs = withMissingMethods({ ...partial, name: "remote" } as unknown as FileSystem);
    await expect(fs.readFile("/a.txt")).rejects.toThrow(
      new TypeError(
        'The backend "remote" has no readFile method, which every FileSystem needs (readFile, writeFile, stat, lstat, readdir, mkdir, rm, rename, realpath). ' +
          "Add readFile(path) → Promise<Uint8Array> (the file's bytes; text and binary reads both use it) to it, " +
          "or build it on a backend that has every method with forwardFileSystem(backend, overrides).",
      ),
    );
    expect((await fs.stat("/a.txt")).size).toBe(1);
    expect(Object.isFrozen(fs)).toBe(true);
  });

  it("keeps methods that live on a class prototype, bound to the instance", async () => {
    const inner = memoryFileSystem({ files: { "/a.txt": "abc" } });
    class Remote {
      readonly name = "";
      readonly capabilities = inner.capabilities;
      stat(path: string) {
        return this.inner().stat(path);
      }
      realpath(path: string) {
        return this.inner().realpath(path);
      }
      inner() {
        return inner;
      }
    }
    const fs = withMissingMethods(new Remote() as unknown as FileSystem);
    expect((await fs.stat("/a.txt")).size).toBe(3);
    await expect(fs.writeFile("/b", new Uint8Array())).rejects.toThrow(
      /^The backend has no writeFile method, .* Add writeFile\(path, data: Uint8Array\) → Promise<void> \(creating missing parent directories\) to it/,
    );
  });

  it("names an unnamed backend without quotes", () => {
    expect(missingMethodMessage({}, "rename")).toMatch(
      /^The backend has no rename method, .* Add rename\(from, to\) → Promise<void> to it/,
    );
  });
});

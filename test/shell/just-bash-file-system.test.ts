import { InMemoryFs } from "just-bash";
import { describe, expect, it } from "vitest";
import { justBashFileSystem } from "../../src/shell/just-bash-file-system.js";
import { testFileSystem } from "better-fs-tools/conformance";

testFileSystem({ name: "just-bash InMemoryFs (default)", create: async () => justBashFileSystem() });
testFileSystem({ name: "just-bash InMemoryFs (given)", create: async () => justBashFileSystem(new InMemoryFs()) });

describe("justBashFileSystem", () => {
  it("shares one store with the just-bash store it wraps", async () => {
    const store = new InMemoryFs();
    const fs = justBashFileSystem(store);
    await fs.writeFile("/w/a.txt", new TextEncoder().encode("from the tools\n"));
    expect(await store.readFile("/w/a.txt")).toBe("from the tools\n");
    await store.writeFile("/w/b.txt", "from the shell\n");
    expect(new TextDecoder().decode(await fs.readFile("/w/b.txt"))).toBe("from the shell\n");
    expect({ name: fs.name, capabilities: fs.capabilities }).toEqual({
      name: "just-bash",
      capabilities: { symlink: true },
    });
  });

  it("turns an error without a Node code into EIO", async () => {
    const store = new InMemoryFs();
    store.readFileBuffer = async () => {
      throw new Error("disk on fire");
    };
    await store.writeFile("/a.txt", "x");
    const error = await justBashFileSystem(store)
      .readFile("/a.txt")
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toBe("EIO: i/o error, open '/a.txt'");
  });

  it("throws TypeError for a value that is not a store", () => {
    expect(() => justBashFileSystem({} as InMemoryFs)).toThrow(
      new TypeError("justBashFileSystem needs a just-bash IFileSystem (e.g. new InMemoryFs()) or nothing"),
    );
  });
});

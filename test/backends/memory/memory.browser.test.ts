import { expect, it } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { testFileSystem } from "better-fs-tools/conformance";

testFileSystem({ name: "memory (chromium)", create: async () => memoryFileSystem() });

it("runs in a browser without a global process or Buffer", () => {
  expect({
    process: typeof (globalThis as { process?: unknown }).process,
    Buffer: typeof (globalThis as { Buffer?: unknown }).Buffer,
  }).toEqual({
    process: "undefined",
    Buffer: "undefined",
  });
});

it("memoryFileSystem files: strings and bytes in Chromium", async () => {
  const fs = memoryFileSystem({ files: { "/a.txt": "é", "/b.bin": new Uint8Array([0, 255]) } });
  expect(Array.from(await fs.readFile("/a.txt"))).toEqual([0xc3, 0xa9]);
  expect(Array.from(await fs.readFile("/b.bin"))).toEqual([0, 255]);
  expect((await fs.stat("/b.bin")).type).toBe("file");
});

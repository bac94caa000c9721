import { createStorage } from "unstorage";
import memoryDriver from "unstorage/drivers/memory";
import { describe, expect, it } from "vitest";
import { testFileSystem } from "better-fs-tools/conformance";
import { unstorageFileSystem } from "../../../src/backends/unstorage/index.js";

testFileSystem({ name: "unstorage (memory driver)", create: async () => unstorageFileSystem(createStorage({ driver: memoryDriver() })) });
testFileSystem({
  name: "unstorage (memory driver, base prefix)",
  create: async () => unstorageFileSystem(createStorage({ driver: memoryDriver() }), { base: "ws:one" }),
});

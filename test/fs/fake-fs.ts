// recipe: fake-fs.ts
import { memoryFileSystem } from "better-fs-tools/memory";
import { createNodeFs } from "better-fs-tools/node-fs";

/** The storage behind the fake (seed it with fromJSON, read it back with toJSON). */
export const storage = memoryFileSystem();
/** `node:fs` over it: promises, callbacks and sync calls. */
export const fs = createNodeFs(storage);
// end recipe

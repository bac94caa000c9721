/**
 * `better-fs-tools/node-fs`: the `node:fs` face over any backend.
 *
 * - {@link createNodeFs}: `promises`, callbacks and (memory-backed backends) `*Sync` calls, with
 *   Node's errors; over a gate's `gate.fs`, every call is checked as a tool's;
 * - {@link fromJSON}/{@link toJSON}: a tree of files as a plain object (memfs's helpers);
 * - {@link Stats}, {@link Dirent}, {@link constants}, {@link NodeFsError}.
 *
 * Imports nothing from `node:`: it runs in browsers and Workers too.
 *
 * @example
 * ```ts
 * import { memoryFileSystem } from "better-fs-tools/memory";
 * import { createNodeFs } from "better-fs-tools/node-fs";
 * const fs = createNodeFs(memoryFileSystem());
 * fs.writeFileSync("/a.txt", "hi");
 * await fs.promises.readFile("/a.txt", "utf8"); // "hi"
 * ```
 *
 * @module
 */
export { createNodeFs } from "./create-node-fs.js";
export type {
  CreateNodeFsOptions,
  FileHandle,
  MakeDirectoryOptions,
  NodeFs,
  NodeFsCallbackCall,
  NodeFsPromises,
  PathLike,
  ReadFileOptions,
  ReaddirOptions,
  ReadResult,
  RmOptions,
  WriteFileOptions,
  WriteResult,
} from "./create-node-fs.js";
export { fromJSON, toJSON } from "./json.js";
export type { DirectoryJSON } from "./json.js";
export { constants, Dirent, Stats } from "./stats.js";
export { ERRNO, NodeFsError } from "./errors.js";
export type { NodeFsErrorFields } from "./errors.js";
export type { Encoding } from "./encoding.js";
export type { FileSystemSync } from "../contract/types.js";

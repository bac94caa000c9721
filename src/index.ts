/**
 * better-fs-tools: agent file tools (read, write, edit, apply_patch, list, glob, grep, bash)
 * over pluggable storage backends. This core entry imports no backend and nothing from `node:`.
 *
 * @module
 */
export * from "./fs/types.js";
export * from "./tools/result.js";
export * from "./tools/tool.js";
export * from "./tools/state.js";
export * from "./tools/context.js";
export * from "./fs/path.js";
export * from "./fs/gate.js";
export * from "./fs/middleware.js";
export * from "./fs/workspace.js";
export * from "./fs/hash-files.js";
export {
  createApplyPatchTool,
  APPLY_PATCH_DESCRIPTION,
  DEFAULT_MAX_PATCH_FILE_BYTES,
  PATCH_WRITE_CONCURRENCY,
  type ApplyPatchInput,
  type ApplyPatchToolOptions,
} from "./tools/apply-patch.js";
export { parsePatch, type ParsedPatch, type PatchChunk, type PatchOperation } from "./tools/apply-patch-parser.js";
export * from "./tools/signature/index.js";

/**
 * better-fs-tools: agent file tools (read, write, edit, apply_patch, list, glob, grep, bash)
 * over pluggable storage backends. This core entry imports no backend and nothing from `node:`.
 *
 * @module
 */
export * from "./contract/types.js";
export * from "./contract/errors.js";
export * from "./contract/locks.js";
export * from "./contract/digest.js";
export * from "./contract/clock.js";
export * from "./tools/result.js";
export * from "./tools/tool.js";
export * from "./tools/state.js";
export * from "./tools/context.js";
export * from "./contract/path.js";
export * from "./gate/gate.js";
export * from "./gate/middleware.js";
export * from "./gate/workspace.js";
export * from "./gate/hash-files.js";
export {
  createApplyPatchTool,
  APPLY_PATCH_DESCRIPTION,
  DEFAULT_MAX_PATCH_FILE_BYTES,
  PATCH_WRITE_CONCURRENCY,
  type ApplyPatchInput,
  type ApplyPatchToolOptions,
} from "./tools/apply-patch/index.js";
export { parsePatch, type ParsedPatch, type PatchChunk, type PatchOperation } from "./tools/apply-patch/parser.js";
export * from "./tools/signature/index.js";
export {
  createReadTool,
  DEFAULT_MAX_READ_BYTES,
  DEFAULT_MAX_LINE_LENGTH,
  READ_DESCRIPTION,
  READ_INPUT_SPEC,
  type ReadInput,
  type ReadToolOptions,
  type ReadToolSettings,
} from "./tools/read.js";
export {
  createWriteTool,
  WRITE_DESCRIPTION,
  WRITE_INPUT_SPEC,
  type WriteInput,
  type WriteToolOptions,
  type WriteToolSettings,
} from "./tools/write.js";
export {
  createEditTool,
  EDIT_DESCRIPTION,
  EDIT_INPUT_SPEC,
  type EditInput,
  type EditToolOptions,
  type EditToolSettings,
} from "./tools/edit.js";
export {
  createListTool,
  DEFAULT_MAX_LIST_ENTRIES,
  LIST_DESCRIPTION,
  LIST_INPUT_SPEC,
  type ListInput,
  type ListToolOptions,
  type ListToolSettings,
} from "./tools/list.js";
export {
  createGlobTool,
  DEFAULT_MAX_GLOB_RESULTS,
  GLOB_DESCRIPTION,
  GLOB_INPUT_SPEC,
  type GlobInput,
  type GlobToolOptions,
  type GlobToolSettings,
} from "./tools/glob.js";
export {
  createGrepTool,
  DEFAULT_MAX_GREP_MATCHES,
  DEFAULT_MAX_GREP_LINE_LENGTH,
  DEFAULT_MAX_GREP_SCAN_LINE_LENGTH,
  riskyPatternReason,
  GREP_DESCRIPTION,
  GREP_INPUT_SPEC,
  type GrepInput,
  type GrepToolOptions,
  type GrepToolSettings,
} from "./tools/grep.js";
export { createBashTool, createFsTools } from "./shell/defaults.js";
export {
  BASH_INPUT_SPEC,
  DEFAULT_BASH_MAX_OUTPUT_BYTES,
  DEFAULT_BASH_MAX_TIMEOUT_MS,
  DEFAULT_BASH_TIMEOUT_MS,
  type BashInput,
  type BashToolOptions,
  type BashToolSettings,
} from "./tools/bash.js";
export type { CommandOutput, CommandRunner, CommandRunOptions } from "./contract/runner.js";
export { type FsTools, type FsToolsOptions, type ApplyPatchToolSettings } from "./tools/fs-tools.js";
export type { SearchSettings } from "./tools/search-settings.js";
export { DEFAULT_IGNORED_DIRECTORIES, DEFAULT_WALK_CONCURRENCY } from "./tools/walk.js";
export {
  offloadOutput,
  isToolOutputPath,
  TOOL_OUTPUTS_DIR,
  DEFAULT_OFFLOAD_THRESHOLD_BYTES,
  DEFAULT_OFFLOAD_PREVIEW_BYTES,
  MAX_OFFLOAD_FILE_BYTES,
  type OffloadOptions,
  type OffloadContext,
  type OffloadedOutput,
} from "./tools/offload.js";
export {
  imageConverter,
  sniffImageType,
  DEFAULT_MAX_IMAGE_BYTES,
  IMAGE_MEDIA_TYPES,
  type ImageConverterOptions,
} from "./tools/image.js";
export type { ContentConverter, ConversionInput, ConversionOutcome } from "./tools/converter.js";
export {
  decodeUtf8,
  sniffBinary,
  BINARY_SNIFF_BYTES,
  type DecodedText,
  type BinaryKind,
  type LineEnding,
} from "./tools/text.js";
export type { InputSpec, FieldSpec } from "./tools/input.js";
export { defineCoreTool, type CoreToolDefinition, type CustomInput } from "./tools/define.js";
export { OptionError, type OptionErrorFields } from "./contract/options.js";

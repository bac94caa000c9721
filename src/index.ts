/**
 * better-fs-tools: agent file tools (read, write, edit, apply_patch, list, glob, grep, bash)
 * over pluggable storage backends. This core entry imports no backend and nothing from `node:`.
 *
 * @module
 */
export {
  type DirEntry,
  type FileStat,
  type FileSystem,
  type FileSystemCapabilities,
  type FileSystemFactory,
  type FileType,
  type WatchEvent,
} from "./contract/types.js";
export {
  FsError,
  type FsErrorCode,
  type FsErrorOptions,
  type ResolvedPrefix,
  type ToolError,
  type ToolErrorCode,
} from "./contract/errors.js";
export { type Locks, memoryLocks } from "./contract/locks.js";
export { type Digest, sha256Digest } from "./contract/digest.js";
export { type Clock, systemClock } from "./contract/clock.js";
export { MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_SYMLINK_HOPS } from "./contract/path.js";
export {
  type DeniedPath,
  type FileChange,
  type MediaPart,
  type MutationResult,
  type ReadResult,
  type ResultPart,
  resultText,
  type SearchResult,
  type ShellResult,
  type SkippedLongLines,
  type TextPart,
  type ToolResult,
} from "./tools/kit/result.js";
export {
  type AnyCoreTool,
  type CoreTool,
  coreTool,
  type CoreToolParts,
  type JsonSchema,
  type JsonValue,
  type ToolCall,
  ToolInputError,
  type ToolSignature,
} from "./tools/kit/tool.js";
export { type FileRecord, type FileStateStore, memoryStore } from "./tools/kit/state.js";
export { type PerCall, type ToolContext, type ToolContextOptions } from "./tools/kit/context.js";
export {
  type Access,
  type AllowRule,
  type ApprovalRequest,
  type Approve,
  type CheckOptions,
  createGate,
  type Gate,
  type GateCheck,
  type GateOptions,
  type PermissionOptions,
} from "./gate/gate.js";
export {
  compose,
  type FilesystemLogArgument,
  type FilesystemLogEntry,
  type FilesystemLoggingOptions,
  type FilesystemLogMethod,
  formatFilesystemLogEntry,
  type FileSystemMiddleware,
  type QuotaOptions,
  readOnly,
  withFilesystemLogging,
  withQuota,
} from "./gate/middleware.js";
export {
  createWorkspace,
  DEFAULT_WORKSPACE_MAX_READ_BYTES,
  type Workspace,
  type WorkspaceOptions,
  type WorkspaceReadOptions,
} from "./gate/workspace.js";
export { HASH_FILES_CONCURRENCY, hashFiles, type HashFilesOptions } from "./gate/hash-files.js";

export {
  APPLY_PATCH_DESCRIPTION,
  type ApplyPatchInput,
  type ApplyPatchToolOptions,
  createApplyPatchTool,
  DEFAULT_MAX_PATCH_FILE_BYTES,
  PATCH_WRITE_CONCURRENCY,
} from "./tools/apply-patch/index.js";
export { type ParsedPatch, parsePatch, type PatchChunk, type PatchOperation } from "./tools/apply-patch/parser.js";
export { DEFAULT_PRESET_TOOLS, defaultSignature } from "./tools/signature/default.js";
export {
  type LineRangeNames,
  type LineRangePreset,
  lineRangePreset,
  type LineRangeReadInput,
  lineRangeSignature,
  type LineRangeSignatureOptions,
} from "./tools/signature/line-range.js";
export {
  DEFAULT_MAX_READ_CHARS,
  type OffsetLimitPreset,
  offsetLimitPreset,
  type OffsetLimitPresetOptions,
} from "./tools/signature/offset-limit.js";
export {
  createTextEditorTool,
  TEXT_EDITOR_SNIPPET_LINES,
  TEXT_EDITOR_TOOL_NAME,
  type TextEditorCommand,
  type TextEditorInput,
  type TextEditorToolOptions,
} from "./tools/text-editor/index.js";
export {
  APPLY_PATCH_LARK_GRAMMAR,
  defaultPatchSignature,
  freeformPatchSignature,
  type PatchModelInput,
  type PatchSignature,
} from "./tools/signature/patch.js";
export {
  createReadTool,
  DEFAULT_MAX_LINE_LENGTH,
  DEFAULT_MAX_READ_BYTES,
  MAX_READ_LOAD_BYTES,
  READ_DESCRIPTION,
  READ_INPUT_SPEC,
  type ReadInput,
  type ReadToolOptions,
  type ReadToolSettings,
} from "./tools/read/index.js";
export {
  createWriteTool,
  WRITE_DESCRIPTION,
  WRITE_INPUT_SPEC,
  type WriteInput,
  type WriteToolOptions,
  type WriteToolSettings,
} from "./tools/write/index.js";
export {
  createEditTool,
  EDIT_DESCRIPTION,
  EDIT_INPUT_SPEC,
  type EditInput,
  type EditToolOptions,
  type EditToolSettings,
} from "./tools/edit/index.js";
export {
  createListTool,
  DEFAULT_MAX_LIST_ENTRIES,
  LIST_DESCRIPTION,
  LIST_INPUT_SPEC,
  type ListInput,
  type ListToolOptions,
  type ListToolSettings,
} from "./tools/list/index.js";
export {
  createGlobTool,
  DEFAULT_MAX_GLOB_RESULTS,
  GLOB_DESCRIPTION,
  GLOB_INPUT_SPEC,
  type GlobInput,
  type GlobToolOptions,
  type GlobToolSettings,
} from "./tools/glob/index.js";
export {
  createGrepTool,
  CUBIC_PATTERN_SCAN_LINE_LENGTH,
  DEFAULT_MAX_GREP_LINE_LENGTH,
  DEFAULT_MAX_GREP_MATCHES,
  DEFAULT_MAX_GREP_SCAN_LINE_LENGTH,
  GREP_DESCRIPTION,
  GREP_INPUT_SPEC,
  type GrepInput,
  type GrepToolOptions,
  type GrepToolSettings,
} from "./tools/grep/index.js";
export { createBashTool, createFsTools } from "./shell/defaults.js";
export {
  BASH_INPUT_SPEC,
  type BashInput,
  type BashToolOptions,
  type BashToolSettings,
  DEFAULT_BASH_MAX_OUTPUT_BYTES,
  DEFAULT_BASH_MAX_TIMEOUT_MS,
  DEFAULT_BASH_TIMEOUT_MS,
} from "./tools/bash/index.js";
export type { CommandOutput, CommandRunner, CommandRunOptions } from "./contract/runner.js";
export {
  type ApplyPatchToolSettings,
  type FsToolOption,
  type FsTools,
  type FsToolsOf,
  type FsToolsOptions,
} from "./tools/kit/fs-tools.js";
export type { SearchSettings } from "./tools/kit/search-settings.js";
export { DEFAULT_IGNORED_DIRECTORIES, DEFAULT_WALK_CONCURRENCY } from "./tools/kit/walk.js";
export {
  DEFAULT_OFFLOAD_PREVIEW_BYTES,
  DEFAULT_OFFLOAD_THRESHOLD_BYTES,
  MAX_OFFLOAD_FILE_BYTES,
  type OffloadOptions,
  TOOL_OUTPUTS_DIR,
} from "./tools/kit/offload.js";
export {
  DEFAULT_MAX_IMAGE_BYTES,
  IMAGE_MEDIA_TYPES,
  imageConverter,
  type ImageConverterOptions,
} from "./tools/read/image.js";
export type { ContentConverter, ConversionInput, ConversionOutcome } from "./tools/read/converter.js";
export { BINARY_SNIFF_BYTES } from "./tools/kit/text.js";
export type { FieldSpec, InputSpec } from "./tools/kit/input.js";
export {
  forwardFileSystem,
  type FileSystemOverrides,
  type FileSystemOverridesOf,
  type ForwardedFileSystem,
} from "./contract/forward.js";
export { defineCoreTool, type CoreToolDefinition, type CustomInput } from "./tools/kit/define.js";
export { OptionError, type OptionErrorFields } from "./contract/options.js";

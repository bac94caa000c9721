/**
 * The public surface, pinned: every subpath's export names, values and types, as inline lists.
 * An export added, renamed or dropped fails here until the list is changed on purpose.
 *
 * - Values: `Object.keys()` of the entry module imported from src/ (what consumers get at run
 *   time), and the same names read from the entry's own export statements.
 * - Types: erased at run time, so read statically from the entry's export statements (types
 *   are `type` specifiers, interfaces and type aliases). Entries use named exports only:
 *   `export *` would hide its names from this reading and is refused.
 * - `src/tools/signature/index.ts` is not a subpath; it gathers the presets for the root entry
 *   and is pinned too, so the root stays a list of names a reader can check.
 */
import { describe, expect, it } from "vitest";
import { exportsOf, readSource } from "./source-modules.js";
import { REPOSITORY_ROOT, codeSubpaths, readPackageJson } from "./stage.js";

interface PinnedEntry {
  /** The package.json subpath the entry is published as, or undefined for an internal gathering entry. */
  readonly subpath: string | undefined;
  readonly values: readonly string[];
  readonly types: readonly string[];
}

const ENTRIES: Readonly<Record<string, PinnedEntry>> = {
  "src/index.ts": {
    subpath: ".",
    values: [
      "APPLY_PATCH_DESCRIPTION",
      "APPLY_PATCH_LARK_GRAMMAR",
      "BASH_INPUT_SPEC",
      "BINARY_SNIFF_BYTES",
      "DEFAULT_BASH_MAX_OUTPUT_BYTES",
      "DEFAULT_BASH_MAX_TIMEOUT_MS",
      "DEFAULT_BASH_TIMEOUT_MS",
      "DEFAULT_IGNORED_DIRECTORIES",
      "DEFAULT_MAX_GLOB_RESULTS",
      "DEFAULT_MAX_GREP_LINE_LENGTH",
      "DEFAULT_MAX_GREP_MATCHES",
      "DEFAULT_MAX_GREP_SCAN_LINE_LENGTH",
      "DEFAULT_MAX_IMAGE_BYTES",
      "DEFAULT_MAX_LINE_LENGTH",
      "DEFAULT_MAX_LIST_ENTRIES",
      "DEFAULT_MAX_PATCH_FILE_BYTES",
      "DEFAULT_MAX_READ_BYTES",
      "DEFAULT_OFFLOAD_PREVIEW_BYTES",
      "DEFAULT_OFFLOAD_THRESHOLD_BYTES",
      "DEFAULT_PRESET_TOOLS",
      "DEFAULT_WALK_CONCURRENCY",
      "DEFAULT_WORKSPACE_MAX_READ_BYTES",
      "EDIT_DESCRIPTION",
      "EDIT_INPUT_SPEC",
      "FsError",
      "GLOB_DESCRIPTION",
      "GLOB_INPUT_SPEC",
      "GREP_DESCRIPTION",
      "GREP_INPUT_SPEC",
      "HASH_FILES_CONCURRENCY",
      "IMAGE_MEDIA_TYPES",
      "LIST_DESCRIPTION",
      "LIST_INPUT_SPEC",
      "MAX_NAME_BYTES",
      "MAX_OFFLOAD_FILE_BYTES",
      "MAX_PATH_BYTES",
      "MAX_SYMLINK_HOPS",
      "OptionError",
      "PATCH_WRITE_CONCURRENCY",
      "READ_DESCRIPTION",
      "READ_INPUT_SPEC",
      "TEXT_EDITOR_SNIPPET_LINES",
      "TEXT_EDITOR_TOOL_NAME",
      "TOOL_OUTPUTS_DIR",
      "ToolInputError",
      "WRITE_DESCRIPTION",
      "WRITE_INPUT_SPEC",
      "compose",
      "createApplyPatchTool",
      "createBashTool",
      "createEditTool",
      "createFsTools",
      "createGate",
      "createGlobTool",
      "createGrepTool",
      "createListTool",
      "createReadTool",
      "createTextEditorTool",
      "createWorkspace",
      "createWriteTool",
      "defaultPatchSignature",
      "defaultSignature",
      "defineCoreTool",
      "forwardFileSystem",
      "freeformPatchSignature",
      "hashFiles",
      "imageConverter",
      "lineRangePreset",
      "lineRangeSignature",
      "memoryLocks",
      "memoryStore",
      "offsetLimitPreset",
      "parsePatch",
      "readOnly",
      "resultText",
      "sha256Digest",
      "systemClock",
      "withFilesystemLogging",
      "withQuota",
    ],
    types: [
      "Access",
      "AllowRule",
      "ApplyPatchInput",
      "ApplyPatchToolOptions",
      "ApplyPatchToolSettings",
      "ApprovalRequest",
      "Approve",
      "BashInput",
      "BashToolOptions",
      "BashToolSettings",
      "CheckOptions",
      "Clock",
      "CommandOutput",
      "CommandRunOptions",
      "CommandRunner",
      "ContentConverter",
      "ConversionInput",
      "ConversionOutcome",
      "CoreTool",
      "CoreToolDefinition",
      "CustomInput",
      "Digest",
      "DirEntry",
      "EditInput",
      "EditToolOptions",
      "EditToolSettings",
      "FieldSpec",
      "FileChange",
      "FileRecord",
      "FileStat",
      "FileStateStore",
      "FileSystem",
      "FileSystemCapabilities",
      "FileSystemFactory",
      "FileSystemMiddleware",
      "FileSystemOverrides",
      "FileType",
      "FilesystemLoggingOptions",
      "ForwardedFileSystem",
      "FsErrorCode",
      "FsErrorOptions",
      "FsTools",
      "FsToolsOptions",
      "Gate",
      "GateCheck",
      "GateOptions",
      "GlobInput",
      "GlobToolOptions",
      "GlobToolSettings",
      "GrepInput",
      "GrepToolOptions",
      "GrepToolSettings",
      "HashFilesOptions",
      "ImageConverterOptions",
      "InputSpec",
      "JsonSchema",
      "JsonValue",
      "LineRangeNames",
      "LineRangePreset",
      "LineRangeReadInput",
      "LineRangeSignatureOptions",
      "ListInput",
      "ListToolOptions",
      "ListToolSettings",
      "Locks",
      "MediaPart",
      "MutationResult",
      "OffloadOptions",
      "OffsetLimitPreset",
      "OffsetLimitPresetOptions",
      "OptionErrorFields",
      "ParsedPatch",
      "PatchChunk",
      "PatchModelInput",
      "PatchOperation",
      "PatchSignature",
      "PerCall",
      "PermissionOptions",
      "QuotaOptions",
      "ReadInput",
      "ReadResult",
      "ReadToolOptions",
      "ReadToolSettings",
      "ResultPart",
      "SearchResult",
      "SearchSettings",
      "ShellResult",
      "TextEditorCommand",
      "TextEditorInput",
      "TextEditorToolOptions",
      "TextPart",
      "ToolCall",
      "ToolContext",
      "ToolContextOptions",
      "ToolError",
      "ToolErrorCode",
      "ToolResult",
      "ToolSignature",
      "WatchEvent",
      "Workspace",
      "WorkspaceOptions",
      "WorkspaceReadOptions",
      "WriteInput",
      "WriteToolOptions",
      "WriteToolSettings",
    ],
  },
  "src/backends/memory/index.ts": {
    subpath: "./memory",
    values: ["MEMORY_FILE_SYSTEM_NAME", "memoryFileSystem"],
    types: ["MemoryFileSystem", "MemoryFileSystemOptions"],
  },
  "src/backends/opfs/index.ts": {
    subpath: "./opfs",
    values: [
      "DEFAULT_MAX_SYNC_HANDLES",
      "DEFAULT_OPFS_BUSY_TIMEOUT_MS",
      "DEFAULT_OPFS_ROOT",
      "DEFAULT_SYNC_HANDLE_IDLE_MS",
      "DEFAULT_WEB_LOCKS_PREFIX",
      "OPFS_FALLBACK_HINT",
      "STALE_FILE_RETRIES",
      "isOpfsSupported",
      "opfsFileSystem",
      "webLocks",
    ],
    types: ["OpfsFileSystem", "OpfsFileSystemOptions", "WebLocksOptions"],
  },
  "src/backends/opfs/opfs-worker.ts": {
    subpath: "./opfs-worker",
    values: ["startOpfsWorker"],
    types: [],
  },
  "src/backends/opfs-mirror/index.ts": {
    subpath: "./opfs-mirror",
    values: [
      "DEFAULT_COMPACT_MIN_BYTES",
      "DEFAULT_OPFS_MIRROR_ROOT",
      "OPFS_MIRROR_LOCK_PREFIX",
      "opfsMirrorFileSystem",
    ],
    types: ["OpfsMirrorFileSystem", "OpfsMirrorFileSystemOptions"],
  },
  "src/backends/opfs-mirror/mirror-worker.ts": {
    subpath: "./opfs-mirror-worker",
    values: ["startOpfsMirrorWorker"],
    types: [],
  },
  "src/backends/idb/index.ts": {
    subpath: "./idb",
    values: ["DEFAULT_IDB_DATABASE", "DEFAULT_IDB_DEBOUNCE_MS", "DEFAULT_IDB_STORE", "idbFileSystem"],
    types: ["CreateStore", "IdbFileSystem", "IdbFileSystemOptions", "IdbRecord"],
  },
  "src/backends/node/index.ts": {
    subpath: "./node",
    values: [
      "DEFAULT_KILL_GRACE_MS",
      "DEFAULT_NODE_MAX_OUTPUT_BYTES",
      "NODE_FILE_SYSTEM_NAME",
      "nodeCommandRunner",
      "nodeDigest",
      "nodeFileSystem",
    ],
    types: ["NodeCommandRunnerOptions", "NodeFileSystem", "NodeFileSystemOptions"],
  },
  "src/shell/index.ts": {
    subpath: "./shell",
    values: [
      "ABORT_EXIT_CODE",
      "DEFAULT_BASH_MAX_OUTPUT_BYTES",
      "DEFAULT_BASH_MAX_TIMEOUT_MS",
      "DEFAULT_BASH_TIMEOUT_MS",
      "DEFAULT_COMMAND_DIRS",
      "DEFAULT_DIRECTORY_MODE",
      "DEFAULT_FILE_MODE",
      "DEFAULT_SECRET_ENV_PATTERNS",
      "DEFAULT_STAT_CACHE_MS",
      "DEV_ZERO_BYTES",
      "JUST_BASH_FILE_SYSTEM_NAME",
      "TIMEOUT_EXIT_CODE",
      "VIRTUAL_DEV_DIRECTORY",
      "VIRTUAL_DEV_FILES",
      "createBashTool",
      "justBashCommandRunner",
      "justBashFileSystem",
      "loadJustBash",
      "shellEnv",
      "toJustBashFs",
    ],
    types: [
      "BashInput",
      "BashToolOptions",
      "BashToolSettings",
      "CommandOutput",
      "CommandRunOptions",
      "CommandRunner",
      "ExecutionLimits",
      "JustBashCommandRunnerOptions",
      "JustBashFs",
      "JustBashModule",
      "ShellEnv",
      "ShellEnvOptions",
      "ShellEnvSource",
      "ToJustBashFsOptions",
      "TrustedRunner",
    ],
  },
  "src/ai-sdk/index.ts": {
    subpath: "./ai-sdk",
    values: [
      "BUNDLE_TOOL_KEYS",
      "STRICT_INTEGER_MAXIMUM",
      "STRICT_SCHEMA_FORMATS",
      "STRICT_SCHEMA_KEYWORDS",
      "approvalTargets",
      "createAiSdkApplyPatchTool",
      "createAiSdkBashTool",
      "createAiSdkEditTool",
      "createAiSdkFsTools",
      "createAiSdkReadTool",
      "createAiSdkWriteTool",
      "toAiSdkOutput",
      "toAiSdkTool",
      "toStrictSchema",
    ],
    types: [
      "AiSdkAdapterOptions",
      "AiSdkApplyPatchToolOptions",
      "AiSdkBashToolOptions",
      "AiSdkEditToolOptions",
      "AiSdkFsTool",
      "AiSdkFsToolSet",
      "AiSdkFsToolsOptions",
      "AiSdkReadToolOptions",
      "AiSdkSingleToolOptions",
      "AiSdkToolContext",
      "AiSdkToolOutput",
      "AiSdkToolSource",
      "AiSdkWriteToolOptions",
      "ApprovalTarget",
      "BundleToolOptions",
      "CoreInputOf",
      "CoreOptionsOf",
      "CoreResultOf",
      "NullStripper",
      "StrictSchema",
    ],
  },
  "src/sandbox/index.ts": {
    subpath: "./sandbox",
    values: ["DEFAULT_SANDBOX_TIMEOUT_MS", "MAX_SANDBOX_SYMLINK_HOPS", "fromSandboxSession", "toSandboxSession"],
    types: ["FromSandboxSessionOptions", "SandboxBackend", "ToSandboxSessionOptions"],
  },
  "src/conformance/index.ts": {
    subpath: "./conformance",
    values: [
      "CONCURRENT_CALLS",
      "DEEP_TREE_LEVELS",
      "ERROR_CASES",
      "LARGE_FILE_BYTES",
      "expectFsError",
      "testFileSystem",
    ],
    types: ["ErrorCase", "TestFileSystemOptions"],
  },
  "src/tools/signature/index.ts": {
    subpath: undefined,
    values: [
      "APPLY_PATCH_LARK_GRAMMAR",
      "DEFAULT_PRESET_TOOLS",
      "TEXT_EDITOR_SNIPPET_LINES",
      "TEXT_EDITOR_TOOL_NAME",
      "createTextEditorTool",
      "defaultPatchSignature",
      "defaultSignature",
      "freeformPatchSignature",
      "lineRangePreset",
      "lineRangeSignature",
      "offsetLimitPreset",
    ],
    types: [
      "LineRangeNames",
      "LineRangePreset",
      "LineRangeReadInput",
      "LineRangeSignatureOptions",
      "OffsetLimitPreset",
      "OffsetLimitPresetOptions",
      "PatchModelInput",
      "PatchSignature",
      "TextEditorCommand",
      "TextEditorInput",
      "TextEditorToolOptions",
    ],
  },
};

const packageJson = await readPackageJson();

/** `./dist/backends/memory/index.js` → `src/backends/memory/index.ts`. */
function sourceOf(target: string): string {
  return target.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts");
}

describe("exports snapshot", () => {
  it("pins every code subpath of package.json, and only those", () => {
    const published = codeSubpaths(packageJson)
      .map((subpath) => {
        const target = packageJson.exports[subpath] as Record<string, string>;
        return `${subpath} → ${sourceOf(target.import ?? "")}`;
      })
      .sort();
    const pinned = Object.entries(ENTRIES)
      .filter(([, entry]) => entry.subpath !== undefined)
      .map(([file, entry]) => `${entry.subpath} → ${file}`)
      .sort();
    expect(pinned).toEqual(published);
  });

  for (const [file, entry] of Object.entries(ENTRIES)) {
    describe(entry.subpath ?? file, () => {
      it("uses named exports only (no export *)", async () => {
        expect(exportsOf(await readSource(REPOSITORY_ROOT, file), file).star).toEqual([]);
      });

      it("exports exactly the pinned value names at run time", async () => {
        // The path is computed, so vite cannot analyse it: the entry is loaded from the repository root.
        const module = (await import(/* @vite-ignore */ `${REPOSITORY_ROOT}/${file}`)) as Record<string, unknown>;
        expect(Object.keys(module).sort()).toEqual([...entry.values].sort());
      });

      it("declares exactly the pinned value and type names in its export statements", async () => {
        const declared = exportsOf(await readSource(REPOSITORY_ROOT, file), file);
        expect({ values: declared.values, types: declared.types }).toEqual({
          values: [...entry.values].sort(),
          types: [...entry.types].sort(),
        });
      });
    });
  }
});

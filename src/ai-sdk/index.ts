/**
 * better-fs-tools/ai-sdk: the file tools as AI SDK 7 tools, ready for `generateText`,
 * `streamText` and `ToolLoopAgent`. Every tool is strict (its schema converted to what OpenAI
 * strict mode accepts), validates model input through its signature and the core checks, passes
 * the AI SDK call options to the core as `call.host`, and shows results to the model as text and
 * file parts. Imports nothing from `node:`, so it runs in browsers and Workers. This is the only
 * subpath that imports `ai`.
 *
 * @example
 * ```ts
 * import { generateText, isStepCount } from "ai";
 * import { createAiSdkFsTools } from "better-fs-tools/ai-sdk";
 * import { memoryFileSystem } from "better-fs-tools/memory";
 * import { memoryStore } from "better-fs-tools";
 *
 * const { tools } = createAiSdkFsTools({ fs: memoryFileSystem(), state: memoryStore(), applyPatch: true });
 * await generateText({ model, tools, prompt: "Create hello.txt", stopWhen: isStepCount(10) });
 * ```
 *
 * @module
 */
export {
  type AiSdkFsToolSet,
  type AiSdkFsToolsOptions,
  BUNDLE_TOOL_KEYS,
  type BundleToolOptions,
  createAiSdkFsTools,
} from "./bundle.js";
export {
  type AiSdkApplyPatchToolOptions,
  type AiSdkBashToolOptions,
  type AiSdkCoreOptions,
  type AiSdkEditToolOptions,
  type AiSdkGlobToolOptions,
  type AiSdkGrepToolOptions,
  type AiSdkListToolOptions,
  type AiSdkReadToolOptions,
  type AiSdkSingleToolOptions,
  type AiSdkWriteToolOptions,
  type CoreInputOf,
  type CoreOptionsOf,
  type CoreResultOf,
  createAiSdkApplyPatchTool,
  createAiSdkBashTool,
  createAiSdkEditTool,
  createAiSdkGlobTool,
  createAiSdkGrepTool,
  createAiSdkListTool,
  createAiSdkReadTool,
  createAiSdkWriteTool,
} from "./single-tools.js";
export {
  type AiSdkAdapterOptions,
  type AiSdkFsTool,
  type AiSdkPerCall,
  type AiSdkToolCall,
  type AiSdkToolContext,
  type AiSdkToolSource,
  type StrictModelInput,
  toAiSdkTool,
} from "./tool.js";
export { type AiSdkToolOutput, toAiSdkOutput } from "./output.js";
export {
  type NullStripper,
  STRICT_INTEGER_MAXIMUM,
  STRICT_SCHEMA_FORMATS,
  STRICT_SCHEMA_KEYWORDS,
  type StrictSchema,
  toStrictSchema,
} from "./strict-schema.js";
export { type ApprovalTarget, approvalTargets } from "./approval.js";

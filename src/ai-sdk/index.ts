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
  createAiSdkFsTools,
  BUNDLE_TOOL_KEYS,
  type AiSdkFsToolsOptions,
  type AiSdkFsToolSet,
  type BundleToolOptions,
} from "./bundle.js";
export {
  createAiSdkApplyPatchTool,
  createAiSdkBashTool,
  createAiSdkEditTool,
  createAiSdkReadTool,
  createAiSdkWriteTool,
  type AiSdkApplyPatchToolOptions,
  type AiSdkBashToolOptions,
  type AiSdkEditToolOptions,
  type AiSdkReadToolOptions,
  type AiSdkSingleToolOptions,
  type AiSdkWriteToolOptions,
  type CoreInputOf,
  type CoreOptionsOf,
  type CoreResultOf,
} from "./single-tools.js";
export {
  toAiSdkTool,
  type AiSdkAdapterOptions,
  type AiSdkFsTool,
  type AiSdkToolContext,
  type AiSdkToolSource,
} from "./tool.js";
export { toAiSdkOutput, type AiSdkToolOutput } from "./output.js";
export {
  toStrictSchema,
  STRICT_INTEGER_MAXIMUM,
  STRICT_SCHEMA_FORMATS,
  STRICT_SCHEMA_KEYWORDS,
  type NullStripper,
  type StrictSchema,
} from "./strict-schema.js";
export { approvalTargets, type ApprovalTarget } from "./approval.js";

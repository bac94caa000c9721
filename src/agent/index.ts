/**
 * better-fs-tools/agent: `createWorkspaceAgent`, an AI SDK 7 `ToolLoopAgent` over a workspace.
 * Its memory file (`AGENTS.md`) joins the system prompt on every run; the one shape of tool
 * options picks and shapes the file tools (`readOnly`, `write: false`, `read: { signature }`,
 * bash); structured `output` is typed, checked and cached; large `extraTools` results are
 * offloaded; tool rounds are bounded with a last step that has no
 * tools; the expected output files and the host's `validate` send feedback to the model; and a
 * run cache (`memoryRunCache`, `fileRunCache`) replays runs whose inputs did not change. Imports
 * nothing from `node:`: it runs in pages, Workers and Node.
 *
 * @example
 * ```ts
 * import { createWorkspaceAgent, memoryRunCache } from "better-fs-tools/agent";
 * import { memoryFileSystem } from "better-fs-tools/memory";
 *
 * const agent = createWorkspaceAgent({ model, fs: memoryFileSystem(), cache: memoryRunCache() });
 * const { text, cached, rounds } = await agent.generate({ prompt: "Summarise notes/ into SUMMARY.md" });
 * ```
 *
 * @module
 */
export {
  type AgentOutputOf,
  createWorkspaceAgent,
  DEFAULT_MAX_TOOL_ROUNDS,
  READ_ONLY_TOOLS,
  type WorkspaceAgent,
  type WorkspaceAgentCall,
  type WorkspaceAgentCallOptions,
  type WorkspaceAgentOptions,
  type WorkspaceAgentResult,
  type WorkspaceAgentStream,
  type WorkspaceAgentStreamCall,
  type WorkspaceToolOption,
  type WorkspaceToolOptions,
} from "./agent.js";
export { DEFAULT_MAX_MEMORY_BYTES, DEFAULT_MEMORY_FILE, type MemoryFile, systemPrompt } from "./memory-file.js";
export {
  type CachedRun,
  DEFAULT_MEMORY_RUN_CACHE_ENTRIES,
  fileRunCache,
  memoryRunCache,
  type MemoryRunCacheOptions,
  type RunCache,
} from "./run-cache.js";
export { canonicalJson, RUN_KEY_VERSION, runCacheKey, type RunKeyParts } from "./cache-key.js";
export {
  DEFAULT_MAX_VALIDATION_RETRIES,
  feedbackText,
  type Validate,
  type ValidationContext,
  type ValidationFailure,
} from "./validation.js";

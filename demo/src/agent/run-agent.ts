/**
 * The agent run: `createWorkspaceAgent` from `better-fs-tools/agent` (an AI SDK `ToolLoopAgent`)
 * over the open workspace, streaming, continuing the conversation. Every stream part (text
 * deltas, tool input as it streams, calls, results, errors) goes to `onPart` as it happens, and
 * each validation feedback turn to `onFeedback`.
 *
 * What the agent adds over a bare tool loop, and the panel shows: `AGENTS.md` read into the
 * system prompt at the start of every run, tool rounds bounded by {@link MAX_TOOL_ROUNDS}, a
 * check that the run left {@link REPORT_PATH} behind (feedback and another attempt otherwise), and
 * a run cache.
 *
 * @module
 */
import type { LanguageModel, ModelMessage, TextStreamPart, ToolSet } from "ai";
import {
  createWorkspaceAgent,
  memoryRunCache,
  type RunCache,
  type ValidationFailure,
  type WorkspaceAgentResult,
} from "better-fs-tools/agent";
import type { AgentWorkspace } from "../workspace/session.js";
import { REPORT_PATH } from "./scripted-model.js";

/** Most tool rounds per attempt; after them the model gives its final answer with no tools. */
export const MAX_TOOL_ROUNDS = 30;
/** Feedback rounds after a failed check. */
export const MAX_VALIDATION_RETRIES = 1;

export const SYSTEM_PROMPT = [
  "You are a careful coding agent working on the files of a project in the user's browser.",
  "Paths are relative to the workspace root. Read a file before you edit or overwrite it.",
  "Prefer small edits (edit, apply_patch) over rewriting whole files. bash runs just-bash, a bash written in JavaScript, over the same files.",
  `Every run ends with a short report of what you did in ${REPORT_PATH} (the host checks it exists).`,
  "When you are done, answer with a short summary of what you changed.",
].join("\n");

/**
 * The playground's run cache, one per page. In memory rather than `fileRunCache` on the selected
 * backend: a file cache would sit among the user's files (in the tree, the Changes tab and the
 * exported zip) or need a second, ungated area of each backend, and switching storage would carry
 * entries between workspaces. A replay needs the same conversation, AGENTS.md and files in this
 * tab, which is what the demo shows; the key already names the backend, so one cache serves all.
 */
export function createPlaygroundCache(): RunCache {
  return memoryRunCache({ maxEntries: 100 });
}

export interface AgentRunOptions {
  readonly model: LanguageModel;
  readonly workspace: AgentWorkspace;
  readonly cache: RunCache;
  /** The conversation so far, ending with the new user message. */
  readonly messages: readonly ModelMessage[];
  readonly abortSignal?: AbortSignal;
  readonly onPart: (part: TextStreamPart<ToolSet>) => void;
  readonly onFeedback: (turn: string, failures: readonly ValidationFailure[]) => void;
}

/**
 * Run one agent turn to completion.
 *
 * @returns the agent's result: `responseMessages` to append to the conversation, `memory`,
 *   `rounds` of `maxToolRounds`, `cached`/`modelCalls`, `feedback`, `ok`/`failures`.
 * @throws the first error the stream reported (an `APICallError` for a refused key, a network
 *   error...), or an abort error when `abortSignal` fires.
 */
export async function runAgent(options: AgentRunOptions): Promise<WorkspaceAgentResult> {
  const { workspace } = options;
  const agent = createWorkspaceAgent({
    model: options.model,
    fs: workspace.fs,
    cwd: workspace.cwd,
    allowedRoots: workspace.allowedRoots,
    permissions: workspace.permissions,
    state: workspace.state,
    instructions: SYSTEM_PROMPT,
    applyPatch: true,
    bash: workspace.bash,
    maxToolRounds: MAX_TOOL_ROUNDS,
    expectedOutputFiles: () => [REPORT_PATH],
    maxValidationRetries: MAX_VALIDATION_RETRIES,
    cache: options.cache,
    inputGlobs: ["**"],
  });
  const streamed = await agent.stream({
    messages: options.messages,
    abortSignal: options.abortSignal,
    onPart: options.onPart,
    onFeedback: options.onFeedback,
  });
  return streamed.result;
}

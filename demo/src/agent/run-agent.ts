/**
 * The agent loop: AI SDK `streamText`, multi-step, with the workspace's tools. Every stream part
 * (text deltas, tool input as it streams, calls, results, errors) goes to `onPart` as it happens.
 *
 * @module
 */
import { isStepCount, streamText, type LanguageModel, type ModelMessage, type TextStreamPart, type ToolSet } from "ai";

/** Most steps (model calls) in one run. */
export const MAX_AGENT_STEPS = 30;

export const SYSTEM_PROMPT = [
  "You are a careful coding agent working on the files of a project in the user's browser.",
  "Paths are relative to the workspace root. Read a file before you edit or overwrite it.",
  "Prefer small edits (edit, apply_patch) over rewriting whole files. bash runs just-bash, a bash written in JavaScript, over the same files.",
  "When you are done, answer with a short summary of what you changed.",
].join("\n");

export interface AgentRunOptions {
  readonly model: LanguageModel;
  readonly tools: ToolSet;
  /** The conversation so far, ending with the new user message. */
  readonly messages: readonly ModelMessage[];
  readonly abortSignal?: AbortSignal;
  readonly onPart: (part: TextStreamPart<ToolSet>) => void;
}

/**
 * Run one agent turn to completion.
 *
 * @returns the response messages of the turn (to append to the conversation) and the step count.
 * @throws the first error the stream reported (an `APICallError` for a refused key, a network
 *   error...), or an abort error when `abortSignal` fires.
 */
export async function runAgent(options: AgentRunOptions): Promise<{ messages: ModelMessage[]; steps: number }> {
  const result = streamText({
    model: options.model,
    system: SYSTEM_PROMPT,
    tools: options.tools,
    messages: [...options.messages],
    stopWhen: isStepCount(MAX_AGENT_STEPS),
    abortSignal: options.abortSignal,
  });
  // A failed model call (bad key, network) arrives as an `error` part; the run then has no
  // response, so report that error rather than the SDK's "no output generated".
  let failure: unknown;
  for await (const part of result.stream) {
    if (part.type === "error" && failure === undefined) failure = part.error;
    options.onPart(part);
  }
  if (failure !== undefined) throw failure;
  const response = await result.response;
  const steps = (await result.steps).length;
  return { messages: response.messages, steps };
}

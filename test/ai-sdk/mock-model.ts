/**
 * A scripted MockLanguageModelV4: each step is the list of tool calls (or the final text) the
 * model "answers" with; the prompts it was sent are kept for assertions.
 */
import { MockLanguageModelV4 } from "ai/test";

export type ScriptedStep =
  { readonly calls: ReadonlyArray<{ readonly tool: string; readonly input: unknown }> } | { readonly text: string };

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model answering with `steps` in order (the last step repeats). */
export function scriptedModel(steps: readonly ScriptedStep[]): MockLanguageModelV4 {
  let index = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const step = steps[Math.min(index, steps.length - 1)] as ScriptedStep;
      const stepIndex = index;
      index += 1;
      if ("text" in step) {
        return {
          content: [{ type: "text", text: step.text }],
          finishReason: { unified: "stop", raw: undefined },
          usage: USAGE,
          warnings: [],
        };
      }
      return {
        content: step.calls.map((call, callIndex) => ({
          type: "tool-call" as const,
          toolCallId: `call-${stepIndex}-${callIndex}`,
          toolName: call.tool,
          input: typeof call.input === "string" ? call.input : JSON.stringify(call.input),
        })),
        finishReason: { unified: "tool-calls", raw: undefined },
        usage: USAGE,
        warnings: [],
      };
    },
  });
}

/** The tool-result outputs the model was sent in the prompt of call `n` (0-based), in order. */
export function toolOutputsSentAt(model: MockLanguageModelV4, n: number): unknown[] {
  const prompt = model.doGenerateCalls[n]?.prompt ?? [];
  const outputs: unknown[] = [];
  for (const message of prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result") outputs.push({ toolName: part.toolName, output: part.output });
    }
  }
  return outputs;
}

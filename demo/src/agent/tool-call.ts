/**
 * Run one tool exactly as the agent loop would: through the AI SDK (`generateText` with a model
 * that makes this one call), so the input is validated by the tool's strict schema and the
 * output is what `toModelOutput` gives the model. The tool console shows that output as is.
 *
 * @module
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { asSchema, generateText, isStepCount, type ToolSet } from "ai";

/** The tool result as the model receives it (the AI SDK's `ToolResultOutput`). */
export type ModelToolOutput =
  | { type: "text" | "error-text"; value: string }
  | { type: "json" | "error-json"; value: unknown }
  | { type: "execution-denied"; reason?: string }
  | { type: "content"; value: Array<{ type: string; text?: string; mediaType?: string }> };

/** The JSON Schema the model sees for a tool. */
export async function toolJsonSchema(tools: ToolSet, name: string): Promise<Record<string, unknown>> {
  const tool = tools[name];
  if (!tool) return {};
  return (await asSchema(tool.inputSchema).jsonSchema) as Record<string, unknown>;
}

function oneCallModel(toolName: string, input: unknown): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: "playground",
    modelId: "tool-console",
    supportedUrls: {},
    async doGenerate() {
      return {
        content: [{ type: "tool-call", toolCallId: "console", toolName, input: JSON.stringify(input) }],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage: {
          inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 0, text: 0, reasoning: undefined },
        },
        warnings: [],
      };
    },
    doStream() {
      throw new Error("the tool console model only generates");
    },
  };
}

/**
 * Call `toolName` with `input` through the AI SDK.
 *
 * @returns the output the model would receive, and the tool's own result object (undefined when
 *   the input was refused before the tool ran).
 */
export async function callToolAsModel(
  tools: ToolSet,
  toolName: string,
  input: unknown,
  abortSignal?: AbortSignal,
): Promise<{ output: ModelToolOutput; result: unknown }> {
  const tool = tools[toolName];
  if (!tool) throw new Error(`No tool named ${toolName}`);
  const run = await generateText({
    model: oneCallModel(toolName, input),
    tools: { [toolName]: tool },
    prompt: "tool console",
    stopWhen: isStepCount(1),
    abortSignal,
  });
  let output: ModelToolOutput | undefined;
  for (const message of run.response.messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result") output = part.output as ModelToolOutput;
    }
  }
  const step = run.steps[0];
  const result = step?.toolResults[0]?.output;
  return { output: output ?? { type: "error-text", value: "The tool returned nothing." }, result };
}

/** The text of a model output: text parts joined, error texts as is, JSON pretty-printed. */
export function modelOutputText(output: ModelToolOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return JSON.stringify(output.value, null, 2);
    case "execution-denied":
      return `Execution denied${output.reason ? `: ${output.reason}` : ""}`;
    case "content":
      return output.value
        .map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.mediaType ?? part.type}]`))
        .join("\n");
  }
}

/**
 * A MockLanguageModelV4 driven by a policy: each call's options in, a text or tool calls out,
 * for `generate` and `stream` alike. The calls it received are kept (`doGenerateCalls`,
 * `doStreamCalls`) for exact assertions on the system prompt, the tools and the messages.
 */
import { MockLanguageModelV4 } from "ai/test";

type LanguageModelV4CallOptions = MockLanguageModelV4["doGenerateCalls"][number];
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;

export type Reply = { readonly text: string } | { readonly calls: ReadonlyArray<{ tool: string; input: unknown }> };
export type Policy = (options: LanguageModelV4CallOptions, index: number) => Reply;

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model answering each call with `policy(options, n)` (n counts generate and stream calls together). */
export function policyModel(policy: Policy, modelId = "mock-model"): MockLanguageModelV4 {
  let index = 0;
  const next = (options: LanguageModelV4CallOptions): { reply: Reply; n: number } => {
    const n = index;
    index += 1;
    return { reply: policy(options, n), n };
  };
  return new MockLanguageModelV4({
    modelId,
    doGenerate: async (options) => {
      const { reply, n } = next(options);
      if ("text" in reply) {
        return {
          content: [{ type: "text", text: reply.text }],
          finishReason: { unified: "stop", raw: undefined },
          usage: USAGE,
          warnings: [],
        };
      }
      return {
        content: reply.calls.map((call, callIndex) => ({
          type: "tool-call" as const,
          toolCallId: `call-${n}-${callIndex}`,
          toolName: call.tool,
          input: JSON.stringify(call.input),
        })),
        finishReason: { unified: "tool-calls", raw: undefined },
        usage: USAGE,
        warnings: [],
      };
    },
    doStream: async (options) => {
      const { reply, n } = next(options);
      const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if ("text" in reply) {
        parts.push({ type: "text-start", id: "t" });
        for (const word of reply.text.split(/(?<= )/)) parts.push({ type: "text-delta", id: "t", delta: word });
        parts.push({ type: "text-end", id: "t" });
      } else {
        reply.calls.forEach((call, callIndex) =>
          parts.push({
            type: "tool-call",
            toolCallId: `call-${n}-${callIndex}`,
            toolName: call.tool,
            input: JSON.stringify(call.input),
          }),
        );
      }
      parts.push({
        type: "finish",
        finishReason: { unified: "text" in reply ? "stop" : "tool-calls", raw: undefined },
        usage: USAGE,
      });
      return {
        stream: new ReadableStream<StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}

/** The system prompt of a call (the content of its system message), or undefined. */
export function systemOf(options: LanguageModelV4CallOptions | undefined): string | undefined {
  const first = options?.prompt[0];
  return first?.role === "system" ? first.content : undefined;
}

/** The names of the tools a call offered, in the order sent. */
export function toolNamesOf(options: LanguageModelV4CallOptions | undefined): string[] {
  return (options?.tools ?? []).map((tool) => tool.name);
}

/** The text of the user messages of a call, in order. */
export function userTextsOf(options: LanguageModelV4CallOptions | undefined): string[] {
  return (options?.prompt ?? [])
    .filter((message) => message.role === "user")
    .map((message) =>
      (message.content as ReadonlyArray<{ type: string; text?: string }>)
        .map((part) => (part.type === "text" ? part.text : ""))
        .join(""),
    );
}

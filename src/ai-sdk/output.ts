/**
 * Core tool results → AI SDK tool result output (what the model reads).
 *
 * @module
 */
import type { Tool } from "ai";
import type { ResultPart } from "../tools/result.js";

/** The AI SDK's `ToolResultOutput` (what `toModelOutput` returns; `ai` does not export the name). */
type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool["toModelOutput"]>>>;

/** The AI SDK output of a result: a `content` output made of text and file parts. */
export type AiSdkToolOutput = Extract<ToolResultOutput, { type: "content" }>;

/**
 * Map a core result to the AI SDK's tool result output: each text part becomes a `text` part,
 * each media part a `file` part with its `mediaType` and base64 data (`{ type: "data", data }`).
 * Failed results (`ok: false`) map the same way: their text part carries the error message.
 *
 * @param result - any core result (or an object with `parts`).
 * @returns `{ type: "content", value: [...] }`, the parts in their order.
 * @example
 * ```ts
 * toAiSdkOutput({ kind: "read", ok: true, parts: [{ type: "text", text: "1|one" }] });
 * // { type: "content", value: [{ type: "text", text: "1|one" }] }
 * ```
 */
export function toAiSdkOutput(result: { readonly parts: readonly ResultPart[] }): AiSdkToolOutput {
  return {
    type: "content",
    value: result.parts.map((part) =>
      part.type === "text"
        ? { type: "text" as const, text: part.text }
        : { type: "file" as const, mediaType: part.mediaType, data: { type: "data" as const, data: part.data } },
    ),
  };
}

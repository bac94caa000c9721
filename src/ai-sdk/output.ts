/**
 * Core tool results → AI SDK tool result output (what the model reads).
 *
 * @module
 */
import type { Tool } from "ai";
import type { ResultPart } from "../tools/kit/result.js";

/** The AI SDK's `ToolResultOutput` (what `toModelOutput` returns; `ai` does not export the name). */
type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool["toModelOutput"]>>>;

/**
 * The AI SDK output of a result: a `content` output made of text and file parts, or, for a
 * failed result, an `error-text` output (providers mark it as a tool error: Anthropic's `is_error`).
 */
export type AiSdkToolOutput = Extract<ToolResultOutput, { type: "content" } | { type: "error-text" }>;

/**
 * Map a core result to the AI SDK's tool result output. Two shapes:
 *
 * - a result that did not fail (`ok` is not `false`): `{ type: "content", value }`, each text part
 *   a `text` part, each media part a `file` part with its `mediaType` and base64 data
 *   (`{ type: "data", data }`), in their order;
 * - a failed result (`ok: false`): `{ type: "error-text", value }`, the text of its text parts
 *   joined as they are (the message the model reads is unchanged), so the provider sends it as a
 *   tool error.
 *
 * @param result - any core result (or an object with `parts` and optionally `ok`).
 * @returns the `content` or `error-text` output described above.
 * @example
 * ```ts
 * toAiSdkOutput({ kind: "read", ok: true, parts: [{ type: "text", text: "1|one" }] });
 * // { type: "content", value: [{ type: "text", text: "1|one" }] }
 * toAiSdkOutput({ kind: "read", ok: false, parts: [{ type: "text", text: "Cannot read a.txt: no such file." }], error });
 * // { type: "error-text", value: "Cannot read a.txt: no such file." }
 * ```
 */
export function toAiSdkOutput(result: {
  readonly ok?: boolean;
  readonly parts: readonly ResultPart[];
}): AiSdkToolOutput {
  if (result.ok === false) {
    return {
      type: "error-text",
      value: result.parts.map((part) => (part.type === "text" ? part.text : "")).join(""),
    };
  }
  return {
    type: "content",
    value: result.parts.map((part) =>
      part.type === "text"
        ? { type: "text" as const, text: part.text }
        : { type: "file" as const, mediaType: part.mediaType, data: { type: "data" as const, data: part.data } },
    ),
  };
}

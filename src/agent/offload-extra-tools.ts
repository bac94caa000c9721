/**
 * Large results of the agent's `extraTools` go to `tool-outputs/` as the file tools' do: the
 * model gets a preview and the path, and reads the rest with `read` (exempt from the read cap).
 *
 * @module
 */
import type { ToolSet } from "ai";
import type { Clock } from "../contract/clock.js";
import type { Gate } from "../gate/gate.js";
import { checkOffloadOptions, offloadOutput, type OffloadOptions } from "../tools/kit/offload.js";

type ModelOutputOptions = Parameters<NonNullable<ToolSet[string]["toModelOutput"]>>[0];
type ModelOutput = Awaited<ReturnType<NonNullable<ToolSet[string]["toModelOutput"]>>>;

/** The text a result is measured and saved as: a string as it is, anything else as JSON. */
function resultText(output: unknown): string | undefined {
  if (typeof output === "string") return output;
  try {
    return JSON.stringify(output, null, 2);
  } catch {
    return undefined; // not JSON (a cycle, a BigInt): left to the tool's own mapping
  }
}

/**
 * Wrap each tool's `toModelOutput` so a result over the threshold reaches the model as the
 * preview {@link offloadOutput} gives (the whole result saved under `tool-outputs/`, named by
 * the tool call id); smaller results reach it as before (the tool's own `toModelOutput`, else
 * the AI SDK's: text for a string, JSON otherwise). `execute` is untouched, so the host still
 * sees the whole result in the steps.
 *
 * @param factory - the factory name, for option errors.
 * @param tools - the extra tools.
 * @param context - the agent's gate (which writes the file) and clock.
 * @param options - `{ thresholdBytes, previewBytes }` (bytes), or `false` to send every result whole.
 * @returns the tools, wrapped (a new object; the given tools are not changed).
 * @throws OptionError when `options` is neither `false` nor an object of positive integers.
 * @example
 * ```ts
 * const tools = offloadExtraTools("createWorkspaceAgent", { search }, { gate, clock: Date.now }, {});
 * ```
 */
export function offloadExtraTools(
  factory: string,
  tools: ToolSet,
  context: { readonly gate: Gate; readonly clock: Clock },
  options: OffloadOptions | false,
): ToolSet {
  checkOffloadOptions(factory, "extraToolsOffload", options);
  if (options === false) return tools;
  const wrapped: Record<string, ToolSet[string]> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const own = tool.toModelOutput;
    const toModelOutput = async (call: ModelOutputOptions): Promise<ModelOutput> => {
      const text = resultText(call.output);
      if (text !== undefined) {
        const offloaded = await offloadOutput({ ...context, call: { toolCallId: call.toolCallId } }, text, options);
        if (offloaded.text !== text) return { type: "text", value: offloaded.text };
      }
      if (own !== undefined) return own(call);
      return typeof call.output === "string"
        ? { type: "text", value: call.output }
        : { type: "json", value: (call.output ?? null) as Extract<ModelOutput, { type: "json" }>["value"] };
    };
    wrapped[name] = { ...tool, toModelOutput } as ToolSet[string];
  }
  return wrapped;
}

/**
 * The default preset: each core tool under its own name and schema (`read` with `path`,
 * `offset`, `limit` and `N|text` lines; `edit`, `write`, `apply_patch`, `bash`).
 *
 * @module
 */
import type { ToolResult } from "../kit/result.js";
import type { CoreToolParts, ToolSignature } from "../kit/tool.js";

/** The core tools of the default preset, by name. */
export const DEFAULT_PRESET_TOOLS = ["read", "edit", "write", "apply_patch", "bash"] as const;

/**
 * The default signature of a core tool: its own name, description and input schema, with the
 * input passed through (the core `validate` checks it) and the result unchanged.
 *
 * @param tool - any core tool (`createReadTool(...)`, `createApplyPatchTool(...)`...).
 * @returns a signature equal in name and schema to the core tool.
 * @example
 * ```ts
 * const read = createReadTool({ fs });
 * defaultSignature(read).name; // "read"
 * ```
 */
export function defaultSignature<Input, Result extends ToolResult>(
  tool: CoreToolParts<Input, Result>,
): ToolSignature<Input, Input, Result> {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    toInput: (input) => tool.validate(input),
  };
}

/**
 * Signatures of the `apply_patch` tool: the whole patch as one JSON string parameter, and the
 * freeform (grammar-based) form OpenAI's custom tools use.
 *
 * @module
 */
import type { ApplyPatchInput } from "../apply-patch/index.js";
import { APPLY_PATCH_DESCRIPTION } from "../apply-patch/index.js";
import { checkInput, specSchema, type InputSpec } from "../kit/input.js";
import type { MutationResult } from "../kit/result.js";
import { ToolInputError, type ToolSignature } from "../kit/tool.js";

/** The model input of the patch signatures. */
export interface PatchModelInput {
  /** The entire patch, from `*** Begin Patch` to `*** End Patch`. */
  readonly patch: string;
}

const PATCH_SPEC: InputSpec = {
  patch: {
    type: "string",
    required: true,
    nonEmpty: true,
    description: "The entire patch, from '*** Begin Patch' to '*** End Patch'.",
  },
};

/**
 * The Lark grammar of the patch envelope, for providers that constrain a freeform tool's output
 * with a grammar (OpenAI custom tools: `format: { type: "grammar", syntax: "lark" }`).
 */
export const APPLY_PATCH_LARK_GRAMMAR = String.raw`start: begin_patch hunk+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

hunk: add_hunk | delete_hunk | update_hunk
add_hunk: "*** Add File: " filename LF add_line+
delete_hunk: "*** Delete File: " filename LF
update_hunk: "*** Update File: " filename LF change_move? change?

filename: /(.+)/
add_line: "+" /(.*)/ LF -> line

change_move: "*** Move to: " filename LF
change: (change_context | change_line)+ eof_line?
change_context: ("@@" | "@@ " /(.+)/) LF
change_line: ("+" | "-" | " ") /(.*)/ LF
eof_line: "*** End of File" LF

%import common.LF
`;

/** A patch signature, with the grammar of its freeform form where there is one. */
export interface PatchSignature extends ToolSignature<ApplyPatchInput, PatchModelInput, MutationResult> {
  /** For freeform tools: the grammar the model's raw output follows. */
  readonly format?: { readonly type: "grammar"; readonly syntax: "lark"; readonly definition: string };
  /**
   * For freeform tools: the description to send with `format`, which tells the model to write
   * the raw patch. `description` stays true for JSON adapters, where the patch goes in `patch`.
   */
  readonly freeformDescription?: string;
}

/** What the freeform description adds to {@link APPLY_PATCH_DESCRIPTION}: the raw patch is the input. */
const FREEFORM_PATCH_INSTRUCTION = "Write the patch itself as the tool input, with no JSON around it.";

function toPatchInput(name: string, input: PatchModelInput | string): ApplyPatchInput {
  if (typeof input === "string") {
    if (input.trim() === "") throw new ToolInputError(`${name} input patch must not be empty`);
    return { patch: input };
  }
  return checkInput<ApplyPatchInput>(name, input, PATCH_SPEC);
}

/**
 * The default `apply_patch` signature: one required string parameter `patch` holding the whole
 * patch (JSON function calling).
 *
 * @returns a signature named `apply_patch` with schema
 *   `{ type: "object", properties: { patch: { type: "string", ... } }, required: ["patch"], additionalProperties: false }`.
 * @example
 * ```ts
 * const applyPatch = createAiSdkApplyPatchTool({ fs, signature: defaultPatchSignature() });
 * ```
 */
export function defaultPatchSignature(): PatchSignature {
  return {
    name: "apply_patch",
    description: APPLY_PATCH_DESCRIPTION,
    inputSchema: specSchema(PATCH_SPEC),
    toInput: (input) => toPatchInput("apply_patch", input),
  };
}

/**
 * The freeform `apply_patch` signature: the model writes the patch as raw text constrained by
 * {@link APPLY_PATCH_LARK_GRAMMAR} (`format`). Adapters without freeform tools (the AI SDK
 * adapter) send the same JSON schema and description as {@link defaultPatchSignature}, where
 * the model puts the patch in `patch`; a host that sends the tool as a freeform tool with
 * `format` sends `freeformDescription` instead, which adds `Write the patch itself as the tool input, with no JSON around it.`
 * `toInput` accepts both `{ patch }` and the raw patch string.
 *
 * @returns a signature named `apply_patch` with a `format` of type `grammar` (syntax `lark`) and
 *   a `freeformDescription`.
 * @example
 * ```ts
 * const signature = freeformPatchSignature();
 * signature.toInput("*** Begin Patch\n*** Delete File: a.txt\n*** End Patch" as never); // { patch: "..." }
 * ```
 */
export function freeformPatchSignature(): PatchSignature {
  return {
    name: "apply_patch",
    description: APPLY_PATCH_DESCRIPTION,
    inputSchema: specSchema(PATCH_SPEC),
    format: { type: "grammar", syntax: "lark", definition: APPLY_PATCH_LARK_GRAMMAR },
    freeformDescription: `${APPLY_PATCH_DESCRIPTION}\n${FREEFORM_PATCH_INSTRUCTION}`,
    toInput: (input) => toPatchInput("apply_patch", input as PatchModelInput | string),
  };
}

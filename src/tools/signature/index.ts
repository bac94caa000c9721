/**
 * Signatures and presets: the model-facing dialects of the core tools.
 *
 * - default: each core tool as it is ({@link defaultSignature});
 * - line ranges: `readFile({ path, startLine, endLine })` and friends ({@link lineRangePreset});
 * - offset/limit with `cat -n` output and `Error: ...` strings ({@link offsetLimitPreset});
 * - the Anthropic text editor ({@link createTextEditorTool});
 * - the `apply_patch` envelope as JSON or freeform ({@link defaultPatchSignature}, {@link freeformPatchSignature}).
 *
 * @module
 */
export { defaultSignature, DEFAULT_PRESET_TOOLS } from "./default.js";
export {
  lineRangeSignature,
  lineRangePreset,
  type LineRangeNames,
  type LineRangePreset,
  type LineRangeReadInput,
  type LineRangeSignatureOptions,
} from "./line-range.js";
export { offsetLimitPreset, type OffsetLimitPreset, type OffsetLimitPresetOptions } from "./offset-limit.js";
export {
  createTextEditorTool,
  TEXT_EDITOR_TOOL_NAME,
  TEXT_EDITOR_SNIPPET_LINES,
  type TextEditorCommand,
  type TextEditorInput,
  type TextEditorToolOptions,
} from "../text-editor.js";
export {
  defaultPatchSignature,
  freeformPatchSignature,
  APPLY_PATCH_LARK_GRAMMAR,
  type PatchModelInput,
  type PatchSignature,
} from "./patch.js";
export { catNumbered, parseNumberedLines, type NumberedLine } from "./common.js";

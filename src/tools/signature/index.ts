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
export { DEFAULT_PRESET_TOOLS, defaultSignature } from "./default.js";
export {
  type LineRangeNames,
  type LineRangePreset,
  lineRangePreset,
  type LineRangeReadInput,
  lineRangeSignature,
  type LineRangeSignatureOptions,
} from "./line-range.js";
export {
  DEFAULT_MAX_READ_CHARS,
  type OffsetLimitPreset,
  offsetLimitPreset,
  type OffsetLimitPresetOptions,
} from "./offset-limit.js";
export {
  createTextEditorTool,
  TEXT_EDITOR_SNIPPET_LINES,
  TEXT_EDITOR_TOOL_NAME,
  type TextEditorCommand,
  type TextEditorInput,
  type TextEditorToolOptions,
} from "../text-editor/index.js";
export {
  APPLY_PATCH_LARK_GRAMMAR,
  defaultPatchSignature,
  freeformPatchSignature,
  type PatchModelInput,
  type PatchSignature,
} from "./patch.js";

/**
 * The bundle keys of the core tools (`read`, ..., `applyPatch`, `bash`), without the tools:
 * what an entry point needs to check its options' names (the MCP server's start) loads no tool.
 * Each tool's own setting keys are in `setting-keys.ts`, keyed by these.
 *
 * @module
 */

const KEYS = ["read", "write", "edit", "list", "glob", "grep", "applyPatch", "bash"] as const;

/** A bundle key of a core tool: `read`, ..., `applyPatch`, `bash`. */
export type ToolSettingsKey = (typeof KEYS)[number];

/** The bundle keys, in order. */
export const TOOL_SETTINGS_KEYS: readonly ToolSettingsKey[] = Object.freeze([...KEYS]);

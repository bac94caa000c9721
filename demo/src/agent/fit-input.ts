/**
 * Fit values given by role (path, old text, new text, content, pattern, command, patch) to a
 * tool's own parameter names, whatever dialect its signature speaks (`old_string`, `oldText`...).
 * Used by the scripted model and by the tool console's examples.
 *
 * @module
 */
import type { JSONSchema7 } from "@ai-sdk/provider";

const ROLES: Readonly<Record<string, readonly RegExp[]>> = {
  path: [/^path$/, /^file_?path$/i, /^file$/i, /path/i],
  old: [/^old_?str(ing)?$/i, /^old_?text$/i, /old/i],
  new: [/^new_?str(ing)?$/i, /^new_?text$/i, /new/i],
  content: [/^content$/i, /^contents$/i, /^text$/i, /^file_?text$/i, /content/i],
  pattern: [/^pattern$/i, /regex/i, /query/i],
  command: [/^command$/i, /^cmd$/i],
  patch: [/^patch$/i, /^input$/i, /patch/i],
};

function propertyFor(schema: JSONSchema7, patterns: readonly RegExp[]): string | undefined {
  const properties = Object.keys(schema.properties ?? {});
  for (const pattern of patterns) {
    const hit = properties.find((name) => pattern.test(name));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** Is `null` an accepted value (a strict-mode optional parameter)? */
export function acceptsNull(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const record = schema as { type?: unknown; anyOf?: unknown };
  if (record.type === "null" || (Array.isArray(record.type) && record.type.includes("null"))) return true;
  return Array.isArray(record.anyOf) && record.anyOf.some((option) => acceptsNull(option));
}

/**
 * An input for a tool with this schema: each role's value under the property that plays it, and
 * `null` for the other properties that accept it (strict mode requires every key).
 */
export function fitInput(schema: JSONSchema7, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [role, value] of Object.entries(values)) {
    const name = propertyFor(schema, ROLES[role] ?? [new RegExp(`^${role}$`)]) ?? role;
    input[name] = value;
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!(name in input) && acceptsNull(property)) input[name] = null;
  }
  return input;
}

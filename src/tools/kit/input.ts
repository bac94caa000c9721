/**
 * Checking a tool's input against its fields, with messages a model can act on
 * (`Unknown read input key: file. Expected path, offset, limit`).
 *
 * @module
 */
import { optionValueError } from "../../contract/options.js";
import { ToolInputError, type JsonSchema } from "./tool.js";

/** One input field: its JSON type, whether it is required, and bounds for integers. */
export interface FieldSpec {
  readonly type: "string" | "integer" | "boolean";
  readonly required?: boolean;
  /** Smallest accepted integer. */
  readonly min?: number;
  /** For strings: refuse the empty string. */
  readonly nonEmpty?: boolean;
  /** Shown to the model in the JSON Schema. */
  readonly description: string;
  /**
   * Accepted by {@link checkInput} but left out of {@link specSchema} and of the key lists in
   * messages: a field a signature's `toInput` sets, which the model never sees.
   */
  readonly hidden?: boolean;
}

/** The fields of a tool's input, in the order the model should see them. */
export type InputSpec = Readonly<Record<string, FieldSpec>>;

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && !Number.isInteger(value)) return "a non-integer number";
  return typeof value;
}

/**
 * Check `input` against `spec` and return it typed. `null` and `undefined` count as absent
 * (strict-mode schemas send `null` for an unused optional field).
 *
 * @param tool - the tool name, used in messages.
 * @throws ToolInputError for a non-object input, an unknown key
 *   (`Unknown read input key: file. Expected path, offset, limit`), a missing required key
 *   (`Missing read input key: path (a string)`), a wrong type
 *   (`read input offset must be an integer, got string`), an integer too large to be exact
 *   (`read input limit must be a safe integer ≤ 9007199254740991, got 1e+20`), an integer under its minimum
 *   (`read input offset must be ≥ 1, got 0`) or an empty string where one is not allowed.
 */
export function checkInput<T>(tool: string, input: unknown, spec: InputSpec): T {
  const keys = Object.keys(spec).filter((key) => spec[key]?.hidden !== true);
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ToolInputError(`${tool} input must be an object with ${keys.join(", ")}, got ${typeName(input)}`);
  }
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(spec, key)) {
      throw new ToolInputError(`Unknown ${tool} input key: ${key}. Expected ${keys.join(", ")}`);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(spec)) {
    const value = record[key];
    if (value === undefined || value === null) {
      if (field.required) {
        const article = field.type === "integer" ? "an" : "a";
        throw new ToolInputError(`Missing ${tool} input key: ${key} (${article} ${field.type})`);
      }
      continue;
    }
    if (field.type === "integer") {
      if (typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) {
        throw new ToolInputError(
          `${tool} input ${key} must be a safe integer ≤ ${Number.MAX_SAFE_INTEGER}, got ${String(value)}`,
        );
      }
      if (typeof value !== "number" || !Number.isSafeInteger(value)) {
        throw new ToolInputError(`${tool} input ${key} must be an integer, got ${typeName(value)}`);
      }
      if (field.min !== undefined && value < field.min) {
        throw new ToolInputError(`${tool} input ${key} must be ≥ ${field.min}, got ${value}`);
      }
    } else if (typeof value !== field.type) {
      throw new ToolInputError(`${tool} input ${key} must be a ${field.type}, got ${typeName(value)}`);
    }
    if (field.nonEmpty && value === "") {
      throw new ToolInputError(`${tool} input ${key} must not be empty`);
    }
    out[key] = value;
  }
  return out as T;
}

/** The JSON Schema (an object, no extra keys) of an input spec. */
export function specSchema(spec: InputSpec): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, field] of Object.entries(spec)) {
    if (field.hidden === true) continue;
    properties[key] = {
      type: field.type,
      description: field.description,
      ...(field.min !== undefined ? { minimum: field.min } : {}),
      ...(field.nonEmpty ? { minLength: 1 } : {}),
    };
  }
  return {
    type: "object",
    properties,
    required: Object.entries(spec)
      .filter(([, field]) => field.required && field.hidden !== true)
      .map(([key]) => key),
    additionalProperties: false,
  };
}

/**
 * Check a positive integer option at creation.
 *
 * @returns `value`, or `fallback` when it is undefined.
 * @throws OptionError `createReadTool maxBytes must be a positive integer, got 0`.
 */
export function positiveIntegerOption(factory: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    optionValueError(
      factory,
      name,
      `must be a positive integer, got ${typeof value === "string" ? JSON.stringify(value) : String(value)}`,
    );
  }
  return value;
}

/**
 * Conversion of a signature's JSON Schema to the subset OpenAI strict mode accepts, and the
 * inverse mapping of model input (`null` for a parameter the model left out → absent).
 *
 * @module
 */
import type { JsonSchema, JsonValue } from "../tools/kit/tool.js";

/** The keywords kept in a strict schema; every other keyword is dropped (after conversion). */
export const STRICT_SCHEMA_KEYWORDS = [
  "type",
  "description",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "$ref",
  "$defs",
  "enum",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
] as const;

/** The string formats OpenAI strict mode lists; any other `format` is dropped. */
export const STRICT_SCHEMA_FORMATS = [
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
] as const;

/**
 * The upper bound given to an integer that has none: core tools accept only safe integers
 * (`Number.isSafeInteger`), and strict mode can say so.
 */
export const STRICT_INTEGER_MAXIMUM = Number.MAX_SAFE_INTEGER;

/** Keywords strict mode has no way to express: a schema using one is refused. */
const REFUSED_KEYWORDS = [
  "not",
  "if",
  "then",
  "else",
  "patternProperties",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
];

/**
 * Undoes the nullable-for-optional rewrite on a model input: a `null` given for a parameter
 * that was optional in the original schema is removed, in nested objects and array items too.
 */
export type NullStripper = (value: unknown) => unknown;

/** What {@link toStrictSchema} returns. */
export interface StrictSchema {
  /** The strict-mode schema (a closed object at the root). */
  readonly schema: JsonSchema;
  /** Maps a model input back to the original schema's shape (`null` → absent where optional). */
  readonly stripNulls: NullStripper;
  /** The root object's parameter names, in order. */
  readonly parameters: readonly string[];
  /** The parameters the original schema requires (the others were made nullable). */
  readonly requiredParameters: readonly string[];
}

type Mutable = { [key: string]: JsonValue };

/** Escape one JSON Pointer token (RFC 6901). */
function pointerToken(token: string | number): string {
  return String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}

function isRecord(value: unknown): value is { readonly [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && deepEqual(a[key], b[key]));
  }
  return false;
}

function typesOf(schema: { readonly [key: string]: JsonValue }): string[] {
  const type = schema["type"];
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((item): item is string => typeof item === "string");
  return [];
}

interface Plan {
  /** Property name → was it optional in the original, and the plan for its value. */
  readonly properties?: ReadonlyMap<string, { readonly optional: boolean; readonly plan: Plan | undefined }>;
  readonly items?: Plan;
}

/**
 * Convert a JSON Schema to the subset OpenAI strict mode accepts.
 *
 * Rules, applied at every level (inside `properties`, `anyOf`, `oneOf`, `allOf`, `items`, `$defs`):
 * every object lists all its properties in `required` and gets `additionalProperties: false`; a
 * property that was not required becomes required and nullable (`null` joins `type` and `enum`,
 * or the schema is wrapped in `anyOf` with `{ type: "null" }`); `oneOf` becomes `anyOf`; `allOf`
 * is merged into its parent; `const` becomes a one-value `enum`; root `definitions` become
 * `$defs` (and `#/definitions/` references follow); local `$ref` is kept; an integer with no upper
 * bound gets `maximum: STRICT_INTEGER_MAXIMUM` (2^53 − 1, what the core checks accept); only
 * {@link STRICT_SCHEMA_KEYWORDS} are kept, and `format` only for {@link STRICT_SCHEMA_FORMATS}.
 *
 * @param schema - the signature's input schema (not modified).
 * @param toolName - the tool's name, for error messages.
 * @returns the strict schema and the function that maps model input back (`null` → absent).
 * @throws TypeError `<tool>: strict mode cannot express <what> at <JSON pointer>` for: a root that
 *   is not an object; an object that allows other properties; a schema with no type; the keywords
 *   `not`, `if`/`then`/`else`, `patternProperties`, `dependentRequired`, `dependentSchemas`,
 *   `dependencies`; tuple items (`items` as an array, `prefixItems`); both `anyOf` and `oneOf`;
 *   `allOf` over two objects, with a `$ref`, or whose members differ on a keyword; a non-local `$ref`.
 * @example
 * ```ts
 * const { schema } = toStrictSchema(
 *   { type: "object", properties: { path: { type: "string" }, limit: { type: "integer" } }, required: ["path"] },
 *   "read",
 * );
 * // { type: "object", properties: { path: { type: "string" }, limit: { type: ["integer", "null"] } },
 * //   required: ["path", "limit"], additionalProperties: false }
 * ```
 */
export function toStrictSchema(schema: JsonSchema, toolName: string): StrictSchema {
  const fail = (what: string, pointer: string): never => {
    throw new TypeError(`${toolName}: strict mode cannot express ${what} at ${pointer}`);
  };
  const hasRootDefinitions = isRecord(schema) && isRecord(schema["definitions"]);

  /** Refuse the keywords strict mode has no form for (checked on a schema and on each allOf member). */
  function refuse(input: { readonly [key: string]: JsonValue }, pointer: string): void {
    for (const keyword of REFUSED_KEYWORDS) {
      if (keyword in input) fail(`the keyword ${keyword}`, `${pointer}/${pointerToken(keyword)}`);
    }
    if ("prefixItems" in input) fail("tuple items", `${pointer}/prefixItems`);
    if (Array.isArray(input["items"])) fail("tuple items", `${pointer}/items`);
  }

  function convert(
    input: { readonly [key: string]: JsonValue },
    pointer: string,
  ): { schema: Mutable; plan: Plan | undefined } {
    refuse(input, pointer);
    if ("anyOf" in input && "oneOf" in input) fail("both anyOf and oneOf", pointer);
    const merged = mergeAllOf(input, pointer);
    if ("anyOf" in merged && "oneOf" in merged) fail("both anyOf and oneOf", `${pointer}/allOf`);
    const out: Mutable = {};
    let plan: Plan | undefined;

    const ref = merged["$ref"];
    if (ref !== undefined) {
      if (typeof ref !== "string" || !ref.startsWith("#")) fail("a non-local $ref", `${pointer}/$ref`);
      out["$ref"] = hasRootDefinitions ? (ref as string).replace(/^#\/definitions\//, "#/$defs/") : (ref as string);
    }
    if (typeof merged["description"] === "string") out["description"] = merged["description"];

    let types = typesOf(merged);
    if (types.length === 0 && isRecord(merged["properties"])) types = ["object"];
    if (pointer === "#" && (types.length !== 1 || types[0] !== "object" || "anyOf" in merged || "oneOf" in merged)) {
      fail("a root that is not an object", "#");
    }
    if ("type" in merged) out["type"] = merged["type"] as JsonValue;
    else if (types.length > 0) out["type"] = types[0] as string;

    if ("const" in merged) out["enum"] = [merged["const"] as JsonValue];
    else if (Array.isArray(merged["enum"])) out["enum"] = merged["enum"];

    const branches = merged["anyOf"] ?? merged["oneOf"];
    if (branches !== undefined) {
      const key = "anyOf" in merged ? "anyOf" : "oneOf";
      if (!Array.isArray(branches)) fail(`${key} that is not an array`, `${pointer}/${key}`);
      out["anyOf"] = (branches as readonly JsonValue[]).map((branch, index) => {
        if (!isRecord(branch)) return fail("a schema that is not an object", `${pointer}/${key}/${index}`);
        return convert(branch, `${pointer}/${key}/${index}`).schema;
      });
    }

    if (types.length === 0 && out["$ref"] === undefined && out["anyOf"] === undefined && out["enum"] === undefined) {
      fail("a schema with no type", pointer);
    }

    if (types.includes("object")) {
      const additional = merged["additionalProperties"];
      if (additional !== undefined && additional !== false) {
        fail("an object that allows other properties", `${pointer}/additionalProperties`);
      }
      const properties = isRecord(merged["properties"]) ? merged["properties"] : {};
      const required = new Set(
        Array.isArray(merged["required"])
          ? merged["required"].filter((item): item is string => typeof item === "string")
          : [],
      );
      const outProperties: Mutable = {};
      const propertyPlans = new Map<string, { optional: boolean; plan: Plan | undefined }>();
      for (const [name, value] of Object.entries(properties)) {
        const childPointer = `${pointer}/properties/${pointerToken(name)}`;
        if (!isRecord(value)) fail("a schema that is not an object", childPointer);
        const child = convert(value as { readonly [key: string]: JsonValue }, childPointer);
        const optional = !required.has(name);
        outProperties[name] = optional ? nullable(child.schema) : child.schema;
        propertyPlans.set(name, { optional, plan: child.plan });
      }
      out["properties"] = outProperties;
      out["required"] = Object.keys(outProperties);
      out["additionalProperties"] = false;
      plan = { properties: propertyPlans };
    }

    if (types.includes("array") && merged["items"] !== undefined) {
      if (!isRecord(merged["items"])) fail("items that are not a schema", `${pointer}/items`);
      const child = convert(merged["items"] as { readonly [key: string]: JsonValue }, `${pointer}/items`);
      out["items"] = child.schema;
      if (child.plan !== undefined) plan = { ...plan, items: child.plan };
    }

    const defsKey = isRecord(merged["$defs"])
      ? "$defs"
      : pointer === "#" && hasRootDefinitions
        ? "definitions"
        : undefined;
    if (defsKey !== undefined) {
      const defs: Mutable = {};
      for (const [name, value] of Object.entries(merged[defsKey] as { readonly [key: string]: JsonValue })) {
        const childPointer = `${pointer}/${defsKey}/${pointerToken(name)}`;
        if (!isRecord(value)) fail("a schema that is not an object", childPointer);
        defs[name] = convert(value as { readonly [key: string]: JsonValue }, childPointer).schema;
      }
      out["$defs"] = defs;
    }

    for (const keyword of [
      "pattern",
      "minimum",
      "maximum",
      "exclusiveMinimum",
      "exclusiveMaximum",
      "multipleOf",
      "minItems",
      "maxItems",
    ]) {
      if (merged[keyword] !== undefined) out[keyword] = merged[keyword] as JsonValue;
    }
    if (types.includes("integer") && out["maximum"] === undefined && out["exclusiveMaximum"] === undefined) {
      out["maximum"] = STRICT_INTEGER_MAXIMUM;
    }
    const format = merged["format"];
    if (typeof format === "string" && (STRICT_SCHEMA_FORMATS as readonly string[]).includes(format))
      out["format"] = format;
    return { schema: order(out), plan };
  }

  function mergeAllOf(
    input: { readonly [key: string]: JsonValue },
    pointer: string,
  ): { readonly [key: string]: JsonValue } {
    const allOf = input["allOf"];
    if (allOf === undefined) return input;
    if (!Array.isArray(allOf)) return fail("allOf that is not an array", `${pointer}/allOf`);
    const merged: Mutable = { ...input };
    delete merged["allOf"];
    let objects = isRecord(input["properties"]) ? 1 : 0;
    (allOf as readonly JsonValue[]).forEach((member, index) => {
      const memberPointer = `${pointer}/allOf/${index}`;
      if (!isRecord(member)) return fail("a schema that is not an object", memberPointer);
      if ("$ref" in member) fail("allOf with a $ref", `${memberPointer}/$ref`);
      refuse(member, memberPointer);
      if (isRecord(member["properties"])) objects += 1;
      if (objects > 1) fail("allOf over two objects", memberPointer);
      const flat = mergeAllOf(member, memberPointer);
      for (const [key, value] of Object.entries(flat)) {
        if (key in merged && !deepEqual(merged[key], value)) {
          fail(`allOf members that differ on ${key}`, `${memberPointer}/${pointerToken(key)}`);
        }
        merged[key] = value;
      }
    });
    return merged;
  }

  if (!isRecord(schema)) fail("a root that is not an object", "#");
  const { schema: strict, plan } = convert(schema, "#");
  const rootProperties = [...(plan?.properties ?? new Map<string, { readonly optional: boolean }>()).entries()];
  return {
    schema: strict,
    stripNulls: (value) => strip(value, plan),
    parameters: rootProperties.map(([name]) => name),
    requiredParameters: rootProperties.filter(([, property]) => !property.optional).map(([name]) => name),
  };
}

/** Make a converted schema accept `null` as well. */
function nullable(schema: Mutable): Mutable {
  const type = schema["type"];
  if (type !== undefined && schema["anyOf"] === undefined) {
    const types = typeof type === "string" ? [type] : Array.isArray(type) ? [...type] : [];
    if (types.includes("null")) return schema;
    const out: Mutable = { ...schema, type: [...types, "null"] };
    if (Array.isArray(schema["enum"]) && !schema["enum"].includes(null)) out["enum"] = [...schema["enum"], null];
    return order(out);
  }
  if (
    type === undefined &&
    schema["anyOf"] === undefined &&
    schema["$ref"] === undefined &&
    Array.isArray(schema["enum"])
  ) {
    return schema["enum"].includes(null) ? schema : order({ ...schema, enum: [...schema["enum"], null] });
  }
  const branches = schema["anyOf"];
  if (Array.isArray(branches) && Object.keys(schema).every((key) => key === "anyOf" || key === "description")) {
    if (branches.some((branch) => deepEqual(branch, { type: "null" }))) return schema;
    return order({ ...schema, anyOf: [...branches, { type: "null" }] });
  }
  const { description, ...rest } = schema;
  const wrapped: Mutable = { anyOf: [order(rest), { type: "null" }] };
  if (description !== undefined) wrapped["description"] = description;
  return order(wrapped);
}

/** A stable key order for readable snapshots: the order of {@link STRICT_SCHEMA_KEYWORDS}. */
function order(schema: Mutable): Mutable {
  const out: Mutable = {};
  for (const keyword of STRICT_SCHEMA_KEYWORDS) {
    if (schema[keyword] !== undefined) out[keyword] = schema[keyword] as JsonValue;
  }
  return out;
}

function strip(value: unknown, plan: Plan | undefined): unknown {
  if (plan === undefined || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return plan.items === undefined ? value : value.map((item) => strip(item, plan.items));
  if (plan.properties === undefined) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const property = plan.properties.get(key);
    if (property?.optional && item === null) continue;
    out[key] = property === undefined ? item : strip(item, property.plan);
  }
  return out;
}

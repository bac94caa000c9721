/**
 * Property tests of the strict-schema conversion (fast-check): for random schemas built from the
 * constructs strict mode can express, the output is always strict-shaped, and a model input that
 * sends `null` for every left-out optional parameter maps back to the original input.
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import { STRICT_SCHEMA_KEYWORDS, toStrictSchema } from "../../src/ai-sdk/strict-schema.js";
import type { JsonSchema, JsonValue } from "../../src/tools/kit/tool.js";

/** A schema and a generator of values it accepts, built together. */
interface Shape {
  readonly schema: JsonSchema;
  readonly value: fc.Arbitrary<JsonValue>;
  /** The value with `null` for every left-out optional property (what strict mode makes a model send). */
  readonly strictify: (value: JsonValue) => JsonValue;
}

const identity = (value: JsonValue): JsonValue => value;
const leaf: fc.Arbitrary<Shape> = fc.oneof(
  fc.constant<Shape>({
    schema: { type: "string", minLength: 1 },
    value: fc.string({ minLength: 1 }),
    strictify: identity,
  }),
  fc.constant<Shape>({ schema: { type: "integer", minimum: 0 }, value: fc.nat(), strictify: identity }),
  fc.constant<Shape>({ schema: { type: "boolean" }, value: fc.boolean(), strictify: identity }),
  fc.constant<Shape>({
    schema: { type: "string", enum: ["a", "b"] },
    value: fc.constantFrom("a", "b"),
    strictify: identity,
  }),
  fc.constant<Shape>({ schema: { const: "x", type: "string" }, value: fc.constant("x"), strictify: identity }),
);

const NAME = fc.constantFrom("a", "b", "c", "path", "offset", "limit");

function objectOf(children: fc.Arbitrary<Shape>): fc.Arbitrary<Shape> {
  return fc
    .uniqueArray(fc.tuple(NAME, children, fc.boolean()), { selector: ([name]) => name, maxLength: 4 })
    .map((entries): Shape => {
      const properties: Record<string, JsonSchema> = {};
      for (const [name, child] of entries) properties[name] = child.schema;
      const required = entries.filter(([, , isRequired]) => isRequired).map(([name]) => name);
      const value = fc.record(Object.fromEntries(entries.map(([name, child]) => [name, child.value])), {
        requiredKeys: required,
        noNullPrototype: true,
      }) as fc.Arbitrary<JsonValue>;
      return {
        schema: { type: "object", properties, required },
        value,
        strictify: (input) => {
          const record = input as Record<string, JsonValue>;
          const out: Record<string, JsonValue> = {};
          for (const [name, child] of entries)
            out[name] = name in record ? child.strictify(record[name] as JsonValue) : null;
          return out;
        },
      };
    });
}

const shape: fc.Arbitrary<Shape> = fc.letrec<{ node: Shape; object: Shape }>((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("object"), tie("object").map(arrayOf)),
  object: objectOf(tie("node")),
})).object;

function arrayOf(child: Shape): Shape {
  return {
    schema: { type: "array", items: child.schema },
    value: fc.array(child.value, { maxLength: 3 }),
    strictify: (input) => (input as JsonValue[]).map((item) => child.strictify(item)),
  };
}

/** Walk every schema node of a strict schema. */
function nodes(schema: JsonValue, visit: (node: Record<string, JsonValue>) => void): void {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return;
  const node = schema as Record<string, JsonValue>;
  visit(node);
  for (const child of Object.values((node["properties"] as Record<string, JsonValue> | undefined) ?? {}))
    nodes(child, visit);
  for (const child of (node["anyOf"] as JsonValue[] | undefined) ?? []) nodes(child, visit);
  if (node["items"] !== undefined) nodes(node["items"], visit);
}

test("every object is closed and lists all its properties as required; only strict keywords remain", () => {
  fc.assert(
    fc.property(shape, ({ schema }) => {
      const strict = toStrictSchema(schema, "t").schema;
      nodes(strict, (node) => {
        for (const key of Object.keys(node)) expect(STRICT_SCHEMA_KEYWORDS as readonly string[]).toContain(key);
        if (node["properties"] !== undefined) {
          expect(node["additionalProperties"]).toBe(false);
          expect(node["required"]).toStrictEqual(Object.keys(node["properties"] as object));
        }
      });
    }),
  );
});

test("stripNulls maps a strict-mode input (null for every left-out optional) back to the original input", () => {
  fc.assert(
    fc.property(
      shape.chain((generated) => fc.tuple(fc.constant(generated), generated.value)),
      ([generated, value]) => {
        const { stripNulls } = toStrictSchema(generated.schema, "t");
        expect(stripNulls(generated.strictify(value))).toStrictEqual(value);
      },
    ),
  );
});

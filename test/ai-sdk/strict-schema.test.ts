import { describe, expect, test } from "vitest";
import { toStrictSchema } from "../../src/ai-sdk/strict-schema.js";
import type { JsonSchema } from "../../src/tools/kit/tool.js";

const MAX = Number.MAX_SAFE_INTEGER;

const obj = (
  properties: JsonSchema,
  required: string[] = Object.keys(properties),
  extra: JsonSchema = {},
): JsonSchema => ({
  type: "object",
  properties,
  required,
  ...extra,
});

describe("toStrictSchema: conversion rules", () => {
  const cases: Array<{ rule: string; input: JsonSchema; output: JsonSchema }> = [
    {
      rule: "the default read schema",
      input: {
        type: "object",
        properties: {
          path: { type: "string" },
          offset: { type: "integer", minimum: 1 },
          limit: { type: "integer", minimum: 1, maximum: MAX },
        },
        required: ["path"],
        additionalProperties: false,
      },
      output: {
        type: "object",
        additionalProperties: false,
        properties: {
          path: { type: "string" },
          offset: { type: ["integer", "null"], minimum: 1, maximum: MAX },
          limit: { type: ["integer", "null"], minimum: 1, maximum: MAX },
        },
        required: ["path", "offset", "limit"],
      },
    },
    {
      rule: "an object without additionalProperties is closed; no required means all optional",
      input: { type: "object", properties: { a: { type: "string" } } },
      output: {
        type: "object",
        properties: { a: { type: ["string", "null"] } },
        required: ["a"],
        additionalProperties: false,
      },
    },
    {
      rule: "an object with no properties",
      input: { type: "object" },
      output: { type: "object", properties: {}, required: [], additionalProperties: false },
    },
    {
      rule: "properties without a type make an object",
      input: { properties: { a: { type: "string" } }, required: ["a"] },
      output: { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false },
    },
    {
      rule: "optional enum: null joins type and enum",
      input: obj({ mode: { type: "string", enum: ["a", "b"] } }, []),
      output: obj({ mode: { type: ["string", "null"], enum: ["a", "b", null] } }, ["mode"], {
        additionalProperties: false,
      }),
    },
    {
      rule: "optional enum without type: null joins enum",
      input: obj({ mode: { enum: ["a", "b"] } }, []),
      output: obj({ mode: { enum: ["a", "b", null] } }, ["mode"], { additionalProperties: false }),
    },
    {
      rule: "optional type array gains null once; already nullable stays",
      input: obj({ a: { type: ["string", "integer"] }, b: { type: ["string", "null"] } }, []),
      output: obj(
        { a: { type: ["string", "integer", "null"], maximum: MAX }, b: { type: ["string", "null"] } },
        ["a", "b"],
        {
          additionalProperties: false,
        },
      ),
    },
    {
      rule: "optional $ref is wrapped in anyOf with null, description hoisted",
      input: {
        type: "object",
        properties: { p: { $ref: "#/$defs/P", description: "the p" } },
        $defs: { P: { type: "string" } },
      },
      output: {
        type: "object",
        properties: { p: { description: "the p", anyOf: [{ $ref: "#/$defs/P" }, { type: "null" }] } },
        required: ["p"],
        additionalProperties: false,
        $defs: { P: { type: "string" } },
      },
    },
    {
      rule: "optional anyOf gains a null branch",
      input: obj(
        {
          v: { anyOf: [{ type: "string" }, { type: "integer" }], description: "v" },
          w: { anyOf: [{ type: "string" }, { type: "null" }] },
        },
        [],
      ),
      output: obj(
        {
          v: { description: "v", anyOf: [{ type: "string" }, { type: "integer", maximum: MAX }, { type: "null" }] },
          w: { anyOf: [{ type: "string" }, { type: "null" }] },
        },
        ["v", "w"],
        {
          additionalProperties: false,
        },
      ),
    },
    {
      rule: "oneOf becomes anyOf, branches converted",
      input: obj({
        v: {
          oneOf: [
            { type: "object", properties: { x: { type: "number" } } },
            { type: "string", minLength: 1 },
          ],
        },
      }),
      output: obj(
        {
          v: {
            anyOf: [
              {
                type: "object",
                properties: { x: { type: ["number", "null"] } },
                required: ["x"],
                additionalProperties: false,
              },
              { type: "string" },
            ],
          },
        },
        ["v"],
        { additionalProperties: false },
      ),
    },
    {
      rule: "allOf is merged into its parent",
      input: {
        type: "object",
        allOf: [{ properties: { a: { type: "string" } }, required: ["a"] }, { description: "merged" }],
      },
      output: {
        type: "object",
        description: "merged",
        properties: { a: { type: "string" } },
        required: ["a"],
        additionalProperties: false,
      },
    },
    {
      rule: "allOf members may repeat an equal keyword",
      input: obj({ n: { type: "integer", allOf: [{ type: "integer", minimum: 0 }, { maximum: 9 }] } }),
      output: obj({ n: { type: "integer", minimum: 0, maximum: 9 } }, ["n"], { additionalProperties: false }),
    },
    {
      rule: "an integer without an upper bound gets the safe-integer maximum; a given bound is kept",
      input: obj({
        a: { type: "integer" },
        b: { type: "integer", maximum: 5 },
        c: { type: "integer", exclusiveMaximum: 5 },
        d: { type: "number" },
      }),
      output: obj(
        {
          a: { type: "integer", maximum: MAX },
          b: { type: "integer", maximum: 5 },
          c: { type: "integer", exclusiveMaximum: 5 },
          d: { type: "number" },
        },
        ["a", "b", "c", "d"],
        { additionalProperties: false },
      ),
    },
    {
      rule: "const becomes a one-value enum",
      input: obj({ kind: { type: "string", const: "view" } }),
      output: obj({ kind: { type: "string", enum: ["view"] } }, ["kind"], { additionalProperties: false }),
    },
    {
      rule: "root definitions become $defs and their references follow",
      input: {
        type: "object",
        properties: { p: { $ref: "#/definitions/P" } },
        required: ["p"],
        definitions: { P: { type: "string" } },
      },
      output: {
        type: "object",
        properties: { p: { $ref: "#/$defs/P" } },
        required: ["p"],
        additionalProperties: false,
        $defs: { P: { type: "string" } },
      },
    },
    {
      rule: "rules apply inside $defs, items and nested objects",
      input: obj(
        {
          list: { type: "array", items: { $ref: "#/$defs/Item" }, minItems: 1, maxItems: 3, uniqueItems: true },
          nested: {
            type: "object",
            properties: { deep: { type: "array", items: { type: "object", properties: { z: { type: "boolean" } } } } },
          },
        },
        [],
        {
          $defs: { Item: { type: "object", properties: { id: { type: "string", format: "uuid" } }, required: ["id"] } },
        },
      ),
      output: {
        type: "object",
        properties: {
          list: { type: ["array", "null"], items: { $ref: "#/$defs/Item" }, minItems: 1, maxItems: 3 },
          nested: {
            type: ["object", "null"],
            properties: {
              deep: {
                type: ["array", "null"],
                items: {
                  type: "object",
                  properties: { z: { type: ["boolean", "null"] } },
                  required: ["z"],
                  additionalProperties: false,
                },
              },
            },
            required: ["deep"],
            additionalProperties: false,
          },
        },
        required: ["list", "nested"],
        additionalProperties: false,
        $defs: {
          Item: {
            type: "object",
            properties: { id: { type: "string", format: "uuid" } },
            required: ["id"],
            additionalProperties: false,
          },
        },
      },
    },
    {
      rule: "only strict keywords are kept; format only where strict mode lists it",
      input: obj(
        {
          s: {
            type: "string",
            title: "S",
            description: "d",
            minLength: 1,
            maxLength: 9,
            default: "x",
            examples: ["x"],
            pattern: "^x",
            format: "uri",
          },
          t: { type: "string", format: "date-time" },
          n: { type: "number", minimum: 0, maximum: 1, exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.5 },
        },
        ["s", "t", "n"],
        { $schema: "http://json-schema.org/draft-07/schema#", title: "root" },
      ),
      output: {
        type: "object",
        properties: {
          s: { type: "string", description: "d", pattern: "^x" },
          t: { type: "string", format: "date-time" },
          n: { type: "number", minimum: 0, maximum: 1, exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.5 },
        },
        required: ["s", "t", "n"],
        additionalProperties: false,
      },
    },
  ];
  test.each(cases)("$rule", ({ input, output }) => {
    const before = structuredClone(input);
    expect(toStrictSchema(input, "t").schema).toStrictEqual(output);
    expect(input).toStrictEqual(before);
  });
});

describe("toStrictSchema: schemas strict mode cannot express", () => {
  const cases: Array<{ form: string; input: JsonSchema; message: string }> = [
    {
      form: "root is not a schema object",
      input: [] as unknown as JsonSchema,
      message: "a root that is not an object at #",
    },
    { form: "root is a string", input: { type: "string" }, message: "a root that is not an object at #" },
    {
      form: "root is nullable",
      input: { type: ["object", "null"], properties: {} },
      message: "a root that is not an object at #",
    },
    { form: "root is an anyOf", input: { anyOf: [{ type: "object" }] }, message: "a root that is not an object at #" },
    {
      form: "open object (true)",
      input: { type: "object", properties: {}, additionalProperties: true },
      message: "an object that allows other properties at #/additionalProperties",
    },
    {
      form: "open object (schema), nested",
      input: obj({ m: { type: "object", additionalProperties: { type: "string" } } }),
      message: "an object that allows other properties at #/properties/m/additionalProperties",
    },
    { form: "no type", input: obj({ x: {} }), message: "a schema with no type at #/properties/x" },
    {
      form: "not",
      input: obj({ x: { type: "string", not: { const: "a" } } }),
      message: "the keyword not at #/properties/x/not",
    },
    {
      form: "if",
      input: obj({ x: { type: "string", if: { const: "a" }, then: {} } }),
      message: "the keyword if at #/properties/x/if",
    },
    {
      form: "patternProperties",
      input: { type: "object", patternProperties: { "^a": { type: "string" } } },
      message: "the keyword patternProperties at #/patternProperties",
    },
    {
      form: "dependentRequired",
      input: { type: "object", properties: {}, dependentRequired: { a: ["b"] } },
      message: "the keyword dependentRequired at #/dependentRequired",
    },
    {
      form: "tuple items",
      input: obj({ t: { type: "array", items: [{ type: "string" }, { type: "number" }] } }),
      message: "tuple items at #/properties/t/items",
    },
    {
      form: "prefixItems",
      input: obj({ t: { type: "array", prefixItems: [{ type: "string" }] } }),
      message: "tuple items at #/properties/t/prefixItems",
    },
    {
      form: "both anyOf and oneOf",
      input: obj({ v: { anyOf: [{ type: "string" }], oneOf: [{ type: "number" }] } }),
      message: "both anyOf and oneOf at #/properties/v",
    },
    {
      form: "allOf over two objects",
      input: obj({
        v: {
          allOf: [
            { type: "object", properties: { a: { type: "string" } } },
            { type: "object", properties: { b: { type: "string" } } },
          ],
        },
      }),
      message: "allOf over two objects at #/properties/v/allOf/1",
    },
    {
      form: "allOf with a $ref",
      input: {
        type: "object",
        properties: { v: { allOf: [{ $ref: "#/$defs/A" }] } },
        $defs: { A: { type: "string" } },
      },
      message: "allOf with a $ref at #/properties/v/allOf/0/$ref",
    },
    {
      form: "allOf with a differing keyword",
      input: obj({ v: { type: "integer", allOf: [{ minimum: 1 }, { minimum: 2 }] } }),
      message: "allOf members that differ on minimum at #/properties/v/allOf/1/minimum",
    },
    {
      form: "a refused keyword inside an allOf member",
      input: obj({ v: { type: "string", allOf: [{ not: { const: "a" } }] } }),
      message: "the keyword not at #/properties/v/allOf/0/not",
    },
    {
      form: "anyOf beside an allOf member's oneOf",
      input: obj({ v: { anyOf: [{ type: "string" }], allOf: [{ oneOf: [{ type: "string" }] }] } }),
      message: "both anyOf and oneOf at #/properties/v/allOf",
    },
    {
      form: "non-local $ref",
      input: obj({ v: { $ref: "https://example.com/s.json" } }),
      message: "a non-local $ref at #/properties/v/$ref",
    },
    {
      form: "a pointer token with / and ~ is escaped",
      input: obj({ "a/b~c": {} }),
      message: "a schema with no type at #/properties/a~1b~0c",
    },
    {
      form: "inside $defs",
      input: { type: "object", properties: {}, $defs: { X: { type: "object", additionalProperties: true } } },
      message: "an object that allows other properties at #/$defs/X/additionalProperties",
    },
    {
      form: "inside anyOf",
      input: obj({ v: { anyOf: [{ type: "string" }, { not: {} }] } }),
      message: "the keyword not at #/properties/v/anyOf/1/not",
    },
  ];
  test.each(cases)("$form", ({ input, message }) => {
    expect(() => toStrictSchema(input, "read")).toThrow(new TypeError(`read: strict mode cannot express ${message}`));
  });
});

describe("toStrictSchema: stripNulls maps model input back", () => {
  const { stripNulls } = toStrictSchema(
    obj(
      {
        path: { type: "string" },
        note: { type: ["string", "null"] },
        offset: { type: "integer" },
        items: {
          type: "array",
          items: { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["a"] },
        },
      },
      ["path", "note"],
    ),
    "t",
  );
  test("null for an optional parameter becomes absent, in items too; a required nullable keeps null", () => {
    expect(
      stripNulls({
        path: "/a",
        note: null,
        offset: null,
        items: [
          { a: "x", b: null },
          { a: null, b: "y" },
        ],
      }),
    ).toStrictEqual({ path: "/a", note: null, items: [{ a: "x" }, { a: null, b: "y" }] });
  });
  test("parameters and required parameters of the root, allOf merged", () => {
    const strict = toStrictSchema(
      { type: "object", allOf: [{ properties: { a: { type: "string" }, b: { type: "string" } }, required: ["b"] }] },
      "t",
    );
    expect([strict.parameters, strict.requiredParameters]).toStrictEqual([["a", "b"], ["b"]]);
  });
  test("non-objects pass through", () => {
    expect(stripNulls("x")).toBe("x");
    expect(stripNulls(null)).toBe(null);
  });
});

// Every preset's schema converts to OpenAI strict mode (the AI SDK adapter's rules).
import { describe, expect, test } from "vitest";
import { toStrictSchema } from "../../../src/ai-sdk/index.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import {
  createTextEditorTool,
  defaultPatchSignature,
  freeformPatchSignature,
  lineRangePreset,
  offsetLimitPreset,
} from "../../../src/tools/signature/index.js";
import type { JsonSchema } from "../../../src/tools/kit/tool.js";

const signatures: Array<{ name: string; inputSchema: JsonSchema }> = [
  ...Object.values(lineRangePreset()),
  ...Object.values(offsetLimitPreset()).filter((signature) => signature !== undefined),
  defaultPatchSignature(),
  freeformPatchSignature(),
  createTextEditorTool({ fs: memoryFileSystem() }),
];

describe("preset schemas in strict mode", () => {
  test.each(signatures.map((signature) => [signature.name, signature] as const))(
    "%s converts, every property required",
    (name, signature) => {
      const strict = toStrictSchema(signature.inputSchema, name).schema as {
        properties: object;
        required: string[];
        additionalProperties: boolean;
      };
      expect(strict.required).toEqual(Object.keys(signature.inputSchema["properties"] as object));
      expect(strict.additionalProperties).toBe(false);
    },
  );

  test("readFile (line ranges)", () => {
    const strict = toStrictSchema(lineRangePreset().read.inputSchema, "readFile").schema as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(
      Object.fromEntries(
        Object.entries(strict.properties).map(([key, value]) => [key, { ...value, description: undefined }]),
      ),
    ).toEqual({
      path: { type: "string", description: undefined },
      startLine: { type: ["integer", "null"], minimum: 1, maximum: 9007199254740991, description: undefined },
      endLine: { type: ["integer", "null"], minimum: 1, maximum: 9007199254740991, description: undefined },
    });
  });

  test("str_replace_based_edit_tool", () => {
    const strict = toStrictSchema(createTextEditorTool({ fs: memoryFileSystem() }).inputSchema, "editor").schema as {
      properties: Record<string, Record<string, unknown>>;
    };
    const shapes = Object.fromEntries(
      Object.entries(strict.properties).map(([key, { description: _description, ...rest }]) => [key, rest]),
    );
    expect(shapes).toEqual({
      command: { type: "string", enum: ["view", "create", "str_replace", "insert"] },
      path: { type: "string" },
      view_range: {
        type: ["array", "null"],
        items: { type: "integer", maximum: 9007199254740991 },
        minItems: 2,
        maxItems: 2,
      },
      file_text: { type: ["string", "null"] },
      old_str: { type: ["string", "null"] },
      new_str: { type: ["string", "null"] },
      insert_line: { type: ["integer", "null"], minimum: 0, maximum: 9007199254740991 },
      insert_text: { type: ["string", "null"] },
    });
  });
});

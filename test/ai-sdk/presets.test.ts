/**
 * The strict schema every preset sends through the AI SDK adapter, as inline snapshots. A change
 * to a preset's schema shows here as a diff to review.
 */
import { generateText, isStepCount } from "ai";
import { describe, expect, test } from "vitest";
import { createAiSdkReadTool, toAiSdkTool } from "../../src/ai-sdk/index.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { APPLY_PATCH_DESCRIPTION, createApplyPatchTool } from "../../src/tools/apply-patch/index.js";
import { createBashTool } from "../../src/shell/defaults.js";
import { createEditTool } from "../../src/tools/edit/index.js";
import { createReadTool } from "../../src/tools/read/index.js";
import type { ToolResult } from "../../src/tools/kit/result.js";
import {
  createTextEditorTool,
  defaultPatchSignature,
  defaultSignature,
  freeformPatchSignature,
  lineRangePreset,
  lineRangeSignature,
  offsetLimitPreset,
} from "../../src/tools/signature/index.js";
import type { CoreToolParts, ToolSignature } from "../../src/tools/kit/tool.js";
import { createWriteTool } from "../../src/tools/write/index.js";
import { scriptedModel, toolOutputsSentAt } from "./mock-model.js";

const fs = memoryFileSystem();

/** The JSON schema the AI SDK sends for a core tool under a signature. */
async function sent<Input, Result extends ToolResult>(
  core: CoreToolParts<Input, Result>,
  signature?: ToolSignature<Input, never, Result>,
): Promise<unknown> {
  const tool = toAiSdkTool(core, signature === undefined ? {} : { signature });
  return {
    name: signature?.name ?? core.name,
    strict: tool.strict,
    schema: await (tool.inputSchema as { jsonSchema: unknown }).jsonSchema,
  };
}

describe("strict schemas of the default preset (each core tool as it is)", () => {
  test("read: the issue's schema (descriptions aside)", async () => {
    const read = createReadTool({ fs });
    const { schema } = (await sent(read)) as { schema: Record<string, unknown> };
    const withoutDescriptions = JSON.parse(
      JSON.stringify(schema, (key, value: unknown) => (key === "description" ? undefined : value)),
    );
    const int = { type: ["integer", "null"], minimum: 1, maximum: 9007199254740991 };
    expect(withoutDescriptions).toStrictEqual({
      type: "object",
      additionalProperties: false,
      properties: { path: { type: "string" }, offset: int, limit: int },
      required: ["path", "offset", "limit"],
    });
    expect(await sent(read, defaultSignature(read))).toMatchInlineSnapshot(`
      {
        "name": "read",
        "schema": {
          "additionalProperties": false,
          "properties": {
            "limit": {
              "description": "Most lines to read. Omit to read to the end (within the read cap).",
              "maximum": 9007199254740991,
              "minimum": 1,
              "type": [
                "integer",
                "null",
              ],
            },
            "offset": {
              "description": "First line to read, 1-based. Omit to start at line 1.",
              "maximum": 9007199254740991,
              "minimum": 1,
              "type": [
                "integer",
                "null",
              ],
            },
            "path": {
              "description": "Path of the file to read, relative to the working directory or absolute.",
              "type": "string",
            },
          },
          "required": [
            "path",
            "offset",
            "limit",
          ],
          "type": "object",
        },
        "strict": true,
      }
    `);
  });
  test("edit", async () => {
    expect(await sent(createEditTool({ fs }))).toMatchInlineSnapshot(`
      {
        "name": "edit",
        "schema": {
          "additionalProperties": false,
          "properties": {
            "newText": {
              "description": "The text to put in its place.",
              "type": "string",
            },
            "oldText": {
              "description": "The exact text to replace, including whitespace and indentation, without read's \`N|\` line prefixes. It must occur exactly once unless replaceAll is true.",
              "type": "string",
            },
            "path": {
              "description": "Path of the file to edit, relative to the working directory or absolute.",
              "type": "string",
            },
            "replaceAll": {
              "description": "Replace every occurrence of oldText instead of exactly one. Default false.",
              "type": [
                "boolean",
                "null",
              ],
            },
          },
          "required": [
            "path",
            "oldText",
            "newText",
            "replaceAll",
          ],
          "type": "object",
        },
        "strict": true,
      }
    `);
  });
  test("write", async () => {
    expect(await sent(createWriteTool({ fs }))).toMatchInlineSnapshot(`
      {
        "name": "write",
        "schema": {
          "additionalProperties": false,
          "properties": {
            "content": {
              "description": "The complete new content of the file.",
              "type": "string",
            },
            "path": {
              "description": "Path of the file to write, relative to the working directory or absolute. Missing parent directories are created.",
              "type": "string",
            },
          },
          "required": [
            "path",
            "content",
          ],
          "type": "object",
        },
        "strict": true,
      }
    `);
  });
  test("apply_patch", async () => {
    expect(await sent(createApplyPatchTool({ fs }))).toMatchInlineSnapshot(`
      {
        "name": "apply_patch",
        "schema": {
          "additionalProperties": false,
          "properties": {
            "patch": {
              "description": "The entire patch, from '*** Begin Patch' to '*** End Patch'.",
              "type": "string",
            },
          },
          "required": [
            "patch",
          ],
          "type": "object",
        },
        "strict": true,
      }
    `);
  });
  test("bash", async () => {
    expect(await sent(createBashTool({ fs }))).toMatchInlineSnapshot(`
      {
        "name": "bash",
        "schema": {
          "additionalProperties": false,
          "properties": {
            "command": {
              "description": "The bash command line to run.",
              "type": "string",
            },
            "cwd": {
              "description": "Working directory for this command, relative to the default one or absolute.",
              "type": [
                "string",
                "null",
              ],
            },
            "timeout": {
              "description": "Timeout in milliseconds (default 120000, at most 600000); the command is stopped after it.",
              "maximum": 600000,
              "minimum": 1,
              "type": [
                "integer",
                "null",
              ],
            },
          },
          "required": [
            "command",
            "timeout",
            "cwd",
          ],
          "type": "object",
        },
        "strict": true,
      }
    `);
  });
});

describe("strict schemas of the patch signatures", () => {
  test("defaultPatchSignature()", async () => {
    expect(await sent(createApplyPatchTool({ fs }), defaultPatchSignature())).toMatchInlineSnapshot(`
      {
        "name": "apply_patch",
        "schema": {
          "additionalProperties": false,
          "properties": {
            "patch": {
              "description": "The entire patch, from '*** Begin Patch' to '*** End Patch'.",
              "type": "string",
            },
          },
          "required": [
            "patch",
          ],
          "type": "object",
        },
        "strict": true,
      }
    `);
  });
  test("freeformPatchSignature() sends the same JSON schema and description as the default (no 'no JSON' instruction)", async () => {
    const core = createApplyPatchTool({ fs });
    const freeform = (await sent(core, freeformPatchSignature())) as { schema: unknown };
    const json = (await sent(core, defaultPatchSignature())) as { schema: unknown };
    expect(freeform.schema).toStrictEqual(json.schema);
    expect(toAiSdkTool(core, { signature: freeformPatchSignature() }).description).toBe(APPLY_PATCH_DESCRIPTION);
    expect(toAiSdkTool(core, { signature: defaultPatchSignature() }).description).toBe(APPLY_PATCH_DESCRIPTION);
  });
});

describe("strict schemas of the line-range preset", () => {
  const preset = lineRangePreset();
  test("readFile (lineRangeSignature())", async () => {
    expect(await sent(createReadTool({ fs }), preset.read as never)).toMatchInlineSnapshot(`
      {
        "name": "readFile",
        "schema": {
          "additionalProperties": false,
          "properties": {
            "endLine": {
              "description": "Last line to read, 1-based and inclusive; may be past the end. Omit to read to the end.",
              "maximum": 9007199254740991,
              "minimum": 1,
              "type": [
                "integer",
                "null",
              ],
            },
            "path": {
              "description": "Path of the file, relative to the working directory or absolute.",
              "type": "string",
            },
            "startLine": {
              "description": "First line to read, 1-based. Omit to start at line 1.",
              "maximum": 9007199254740991,
              "minimum": 1,
              "type": [
                "integer",
                "null",
              ],
            },
          },
          "required": [
            "path",
            "startLine",
            "endLine",
          ],
          "type": "object",
        },
        "strict": true,
      }
    `);
  });
  test("lineRangeSignature({ name, names }) renames the tool and its parameters", async () => {
    const signature = lineRangeSignature({ name: "view", names: { path: "file", start: "from", end: "to" } });
    expect(await sent(createReadTool({ fs }), signature as never)).toMatchInlineSnapshot(`
      {
        "name": "view",
        "schema": {
          "additionalProperties": false,
          "properties": {
            "file": {
              "description": "Path of the file, relative to the working directory or absolute.",
              "type": "string",
            },
            "from": {
              "description": "First line to read, 1-based. Omit to start at line 1.",
              "maximum": 9007199254740991,
              "minimum": 1,
              "type": [
                "integer",
                "null",
              ],
            },
            "to": {
              "description": "Last line to read, 1-based and inclusive; may be past the end. Omit to read to the end.",
              "maximum": 9007199254740991,
              "minimum": 1,
              "type": [
                "integer",
                "null",
              ],
            },
          },
          "required": [
            "file",
            "from",
            "to",
          ],
          "type": "object",
        },
        "strict": true,
      }
    `);
  });
  test("listDir, writeFile, editFile, runBash", async () => {
    const schemas = [preset.list, preset.write, preset.edit, preset.bash].map((signature) => ({
      name: signature.name,
      schema: toAiSdkTool({ ...createReadTool({ fs }), validate: (input: unknown) => input } as never, {
        signature: signature as never,
      }),
    }));
    const out: Record<string, unknown> = {};
    for (const { name, schema } of schemas)
      out[name] = await (schema.inputSchema as { jsonSchema: unknown }).jsonSchema;
    expect(out).toMatchInlineSnapshot(`
      {
        "editFile": {
          "additionalProperties": false,
          "properties": {
            "newText": {
              "description": "The text to put in its place.",
              "type": "string",
            },
            "oldText": {
              "description": "The exact text to replace, whitespace included; it must occur exactly once unless replaceAll is true.",
              "type": "string",
            },
            "path": {
              "description": "Path of the file to edit.",
              "type": "string",
            },
            "replaceAll": {
              "description": "Replace every occurrence instead of exactly one. Default false.",
              "type": [
                "boolean",
                "null",
              ],
            },
          },
          "required": [
            "path",
            "oldText",
            "newText",
            "replaceAll",
          ],
          "type": "object",
        },
        "listDir": {
          "additionalProperties": false,
          "properties": {
            "path": {
              "description": "Directory to list, relative to the working directory or absolute. Omit for the working directory.",
              "type": [
                "string",
                "null",
              ],
            },
          },
          "required": [
            "path",
          ],
          "type": "object",
        },
        "runBash": {
          "additionalProperties": false,
          "properties": {
            "command": {
              "description": "The bash command line to run.",
              "type": "string",
            },
          },
          "required": [
            "command",
          ],
          "type": "object",
        },
        "writeFile": {
          "additionalProperties": false,
          "properties": {
            "content": {
              "description": "The complete new content of the file.",
              "type": "string",
            },
            "path": {
              "description": "Path of the file to write. Missing parent directories are created.",
              "type": "string",
            },
          },
          "required": [
            "path",
            "content",
          ],
          "type": "object",
        },
      }
    `);
  });
});

describe("strict schemas of the offset/limit preset", () => {
  test("read_file, list, grep, write_file, edit_file", async () => {
    const preset = offsetLimitPreset();
    const out: Record<string, unknown> = {};
    for (const signature of [preset.read, preset.list, preset.grep, preset.write, preset.edit]) {
      if (signature === undefined) continue;
      const tool = toAiSdkTool({ ...createReadTool({ fs }), validate: (input: unknown) => input } as never, {
        signature: signature as never,
      });
      out[signature.name] = await (tool.inputSchema as { jsonSchema: unknown }).jsonSchema;
    }
    expect(out).toMatchInlineSnapshot(`
      {
        "edit_file": {
          "additionalProperties": false,
          "properties": {
            "new_string": {
              "description": "The text to replace it with.",
              "type": "string",
            },
            "old_string": {
              "description": "The exact text to replace; it must be unique in the file unless replace_all is true.",
              "type": "string",
            },
            "path": {
              "description": "Path of the file to edit.",
              "type": "string",
            },
            "replace_all": {
              "description": "Replace every occurrence of old_string. Default false.",
              "type": [
                "boolean",
                "null",
              ],
            },
          },
          "required": [
            "path",
            "old_string",
            "new_string",
            "replace_all",
          ],
          "type": "object",
        },
        "grep_files": {
          "additionalProperties": false,
          "properties": {
            "glob": {
              "description": "Only search files matching this glob, e.g. \`**/*.ts\`.",
              "type": [
                "string",
                "null",
              ],
            },
            "path": {
              "description": "File or directory to search in. Omit for the working directory.",
              "type": [
                "string",
                "null",
              ],
            },
            "pattern": {
              "description": "Regular expression (JavaScript syntax) to search for; a leading \`(?i)\` makes it case-insensitive.",
              "type": "string",
            },
          },
          "required": [
            "pattern",
            "path",
            "glob",
          ],
          "type": "object",
        },
        "list_files": {
          "additionalProperties": false,
          "properties": {
            "path": {
              "description": "Directory to list. Omit for the working directory.",
              "type": [
                "string",
                "null",
              ],
            },
            "pattern": {
              "description": "Glob over paths relative to path, e.g. \`*.md\` (that directory only) or \`**/*.ts\` (any depth). Omit for \`**/*\` (every file).",
              "type": [
                "string",
                "null",
              ],
            },
          },
          "required": [
            "path",
            "pattern",
          ],
          "type": "object",
        },
        "read_file": {
          "additionalProperties": false,
          "properties": {
            "limit": {
              "description": "Number of lines to read. 0 or omitted reads to the end.",
              "maximum": 9007199254740991,
              "minimum": 0,
              "type": [
                "integer",
                "null",
              ],
            },
            "offset": {
              "description": "Line number to start reading from, 1-based. 0 or omitted starts at line 1.",
              "maximum": 9007199254740991,
              "minimum": 0,
              "type": [
                "integer",
                "null",
              ],
            },
            "path": {
              "description": "Path of the file to read.",
              "type": "string",
            },
          },
          "required": [
            "path",
            "offset",
            "limit",
          ],
          "type": "object",
        },
        "write_file": {
          "additionalProperties": false,
          "properties": {
            "content": {
              "description": "The complete content to write.",
              "type": "string",
            },
            "path": {
              "description": "Path of the file to write.",
              "type": "string",
            },
          },
          "required": [
            "path",
            "content",
          ],
          "type": "object",
        },
      }
    `);
  });
});

describe("strict schema of the Anthropic text editor tool", () => {
  test("str_replace_based_edit_tool", async () => {
    expect(await sent(createTextEditorTool({ fs }))).toMatchInlineSnapshot(`
      {
        "name": "str_replace_based_edit_tool",
        "schema": {
          "additionalProperties": false,
          "properties": {
            "command": {
              "description": "The command to run: view, create, str_replace or insert.",
              "enum": [
                "view",
                "create",
                "str_replace",
                "insert",
              ],
              "type": "string",
            },
            "file_text": {
              "description": "create: the content of the new file.",
              "type": [
                "string",
                "null",
              ],
            },
            "insert_line": {
              "description": "insert: the line number after which to insert the text (0 for the top of the file).",
              "maximum": 9007199254740991,
              "minimum": 0,
              "type": [
                "integer",
                "null",
              ],
            },
            "insert_text": {
              "description": "insert: the text to insert.",
              "type": [
                "string",
                "null",
              ],
            },
            "new_str": {
              "description": "str_replace: the new text (omit to delete old_str).",
              "type": [
                "string",
                "null",
              ],
            },
            "old_str": {
              "description": "str_replace: the exact text to replace; it must occur exactly once in the file.",
              "type": [
                "string",
                "null",
              ],
            },
            "path": {
              "description": "Absolute path of the file or directory (relative paths resolve against the working directory).",
              "type": "string",
            },
            "view_range": {
              "description": "view: [first, last] line numbers, 1-based and inclusive; last -1 means to the end of the file.",
              "items": {
                "maximum": 9007199254740991,
                "type": "integer",
              },
              "maxItems": 2,
              "minItems": 2,
              "type": [
                "array",
                "null",
              ],
            },
          },
          "required": [
            "command",
            "path",
            "view_range",
            "file_text",
            "old_str",
            "new_str",
            "insert_line",
            "insert_text",
          ],
          "type": "object",
        },
        "strict": true,
      }
    `);
  });
});

describe("a renamed line-range read end to end", () => {
  test("view({ file, from, to }) reads lines 2-3 with the preset's header; an old name is refused naming the new ones", async () => {
    const view = createAiSdkReadTool({
      fs: memoryFileSystem({ files: { "/w/a.txt": "one\ntwo\nthree\nfour\n" } }),
      cwd: "/w",
      signature: lineRangeSignature({ name: "view", names: { path: "file", start: "from", end: "to" } }),
    });
    const model = scriptedModel([
      {
        calls: [
          { tool: "view", input: { file: "a.txt", from: 2, to: 3 } },
          { tool: "view", input: { path: "a.txt", from: null, to: null } },
        ],
      },
      { text: "ok" },
    ]);
    await generateText({ model, tools: { view }, prompt: "x", stopWhen: isStepCount(3) });
    expect(toolOutputsSentAt(model, 1)).toMatchInlineSnapshot(`
      [
        {
          "output": {
            "type": "content",
            "value": [
              {
                "text": "[a.txt lines 2-3 of 4]
      two
      three",
                "type": "text",
              },
            ],
          },
          "toolName": "view",
        },
        {
          "output": {
            "type": "error-text",
            "value": "AI_InvalidToolInputError: Invalid input for tool view: AI_TypeValidationError: Type validation failed: Value: {"path":"a.txt","from":null,"to":null}.
      Error message: ToolInputError: Unknown view input key: path. Expected file, from, to",
          },
          "toolName": "view",
        },
      ]
    `);
  });
});

import { describe, expect, test } from "vitest";
import { jsonSchema } from "ai";
import { z } from "zod";
import { createAiSdkBashTool, createAiSdkFsTools, createAiSdkReadTool, toAiSdkTool } from "../../src/ai-sdk/index.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { createListTool } from "../../src/tools/list/index.js";
import { OptionError } from "../../src/contract/options.js";

describe("single AI SDK factories refuse misuse at creation, naming the option", () => {
  test("createAiSdkBashTool with neither a runner nor an fs", () => {
    let thrown: unknown;
    try {
      createAiSdkBashTool({ env: {} });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toEqual(
      new TypeError(
        "createAiSdkBashTool runner must be given when fs is not: pass a runner (justBashCommandRunner from better-fs-tools/shell, nodeCommandRunner from better-fs-tools/node) or an fs for the default just-bash to run over",
      ),
    );
    expect(OptionError.isInstance(thrown) && [thrown.factory, thrown.option]).toEqual([
      "createAiSdkBashTool",
      "runner",
    ]);
  });

  test("a contextSchema that is not a schema", () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const problem =
      "contextSchema must be a schema (zod or another Standard Schema, jsonSchema(), or a function returning one)";
    expect(() => createAiSdkFsTools({ fs, cwd: "/w", contextSchema: 5 as never })).toThrow(
      new TypeError(`createAiSdkFsTools ${problem}, got 5`),
    );
    expect(() => createAiSdkReadTool({ fs, contextSchema: { type: "object" } as never })).toThrow(
      new TypeError(`createAiSdkReadTool ${problem}, got an object that is not a schema`),
    );
    expect(() => toAiSdkTool(createListTool({ fs }), { contextSchema: "x" as never })).toThrow(
      new TypeError(`toAiSdkTool ${problem}, got "x"`),
    );
    // Schemas of each kind are taken.
    const zodContext = z.object({ root: z.string() });
    expect(createAiSdkReadTool({ fs, contextSchema: zodContext }).contextSchema).toBe(zodContext);
    const json = jsonSchema<{ root: string }>({ type: "object", properties: { root: { type: "string" } } });
    expect(createAiSdkReadTool({ fs, contextSchema: json }).contextSchema).toBe(json);
    const lazy = () => json;
    expect(Object.keys(createAiSdkFsTools({ fs, cwd: "/w", contextSchema: lazy }).tools)).toEqual([
      "read",
      "edit",
      "write",
    ]);
  });
});

import { generateText, isStepCount } from "ai";
import { describe, expect, test } from "vitest";
import { createAiSdkApplyPatchTool } from "../../../src/ai-sdk/index.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { APPLY_PATCH_DESCRIPTION } from "../../../src/tools/apply-patch/index.js";
import {
  APPLY_PATCH_LARK_GRAMMAR,
  defaultPatchSignature,
  freeformPatchSignature,
} from "../../../src/tools/signature/index.js";
import { ToolInputError } from "../../../src/tools/kit/tool.js";
import { scriptedModel, toolOutputsSentAt } from "../../ai-sdk/mock-model.js";

const PATCH = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: b.txt\n+b\n*** End Patch";
const SCHEMA = {
  type: "object",
  properties: {
    patch: {
      type: "string",
      description: "The entire patch, from '*** Begin Patch' to '*** End Patch'.",
      minLength: 1,
    },
  },
  required: ["patch"],
  additionalProperties: false,
};

describe("patch signatures", () => {
  test("defaultPatchSignature: the patch as one JSON string", () => {
    const signature = defaultPatchSignature();
    expect(signature.name).toBe("apply_patch");
    expect(signature.description).toBe(APPLY_PATCH_DESCRIPTION);
    expect(signature.inputSchema).toEqual(SCHEMA);
    expect(signature.format).toBeUndefined();
    expect(signature.toInput({ patch: PATCH })).toEqual({ patch: PATCH });
    expect(() => signature.toInput({ input: PATCH } as never)).toThrow(
      new ToolInputError("Unknown apply_patch input key: input. Expected patch"),
    );
  });

  test("freeformPatchSignature: same schema, a Lark grammar, raw text accepted", () => {
    const signature = freeformPatchSignature();
    expect(signature.name).toBe("apply_patch");
    expect(signature.description).toBe(APPLY_PATCH_DESCRIPTION);
    expect(signature.freeformDescription).toBe(
      `${APPLY_PATCH_DESCRIPTION}\nWrite the patch itself as the tool input, with no JSON around it.`,
    );
    expect(signature.inputSchema).toEqual(SCHEMA);
    expect(signature.format).toEqual({ type: "grammar", syntax: "lark", definition: APPLY_PATCH_LARK_GRAMMAR });
    expect(APPLY_PATCH_LARK_GRAMMAR.split("\n").slice(0, 3)).toEqual([
      "start: begin_patch hunk+ end_patch",
      'begin_patch: "*** Begin Patch" LF',
      'end_patch: "*** End Patch" LF?',
    ]);
    expect(signature.toInput(PATCH as never)).toEqual({ patch: PATCH });
    expect(signature.toInput({ patch: PATCH })).toEqual({ patch: PATCH });
    expect(() => signature.toInput("  " as never)).toThrow(
      new ToolInputError("apply_patch input patch must not be empty"),
    );
  });
});

describe("apply_patch signatures through generateText", () => {
  test.each([
    ["defaultPatchSignature", defaultPatchSignature()],
    ["freeformPatchSignature", freeformPatchSignature()],
  ])("%s: a failing patch, then one that applies", async (_name, signature) => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const applyPatch = createAiSdkApplyPatchTool({ fs, cwd: "/w", signature });
    const model = scriptedModel([
      { calls: [{ tool: "apply_patch", input: { patch: PATCH.replace("-a", "-zzz") } }] },
      { calls: [{ tool: "apply_patch", input: { patch: PATCH } }] },
      { text: "done" },
    ]);
    const result = await generateText({
      model,
      tools: { apply_patch: applyPatch },
      prompt: "patch",
      stopWhen: isStepCount(5),
    });
    expect(result.text).toBe("done");
    expect(toolOutputsSentAt(model, 2)).toEqual([
      {
        toolName: "apply_patch",
        output: {
          type: "error-text",
          value:
            "Could not find the expected lines in a.txt, hunk 1, patch line 3:\n    zzz\nRead the file again and copy the context and '-' lines exactly.\nNothing was changed.",
        },
      },
      {
        toolName: "apply_patch",
        output: {
          type: "content",
          value: [{ type: "text", text: "Success. Updated the following files:\nM a.txt\nA b.txt" }],
        },
      },
    ]);
    expect(result.steps[1]?.toolResults[0]?.output).toEqual({
      kind: "mutation",
      ok: true,
      parts: [{ type: "text", text: "Success. Updated the following files:\nM a.txt\nA b.txt" }],
      changes: [
        { action: "updated", path: "/w/a.txt", bytes: 2, line: 1 },
        { action: "added", path: "/w/b.txt", bytes: 2 },
      ],
    });
    expect(fs.volume.toJSON()).toEqual({ "/w/a.txt": "A\n", "/w/b.txt": "b\n" });
  });
});

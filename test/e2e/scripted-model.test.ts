/**
 * The playground's offline scripted model, run in Node through the real AI SDK loop with the
 * library's tools over a memory workspace: on the sample project and on workspaces it was not
 * written for (no changelog, no TODO, no tools).
 */
import { generateText, isStepCount, streamText, type ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { createScriptedModel } from "../../demo/src/agent/scripted-model.js";
import { createAiSdkFsTools, toAiSdkTool } from "../../src/ai-sdk/index.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import {
  createGlobTool,
  createGrepTool,
  createListTool,
  memoryLocks,
  memoryStore,
  type FileSystem,
} from "../../src/index.js";
import { justBashCommandRunner } from "../../src/shell/index.js";

const ROOT = "/workspace";

function workspace(files: Record<string, string>): {
  fs: FileSystem;
  tools: ToolSet;
  text(path: string): Promise<string>;
} {
  const fs = memoryFileSystem({ files, cwd: ROOT });
  const shared = { fs, cwd: ROOT, allowedRoots: [ROOT], state: memoryStore(), locks: memoryLocks() };
  const { tools } = createAiSdkFsTools({
    ...shared,
    applyPatch: true,
    bash: { runner: justBashCommandRunner({ fs, cwd: ROOT }), env: { PATH: "/usr/bin:/bin" } },
  });
  return {
    fs,
    tools: {
      ...(tools as ToolSet),
      list: toAiSdkTool(createListTool(shared)) as ToolSet[string],
      glob: toAiSdkTool(createGlobTool(shared)) as ToolSet[string],
      grep: toAiSdkTool(createGrepTool(shared)) as ToolSet[string],
    },
    text: async (path) => new TextDecoder().decode(await fs.readFile(`${ROOT}/${path}`)),
  };
}

describe("scripted model", () => {
  it("fixes the sample TODO, patches the changelog, runs bash and writes the report", async () => {
    const { tools, text } = workspace({
      "README.md": "# tiny\n\nA project.\n",
      "CHANGELOG.md": "# Changelog\n\n## Unreleased\n\n- First.\n",
      "src/validate.ts":
        "export function check(title: string) {\n  // TODO: reject titles longer than MAX_TITLE_LENGTH\n  return title;\n}\n",
    });
    const result = await generateText({
      model: createScriptedModel({ chunkDelayMs: 0 }),
      tools,
      prompt: "Review",
      stopWhen: isStepCount(20),
    });
    expect(result.steps.map((step) => step.toolCalls.map((call) => call.toolName).join(","))).toEqual([
      "list",
      "read",
      "grep",
      "read",
      "edit",
      "read",
      "apply_patch",
      "bash",
      "write",
      "",
    ]);
    expect(await text("src/validate.ts")).toBe(
      "export function check(title: string) {\n  if (title.trim().length > MAX_TITLE_LENGTH) {\n    throw new Error(`title must be at most ${MAX_TITLE_LENGTH} characters`);\n  }\n  return title;\n}\n",
    );
    expect(await text("CHANGELOG.md")).toBe(
      "# Changelog\n\n## Unreleased\n\n- Reject todo titles longer than MAX_TITLE_LENGTH (200 characters).\n- First.\n",
    );
    expect(await text("AGENT_REPORT.md")).toBe(
      [
        "# Agent report",
        "",
        "- Top-level entries: 3.",
        "- Project: tiny.",
        "- Open to-do comments found: 1.",
        "- Edit of src/validate.ts: replaced 1 occurrence in src/validate.ts at line 2",
        "- Patch: Success. Updated the following files: M CHANGELOG.md",
        "- bash: 3 files, 0 to-do comments left.",
        "",
        "Written by the playground's offline scripted model.",
        "",
      ].join("\n"),
    );
    expect(result.text).toBe(
      "Done. I made 9 tool calls, fixed the first TODO with an edit, updated the changelog with a patch, and wrote AGENT_REPORT.md.",
    );
  });

  it("on another project it triages an unknown TODO and adds notes instead of a changelog entry", async () => {
    const { tools, text } = workspace({
      "notes.txt": "plain\n",
      "lib/a.py": "def f():\n    # TODO: handle None\n    return 1\n",
    });
    const result = await generateText({
      model: createScriptedModel({ chunkDelayMs: 0 }),
      tools,
      prompt: "Review",
      stopWhen: isStepCount(20),
    });
    expect(result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName))).toEqual([
      "list",
      "read",
      "grep",
      "read",
      "edit",
      "apply_patch",
      "bash",
      "write",
    ]);
    expect(await text("lib/a.py")).toBe(
      "def f():\n    # NOTE (triaged by the playground agent): handle None\n    return 1\n",
    );
    expect(result.text).toBe(
      "Done. I made 8 tool calls, marked the first TODO as triaged with an edit, added AGENT_NOTES.md with a patch, and wrote AGENT_REPORT.md.",
    );
    expect(await text("AGENT_NOTES.md")).toBe(
      "# Agent notes\n\n- Triaged the first open to-do comment found by the playground agent.\n",
    );
  });

  it("streams the same run, text deltas before each tool call, and is deterministic", async () => {
    const files = { "README.md": "# r\n" };
    const runs: string[][] = [];
    for (let round = 0; round < 2; round += 1) {
      const { tools } = workspace(files);
      const parts: string[] = [];
      const result = streamText({
        model: createScriptedModel({ chunkDelayMs: 0 }),
        tools,
        prompt: "Review",
        stopWhen: isStepCount(20),
      });
      for await (const part of result.stream) {
        if (part.type === "tool-call")
          parts.push(`call ${part.toolCallId} ${part.toolName} ${JSON.stringify(part.input)}`);
        if (part.type === "text-delta") parts.push(`text ${part.text}`);
      }
      runs.push(parts);
    }
    expect(runs[0]).toEqual(runs[1]);
    // The calls as the tools received them: the AI SDK has validated the input (strict-mode nulls dropped).
    expect(runs[0]!.filter((part) => part.startsWith("call"))).toEqual([
      'call call-1-0 list {"path":"."}',
      'call call-1-1 read {"path":"README.md"}',
      'call call-1-2 grep {"pattern":"TODO","path":"."}',
      `call call-1-3 apply_patch ${JSON.stringify({ patch: "*** Begin Patch\n*** Add File: AGENT_NOTES.md\n+# Agent notes\n+\n+- Reviewed the project: no open to-do comments were found.\n*** End Patch" })}`,
      'call call-1-4 bash {"command":"find . -type f | wc -l && grep -rn TODO . | wc -l"}',
      `call call-1-5 write ${JSON.stringify({
        path: "AGENT_REPORT.md",
        content:
          "# Agent report\n\n- Top-level entries: 1.\n- Project: r.\n- Open to-do comments found: 0.\n- Patch: Success. Updated the following files: A AGENT_NOTES.md\n- bash: 2 files, 0 to-do comments left.\n\nWritten by the playground's offline scripted model.\n",
      })}`,
    ]);
    expect(runs[0]!.slice(0, 3)).toEqual(["text I'll start ", "text by looking ", "text at what "]);
  });

  it("with no tools it says so and stops", async () => {
    const result = await generateText({ model: createScriptedModel({ chunkDelayMs: 0 }), prompt: "Review" });
    expect(result.text).toBe("I have no file tools to work with, so there is nothing I can do here.");
    expect(result.finishReason).toBe("stop");
  });
});

describe("scripted model's answer after a failed call", () => {
  it("names the failed call by its tool and path, not by the script's own step names", async () => {
    const { tools } = workspace({ "README.md": "# tiny\n", "CHANGELOG.md": "# Changelog\n\n## Unreleased\n" });
    const result = await generateText({
      model: createScriptedModel({ chunkDelayMs: 0 }),
      tools,
      prompt: "Check /etc/hosts first",
      stopWhen: isStepCount(20),
    });
    expect(result.text).toBe(
      "Done. I made 8 tool calls, added AGENT_NOTES.md with a patch, and wrote AGENT_REPORT.md. This call returned an error: read /etc/hosts.",
    );
  });
});

import { generateText, isStepCount, type ModelMessage, type ToolApprovalResponse } from "ai";
import { describe, expect, test } from "vitest";
import { approvalTargets } from "../../src/ai-sdk/approval.js";
import { adaptCoreTool, toAiSdkTool } from "../../src/ai-sdk/tool.js";
import { createAiSdkFsTools } from "../../src/ai-sdk/bundle.js";
import { createAiSdkReadTool } from "../../src/ai-sdk/single-tools.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import type { PermissionOptions } from "../../src/gate/gate.js";
import { createReadTool } from "../../src/tools/read/index.js";
import { memoryLocks } from "../../src/contract/locks.js";
import { scriptedModel, toolOutputsSentAt } from "./mock-model.js";

function approvalRead(permissions?: PermissionOptions) {
  const fs = memoryFileSystem({
    files: { "/w/a.txt": "inside\n", "/outside/secret.txt": "secret\n", "/allowed/x.txt": "x\n" },
  });
  const contextOptions = { fs, cwd: "/w", locks: memoryLocks(), permissions };
  const made: PermissionOptions[] = [];
  const tool = adaptCoreTool(
    {
      factory: "createAiSdkReadTool",
      core: createReadTool(contextOptions),
      approval: {
        contextOptions,
        withPermissions: (override) => {
          made.push(override);
          return createReadTool({ ...contextOptions, permissions: override });
        },
      },
    },
    { needsApproval: true },
  );
  return { tool, made };
}

const CALLS = [
  { tool: "read", input: { path: "a.txt", offset: null, limit: null } },
  { tool: "read", input: { path: "/outside/secret.txt", offset: null, limit: null } },
  { tool: "read", input: { path: "/allowed/x.txt", offset: null, limit: null } },
];

describe("needsApproval wired to the gate", () => {
  test("only calls the gate would put to approve need approval; an approved call reads, a denied one does not", async () => {
    const { tool, made } = approvalRead({
      allow: [
        { tool: "readFile", path: "/allowed/**" },
        { tool: "listDir", path: "/allowed/**" },
      ],
    });
    const model = scriptedModel([{ calls: CALLS }, { text: "done" }]);
    const messages: ModelMessage[] = [{ role: "user", content: "read them" }];
    const first = await generateText({ model, tools: { read: tool }, messages, stopWhen: isStepCount(5) });
    const requests = first.content.filter((part) => part.type === "tool-approval-request");
    expect(requests.map((part) => part.toolCall.input)).toStrictEqual([{ path: "/outside/secret.txt" }]);
    expect(first.toolResults.map((part) => (part.output as { parts: unknown }).parts)).toStrictEqual([
      [{ type: "text", text: "1|inside" }],
      [{ type: "text", text: "1|x" }],
    ]);
    expect(made).toHaveLength(0);

    messages.push(...first.responseMessages);
    const approve = (approved: boolean): ToolApprovalResponse[] =>
      requests.map((part) => ({ type: "tool-approval-response", approvalId: part.approvalId, approved }));

    const approvedModel = scriptedModel([{ text: "thanks" }]);
    await generateText({
      model: approvedModel,
      tools: { read: tool },
      messages: [...messages, { role: "tool", content: approve(true) }],
      stopWhen: isStepCount(5),
    });
    expect(toolOutputsSentAt(approvedModel, 0).at(-1)).toStrictEqual({
      toolName: "read",
      output: { type: "content", value: [{ type: "text", text: "1|secret" }] },
    });
    expect(made).toHaveLength(1);

    const deniedModel = scriptedModel([{ text: "ok" }]);
    await generateText({
      model: deniedModel,
      tools: { read: tool },
      messages: [...messages, { role: "tool", content: approve(false) }],
      stopWhen: isStepCount(5),
    });
    expect(toolOutputsSentAt(deniedModel, 0).at(-1)).toStrictEqual({
      toolName: "read",
      output: { type: "execution-denied", reason: undefined },
    });
    expect(made).toHaveLength(1);
  });

  test("needsApproval with permissions.approve is refused at creation", () => {
    expect(() => approvalRead({ approve: () => true })).toThrow(
      new TypeError("createAiSdkReadTool needsApproval replaces permissions.approve: set one of them"),
    );
  });

  test("without needsApproval a path outside the workspace fails closed", async () => {
    const fs = memoryFileSystem({ files: { "/outside/secret.txt": "secret\n" } });
    const read = toAiSdkTool(createReadTool({ fs, cwd: "/w" }));
    const model = scriptedModel([{ calls: [CALLS[1] as (typeof CALLS)[number]] }, { text: "done" }]);
    await generateText({ model, tools: { read }, prompt: "x", stopWhen: isStepCount(3) });
    expect(toolOutputsSentAt(model, 1)).toStrictEqual([
      {
        toolName: "read",
        output: {
          type: "error-text",
          value:
            'Permission denied: /outside/secret.txt is outside the workspace and interactive permission prompts are not available in this execution context. Add an allow rule for "readFile" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.',
        },
      },
    ]);
  });

  test("approvalTargets: paths, patch headers and commands", () => {
    expect(approvalTargets("read", { path: "a" })).toStrictEqual([{ path: "a", access: "read" }]);
    expect(approvalTargets("edit", { path: "a", oldText: "x" })).toStrictEqual([{ path: "a", access: "write" }]);
    expect(
      approvalTargets("apply_patch", {
        patch:
          "*** Begin Patch\n*** Add File: n.txt\n+x\n*** Update File: /o/u.txt\n*** Move to: m.txt\n@@\n-a\n+b\n*** Delete File: d.txt\n*** End Patch",
      }),
    ).toStrictEqual([
      { path: "n.txt", access: "write" },
      { path: "/o/u.txt", access: "write" },
      { path: "m.txt", access: "write" },
      { path: "d.txt", access: "write" },
    ]);
    expect(approvalTargets("bash", { command: "ls /" })).toStrictEqual([{ command: "ls /" }]);
    expect(approvalTargets("bash", { command: "ls", cwd: "/o" })).toStrictEqual([
      { path: "/o", access: "list" },
      { command: "ls" },
    ]);
    expect(approvalTargets("read", "x")).toStrictEqual([]);
  });

  test("approvalTargets: patch paths as the apply_patch parser reads them (indented headers, heredoc), none for a patch that does not parse", () => {
    const indented = [
      "apply_patch <<'EOF'",
      "*** Begin Patch",
      "  *** Add File: /outside/new.txt",
      "+x",
      "\t*** Update File: a.txt  ",
      "   *** Move to: /outside/moved.txt",
      "@@",
      "-a",
      "+b",
      " *** Delete File: /outside/gone.txt",
      "*** End Patch",
      "EOF",
    ].join("\n");
    expect(approvalTargets("apply_patch", { patch: indented })).toStrictEqual([
      { path: "/outside/new.txt", access: "write" },
      { path: "a.txt", access: "write" },
      { path: "/outside/moved.txt", access: "write" },
      { path: "/outside/gone.txt", access: "write" },
    ]);
    expect(approvalTargets("apply_patch", { patch: "*** Add File: /outside/x.txt\n+x" })).toStrictEqual([]);
  });
});

describe("needsApproval on the bundle", () => {
  test("a write outside the workspace waits for approval, then lands; inside writes run at once", async () => {
    const fs = memoryFileSystem({ files: { "/w/keep.txt": "k\n" } });
    const { tools } = createAiSdkFsTools({ fs, cwd: "/w", needsApproval: true });
    const model = scriptedModel([
      {
        calls: [
          { tool: "write", input: { path: "in.txt", content: "in\n" } },
          { tool: "write", input: { path: "/etc/out.txt", content: "out\n" } },
        ],
      },
      { text: "done" },
    ]);
    const messages: ModelMessage[] = [{ role: "user", content: "write" }];
    const first = await generateText({ model, tools, messages, stopWhen: isStepCount(5) });
    const requests = first.content.filter((part) => part.type === "tool-approval-request");
    expect(requests.map((part) => [part.toolCall.toolName, part.toolCall.input])).toStrictEqual([
      ["write", { path: "/etc/out.txt", content: "out\n" }],
    ]);
    expect(new TextDecoder().decode(await fs.readFile("/w/in.txt"))).toBe("in\n");
    await expect(fs.readFile("/etc/out.txt")).rejects.toThrow("ENOENT");

    const next = scriptedModel([{ text: "ok" }]);
    await generateText({
      model: next,
      tools,
      messages: [
        ...messages,
        ...first.responseMessages,
        {
          role: "tool",
          content: requests.map((part) => ({
            type: "tool-approval-response" as const,
            approvalId: part.approvalId,
            approved: true,
          })),
        },
      ],
      stopWhen: isStepCount(3),
    });
    expect(toolOutputsSentAt(next, 0).at(-1)).toStrictEqual({
      toolName: "write",
      output: { type: "content", value: [{ type: "text", text: "wrote 4 bytes to /etc/out.txt" }] },
    });
    expect(new TextDecoder().decode(await fs.readFile("/etc/out.txt"))).toBe("out\n");
  });

  test("needsApproval must be a boolean (bundle and single factories)", () => {
    expect(() => createAiSdkReadTool({ fs: memoryFileSystem(), needsApproval: 1 as never })).toThrow(
      new TypeError("createAiSdkReadTool needsApproval must be a boolean, got 1"),
    );
    expect(() => createAiSdkFsTools({ fs: memoryFileSystem(), needsApproval: "yes" as never })).toThrow(
      new TypeError('createAiSdkFsTools needsApproval must be a boolean, got "yes"'),
    );
  });
});

/** The `better-fs-tools` dialect through the SDK's Client, in memory: every tool, refusals, read-only, options. */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { justBashCommandRunner } from "../../src/shell/index.js";
import { connect } from "./client.js";

const files = () => ({ "/w/a.txt": "one\ntwo\nthree\n", "/w/src/b.ts": "export const b = 1;\n" });

describe("better-fs-tools dialect", () => {
  it("lists our tools, bash only with a runner", async () => {
    const plain = await connect({ fs: memoryFileSystem({ files: files() }), cwd: "/w" });
    expect((await plain.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "read",
      "write",
      "edit",
      "apply_patch",
      "list",
      "glob",
      "grep",
    ]);
    const fs = memoryFileSystem({ files: files() });
    const withBash = await connect({ fs, cwd: "/w", bash: { runner: justBashCommandRunner({ fs, cwd: "/w" }) } });
    const tools = (await withBash.client.listTools()).tools;
    expect(tools.map((tool) => tool.name)).toContain("bash");
    expect(tools.find((tool) => tool.name === "read")?.inputSchema).toMatchObject({
      type: "object",
      required: ["path"],
      properties: { path: { type: "string" }, offset: { type: "integer" }, limit: { type: "integer" } },
    });
  });

  it("runs every tool over the backend", async () => {
    const fs = memoryFileSystem({ files: files() });
    const mcp = await connect({ fs, cwd: "/w", bash: { runner: justBashCommandRunner({ fs, cwd: "/w" }) } });
    expect(await mcp.call("read", { path: "a.txt", offset: 2, limit: 1 })).toEqual({
      content: [{ type: "text", text: "2|two\n[Showed lines 2-2 of 3. Continue with offset=3.]" }],
      structuredContent: {
        kind: "read",
        ok: true,
        path: "/w/a.txt",
        totalLines: 3,
        startLine: 2,
        endLine: 2,
        truncated: false,
        finalNewline: true,
      },
    });
    expect(await mcp.call("edit", { path: "a.txt", oldText: "two", newText: "TWO" })).toEqual({
      content: [{ type: "text", text: "replaced 1 occurrence in a.txt at line 2" }],
      structuredContent: {
        kind: "mutation",
        ok: true,
        changes: [{ action: "updated", path: "/w/a.txt", bytes: 14, line: 2 }],
      },
    });
    expect(await mcp.text("write", { path: "new/c.txt", content: "c\n" })).toBe("wrote 2 bytes to new/c.txt");
    expect(
      await mcp.text("apply_patch", {
        patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-three\n+3\n*** End Patch",
      }),
    ).toBe("Success. Updated the following files:\nM a.txt");
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("one\nTWO\n3\n");
    expect(await mcp.text("list", {})).toBe("a.txt (10 bytes)\nnew/\nsrc/");
    expect(await mcp.text("glob", { pattern: "**/*.ts" })).toBe("src/b.ts");
    expect(await mcp.text("grep", { pattern: "const" })).toBe("src/b.ts:1:export const b = 1;");
    expect(await mcp.call("bash", { command: "cat new/c.txt" })).toEqual({
      content: [{ type: "text", text: "c\n[exit code 0]" }],
      structuredContent: { kind: "shell", ok: true, stdout: "c\n", stderr: "", exitCode: 0 },
    });
  });

  it("returns refusals and failures as isError results", async () => {
    const mcp = await connect({ fs: memoryFileSystem({ files: { ...files(), "/secret/key": "KEY" } }), cwd: "/w" });
    const denied =
      "Permission denied: /secret/key is outside the workspace and interactive permission prompts are not " +
      'available in this execution context. Add an allow rule for "readFile" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.';
    expect(await mcp.call("read", { path: "/secret/key" })).toEqual({
      content: [{ type: "text", text: denied }],
      structuredContent: { kind: "read", ok: false, error: { code: "EDENIED", message: denied, path: "/secret/key" } },
      isError: true,
    });
    const missing = await mcp.call("read", { path: "missing.txt" });
    expect([missing.isError, missing.structuredContent?.["error"]]).toEqual([
      true,
      {
        code: "ENOENT",
        path: "/w/missing.txt",
        message: "File not found: missing.txt. Check the path: list its directory or search for the file name.",
      },
    ]);
    await mcp.call("read", { path: "a.txt" });
    const noMatch = await mcp.call("edit", { path: "a.txt", oldText: "zzz", newText: "y" });
    expect([noMatch.isError, (noMatch.structuredContent?.["error"] as { code: string }).code]).toEqual([
      true,
      "ENOMATCH",
    ]);
    expect(await mcp.call("read", { nope: 1 })).toEqual({
      content: [
        {
          type: "text",
          text:
            "MCP error -32602: Input validation error: Invalid arguments for tool read: Invalid input: " +
            'expected string, received undefined at path\nUnrecognized key: "nope"',
        },
      ],
      isError: true,
    });
  });

  it("offers only the read-only tools with readOnly", async () => {
    const mcp = await connect({ fs: memoryFileSystem({ files: files() }), cwd: "/w", readOnly: true });
    expect((await mcp.client.listTools()).tools.map((tool) => tool.name)).toEqual(["read", "list", "glob", "grep"]);
    expect(await mcp.text("read", { path: "a.txt" })).toBe("1|one\n2|two\n3|three");
  });

  it("checks its options at creation", () => {
    const fs = memoryFileSystem();
    expect(() => createMcpServer({ fs, dialect: "other" as never })).toThrow(
      'createMcpServer dialect must be one of better-fs-tools, filesystem-server, got "other"',
    );
    expect(() => createMcpServer({ fs, readOnly: "yes" as never })).toThrow(
      'createMcpServer readOnly must be a boolean, got "yes"',
    );
    expect(() => createMcpServer({ fs, bogus: 1 } as never)).toThrow(/createMcpServer got an unknown option "bogus"/);
    expect(() => createMcpServer({} as never)).toThrow("createMcpServer needs an fs option (a FileSystem)");
  });
});

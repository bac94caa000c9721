/** createMcpServer takes the one shape of tool options (false | true | settings with a signature, readOnly). */
import { describe, expect, test } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { lineRangePreset } from "../../src/tools/signature/index.js";
import { connect } from "./client.js";

const toolNames = async (client: Awaited<ReturnType<typeof connect>>) =>
  (await client.client.listTools()).tools.map((tool) => tool.name);

describe("createMcpServer tool options", () => {
  test("false leaves a tool out; write: false withholds edit and apply_patch; readOnly gives the readers", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\r\n" } });
    const some = await connect({ fs, cwd: "/w", glob: false, write: false });
    expect(await toolNames(some)).toEqual(["read", "list", "grep"]);
    await some.close();
    const readers = await connect({ fs, cwd: "/w", readOnly: true, grep: { maxMatches: 1 } });
    expect(await toolNames(readers)).toEqual(["read", "list", "glob", "grep"]);
    await readers.close();
  });

  test("a preset's signatures rename the tools and shape their input and output; annotations follow the tool", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\r\ntwo\r\n" } });
    const preset = lineRangePreset();
    const client = await connect({
      fs,
      cwd: "/w",
      read: { signature: preset.read },
      edit: { signature: preset.edit },
      applyPatch: false,
    });
    const listed = (await client.client.listTools()).tools;
    expect(listed.map((tool) => tool.name)).toEqual(["readFile", "write", "editFile", "list", "glob", "grep"]);
    expect(listed.find((tool) => tool.name === "readFile")?.annotations?.readOnlyHint).toBe(true);
    expect(listed.find((tool) => tool.name === "editFile")?.annotations?.destructiveHint).toBe(true);
    expect(await client.text("readFile", { path: "a.txt" })).toBe("one\r\ntwo\r\n");
    expect(await client.text("readFile", { path: "a.txt", startLine: 2, endLine: 2 })).toBe(
      "[a.txt lines 2-2 of 2]\ntwo",
    );
    await client.call("editFile", { path: "a.txt", oldText: "two", newText: "deux" });
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("one\r\ndeux\r\n");
    await client.close();
  });

  test("options the server would ignore throw at creation", () => {
    const fs = memoryFileSystem();
    expect(() => createMcpServer({ fs, bash: true })).toThrow(
      new TypeError(
        "createMcpServer bash needs a runner (nodeCommandRunner() from better-fs-tools/node, or justBashCommandRunner() from better-fs-tools/shell)",
      ),
    );
    expect(() => createMcpServer({ fs, dialect: "filesystem-server", read: { maxBytes: 10 } })).toThrow(
      new TypeError(
        'createMcpServer read is not taken by the "filesystem-server" dialect (its tools are the official server\'s); per-tool options are for the "better-fs-tools" dialect',
      ),
    );
    expect(() => createMcpServer({ fs, readOnly: true, edit: {} })).toThrow(
      new TypeError(
        "createMcpServer edit cannot be set with readOnly: true (readOnly leaves out write, edit, apply_patch and bash)",
      ),
    );
    const preset = lineRangePreset();
    expect(() =>
      createMcpServer({
        fs,
        read: { signature: preset.read },
        write: { signature: { ...preset.write, name: "readFile" } },
      }),
    ).toThrow(new TypeError('createMcpServer write.signature names a second tool "readFile": give it another name'));
  });
});

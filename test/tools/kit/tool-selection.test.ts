import { describe, expect, test } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { OptionError } from "../../../src/contract/options.js";
import { createFsTools } from "../../../src/shell/defaults.js";
import { lineRangePreset, offsetLimitPreset } from "../../../src/tools/signature/index.js";
import { selectTools } from "../../../src/tools/kit/tool-selection.js";
import { TOOL_SETTINGS_KEYS } from "../../../src/tools/kit/setting-keys.js";
import { createReadTool } from "../../../src/tools/read/index.js";
import { withSignature } from "../../../src/tools/kit/tool.js";
import { createAiSdkFsTools } from "../../../src/ai-sdk/index.js";
import { createWorkspaceAgent } from "../../../src/agent/index.js";
import { createMcpServer } from "../../../src/mcp/index.js";
import { justBashCommandRunner } from "../../../src/shell/index.js";
import { policyModel } from "../../agent/mock-model.js";

const keys = (options: Parameters<typeof selectTools>[1], onByDefault = TOOL_SETTINGS_KEYS) =>
  selectTools("f", options, { onByDefault }).map(({ key }) => key);

describe("selectTools: the one shape of tool options", () => {
  test("false leaves a tool out, true and settings put it in, absent follows the entry point's defaults", () => {
    expect(keys({})).toEqual(["read", "write", "edit", "list", "glob", "grep", "applyPatch", "bash"]);
    expect(keys({ grep: false, bash: false })).toEqual(["read", "write", "edit", "list", "glob", "applyPatch"]);
    expect(keys({ grep: true, list: { maxEntries: 3 } }, ["read"])).toEqual(["read", "list", "grep"]);
    expect(selectTools("f", { list: { maxEntries: 3 } }, { onByDefault: [] })).toEqual([
      { key: "list", settings: { maxEntries: 3 }, signature: undefined },
    ]);
  });

  test("write: false withholds edit, apply_patch and bash; readOnly: true withholds write, edit, apply_patch and bash", () => {
    expect(keys({ write: false })).toEqual(["read", "list", "glob", "grep"]);
    expect(keys({ readOnly: true })).toEqual(["read", "list", "glob", "grep"]);
    expect(keys({ readOnly: true, write: false, bash: false })).toEqual(["read", "list", "glob", "grep"]);
  });

  test("a tool set beside what withholds it, a bad value or a bad signature is an OptionError naming the key", () => {
    const error = (options: Parameters<typeof selectTools>[1], signatures = true) => {
      try {
        selectTools("f", options, { onByDefault: TOOL_SETTINGS_KEYS, signatures });
      } catch (thrown) {
        return OptionError.isInstance(thrown)
          ? `${thrown.option}: ${thrown.message}`
          : `not an OptionError: ${String(thrown)}`;
      }
      return "no error";
    };
    expect(error({ readOnly: true, bash: {} })).toBe(
      "bash: f bash cannot be set with readOnly: true (readOnly leaves out write, edit, apply_patch and bash)",
    );
    expect(error({ readOnly: true, write: true })).toBe(
      "write: f write cannot be set with readOnly: true (readOnly leaves out write, edit, apply_patch and bash)",
    );
    expect(error({ write: false, applyPatch: true })).toBe(
      "applyPatch: f applyPatch cannot be set with write: false (write: false leaves out every tool that changes files: write, edit, apply_patch, and bash, whose commands write files; a shell needs write on)",
    );
    expect(error({ readOnly: "yes" } as never)).toBe('readOnly: f readOnly must be a boolean, got "yes"');
    expect(error({ grep: 3 } as never)).toBe("grep: f grep must be false, true or an object of grep settings, got 3");
    expect(error({ read: { signature: { name: "x" } } })).toBe(
      "read.signature: f read.signature must be a signature ({ name, inputSchema, toInput }), e.g. lineRangePreset().read",
    );
    expect(error({ read: { signature: lineRangePreset().read } }, false)).toBe(
      "read.signature: f read.signature is not taken here: this entry point's tool names and parameters are fixed (use another dialect, or createAiSdkFsTools)",
    );
  });
});

describe("a preset's signature of another tool is refused at creation", () => {
  test("grep with the read signature, edit with the write signature: OptionError naming both tools", () => {
    const fs = memoryFileSystem();
    const thrown = (create: () => unknown) => {
      try {
        create();
      } catch (error) {
        return OptionError.isInstance(error) ? error.message : `not an OptionError: ${String(error)}`;
      }
      return "no error";
    };
    expect([
      thrown(() => createFsTools({ fs, grep: { signature: lineRangePreset().read as never } })),
      thrown(() => createFsTools({ fs, edit: { signature: lineRangePreset().write as never } })),
      thrown(() => createFsTools({ fs, read: { signature: offsetLimitPreset().grep as never } })),
      Object.keys(createFsTools({ fs, read: { signature: lineRangePreset().read }, bash: false })),
    ]).toEqual([
      "createFsTools grep.signature is the read tool's signature (readFile), not grep's: take the preset's grep signature",
      "createFsTools edit.signature is the write tool's signature (writeFile), not edit's: take the preset's edit signature",
      "createFsTools read.signature is the grep tool's signature (grep_files), not read's: take the preset's read signature",
      ["read", "write", "edit", "list", "glob", "grep", "apply_patch"],
    ]);
  });
});

describe("two tools with one name throw OptionError at creation, in the entry point's name", () => {
  test("createFsTools, and the agent (not the bundle it builds on)", () => {
    const fs = memoryFileSystem();
    const readFile = lineRangePreset().read;
    const renamed = { ...offsetLimitPreset().grep, name: "readFile" };
    const thrown = (create: () => unknown) => {
      try {
        create();
      } catch (error) {
        return OptionError.isInstance(error) ? error.message : `not an OptionError: ${String(error)}`;
      }
      return "no error";
    };
    expect([
      thrown(() => createFsTools({ fs, read: { signature: readFile }, grep: { signature: renamed } })),
      thrown(() =>
        createWorkspaceAgent({
          model: policyModel(() => ({ text: "" })),
          fs,
          read: { signature: readFile },
          grep: { signature: renamed },
        }),
      ),
    ]).toEqual([
      'createFsTools grep.signature gives the tool name "readFile", which the read tool has too: give one signature another name',
      'createWorkspaceAgent grep.signature gives the tool name "readFile", which the read tool has too: give one signature another name',
    ]);
  });
});

describe("write: false and bash, the same in every entry point", () => {
  const message = (factory: string) =>
    `${factory} bash cannot be set with write: false (write: false leaves out every tool that changes files: write, edit, apply_patch, and bash, whose commands write files; a shell needs write on)`;

  test("the default bash is withheld, so no command can write", () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "x\n" } });
    expect(Object.keys(createFsTools({ fs, cwd: "/w", write: false }))).toEqual(["read", "list", "glob", "grep"]);
  });

  test("a bash given beside write: false throws OptionError at creation in every entry point", () => {
    const fs = memoryFileSystem();
    const bash = { runner: justBashCommandRunner({ cwd: "/" }), env: {} };
    const thrown = (create: () => unknown) => {
      try {
        create();
      } catch (error) {
        return OptionError.isInstance(error) ? error.message : `not an OptionError: ${String(error)}`;
      }
      return "no error";
    };
    expect({
      fsTools: thrown(() => createFsTools({ fs, write: false, bash: {} })),
      aiSdk: thrown(() => createAiSdkFsTools({ fs, write: false, bash })),
      agent: thrown(() => createWorkspaceAgent({ model: policyModel(() => ({ text: "" })), fs, write: false, bash })),
      mcp: thrown(() => createMcpServer({ fs, write: false, bash })),
    }).toEqual({
      fsTools: message("createFsTools"),
      aiSdk: message("createAiSdkFsTools"),
      agent: message("createWorkspaceAgent"),
      mcp: message("createMcpServer"),
    });
  });
});

describe("createFsTools takes the one shape", () => {
  test("readOnly: true gives read, list, glob and grep; write: false withholds the default bash; false leaves one out", () => {
    const fs = memoryFileSystem();
    expect(Object.keys(createFsTools({ fs, readOnly: true }))).toEqual(["read", "list", "glob", "grep"]);
    expect(Object.keys(createFsTools({ fs, write: false, glob: false }))).toEqual(["read", "list", "grep"]);
    expect(Object.keys(createFsTools({ fs, read: true, applyPatch: true }))).toEqual([
      "read",
      "write",
      "edit",
      "list",
      "glob",
      "grep",
      "apply_patch",
      "bash",
    ]);
    expect(() => createFsTools({ fs, readOnly: true, edit: {} } as never)).toThrow(
      new TypeError(
        "createFsTools edit cannot be set with readOnly: true (readOnly leaves out write, edit, apply_patch and bash)",
      ),
    );
    expect(() => createFsTools({ fs, read: { readOnly: true } } as never)).toThrow(
      new TypeError("createFsTools read options cannot set readOnly: set it once at the top level"),
    );
  });

  test("a preset's signatures name the tools and shape their input and output; keys stay the core names", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\r\ntwo\r\n" } });
    const preset = lineRangePreset();
    const tools = createFsTools({ fs, cwd: "/w", read: { signature: preset.read }, edit: { signature: preset.edit } });
    expect([tools.read.name, tools.edit.name, tools.write.name]).toEqual(["readFile", "editFile", "write"]);
    expect((await tools.read({ path: "a.txt" })).parts).toEqual([{ type: "text", text: "one\r\ntwo\r\n" }]);
    expect((await tools.read({ path: "a.txt", startLine: 2, endLine: 2 })).parts).toEqual([
      { type: "text", text: "[a.txt lines 2-2 of 2]\ntwo" },
    ]);
    const refused = await tools.read({ path: "a.txt", startLine: 2, endLine: 1 });
    expect([refused.ok, refused.error?.code, refused.parts]).toEqual([
      false,
      "EINPUT",
      [{ type: "text", text: "startLine (2) must not be greater than endLine (1)" }],
    ]);
    const edited = await tools.edit({ path: "a.txt", oldText: "two", newText: "deux" });
    expect(edited.ok).toBe(true);
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("one\r\ndeux\r\n");
    const offset = createFsTools({ fs, cwd: "/w", readOnly: true, read: { signature: offsetLimitPreset().read } });
    expect((await offset.read({ path: "a.txt" })).parts).toEqual([{ type: "text", text: "     1\tone\n     2\tdeux" }]);
  });

  test("withSignature: the signature's name, schema and description over the core tool", async () => {
    const core = createReadTool({ fs: memoryFileSystem({ files: { "/w/a.txt": "x\n" } }), cwd: "/w" });
    const readFile = withSignature(core, lineRangePreset().read);
    expect([readFile.name, readFile.inputSchema]).toEqual(["readFile", lineRangePreset().read.inputSchema]);
    expect(readFile.validate({ path: "a.txt" })).toEqual({ path: "a.txt" });
    expect(() => readFile.validate({ file: "a.txt" })).toThrow(
      "Unknown readFile input key: file. Expected path, startLine, endLine",
    );
    expect((await readFile({ path: "a.txt" })).parts).toEqual([{ type: "text", text: "x\n" }]);
  });
});

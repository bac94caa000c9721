/** Allow rules, approval and fail-closed through the tools (not only the gate). */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { resultText } from "../../src/tools/kit/result.js";
import type { AllowRule, PermissionOptions } from "../../src/gate/gate.js";

const FAIL_CLOSED = (path: string, tool: string) =>
  `Permission denied: ${path} is outside the workspace and interactive permission prompts are not available in this execution context. Add an allow rule for "${tool}" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.`;

async function setup(permissions?: PermissionOptions) {
  const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n", "/etc/hosts": "127.0.0.1 localhost\n" } });
  return {
    fs,
    tools: createFsTools({ fs, cwd: "/w", state: false, ...(permissions === undefined ? {} : { permissions }) }),
  };
}

const rule = (tool: AllowRule["tool"], path = "/etc/hosts"): AllowRule => ({ tool, path });
const hosts = async (fs: ReturnType<typeof memoryFileSystem>) =>
  new TextDecoder().decode(await fs.readFile("/etc/hosts"));

describe("permissions through the tools", () => {
  it("fails closed with the exact message, per tool", async () => {
    const { fs, tools } = await setup();
    expect(resultText(await tools.read.execute({ path: "/etc/hosts" }))).toBe(FAIL_CLOSED("/etc/hosts", "readFile"));
    expect(resultText(await tools.write.execute({ path: "/etc/hosts", content: "x" }))).toBe(
      FAIL_CLOSED("/etc/hosts", "writeFile"),
    );
    expect(resultText(await tools.list.execute({ path: "/etc" }))).toBe(FAIL_CLOSED("/etc", "listDir"));
    expect(await hosts(fs)).toBe("127.0.0.1 localhost\n");
  });

  it("a readFile rule lets read (and bash cat) read the file, not write it", async () => {
    const { fs, tools } = await setup({ allow: [rule("readFile")] });
    const read = await tools.read.execute({ path: "/etc/hosts" });
    expect({ ok: read.ok, text: resultText(read) }).toEqual({ ok: true, text: "1|127.0.0.1 localhost" });
    const cat = await tools.bash.execute({ command: "cat /etc/hosts" });
    expect({ stdout: cat.stdout, exitCode: cat.exitCode }).toEqual({ stdout: "127.0.0.1 localhost\n", exitCode: 0 });
    expect(resultText(await tools.write.execute({ path: "/etc/hosts", content: "x" }))).toBe(
      FAIL_CLOSED("/etc/hosts", "writeFile"),
    );
    const echo = await tools.bash.execute({ command: "echo pwned > /etc/hosts" });
    expect(echo.exitCode).not.toBe(0);
    expect(await hosts(fs)).toBe("127.0.0.1 localhost\n");
  });

  it("an edit outside is gated as a read and as a write", async () => {
    const edit = { path: "/etc/hosts", oldText: "localhost", newText: "example" };
    const readOnly = await setup({ allow: [rule("readFile")] });
    expect(resultText(await readOnly.tools.edit.execute(edit))).toBe(FAIL_CLOSED("/etc/hosts", "writeFile"));
    const writeOnly = await setup({ allow: [rule("writeFile")] });
    expect(resultText(await writeOnly.tools.edit.execute(edit))).toBe(FAIL_CLOSED("/etc/hosts", "readFile"));
    expect([await hosts(readOnly.fs), await hosts(writeOnly.fs)]).toEqual([
      "127.0.0.1 localhost\n",
      "127.0.0.1 localhost\n",
    ]);
    const both = await setup({ allow: [rule("readFile"), rule("writeFile")] });
    expect((await both.tools.edit.execute(edit)).ok).toBe(true);
    expect(await hosts(both.fs)).toBe("127.0.0.1 example\n");
  });

  it("approve: an interactive host answers for the outside path", async () => {
    const asked: string[] = [];
    const { tools } = await setup({
      approve: (request) => (asked.push(`${request.tool} ${request.path}`), request.tool === "readFile"),
    });
    expect((await tools.read.execute({ path: "/etc/hosts" })).ok).toBe(true);
    expect(resultText(await tools.write.execute({ path: "/etc/hosts", content: "x" }))).toBe(
      "Permission denied: /etc/hosts is outside the workspace and the user did not approve writeFile. Allowed roots: /w.",
    );
    expect(asked).toEqual(["readFile /etc/hosts", "writeFile /etc/hosts"]);
  });

  it("runBash rules gate bash commands", async () => {
    const { tools } = await setup({ allow: [{ tool: "runBash", command: "cat" }] });
    expect((await tools.bash.execute({ command: "cat a.txt" })).stdout).toBe("a\n");
    const refused = await tools.bash.execute({ command: "rm a.txt" });
    expect({ ok: refused.ok, text: resultText(refused) }).toEqual({
      ok: false,
      text: 'Permission denied: the command "rm a.txt" matches no runBash rule and interactive permission prompts are not available in this execution context. Add an allow rule for "runBash" to the permissions config. A model cannot change the permissions: use the file tools or a command the rules allow, or ask the user to allow this one.',
    });
  });
});

/**
 * The playground terminal's commands (demo/src/agent/terminal-command.ts): the shell's directory
 * carried from one command to the next, and one message per refused path, on a memory session
 * with the page's own tools and gate (approvals denied).
 */
import { describe, expect, it } from "vitest";
import {
  CWD_MARKER,
  oneMessagePerRefusal,
  runTerminalCommand,
  takeCwdReport,
  withCwdReport,
} from "../../../demo/src/agent/terminal-command.js";
import { openSession } from "../../../demo/src/workspace/session.js";

const DENIED =
  "Permission denied: /etc/hosts is outside the workspace and the user did not approve readFile. Allowed roots: /workspace.";

describe("the terminal's directory", () => {
  it("wraps a command so it reports the directory it ended in, keeping its exit code", () => {
    expect(withCwdReport("cd src")).toBe(
      `cd src\n__terminal_status=$?\nprintf '${CWD_MARKER}%s${CWD_MARKER}' "$(pwd)"\nexit $__terminal_status`,
    );
    expect(takeCwdReport(`a\nb${CWD_MARKER}/workspace/src${CWD_MARKER}`)).toEqual({
      stdout: "a\nb",
      cwd: "/workspace/src",
    });
    // No marker (the command exited first) or output after it: no directory, output untouched.
    expect(takeCwdReport("plain\n")).toEqual({ stdout: "plain\n", cwd: undefined });
    expect(takeCwdReport(`${CWD_MARKER}/w${CWD_MARKER}tail`)).toEqual({
      stdout: `${CWD_MARKER}/w${CWD_MARKER}tail`,
      cwd: undefined,
    });
  });

  it("cd carries over to the next command; exit codes and output are the command's own", async () => {
    const session = await openSession("memory", async () => false, { seedWhenEmpty: true });
    const first = await runTerminalCommand(session.tools, "cd src/lib", "/workspace");
    expect(first).toEqual({ stdout: "", stderr: "", exitCode: 0, cwd: "/workspace/src/lib" });
    const second = await runTerminalCommand(session.tools, "ls; printf done; false", first.cwd);
    expect(second).toEqual({
      stdout: "http.ts\nid.ts\nlogger.ts\nvalidate.ts\ndone",
      stderr: "",
      exitCode: 1,
      cwd: "/workspace/src/lib",
    });
    // A command that exits before the report keeps the directory it started in.
    expect(await runTerminalCommand(session.tools, "cd ..; exit 3", second.cwd)).toEqual({
      stdout: "",
      stderr: "",
      exitCode: 3,
      cwd: "/workspace/src/lib",
    });
    await session.close();
  });
});

describe("one message per refusal", () => {
  it("a denied cat prints the gate's reason once, in cat's own line", async () => {
    const session = await openSession("memory", async () => false, { seedWhenEmpty: true });
    expect(await runTerminalCommand(session.tools, "cat /etc/hosts", "/workspace")).toEqual({
      stdout: "",
      stderr: `cat: /etc/hosts: ${DENIED}\n`,
      exitCode: 1,
      cwd: "/workspace",
    });
    await session.close();
  });

  it("folds each refusal note into the command's not-found line, and keeps a note without one", () => {
    const note = (path: string) =>
      `bash: refused: EACCES: permission denied, open '${path}' (Permission denied: ${path} is outside)`;
    expect(
      oneMessagePerRefusal(
        [
          "cat: /a: No such file or directory",
          "cat: /missing: No such file or directory",
          note("/a"),
          note("/b"),
          "",
        ].join("\n"),
      ),
    ).toBe(
      ["cat: /a: Permission denied: /a is outside", "cat: /missing: No such file or directory", note("/b"), ""].join(
        "\n",
      ),
    );
    expect(oneMessagePerRefusal("grep: x: No such file or directory\n")).toBe("grep: x: No such file or directory\n");
  });
});

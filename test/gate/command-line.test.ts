import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { plainCommand, splitCommandLine } from "../../src/gate/command-line.js";
import { createGate } from "../../src/gate/gate.js";

describe("plainCommand", () => {
  it("strips plain leading assignments and gives the command from its word, and by its basename", () => {
    expect(plainCommand("FOO=1 BAR=a/b:c /bin/rm -f a.txt")).toEqual({
      plain: true,
      command: "/bin/rm -f a.txt",
      byName: "rm -f a.txt",
    });
    expect(plainCommand("git status 'a b' \"(x)\"")).toEqual({
      plain: true,
      command: "git status 'a b' \"(x)\"",
      byName: "git status 'a b' \"(x)\"",
    });
    expect(plainCommand("FOO=1")).toEqual({ plain: true, command: "", byName: "" });
    expect(plainCommand("find . -name '*.ts' -print")).toMatchObject({ plain: true });
  });

  it("refuses keywords, non-plain words, runners, find -exec and parentheses, saying which", () => {
    const reasons = [
      "then rm x",
      "[[ -f x ]]",
      "! rm x",
      "~/rm x",
      "r\\m x",
      "$RM x",
      "/usr/bin/env rm x",
      ". ./script.sh",
      'find . "-execdir" rm {} ;',
      "f () ( rm x )",
      "A=$B rm x",
    ].map((segment) => plainCommand(segment));
    expect(reasons).toEqual([
      { plain: false, reason: 'starts with the shell keyword "then"' },
      { plain: false, reason: 'starts with the shell keyword "[["' },
      { plain: false, reason: 'starts with the shell keyword "!"' },
      { plain: false, reason: 'starts with "~/rm", which is not a plain command name' },
      { plain: false, reason: 'starts with "r\\\\m", which is not a plain command name' },
      { plain: false, reason: 'starts with "$RM", which is not a plain command name' },
      { plain: false, reason: 'runs "env", which runs a command from its arguments' },
      { plain: false, reason: 'runs ".", which runs a command from its arguments' },
      { plain: false, reason: 'runs "find" with an option that runs a command (-exec, -execdir, -ok, -okdir)' },
      { plain: false, reason: "has a parenthesis outside quotes (a function definition or a subshell)" },
      { plain: false, reason: 'starts with the assignment "A=$B", whose value is not plain' },
    ]);
  });

  it("splitCommandLine is still exported from the gate module", async () => {
    const gate = await import("../../src/gate/gate.js");
    expect(gate.splitCommandLine).toBe(splitCommandLine);
  });
});

describe("checkCommand: syntax is refused only when a runBash deny rule exists", () => {
  const fs = () => memoryFileSystem({ files: { "/w/a.txt": "a" } });
  const lines = ["(ls)", "eval 'ls'", "if true; then ls; fi"];

  it("without rules, or with allow rules only, lines are judged as before", async () => {
    const open = createGate({ fs: fs(), cwd: "/w" });
    const allowOnly = createGate({
      fs: fs(),
      cwd: "/w",
      permissions: { allow: [{ tool: "runBash", command: "eval *" }] },
    });
    expect(await Promise.all(lines.map(async (line) => (await open.checkCommand(line)).ok))).toEqual([
      true,
      true,
      true,
    ]);
    expect(await Promise.all(lines.map(async (line) => (await allowOnly.checkCommand(line)).ok))).toEqual([
      false,
      true,
      false,
    ]);
  });

  it("with a deny rule (even for another program), each such line is refused", async () => {
    const gate = createGate({ fs: fs(), cwd: "/w", permissions: { deny: [{ tool: "runBash", command: "rm" }] } });
    expect(await Promise.all(lines.map(async (line) => (await gate.checkCommand(line)).ok))).toEqual([
      false,
      false,
      false,
    ]);
    expect(await gate.checkCommand("ls -la && FOO=1 cat a.txt")).toEqual({ ok: true });
  });
});

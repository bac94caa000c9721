/**
 * `runBash` deny rules attacked through shell syntax, on the bash tool (just-bash) over a memory
 * backend: subshells, leading assignments, groups, keywords, escapes, quoting, wrappers that run
 * a command from their arguments (`xargs`, `command`, `eval`, `bash -c`), functions, and a
 * path to the program. Every line is refused with the exact message, and `/w/a.txt` keeps its
 * bytes. Plain lines that no rule names still run (allow-only configs are not touched here).
 */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { resultText } from "../../src/tools/kit/result.js";

const CONTENT = "PROTECTED-CONTENT\n";

function setup(command: string) {
  const fs = memoryFileSystem({ files: { "/w/a.txt": CONTENT, "/w/b.txt": "b\n" } });
  const tools = createFsTools({ fs, cwd: "/w", state: false, permissions: { deny: [{ tool: "runBash", command }] } });
  return { fs, tools };
}

const syntax = (line: string, segment: string, reason: string) =>
  `Permission denied: the command ${JSON.stringify(line)} is refused: it uses shell syntax a runBash deny rule cannot be checked through (${JSON.stringify(segment)} ${reason}); run the commands plainly: the program's name first, unquoted, not inside keywords, functions, subshells or wrappers such as eval, bash -c or xargs.`;
const matches = (line: string) =>
  `Permission denied: the command ${JSON.stringify(line)} is refused: it matches a deny rule for "runBash" in the permissions config.`;
const notPlain = (word: string) => `starts with ${JSON.stringify(word)}, which is not a plain command name`;
const runner = (name: string) => `runs ${JSON.stringify(name)}, which runs a command from its arguments`;

/** [rule, line, exact refusal]. */
const ATTACKS: ReadonlyArray<readonly [string, string, string]> = [
  ["rm", "(rm a.txt)", syntax("(rm a.txt)", "(rm a.txt)", notPlain("(rm"))],
  ["rm", "FOO=1 rm a.txt", matches("FOO=1 rm a.txt")],
  ["rm", "{ rm a.txt; }", syntax("{ rm a.txt; }", "{ rm a.txt", 'starts with the shell keyword "{"')],
  [
    "rm",
    "if true; then rm a.txt; fi",
    syntax("if true; then rm a.txt; fi", "if true", 'starts with the shell keyword "if"'),
  ],
  ["rm", "r\\m a.txt", syntax("r\\m a.txt", "r\\m a.txt", notPlain("r\\m"))],
  ["rm", "echo a.txt | xargs rm", syntax("echo a.txt | xargs rm", "xargs rm", runner("xargs"))],
  ["rm", "/bin/rm a.txt", matches("/bin/rm a.txt")],
  ["rm", "echo ok && rm -f a.txt", matches("echo ok && rm -f a.txt")],
  [
    "rm",
    "f () ( rm a.txt ); f",
    syntax(
      "f () ( rm a.txt ); f",
      "f () ( rm a.txt )",
      "has a parenthesis outside quotes (a function definition or a subshell)",
    ),
  ],
  ["rm", "X=a.txt; rm $X", matches("X=a.txt; rm $X")],
  ["rm", "Y=rm; $Y a.txt", syntax("Y=rm; $Y a.txt", "$Y a.txt", notPlain("$Y"))],
  [
    "rm",
    "find . -name a.txt -exec rm {} +",
    syntax(
      "find . -name a.txt -exec rm {} +",
      "find . -name a.txt -exec rm {} +",
      'runs "find" with an option that runs a command (-exec, -execdir, -ok, -okdir)',
    ),
  ],
  ["rm", "timeout 5 rm a.txt", syntax("timeout 5 rm a.txt", "timeout 5 rm a.txt", runner("timeout"))],
  ["rm", "env rm a.txt", syntax("env rm a.txt", "env rm a.txt", runner("env"))],
  [
    "rm",
    "FOO='x y' rm a.txt",
    syntax(
      "FOO='x y' rm a.txt",
      "FOO='x y' rm a.txt",
      'starts with the assignment "FOO=\'x", whose value is not plain',
    ),
  ],
  ["cat", "'cat' a.txt", syntax("'cat' a.txt", "'cat' a.txt", notPlain("'cat'"))],
  ["cat", "command cat a.txt", syntax("command cat a.txt", "command cat a.txt", runner("command"))],
  ["cat", "eval 'cat a.txt'", syntax("eval 'cat a.txt'", "eval 'cat a.txt'", runner("eval"))],
  ["cat", "bash -c 'cat a.txt'", syntax("bash -c 'cat a.txt'", "bash -c 'cat a.txt'", runner("bash"))],
  ["cat", "f(){ cat a.txt; }; f", syntax("f(){ cat a.txt; }; f", "f(){ cat a.txt", notPlain("f(){"))],
  ["cat", "c?t a.txt", syntax("c?t a.txt", "c?t a.txt", notPlain("c?t"))],
  ["cat", '"c"at a.txt', syntax('"c"at a.txt', '"c"at a.txt', notPlain('"c"at'))],
  ["cat", "{cat,a.txt}", syntax("{cat,a.txt}", "{cat,a.txt}", notPlain("{cat,a.txt}"))],
  ["cat", "source a.txt", syntax("source a.txt", "source a.txt", runner("source"))],
];

describe("security: runBash deny rules attacked through shell syntax (bash tool, just-bash)", () => {
  for (const [rule, line, refusal] of ATTACKS) {
    it(`deny ${rule}: ${line}`, async () => {
      const { fs, tools } = setup(rule);
      const result = await tools.bash.execute({ command: line });
      expect({ ok: result.ok, text: resultText(result) }).toEqual({ ok: false, text: refusal });
      expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe(CONTENT);
    });
  }

  it("plain lines no rule names still run, with assignments and pipes", async () => {
    const { fs, tools } = setup("rm");
    const run = async (command: string) => {
      const result = await tools.bash.execute({ command });
      return { ok: result.ok, exitCode: result.exitCode, stdout: result.stdout };
    };
    expect(await run("FOO=1 cat a.txt | wc -l && echo done")).toEqual({ ok: true, exitCode: 0, stdout: "1\ndone\n" });
    expect(await run("echo 'rm a.txt' \"(x)\"")).toEqual({ ok: true, exitCode: 0, stdout: "rm a.txt (x)\n" });
    // `rm` names the program `rm`, not `rmdir`.
    expect(await run("mkdir d && rmdir d && echo gone")).toEqual({ ok: true, exitCode: 0, stdout: "gone\n" });
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe(CONTENT);
  });
});

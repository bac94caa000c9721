/**
 * A terminal command runs as the model would run it: a call of the `bash` tool, whose result
 * becomes the terminal's stdout, stderr and exit code.
 *
 * @module
 */
import type { ToolSet } from "ai";
import type { TerminalResult } from "../panels/terminal.js";
import { callToolAsModel } from "./tool-call.js";

/** What the bash tool returns: its output, or result parts when the call failed. */
interface BashOutput {
  readonly stdout?: string;
  readonly stderr?: string;
  readonly exitCode?: number;
  readonly parts?: ReadonlyArray<{ readonly text?: string }>;
}

/** Run `command` through the `bash` tool of `tools`; a failed call reads as exit code 1 with its text on stderr. */
export async function runTerminalCommand(tools: ToolSet, command: string): Promise<TerminalResult> {
  const { result } = await callToolAsModel(tools, "bash", { command, timeout: null, cwd: null });
  const shell = result as BashOutput | undefined;
  if (shell?.stdout === undefined) {
    return {
      stdout: "",
      stderr: shell?.parts?.map((part) => part.text ?? "").join("\n") ?? "bash failed",
      exitCode: 1,
    };
  }
  return { stdout: shell.stdout, stderr: shell.stderr ?? "", exitCode: shell.exitCode ?? 0 };
}

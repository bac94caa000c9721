/**
 * A terminal command runs as the model would run it: a call of the `bash` tool, whose result
 * becomes the terminal's stdout, stderr and exit code. The terminal keeps its working directory
 * between commands (`cd src`, then `ls`), and a refused path reads as one message.
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

/** Ends the wrapped command's stdout: the shell's directory after it ran, between two of these. */
export const CWD_MARKER = "\u001epwd\u001e";

/** A terminal command's result and the directory the next command starts in. */
export interface TerminalCommandResult extends TerminalResult {
  /** The shell's working directory after the command (absolute); the one given when unknown. */
  readonly cwd: string;
}

/**
 * The command followed by a line that prints the shell's directory after a marker, keeping the
 * command's exit code. A command that exits (`exit 3`) prints no marker: the directory stays.
 */
export function withCwdReport(command: string): string {
  return `${command}\n__terminal_status=$?\nprintf '${CWD_MARKER}%s${CWD_MARKER}' "$(pwd)"\nexit $__terminal_status`;
}

/** Split the marker (see {@link withCwdReport}) off `stdout`: the output without it and the directory. */
export function takeCwdReport(stdout: string): { stdout: string; cwd: string | undefined } {
  const end = stdout.lastIndexOf(CWD_MARKER);
  const start = end <= 0 ? -1 : stdout.lastIndexOf(CWD_MARKER, end - 1);
  if (start < 0 || end !== stdout.length - CWD_MARKER.length) return { stdout, cwd: undefined };
  return { stdout: stdout.slice(0, start), cwd: stdout.slice(start + CWD_MARKER.length, end) };
}

/** The runner's note for a path the gate refused: `bash: refused: EACCES: permission denied, open '/etc/hosts' (reason)`. */
const REFUSAL = /^bash: refused: [A-Z]+: [^,\n]+, \w+ '([^'\n]+)' \((.+)\)$/;

/**
 * One message per refused path: just-bash prints a refused read as `cat: /etc/hosts: No such
 * file or directory` and the runner adds `bash: refused: ...` with the gate's reason; the terminal
 * shows `cat: /etc/hosts: <the gate's reason>` alone. A refusal without such a line stays as is.
 */
export function oneMessagePerRefusal(stderr: string): string {
  const lines = stderr.split("\n");
  const reasons = new Map<string, string>();
  for (const line of lines) {
    const match = REFUSAL.exec(line);
    if (match !== null) reasons.set(match[1]!, match[2]!);
  }
  if (reasons.size === 0) return stderr;
  const merged = new Set<string>();
  const out: string[] = [];
  for (const line of lines) {
    const notFound = /^(.*): (\/[^\n]*): No such file or directory$/.exec(line);
    const reason = notFound === null ? undefined : reasons.get(notFound[2]!);
    if (notFound !== null && reason !== undefined) {
      out.push(`${notFound[1]}: ${notFound[2]}: ${reason}`);
      merged.add(notFound[2]!);
      continue;
    }
    const refusal = REFUSAL.exec(line);
    if (refusal !== null && merged.has(refusal[1]!)) continue;
    out.push(line);
  }
  return out.join("\n");
}

/**
 * Run `command` through the `bash` tool of `tools` in `cwd`; a failed call reads as exit code 1
 * with its text on stderr.
 *
 * @param cwd - absolute directory the command starts in (the previous command's `cwd`).
 * @returns stdout, stderr, exit code and the directory the shell ended in.
 */
export async function runTerminalCommand(tools: ToolSet, command: string, cwd: string): Promise<TerminalCommandResult> {
  const { result } = await callToolAsModel(tools, "bash", { command: withCwdReport(command), timeout: null, cwd });
  const shell = result as BashOutput | undefined;
  if (shell?.stdout === undefined) {
    return {
      stdout: "",
      stderr: shell?.parts?.map((part) => part.text ?? "").join("\n") ?? "bash failed",
      exitCode: 1,
      cwd,
    };
  }
  const report = takeCwdReport(shell.stdout);
  return {
    stdout: report.stdout,
    stderr: oneMessagePerRefusal(shell.stderr ?? ""),
    exitCode: shell.exitCode ?? 0,
    cwd: report.cwd ?? cwd,
  };
}

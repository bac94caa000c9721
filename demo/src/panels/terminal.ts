/**
 * The terminal: bash commands on just-bash over the workspace's files (loaded on the first
 * command), through the same gate as the tools. Up and down walk the history.
 *
 * @module
 */
import { byId, h } from "../ui/dom.js";

export interface TerminalResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export interface TerminalPanel {
  focus(): void;
  /** Show the shell's directory in the prompt (`src $`; workspace-relative, empty at its root). */
  setPrompt(directory: string): void;
}

export function createTerminalPanel(options: { run(command: string): Promise<TerminalResult> }): TerminalPanel {
  const out = byId<HTMLPreElement>("terminal-output");
  const prompt = byId("terminal-prompt");
  const form = byId<HTMLFormElement>("terminal-form");
  const input = byId<HTMLInputElement>("terminal-input");
  const history: string[] = [];
  let cursor = 0;
  let busy = false;

  const print = (text: string, kind?: string) => {
    out.append(kind ? h("span", { class: kind }, text) : document.createTextNode(text));
    out.scrollTop = out.scrollHeight;
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const command = input.value.trim();
    if (command === "" || busy) return;
    history.push(command);
    cursor = history.length;
    input.value = "";
    print(`${prompt.textContent} ${command}\n`, "cmd");
    if (command === "clear") {
      out.replaceChildren();
      return;
    }
    busy = true;
    input.disabled = true;
    try {
      const result = await options.run(command);
      if (result.stdout) print(result.stdout.endsWith("\n") ? result.stdout : `${result.stdout}\n`);
      if (result.stderr) print(result.stderr.endsWith("\n") ? result.stderr : `${result.stderr}\n`, "err");
      if (result.exitCode !== 0) print(`[exit ${result.exitCode}]\n`, "muted");
    } catch (error) {
      print(`${error instanceof Error ? error.message : String(error)}\n`, "err");
    } finally {
      busy = false;
      input.disabled = false;
      input.focus();
    }
  });

  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowUp" && cursor > 0) {
      cursor -= 1;
      input.value = history[cursor] ?? "";
      event.preventDefault();
    } else if (event.key === "ArrowDown") {
      cursor = Math.min(history.length, cursor + 1);
      input.value = history[cursor] ?? "";
      event.preventDefault();
    }
  });

  return {
    focus: () => input.focus(),
    setPrompt(directory) {
      prompt.textContent = directory === "" ? "$" : `${directory} $`;
    },
  };
}

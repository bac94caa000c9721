/**
 * The agent chat: the user's messages, the model's text as it streams, and each tool call as a
 * card whose input fills in while the model writes it and whose result appears when the tool
 * returns. Approvals asked by the gate show as notes with the user's answer, validation feedback
 * as the user turn the agent sent, and each run ends with a summary line of what the agent
 * layer did: AGENTS.md loaded (its size), tool rounds of the maximum, cache, checks.
 *
 * @module
 */
import type { TextStreamPart, ToolSet } from "ai";
import type { WorkspaceAgentResult } from "better-fs-tools/agent";
import { h } from "../ui/dom.js";

export interface ChatPanel {
  addUser(text: string): void;
  handlePart(part: TextStreamPart<ToolSet>): void;
  addNote(text: string, kind?: "note" | "error"): void;
  /** A feedback turn the agent sent after a failed check. */
  addFeedback(text: string): void;
  /** The summary line of a finished run. */
  addRunSummary(result: WorkspaceAgentResult): void;
  clear(): void;
}

/** The text the model sees for a tool result made by our tools (the result's text parts). */
export function resultText(output: unknown): string {
  if (typeof output === "object" && output !== null && Array.isArray((output as { parts?: unknown }).parts)) {
    return (output as { parts: Array<{ type: string; text?: string; mediaType?: string }> }).parts
      .map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.mediaType ?? part.type}]`))
      .join("\n");
  }
  return typeof output === "string" ? output : JSON.stringify(output, null, 2);
}

function resultOk(output: unknown): boolean {
  return !(typeof output === "object" && output !== null && (output as { ok?: unknown }).ok === false);
}

/** The summary line's parts: the memory file, the rounds, the cache and the checks. */
export function runSummary(result: WorkspaceAgentResult): {
  memory: string;
  rounds: string;
  cache: string;
  checks: string;
} {
  const memory = result.memory;
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  return {
    memory:
      memory === undefined
        ? "no AGENTS.md"
        : `${memory.path} loaded (${plural(memory.bytes, "byte")}${memory.truncated ? ", cut" : ""})`,
    rounds: `${result.rounds} of ${result.maxToolRounds} tool rounds`,
    cache: result.cached ? "replayed, 0 model calls" : `cache miss, ${plural(result.modelCalls, "model call")}`,
    checks: result.cached
      ? "checks passed when stored"
      : !result.ok
        ? `checks failed: ${result.failures.map((failure) => failure.message).join(" ")}`
        : result.feedback.length === 0
          ? "checks passed"
          : `checks passed after ${plural(result.feedback.length, "feedback round")}`,
  };
}

/** One line summing up a tool input: its path, command or pattern. */
function brief(input: unknown): string {
  if (typeof input !== "object" || input === null) return "";
  const record = input as Record<string, unknown>;
  for (const key of ["command", "path", "file_path", "pattern"]) {
    if (typeof record[key] === "string") return String(record[key]);
  }
  const patch = Object.values(record).find((value) => typeof value === "string" && value.includes("*** Begin Patch"));
  if (typeof patch === "string") return patch.match(/\*\*\* (?:Add|Update|Delete) File: .+/g)?.join(", ") ?? "patch";
  return "";
}

export function createChatPanel(container: HTMLElement): ChatPanel {
  const texts = new Map<string, HTMLElement>();
  const calls = new Map<
    string,
    { card: HTMLDetailsElement; input: HTMLElement; state: HTMLElement; brief: HTMLElement; raw: string }
  >();

  const stick = () => {
    container.scrollTop = container.scrollHeight;
  };

  const callCard = (id: string, toolName: string) => {
    let entry = calls.get(id);
    if (entry) return entry;
    const state = h("span", { class: "state" }, "writing input");
    const briefText = h("span", { class: "brief" });
    const input = h("pre", { class: "input" });
    const card = h(
      "details",
      { class: "call", "data-tool": toolName, "data-call-id": id },
      h("summary", {}, h("span", { class: "name" }, toolName), briefText, state),
      h("div", { class: "label" }, "input"),
      input,
    );
    container.append(card);
    entry = { card, input, state, brief: briefText, raw: "" };
    calls.set(id, entry);
    return entry;
  };

  return {
    addUser(text) {
      container.append(h("div", { class: "msg user" }, text));
      stick();
    },
    addNote(text, kind = "note") {
      container.append(h("div", { class: kind === "error" ? "msg error" : "approval-note" }, text));
      stick();
    },
    addFeedback(text) {
      container.append(h("div", { class: "msg feedback" }, h("div", { class: "label" }, "check feedback"), text));
      stick();
    },
    addRunSummary(result) {
      const parts = runSummary(result);
      container.append(
        h(
          "div",
          { class: result.ok ? "run-summary" : "run-summary failed", "data-cached": String(result.cached) },
          h("span", { class: "memory" }, parts.memory),
          h("span", { class: "rounds" }, parts.rounds),
          h("span", { class: "cache" }, parts.cache),
          h("span", { class: "checks" }, parts.checks),
        ),
      );
      stick();
    },
    clear() {
      texts.clear();
      calls.clear();
      container.replaceChildren();
    },
    handlePart(part) {
      switch (part.type) {
        case "text-start": {
          const bubble = h("div", { class: "msg assistant" });
          texts.set(part.id, bubble);
          container.append(bubble);
          break;
        }
        case "text-delta": {
          let bubble = texts.get(part.id);
          if (!bubble) {
            bubble = h("div", { class: "msg assistant" });
            texts.set(part.id, bubble);
            container.append(bubble);
          }
          bubble.textContent += part.text;
          break;
        }
        case "tool-input-start":
          callCard(part.id, part.toolName);
          break;
        case "tool-input-delta": {
          const entry = calls.get(part.id);
          if (entry) {
            entry.raw += part.delta;
            entry.input.textContent = entry.raw;
          }
          break;
        }
        case "tool-call": {
          const entry = callCard(part.toolCallId, part.toolName);
          entry.input.textContent = JSON.stringify(part.input, null, 2);
          entry.brief.textContent = brief(part.input);
          entry.state.textContent = "running";
          break;
        }
        case "tool-result": {
          const entry = callCard(part.toolCallId, part.toolName);
          const ok = resultOk(part.output);
          entry.card.classList.add(ok ? "ok" : "failed");
          entry.state.textContent = ok ? "done" : "error";
          entry.card.append(
            h("div", { class: "label" }, "result (what the model reads)"),
            h("pre", { class: "result" }, resultText(part.output)),
          );
          break;
        }
        case "tool-error": {
          const entry = callCard(part.toolCallId, part.toolName);
          entry.card.classList.add("failed");
          entry.state.textContent = "error";
          entry.card.append(
            h("div", { class: "label" }, "error"),
            h("pre", { class: "result" }, part.error instanceof Error ? part.error.message : String(part.error)),
          );
          break;
        }
        default:
          return;
      }
      stick();
    },
  };
}

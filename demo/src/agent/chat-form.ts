/**
 * The chat form: each message runs the workspace agent (`better-fs-tools/agent`) over the open
 * workspace, continuing the conversation; Stop aborts the run, New chat starts a new conversation.
 * Storage cannot be switched during a run; the run's state and duration show beside the form,
 * and after each run a summary line says what the agent layer did (AGENTS.md, rounds, cache, checks).
 *
 * @module
 */
import type { ModelMessage } from "ai";
import type { ChatPanel } from "../panels/chat.js";
import { byId } from "../ui/dom.js";
import type { WorkspaceController } from "../workspace/controller.js";
import { resolveModel, type ModelSettings } from "./providers.js";
import type { AgentRun } from "./commit-run.js";
import { createPlaygroundCache, runAgent } from "./run-agent.js";

/** Wire the chat form; returns whether an agent run is in progress. */
export function wireChatForm(options: {
  readonly chat: ChatPanel;
  readonly workspace: WorkspaceController;
  readonly modelSettings: () => ModelSettings;
  readonly backendSelect: HTMLSelectElement;
  /** After a run that changed files (done, failed or stopped): its request and the files it changed. */
  readonly onRunDone?: (run: AgentRun) => void | Promise<void>;
}): () => boolean {
  const { chat, workspace, backendSelect } = options;
  const conversation: ModelMessage[] = [];
  const form = byId<HTMLFormElement>("chat-form");
  const input = byId<HTMLTextAreaElement>("chat-input");
  const sendButton = byId<HTMLButtonElement>("chat-send");
  const stopButton = byId<HTMLButtonElement>("chat-stop");
  const newButton = byId<HTMLButtonElement>("chat-new");
  const cache = createPlaygroundCache();
  const state = byId("chat-state");
  let running = false;
  let abort: AbortController | undefined;
  stopButton.addEventListener("click", () => abort?.abort());
  newButton.addEventListener("click", () => {
    if (running) return;
    conversation.length = 0;
    chat.clear();
    state.textContent = "idle";
    delete state.dataset.state;
  });
  // Enter sends, Shift+Enter starts a new line.
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text === "" || running) return;
    running = true;
    // The run's tools belong to this workspace: no switching storage under it.
    backendSelect.disabled = true;
    sendButton.disabled = true;
    newButton.disabled = true;
    stopButton.disabled = false;
    state.textContent = "running…";
    state.dataset.state = "running";
    const controller = new AbortController();
    abort = controller;
    chat.addUser(text);
    const started = performance.now();
    const turn: ModelMessage[] = [...conversation, { role: "user", content: text }];
    /** The files the run changed, whatever its end. */
    const changed = new Set<string>();
    try {
      const model = await resolveModel(options.modelSettings());
      const result = await workspace.trackPaths(changed, () =>
        workspace.asSource("agent", () =>
          runAgent({
            model,
            workspace: workspace.current().agentWorkspace,
            cache,
            messages: turn,
            abortSignal: controller.signal,
            onPart: (part) => chat.handlePart(part),
            onFeedback: (feedback) => chat.addFeedback(feedback),
          }),
        ),
      );
      conversation.push(turn[turn.length - 1]!, ...result.responseMessages);
      chat.addRunSummary(result);
      const ms = Math.round(performance.now() - started);
      state.textContent = `done: ${result.modelCalls} steps in ${(ms / 1000).toFixed(1)} s`;
      state.dataset.state = "done";
      state.dataset.runMs = String(ms);
    } catch (error) {
      const aborted = controller.signal.aborted;
      chat.addNote(aborted ? "Stopped." : error instanceof Error ? error.message : String(error), "error");
      state.textContent = aborted ? "stopped" : "failed";
      state.dataset.state = aborted ? "stopped" : "failed";
    } finally {
      running = false;
      backendSelect.disabled = false;
      sendButton.disabled = false;
      newButton.disabled = false;
      stopButton.disabled = true;
      await workspace.refreshTree();
      if (changed.size > 0) await options.onRunDone?.({ request: text, paths: [...changed].sort() });
    }
  });
  return () => running;
}

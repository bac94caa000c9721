/**
 * The playground: a workspace (memory, OPFS, the OPFS mirror or IndexedDB) with a live file tree, a viewer that
 * shows every edit as a diff, a tool console, a bash terminal, and an agent chat running the AI
 * SDK tool loop with the offline scripted model or a real provider. Client-side only.
 *
 * This file only wires the parts together; each lives in its own module.
 *
 * @module
 */
import "./styles.css";
import { wireChatForm } from "./agent/chat-form.js";
import { wireModelSettings } from "./agent/settings-dialog.js";
import { runTerminalCommand } from "./agent/terminal-command.js";
import { createChatPanel } from "./panels/chat.js";
import { createConsolePanel } from "./panels/console.js";
import { createTerminalPanel } from "./panels/terminal.js";
import { wireTransferControls } from "./panels/transfer-controls.js";
import { createTreePanel } from "./panels/tree.js";
import { createViewerPanel, type ViewerMode } from "./panels/viewer.js";
import { createApprovalPrompt } from "./ui/approval.js";
import { byId, wireTabs } from "./ui/dom.js";
import { createProgressBar } from "./ui/progress.js";
import { createStatusLine } from "./ui/status.js";
import { createApprove } from "./workspace/approve.js";
import { createWorkspaceController, savedBackend } from "./workspace/controller.js";
import type { BackendKind } from "./workspace/session.js";

const setStatus = createStatusLine(byId("status"));
const backendSelect = byId<HTMLSelectElement>("backend");

const chat = createChatPanel(byId("chat-log"));
const askUser = createApprovalPrompt((request, allowed) => {
  const text = `${allowed ? "Allowed" : "Denied"}: ${request.tool} ${request.path ?? request.command ?? ""}`;
  if (agentRunning()) chat.addNote(text);
  setStatus(text);
});

const viewerTabs = document.querySelectorAll<HTMLButtonElement>("#viewer-panel [data-view]");
const viewer = createViewerPanel({
  container: byId("viewer"),
  title: byId("viewer-title"),
  count: byId("change-count"),
  onMode: (mode) => {
    for (const button of viewerTabs) button.setAttribute("aria-selected", String(button.dataset.view === mode));
  },
});
wireTabs(viewerTabs, "view", (view) => {
  if (viewer.openPath !== undefined || view === "changes") viewer.setMode(view as ViewerMode);
});
const tree = createTreePanel({
  container: byId("tree"),
  count: byId("tree-count"),
  onOpen: (path) => void workspace.openFile(path),
});
const consolePanel = createConsolePanel({ run: (source, fn) => workspace.asSource(source, fn) });

const workspace = createWorkspaceController({
  approve: createApprove(askUser),
  tree,
  viewer,
  console: consolePanel,
  backendSelect,
  setStatus,
});

createTerminalPanel({
  run: (command) => workspace.asSource("terminal", () => runTerminalCommand(workspace.current().tools, command)),
});
wireTabs(document.querySelectorAll<HTMLButtonElement>("#tools-panel [data-tab]"), "tab", (tab) => {
  byId("console-panel").hidden = tab !== "console";
  byId("terminal-panel").hidden = tab !== "terminal";
  if (tab === "terminal") byId("terminal-input").focus();
});

backendSelect.addEventListener("change", () => {
  document.body.dataset.ready = "false";
  void workspace.switchBackend(backendSelect.value as BackendKind);
});
wireTransferControls({ workspace, progress: createProgressBar(), setStatus });
const agentRunning = wireChatForm({ chat, workspace, modelSettings: wireModelSettings(), backendSelect });

void workspace.switchBackend(savedBackend());

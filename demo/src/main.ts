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
import { createCommitOffer } from "./agent/commit-offer.js";
import { readFirst } from "./agent/read-first.js";
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
import { WORKSPACE_ROOT, workspacePath, type BackendKind } from "./workspace/session.js";

const setStatus = createStatusLine(byId("status"));
const backendSelect = byId<HTMLSelectElement>("backend");

/** What each storage is for, shown under the header for the chosen one. */
const BACKEND_HELP: Readonly<Record<BackendKind, string>> = {
  mirror:
    "OPFS mirror: the files in memory, each change saved to the browser's private storage (OPFS) before the call returns. Fast reads and searches, survives reloads, shared by tabs. The default.",
  opfs: "OPFS: each file in the browser's private storage, read and written in a Worker. For a few large files; survives reloads.",
  idb: "IndexedDB: the files in memory, saved to IndexedDB a moment after each change. Survives reloads; for browsers without OPFS.",
  memory: "Memory: this tab only. Gone on reload or when you switch storage (you are asked first).",
};
const showBackendHelp = () => {
  byId("backend-help").textContent = BACKEND_HELP[backendSelect.value as BackendKind] ?? "";
};
for (const option of backendSelect.options) option.title = BACKEND_HELP[option.value as BackendKind] ?? "";

/** Narrow screens show one panel at a time: the one picked in #panel-nav. */
const panelTabs = document.querySelectorAll<HTMLButtonElement>("#panel-nav [data-panel]");
const showPanel = (panel: string) => {
  document.body.dataset.panel = panel;
  for (const button of panelTabs) button.setAttribute("aria-selected", String(button.dataset.panel === panel));
};
wireTabs(panelTabs, "panel", showPanel);
showPanel("chat");

const chat = createChatPanel(byId("chat-log"));
/** The last approval answer on the status line: it stays while its call runs, and clears after. */
let answered: string | undefined;
const askUser = createApprovalPrompt((request, allowed) => {
  const text = `${allowed ? "Allowed" : "Denied"}: ${request.tool} ${request.path ?? request.command ?? ""}`;
  if (agentRunning()) chat.addNote(text);
  answered = text;
  setStatus(text, true);
});

const viewerTabs = document.querySelectorAll<HTMLButtonElement>("#viewer-panel [data-view]");
const viewer = createViewerPanel({
  container: byId("viewer"),
  title: byId("viewer-title"),
  count: byId("change-count"),
  onMode: (mode) => {
    for (const button of viewerTabs) button.setAttribute("aria-selected", String(button.dataset.view === mode));
  },
  // Another workspace or a reset: the last run's offer is over.
  onClearChanges: () => commitOffer.clear(),
});
wireTabs(viewerTabs, "view", (view) => {
  if (viewer.openPath !== undefined || view === "changes") viewer.setMode(view as ViewerMode);
});
const tree = createTreePanel({
  container: byId("tree"),
  count: byId("tree-count"),
  onOpen: (path) => {
    void workspace.openFile(path);
    // On a narrow screen the file shows in the Viewer panel: go there.
    if (matchMedia("(max-width: 820px)").matches) showPanel("viewer");
  },
});
const consolePanel = createConsolePanel({
  run: (source, fn) => workspace.asSource(source, fn),
  readFirst: (toolName, input) => {
    const session = workspace.current();
    return readFirst(
      {
        tools: session.tools,
        isFile: (path) =>
          session.gate.fs.stat(workspacePath(path)).then(
            (stat) => stat.type === "file",
            () => false,
          ),
      },
      toolName,
      input,
    );
  },
});

const workspace = createWorkspaceController({
  approve: createApprove(askUser),
  tree,
  viewer,
  console: consolePanel,
  backendSelect,
  setStatus,
  confirmDiscard: (question) => confirm(question),
  onIdle: () => {
    if (answered !== undefined) setStatus.clear(answered);
    answered = undefined;
  },
});

/** After an agent run that changed files, the Changes panel offers to commit it (in a git repository). */
const commitOffer = createCommitOffer({ viewer, workspace, setStatus });

/** The terminal's directory: `cd` carries over to the next command (back to the root on a switch). */
let terminalCwd = WORKSPACE_ROOT;
const terminal = createTerminalPanel({
  run: async (command) => {
    const result = await workspace.asSource("terminal", () =>
      runTerminalCommand(workspace.current().tools, command, terminalCwd),
    );
    terminalCwd = result.cwd;
    terminal.setPrompt(
      terminalCwd === WORKSPACE_ROOT
        ? ""
        : terminalCwd.startsWith(`${WORKSPACE_ROOT}/`)
          ? terminalCwd.slice(WORKSPACE_ROOT.length + 1)
          : terminalCwd,
    );
    // A `git init` (or a commit by hand) changes what the Changes panel offers.
    await commitOffer.refresh();
    return result;
  },
});
wireTabs(document.querySelectorAll<HTMLButtonElement>("#tools-panel [data-tab]"), "tab", (tab) => {
  byId("console-panel").hidden = tab !== "console";
  byId("terminal-panel").hidden = tab !== "terminal";
  if (tab === "terminal") byId("terminal-input").focus();
});

backendSelect.addEventListener("change", async () => {
  document.body.dataset.ready = "false";
  showBackendHelp();
  if (await workspace.switchBackend(backendSelect.value as BackendKind)) {
    terminalCwd = WORKSPACE_ROOT;
    terminal.setPrompt("");
  }
  showBackendHelp();
});
wireTransferControls({ workspace, progress: createProgressBar(), setStatus });
const agentRunning = wireChatForm({
  chat,
  workspace,
  modelSettings: wireModelSettings(),
  backendSelect,
  onRunDone: (run) => commitOffer.runDone(run),
});

// A reload would lose a memory workspace's changes: the browser asks first.
addEventListener("beforeunload", (event) => {
  if (workspace.hasUnsavedWork()) event.preventDefault();
});
// Anything unexpected shows in the status line (and stays), never only in the console.
const showUnexpected = (error: unknown) => {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  byId("status").dataset.error = "true";
  setStatus(`Unexpected error: ${message}`, true);
};
addEventListener("error", (event) => showUnexpected(event.error ?? event.message));
addEventListener("unhandledrejection", (event) => showUnexpected(event.reason));

backendSelect.value = savedBackend();
showBackendHelp();
void workspace.switchBackend(savedBackend()).then(showBackendHelp);

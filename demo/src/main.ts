/**
 * The playground: a workspace (memory, OPFS or IndexedDB) with a live file tree, a viewer that
 * shows every edit as a diff, a tool console, a bash terminal, and an agent chat running the AI
 * SDK tool loop with the offline scripted model or a real provider. Client-side only.
 *
 * @module
 */
import "./styles.css";
import type { ModelMessage } from "ai";
import type { ApprovalRequest } from "better-fs-tools";
import {
  loadModelSettings,
  modelLabel,
  resolveModel,
  saveModelSettings,
  DEFAULT_MODEL_IDS,
  type ModelSettings,
  type ProviderKind,
} from "./agent/providers.js";
import { runAgent } from "./agent/run-agent.js";
import { callToolAsModel } from "./agent/tool-call.js";
import { createChatPanel } from "./panels/chat.js";
import { createConsolePanel } from "./panels/console.js";
import { createTerminalPanel } from "./panels/terminal.js";
import { createTreePanel } from "./panels/tree.js";
import { createViewerPanel, textOf } from "./panels/viewer.js";
import { createApprovalPrompt } from "./ui/approval.js";
import { byId, formatBytes, wireTabs } from "./ui/dom.js";
import { createProgressBar } from "./ui/progress.js";
import {
  BASH_ENV,
  openSession,
  TOOL_ORDER,
  WORKSPACE_ROOT,
  type BackendKind,
  type Session,
} from "./workspace/session.js";
import {
  exportZip,
  handleFolderEntries,
  importEntries,
  inputFolderEntries,
  zipEntries,
  type ImportEntry,
} from "./workspace/transfer.js";

const BACKEND_STORAGE_KEY = "playground.backend";
/** Where just-bash looks commands up (its PATH). */
const COMMAND_DIRS = (BASH_ENV.PATH ?? "").split(":").filter((dir) => dir.startsWith("/"));

const statusLine = byId("status");
let statusTimer: ReturnType<typeof setTimeout> | undefined;
function setStatus(text: string, sticky = false): void {
  statusLine.textContent = text;
  clearTimeout(statusTimer);
  if (!sticky && text !== "") statusTimer = setTimeout(() => (statusLine.textContent = ""), 8000);
}

/** Who is changing files right now, to label each change in the viewer. */
let changeSource = "host";
let agentRunning = false;
async function asSource<T>(source: string, fn: () => Promise<T>): Promise<T> {
  const previous = changeSource;
  changeSource = source;
  try {
    return await fn();
  } finally {
    changeSource = previous;
    // Persist before the UI reports the work done (IndexedDB saves are debounced otherwise).
    await session?.flush().catch((error: unknown) => setStatus(`Saving failed: ${(error as Error).message}`));
  }
}

const chat = createChatPanel(byId("chat-log"));
const askUser = createApprovalPrompt((request, allowed) => {
  const what = request.path ?? request.command ?? "";
  const text = `${allowed ? "Allowed" : "Denied"}: ${request.tool} ${what}`;
  if (agentRunning) chat.addNote(text);
  setStatus(text);
});
/**
 * The gate's `approve`: asks the user, except for just-bash's own command lookups (it stats
 * `/usr/bin/<name>` before running each built-in), which are refused without a prompt.
 */
const approve = (request: ApprovalRequest): Promise<boolean> => {
  const path = request.path ?? "";
  if (request.tool !== "writeFile" && COMMAND_DIRS.some((dir) => path === dir || path.startsWith(`${dir}/`)))
    return Promise.resolve(false);
  return askUser(request);
};

const tree = createTreePanel({
  container: byId("tree"),
  count: byId("tree-count"),
  onOpen: (path) => void openFile(path),
});
const selectView = wireTabs(
  document.querySelectorAll<HTMLButtonElement>("#viewer-panel [data-view]"),
  "view",
  (view) => {
    if (viewer.openPath !== undefined || view === "changes") viewer.setMode(view as "file" | "changes");
  },
);
const viewer = createViewerPanel({
  container: byId("viewer"),
  title: byId("viewer-title"),
  count: byId("change-count"),
  onMode: (mode) => {
    for (const button of document.querySelectorAll<HTMLButtonElement>("#viewer-panel [data-view]")) {
      button.setAttribute("aria-selected", String(button.dataset.view === mode));
    }
  },
});
void selectView;

let session: Session | undefined;
let unsubscribe: (() => void) | undefined;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

function current(): Session {
  if (!session) throw new Error("The workspace is still loading.");
  return session;
}

async function refreshTree(): Promise<void> {
  if (!session) return;
  tree.render(await session.files());
}

function scheduleRefresh(): void {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => void refreshTree(), 40);
}

async function openFile(path: string): Promise<void> {
  try {
    const bytes = await current().gate.fs.readFile(`${WORKSPACE_ROOT}/${path}`);
    viewer.showFile(path, bytes);
    tree.setOpen(path);
  } catch (error) {
    setStatus(`Cannot open ${path}: ${(error as Error).message}`);
  }
}

function relative(path: string): string {
  return path.startsWith(`${WORKSPACE_ROOT}/`) ? path.slice(WORKSPACE_ROOT.length + 1) : path;
}

const consolePanel = createConsolePanel({ run: (source, fn) => asSource(source, fn) });
createTerminalPanel({
  async run(command) {
    const { result } = await asSource("terminal", () =>
      callToolAsModel(current().tools, "bash", { command, timeout: null, cwd: null }),
    );
    const shell = result as
      { stdout?: string; stderr?: string; exitCode?: number; parts?: Array<{ text?: string }> } | undefined;
    if (shell?.stdout === undefined)
      return {
        stdout: "",
        stderr: shell?.parts?.map((part) => part.text ?? "").join("\n") ?? "bash failed",
        exitCode: 1,
      };
    return { stdout: shell.stdout, stderr: shell.stderr ?? "", exitCode: shell.exitCode ?? 0 };
  },
});
wireTabs(document.querySelectorAll<HTMLButtonElement>("#tools-panel [data-tab]"), "tab", (tab) => {
  byId("console-panel").hidden = tab !== "console";
  byId("terminal-panel").hidden = tab !== "terminal";
  if (tab === "terminal") byId("terminal-input").focus();
});

async function switchBackend(kind: BackendKind): Promise<void> {
  const backendSelect = byId<HTMLSelectElement>("backend");
  backendSelect.disabled = true;
  setStatus(`Opening the ${kind} workspace…`, true);
  try {
    unsubscribe?.();
    await session?.close();
    session = undefined;
    const next = await openSession(kind, approve);
    session = next;
    localStorage.setItem(BACKEND_STORAGE_KEY, kind);
    backendSelect.value = kind;
    document.body.dataset.backend = kind;
    unsubscribe = next.onChange((change) => {
      const path = relative(change.path);
      scheduleRefresh();
      if (change.type === "mkdir") return;
      tree.markChanged(path);
      if (change.type === "write") {
        viewer.addChange({
          path,
          kind: change.created ? "created" : "updated",
          before: textOf(change.before),
          after: textOf(change.after),
          source: changeSource,
        });
      } else if (change.type === "remove") {
        viewer.addChange({ path, kind: "deleted", source: changeSource });
      } else {
        viewer.addChange({ path, kind: "renamed", from: relative(change.from ?? ""), source: changeSource });
      }
      if (changeSource !== "host") viewer.setMode("changes");
    });
    viewer.clearChanges();
    consolePanel.setTools(next.tools, TOOL_ORDER);
    await refreshTree();
    await openFile("README.md").catch(() => undefined);
    setStatus("");
    document.body.dataset.ready = "true";
  } catch (error) {
    setStatus(`Could not open the ${kind} workspace: ${(error as Error).message}`, true);
    if (kind !== "memory") await switchBackend("memory");
  } finally {
    backendSelect.disabled = false;
  }
}

byId<HTMLSelectElement>("backend").addEventListener("change", (event) => {
  document.body.dataset.ready = "false";
  void switchBackend((event.target as HTMLSelectElement).value as BackendKind);
});

// Imports and exports.
const progress = createProgressBar();

async function runImport(label: string, entries: (signal: AbortSignal) => Promise<ImportEntry[]>): Promise<void> {
  const job = progress.start(label);
  try {
    const list = await entries(job.signal);
    const summary = await current().quiet(() =>
      importEntries(current().gate.fs, WORKSPACE_ROOT, list, { onProgress: job.update, signal: job.signal }),
    );
    await current().flush();
    setStatus(
      `${label}: ${summary.files} files, ${formatBytes(summary.bytes)}${summary.skipped.length ? `; skipped ${summary.skipped.join(", ")}` : ""}.`,
    );
  } catch (error) {
    setStatus(
      error instanceof DOMException && error.name === "AbortError"
        ? `${label} cancelled.`
        : `${label} failed: ${(error as Error).message}`,
    );
  } finally {
    job.done();
    await refreshTree();
  }
}

const zipInput = byId<HTMLInputElement>("zip-input");
byId("import-zip").addEventListener("click", () => zipInput.click());
zipInput.addEventListener("change", () => {
  const file = zipInput.files?.[0];
  zipInput.value = "";
  if (file) void runImport(`Importing ${file.name}`, async () => zipEntries(new Uint8Array(await file.arrayBuffer())));
});

const folderInput = byId<HTMLInputElement>("folder-input");
byId("import-folder").addEventListener("click", async () => {
  const picker = (
    window as unknown as { showDirectoryPicker?: () => Promise<Parameters<typeof handleFolderEntries>[0]> }
  ).showDirectoryPicker;
  if (!picker) {
    folderInput.click();
    return;
  }
  let handle: Parameters<typeof handleFolderEntries>[0];
  try {
    handle = await picker();
  } catch {
    return; // the user closed the picker
  }
  void runImport(`Importing ${handle.name}/`, (signal) => handleFolderEntries(handle, signal));
});
folderInput.addEventListener("change", () => {
  const files = folderInput.files;
  if (files && files.length > 0) {
    const entries = inputFolderEntries(files);
    folderInput.value = "";
    void runImport("Importing folder", async () => entries);
  }
});

byId("export-zip").addEventListener("click", async () => {
  const job = progress.start("Exporting workspace.zip");
  try {
    const zip = await exportZip(current().gate.fs, WORKSPACE_ROOT, { onProgress: job.update, signal: job.signal });
    const url = URL.createObjectURL(new Blob([zip as Uint8Array<ArrayBuffer>], { type: "application/zip" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "workspace.zip";
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setStatus(`Exported workspace.zip (${formatBytes(zip.byteLength)}).`);
  } catch (error) {
    setStatus(
      error instanceof DOMException && error.name === "AbortError"
        ? "Export cancelled."
        : `Export failed: ${(error as Error).message}`,
    );
  } finally {
    job.done();
  }
});

byId("reset").addEventListener("click", async () => {
  if (!confirm("Delete every file in this workspace and load the sample project again?")) return;
  await current().reset();
  viewer.clearChanges();
  await refreshTree();
  await openFile("README.md").catch(() => undefined);
  setStatus("Workspace reset to the sample project.");
});

// The model settings.
let modelSettings: ModelSettings = loadModelSettings();
byId("model-name").textContent = modelLabel(modelSettings);
const settingsDialog = byId<HTMLDialogElement>("settings-dialog");
const providerSelect = byId<HTMLSelectElement>("settings-provider");
const modelInput = byId<HTMLInputElement>("settings-model");
const keyInput = byId<HTMLInputElement>("settings-key");
const rememberInput = byId<HTMLInputElement>("settings-remember");
const syncSettingsFields = () => {
  const scripted = providerSelect.value === "scripted";
  modelInput.disabled = scripted;
  keyInput.disabled = scripted;
  rememberInput.disabled = scripted;
  modelInput.placeholder = DEFAULT_MODEL_IDS[providerSelect.value as ProviderKind];
};
providerSelect.addEventListener("change", () => {
  modelInput.value = DEFAULT_MODEL_IDS[providerSelect.value as ProviderKind];
  syncSettingsFields();
});
byId("model-settings").addEventListener("click", () => {
  providerSelect.value = modelSettings.provider;
  modelInput.value = modelSettings.provider === "scripted" ? "" : modelSettings.modelId;
  keyInput.value = modelSettings.apiKey;
  rememberInput.checked = modelSettings.remember;
  syncSettingsFields();
  settingsDialog.returnValue = "";
  settingsDialog.showModal();
});
settingsDialog.addEventListener("close", () => {
  if (settingsDialog.returnValue !== "save") return;
  const provider = providerSelect.value as ProviderKind;
  modelSettings = {
    provider,
    modelId: modelInput.value.trim() || DEFAULT_MODEL_IDS[provider],
    apiKey: keyInput.value.trim(),
    remember: rememberInput.checked,
  };
  saveModelSettings(modelSettings);
  byId("model-name").textContent = modelLabel(modelSettings);
});

// The agent.
const conversation: ModelMessage[] = [];
const chatForm = byId<HTMLFormElement>("chat-form");
const chatInput = byId<HTMLTextAreaElement>("chat-input");
const sendButton = byId<HTMLButtonElement>("chat-send");
const stopButton = byId<HTMLButtonElement>("chat-stop");
const chatState = byId("chat-state");
let agentAbort: AbortController | undefined;
stopButton.addEventListener("click", () => agentAbort?.abort());
// Enter sends, Shift+Enter starts a new line.
chatInput.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    chatForm.requestSubmit();
  }
});

chatForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = chatInput.value.trim();
  if (text === "" || agentRunning) return;
  agentRunning = true;
  // The run's tools belong to this workspace: no switching storage under it.
  byId<HTMLSelectElement>("backend").disabled = true;
  sendButton.disabled = true;
  stopButton.disabled = false;
  chatState.textContent = "running…";
  chatState.dataset.state = "running";
  agentAbort = new AbortController();
  chat.addUser(text);
  const started = performance.now();
  const turn: ModelMessage[] = [...conversation, { role: "user", content: text }];
  try {
    const model = await resolveModel(modelSettings);
    const { messages, steps } = await asSource("agent", () =>
      runAgent({
        model,
        tools: current().tools,
        messages: turn,
        abortSignal: agentAbort!.signal,
        onPart: (part) => chat.handlePart(part),
      }),
    );
    conversation.push(turn[turn.length - 1]!, ...messages);
    const ms = Math.round(performance.now() - started);
    chatState.textContent = `done: ${steps} steps in ${(ms / 1000).toFixed(1)} s`;
    chatState.dataset.state = "done";
    chatState.dataset.runMs = String(ms);
  } catch (error) {
    const aborted = agentAbort.signal.aborted;
    chat.addNote(aborted ? "Stopped." : error instanceof Error ? error.message : String(error), "error");
    chatState.textContent = aborted ? "stopped" : "failed";
    chatState.dataset.state = aborted ? "stopped" : "failed";
  } finally {
    agentRunning = false;
    byId<HTMLSelectElement>("backend").disabled = false;
    sendButton.disabled = false;
    stopButton.disabled = true;
    await refreshTree();
  }
});

const savedBackend = localStorage.getItem(BACKEND_STORAGE_KEY);
void switchBackend(savedBackend === "opfs" || savedBackend === "idb" ? savedBackend : "memory");

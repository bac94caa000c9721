/**
 * The open workspace in the page: which session is open, switching storage, who is changing
 * files (each change in the viewer is labelled with its source), the tree kept up to date and
 * files opened in the viewer. Where the storage reports changes itself (the OPFS mirror), the
 * tree and the open file also follow what other tabs change.
 *
 * @module
 */
import type { Approve } from "better-fs-tools";
import type { ConsolePanel } from "../panels/console.js";
import type { TreePanel } from "../panels/tree.js";
import { textOf, type ViewerPanel } from "../panels/viewer.js";
import type { SetStatus } from "../ui/status.js";
import type { FsChange } from "./observed-fs.js";
import { openSession, TOOL_ORDER, WORKSPACE_ROOT, type BackendKind, type Session } from "./session.js";
import { touches, type StorageChanges } from "./storage-changes.js";

/** Where the chosen backend is remembered across reloads. */
export const BACKEND_STORAGE_KEY = "playground.backend";
/** The tree refreshes once per burst of changes, this long after the last, in milliseconds. */
export const TREE_REFRESH_DELAY_MS = 40;
/** The file opened when a workspace opens or is reset. */
const FIRST_FILE = "README.md";

export interface WorkspaceController {
  /** The open session; throws while the workspace is loading. */
  current(): Session;
  /** Run `fn` with its changes labelled `source`, then save (IndexedDB saves are debounced otherwise). */
  asSource<T>(source: string, fn: () => Promise<T>): Promise<T>;
  /** Close the open session and open `kind` (falling back to memory when it cannot be opened). */
  switchBackend(kind: BackendKind): Promise<void>;
  /** Re-read the file list into the tree. */
  refreshTree(): Promise<void>;
  /** Show a workspace-relative file in the viewer. */
  openFile(path: string): Promise<void>;
  /** Delete every file, load the sample project again and show it. */
  reset(): Promise<void>;
}

/** The backend a previous visit chose, or memory. */
export function savedBackend(): BackendKind {
  const saved = localStorage.getItem(BACKEND_STORAGE_KEY);
  return saved === "opfs" || saved === "mirror" || saved === "idb" ? saved : "memory";
}

function relative(path: string): string {
  return path.startsWith(`${WORKSPACE_ROOT}/`) ? path.slice(WORKSPACE_ROOT.length + 1) : path;
}

export function createWorkspaceController(options: {
  readonly approve: Approve;
  readonly tree: TreePanel;
  readonly viewer: ViewerPanel;
  readonly console: ConsolePanel;
  readonly backendSelect: HTMLSelectElement;
  readonly setStatus: SetStatus;
}): WorkspaceController {
  const { tree, viewer, setStatus, backendSelect } = options;
  let session: Session | undefined;
  let unsubscribe: (() => void) | undefined;
  let unwatch: (() => void) | undefined;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** Who is changing files right now, to label each change in the viewer. */
  let changeSource = "host";

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
    refreshTimer = setTimeout(() => void refreshTree(), TREE_REFRESH_DELAY_MS);
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

  /** The storage changed (this tab or another): the tree again, and the open file if it changed. */
  async function followStorage(changes: StorageChanges): Promise<void> {
    await refreshTree();
    const open = viewer.openPath;
    if (session === undefined || open === undefined || !touches(changes, open)) return;
    let bytes: Uint8Array | undefined;
    try {
      bytes = await session.gate.fs.readFile(`${WORKSPACE_ROOT}/${open}`);
    } catch {
      bytes = undefined;
    }
    viewer.updateFile(open, bytes);
    if (bytes === undefined) tree.setOpen(undefined);
  }

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

  function showChange(change: FsChange): void {
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
  }

  async function switchBackend(kind: BackendKind): Promise<void> {
    backendSelect.disabled = true;
    setStatus(`Opening the ${kind} workspace…`, true);
    try {
      unsubscribe?.();
      unwatch?.();
      unwatch = undefined;
      await session?.close();
      session = undefined;
      const next = await openSession(kind, options.approve);
      session = next;
      localStorage.setItem(BACKEND_STORAGE_KEY, kind);
      backendSelect.value = kind;
      document.body.dataset.backend = kind;
      unsubscribe = next.onChange(showChange);
      unwatch = next.onStorageChanges(followStorage);
      viewer.clearChanges();
      options.console.setTools(next.tools, TOOL_ORDER);
      await refreshTree();
      await openFile(FIRST_FILE).catch(() => undefined);
      setStatus("");
      document.body.dataset.ready = "true";
    } catch (error) {
      setStatus(`Could not open the ${kind} workspace: ${(error as Error).message}`, true);
      if (kind !== "memory") await switchBackend("memory");
    } finally {
      backendSelect.disabled = false;
    }
  }

  async function reset(): Promise<void> {
    await current().reset();
    viewer.clearChanges();
    await refreshTree();
    await openFile(FIRST_FILE).catch(() => undefined);
    setStatus("Workspace reset to the sample project.");
  }

  return { current, asSource, switchBackend, refreshTree, openFile, reset };
}

/**
 * The open workspace in the page: which session is open, switching storage, who is changing
 * files (each change in the viewer is labelled with its source), the tree kept up to date and
 * files opened in the viewer. One change feed keeps the tree and the open file up to date on
 * every storage (the storage's own `watch` on the OPFS mirror, which also reports other tabs'
 * changes; this page's observed changes elsewhere). Nothing is lost without asking: leaving a
 * memory workspace with changes asks first.
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
/**
 * Set once a persistent storage got the sample project (`playground.seeded.opfs`...): after that
 * an empty workspace is one its user emptied, and stays empty after a reload.
 */
export const SEEDED_STORAGE_KEY_PREFIX = "playground.seeded.";
/** The storage of a first visit: persistent and fast. */
export const DEFAULT_BACKEND: BackendKind = "mirror";
/** The file opened when a workspace opens or is reset. */
const FIRST_FILE = "README.md";
/** Asked before leaving a memory workspace that has changes. */
export const DISCARD_MEMORY_QUESTION =
  "The memory workspace has changes that are saved nowhere else; switching storage discards them (Export zip keeps a copy). Switch anyway?";

export interface WorkspaceController {
  /** The open session; throws while the workspace is loading. */
  current(): Session;
  /** Run `fn` with its changes labelled `source`, then save (IndexedDB saves are debounced otherwise). */
  asSource<T>(source: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Close the open session and open `kind` (falling back to memory when it cannot be opened).
   * Leaving a memory workspace with changes asks `confirmDiscard` first.
   *
   * @returns false when the user chose to stay (the menu shows the open storage again).
   */
  switchBackend(kind: BackendKind): Promise<boolean>;
  /** True when the workspace is in memory and has changes since it was loaded or reset. */
  hasUnsavedWork(): boolean;
  /** Re-read the file list into the tree. */
  refreshTree(): Promise<void>;
  /** After bulk work done quietly (an import): the tree and the open file again. */
  refreshAll(): Promise<void>;
  /** Show a workspace-relative file in the viewer. */
  openFile(path: string): Promise<void>;
  /** Delete every file, load the sample project again and show it. */
  reset(): Promise<void>;
  /**
   * Run `fn`, adding to `paths` each workspace-relative path its changes touch (both names of a
   * rename; the repository's own `.git` left out), also when `fn` fails.
   */
  trackPaths<T>(paths: Set<string>, fn: () => Promise<T>): Promise<T>;
}

/**
 * True for the git repository's own files (`.git` at the workspace's root and under it): git's
 * bookkeeping, not the visitor's files, so neither the tree nor the Changes list shows them.
 */
export function isGitInternal(path: string): boolean {
  return path === ".git" || path.startsWith(".git/");
}

/** The backend a previous visit chose, or {@link DEFAULT_BACKEND}. */
export function savedBackend(): BackendKind {
  const saved = localStorage.getItem(BACKEND_STORAGE_KEY);
  return saved === "opfs" || saved === "mirror" || saved === "idb" || saved === "memory" ? saved : DEFAULT_BACKEND;
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
  /** Called when the last {@link WorkspaceController.asSource} call running ends. */
  readonly onIdle?: () => void;
  /** Asks the user a yes/no question (the page: `confirm`). */
  readonly confirmDiscard: (question: string) => boolean;
}): WorkspaceController {
  const { tree, viewer, setStatus, backendSelect } = options;
  let session: Session | undefined;
  let unsubscribe: (() => void) | undefined;
  let unwatch: (() => void) | undefined;
  /** Who is changing files right now, to label each change in the viewer. */
  let changeSource = "host";
  /** Which {@link asSource} call is running (its changes to one file in a row show as one). */
  let changeGroup = 0;
  let groups = 0;
  /** asSource calls running. */
  let running = 0;
  /** Changes since the workspace was loaded or reset (what a memory workspace would lose). */
  let changed = false;
  /** The path sets of the {@link WorkspaceController.trackPaths} calls running. */
  const collectors = new Set<Set<string>>();

  function current(): Session {
    if (!session) throw new Error("The workspace is still loading.");
    return session;
  }

  async function refreshTree(): Promise<void> {
    if (!session) return;
    tree.render(await session.files());
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

  /** Open {@link FIRST_FILE} if the workspace has it; otherwise show no file. */
  async function openFirstFile(): Promise<void> {
    const exists = await current()
      .gate.fs.stat(`${WORKSPACE_ROOT}/${FIRST_FILE}`)
      .then(
        (stat) => stat.type === "file",
        () => false,
      );
    if (exists) await openFile(FIRST_FILE);
    else {
      viewer.closeFile();
      tree.setOpen(undefined);
    }
  }

  /**
   * The storage changed (this tab or another): the open file first if it changed (one read), then
   * the tree (a walk of every file: seconds on a large OPFS workspace).
   */
  async function followStorage(changes: StorageChanges): Promise<void> {
    const open = viewer.openPath;
    const from = session;
    if (from !== undefined && open !== undefined && touches(changes, open)) {
      let bytes: Uint8Array | undefined;
      try {
        bytes = await from.gate.fs.readFile(`${WORKSPACE_ROOT}/${open}`);
      } catch {
        bytes = undefined;
      }
      // Unless another workspace opened meanwhile.
      if (session === from) {
        viewer.updateFile(open, bytes);
        if (bytes === undefined) tree.setOpen(undefined);
      }
    }
    try {
      await refreshTree();
    } catch (error) {
      setStatus(`Cannot list the files: ${(error as Error).message}`, true);
    }
  }

  async function asSource<T>(source: string, fn: () => Promise<T>): Promise<T> {
    const previous = changeSource;
    const previousGroup = changeGroup;
    changeSource = source;
    groups += 1;
    changeGroup = groups;
    running += 1;
    try {
      return await fn();
    } finally {
      running -= 1;
      changeSource = previous;
      changeGroup = previousGroup;
      // Persist before the UI reports the work done (IndexedDB saves are debounced otherwise).
      await session?.flush().catch((error: unknown) => setStatus(`Saving failed: ${(error as Error).message}`));
      if (running === 0) options.onIdle?.();
    }
  }

  function showChange(change: FsChange): void {
    const path = relative(change.path);
    changed = true;
    if (change.type === "mkdir" || isGitInternal(path)) return;
    for (const paths of collectors) {
      paths.add(path);
      if (change.from !== undefined && !isGitInternal(relative(change.from))) paths.add(relative(change.from));
    }
    tree.markChanged(path);
    if (change.type === "write") {
      viewer.addChange({
        path,
        kind: change.created ? "created" : "updated",
        before: textOf(change.before),
        after: textOf(change.after),
        source: changeSource,
        group: changeGroup,
      });
    } else if (change.type === "remove") {
      viewer.addChange({ path, kind: "deleted", source: changeSource });
    } else {
      viewer.addChange({ path, kind: "renamed", from: relative(change.from ?? ""), source: changeSource });
    }
    if (changeSource !== "host") viewer.setMode("changes");
  }

  function hasUnsavedWork(): boolean {
    return session?.kind === "memory" && changed;
  }

  async function switchBackend(kind: BackendKind): Promise<boolean> {
    if (session !== undefined && kind !== session.kind && hasUnsavedWork()) {
      if (!options.confirmDiscard(DISCARD_MEMORY_QUESTION)) {
        backendSelect.value = session.kind;
        document.body.dataset.ready = "true";
        return false;
      }
    }
    backendSelect.disabled = true;
    setStatus(`Opening the ${kind} workspace…`, true);
    try {
      unsubscribe?.();
      unwatch?.();
      unwatch = undefined;
      await session?.close();
      session = undefined;
      const seededKey = `${SEEDED_STORAGE_KEY_PREFIX}${kind}`;
      const next = await openSession(kind, options.approve, {
        seedWhenEmpty: kind === "memory" || localStorage.getItem(seededKey) === null,
      });
      session = next;
      changed = false;
      if (kind !== "memory") localStorage.setItem(seededKey, "true");
      localStorage.setItem(BACKEND_STORAGE_KEY, kind);
      backendSelect.value = kind;
      document.body.dataset.backend = kind;
      unsubscribe = next.onChange(showChange);
      unwatch = next.onStorageChanges(followStorage);
      viewer.clearChanges();
      options.console.setTools(next.tools, TOOL_ORDER);
      await refreshTree();
      await openFirstFile();
      setStatus("");
      document.body.dataset.ready = "true";
    } catch (error) {
      setStatus(`Could not open the ${kind} workspace: ${(error as Error).message}`, true);
      if (kind !== "memory") return switchBackend("memory");
    } finally {
      backendSelect.disabled = false;
    }
    return true;
  }

  async function refreshAll(): Promise<void> {
    changed = true;
    await followStorage({ all: true, paths: new Set() });
  }

  async function reset(): Promise<void> {
    await current().reset();
    changed = false;
    viewer.clearChanges();
    await refreshTree();
    await openFirstFile();
    setStatus("Workspace reset to the sample project.");
  }

  async function trackPaths<T>(paths: Set<string>, fn: () => Promise<T>): Promise<T> {
    collectors.add(paths);
    try {
      return await fn();
    } finally {
      collectors.delete(paths);
    }
  }

  return { current, asSource, switchBackend, hasUnsavedWork, refreshTree, refreshAll, openFile, reset, trackPaths };
}

/**
 * A workspace session: one backend (memory, OPFS, the OPFS mirror or IndexedDB), observed for changes, behind one
 * gate, with the AI SDK tools the agent and the tool console share (one read-before-write store,
 * one set of locks: the backend's own where it has them, Web Locks on OPFS). just-bash loads on the first bash command.
 *
 * @module
 */
import type { ToolSet } from "ai";
import { createAiSdkFsTools, toAiSdkTool } from "better-fs-tools/ai-sdk";
import { memoryFileSystem } from "better-fs-tools/memory";
import { opfsFileSystem } from "better-fs-tools/opfs";
import {
  createGate,
  createGlobTool,
  createGrepTool,
  createListTool,
  memoryStore,
  type Approve,
  type FileSystem,
  type Gate,
} from "better-fs-tools";
import { justBashCommandRunner } from "better-fs-tools/shell";
import { observeFileSystem, type FsChangeListener } from "./observed-fs.js";
import { SAMPLE_PROJECT } from "./sample-project.js";
import { changeFeed, type StorageChanges } from "./storage-changes.js";
import { walkFiles } from "./transfer.js";

export type BackendKind = "memory" | "opfs" | "mirror" | "idb";

/** Where the workspace lives inside every backend. */
export const WORKSPACE_ROOT = "/workspace";
/** The OPFS directory the playground uses (under the origin's root). */
export const OPFS_ROOT = "/better-fs-tools-playground";
/** The OPFS directory of the playground's mirrored workspace (`better-fs-tools/opfs-mirror`). */
export const MIRROR_ROOT = "/better-fs-tools-playground-mirror";
/** The IndexedDB database the playground uses. */
export const IDB_DATABASE = "better-fs-tools-playground";
/** Environment of bash commands. */
export const BASH_ENV: Readonly<Record<string, string>> = Object.freeze({
  HOME: WORKSPACE_ROOT,
  PWD: WORKSPACE_ROOT,
  USER: "agent",
  PATH: "/usr/bin:/bin",
  LANG: "C.UTF-8",
});
/**
 * The absolute path of a path as a tool input names it: relative to {@link WORKSPACE_ROOT}, or
 * absolute; `.` and `..` resolved (`src/./a.ts` → `/workspace/src/a.ts`).
 */
export function workspacePath(path: string): string {
  const segments: string[] = [];
  for (const segment of (path.startsWith("/") ? path : `${WORKSPACE_ROOT}/${path}`).split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/** Tool names in the order the console lists them. */
export const TOOL_ORDER = ["read", "write", "edit", "apply_patch", "list", "glob", "grep", "bash"] as const;

export interface Session {
  readonly kind: BackendKind;
  /** The raw backend (no gate): only for wiping and persistence. */
  readonly backend: FileSystem;
  /** The gate host code uses (imports, viewer reads): same roots and approve as the tools. */
  readonly gate: Gate;
  /** AI SDK tools of the console and the terminal. */
  readonly tools: ToolSet;
  /**
   * What the workspace agent is built on: the same observed backend, roots, approvals,
   * read-before-write store and bash runner as `tools`, so its changes show in the viewer and
   * it shares what the console has read.
   */
  readonly agentWorkspace: AgentWorkspace;
  onChange(listener: FsChangeListener): () => void;
  /**
   * The workspace's change feed, in batches (see storage-changes.ts), held back while
   * {@link quiet} work runs: what the storage itself reports where it can watch (the OPFS
   * mirror: this tab's changes and other tabs'), this page's own changes elsewhere.
   */
  onStorageChanges(listener: (changes: StorageChanges) => void | Promise<void>): () => void;
  /** Run bulk work without a change event per file. */
  quiet<T>(fn: () => Promise<T>): Promise<T>;
  /** Every file of the workspace, workspace-relative, sorted; a git repository's `.git` left out. */
  files(): Promise<Array<{ path: string; size: number }>>;
  /** True when the sample project was loaded because the workspace was empty when it opened. */
  readonly seeded: boolean;
  /** Delete every file, then load the sample project. */
  reset(): Promise<void>;
  /** Delete every file (quietly: the caller refreshes) and save. */
  clear(): Promise<void>;
  /** Save pending changes now (IndexedDB saves are otherwise debounced); a no-op elsewhere. */
  flush(): Promise<void>;
  /** Write pending data (IndexedDB) and close handles. */
  close(): Promise<void>;
}

/** The workspace part of `createWorkspaceAgent`'s options. */
export interface AgentWorkspace {
  readonly fs: FileSystem;
  readonly cwd: string;
  readonly allowedRoots: readonly string[];
  readonly permissions: { readonly approve: Approve };
  readonly state: ReturnType<typeof memoryStore>;
  readonly bash: { readonly runner: ReturnType<typeof justBashCommandRunner>; readonly env: Record<string, string> };
}

interface Backend {
  readonly fs: FileSystem;
  flush(): Promise<void>;
  close(): Promise<void>;
}

const nothing = async (): Promise<void> => {};

async function createBackend(kind: BackendKind): Promise<Backend> {
  if (kind === "opfs") {
    const fs = opfsFileSystem({ root: OPFS_ROOT, worker: true });
    return { fs, flush: nothing, close: () => fs.close() };
  }
  if (kind === "mirror") {
    // Loaded on first use: the mirror stays out of the first-load bundle.
    const { opfsMirrorFileSystem } = await import("better-fs-tools/opfs-mirror");
    const fs = opfsMirrorFileSystem({ root: MIRROR_ROOT });
    await fs.ready();
    // Every mutation is durable when its call resolves: nothing to flush.
    return { fs, flush: nothing, close: () => fs.close() };
  }
  if (kind === "idb") {
    const { idbFileSystem } = await import("better-fs-tools/idb");
    const fs = idbFileSystem({ name: IDB_DATABASE });
    await fs.ready;
    // A reload right after a change must not lose it: save when the page goes away.
    const flush = () => void fs.flush().catch(() => undefined);
    addEventListener("pagehide", flush);
    return {
      fs,
      flush: () => fs.flush(),
      close: async () => {
        removeEventListener("pagehide", flush);
        await fs.close();
      },
    };
  }
  return { fs: memoryFileSystem(), flush: nothing, close: nothing };
}

async function isEmpty(fs: FileSystem): Promise<boolean> {
  try {
    return (await fs.readdir(WORKSPACE_ROOT)).length === 0;
  } catch {
    return true;
  }
}

/** Options of {@link openSession}. */
export interface OpenSessionOptions {
  /**
   * Load the sample project when the workspace is empty (a first visit). False keeps an empty
   * workspace empty: its user emptied it on purpose.
   */
  readonly seedWhenEmpty: boolean;
}

/** Open a session on `kind`; loads the sample project when the workspace is empty and `seedWhenEmpty`. */
export async function openSession(kind: BackendKind, approve: Approve, options: OpenSessionOptions): Promise<Session> {
  const backend = await createBackend(kind);
  const observed = observeFileSystem(backend.fs);
  const contextOptions = {
    fs: observed.fs,
    cwd: WORKSPACE_ROOT,
    allowedRoots: [WORKSPACE_ROOT],
    permissions: { approve },
  };
  const gate = createGate(contextOptions);
  const state = memoryStore();
  const runner = justBashCommandRunner({ fs: gate, cwd: WORKSPACE_ROOT });
  const { tools: bundle } = createAiSdkFsTools({
    ...contextOptions,
    state,
    applyPatch: true,
    bash: { runner, env: BASH_ENV },
  });
  // No locks given: every tool takes the backend's own (OPFS: Web Locks, shared with other tabs).
  const shared = { ...contextOptions, state };
  const tools: ToolSet = {
    ...(bundle as ToolSet),
    list: toAiSdkTool(createListTool(shared)) as ToolSet[string],
    glob: toAiSdkTool(createGlobTool(shared)) as ToolSet[string],
    grep: toAiSdkTool(createGrepTool(shared)) as ToolSet[string],
  };
  const seed = async () => {
    await observed.quiet(async () => {
      for (const [path, content] of Object.entries(SAMPLE_PROJECT)) {
        await gate.fs.writeFile(`${WORKSPACE_ROOT}/${path}`, new TextEncoder().encode(content));
      }
    });
  };
  const clear = () =>
    observed.quiet(async () => {
      await backend.fs.rm(WORKSPACE_ROOT, { recursive: true, force: true });
      await backend.fs.mkdir(WORKSPACE_ROOT, { recursive: true });
    });
  await backend.fs.mkdir(WORKSPACE_ROOT, { recursive: true });
  const seeded = options.seedWhenEmpty && (await isEmpty(backend.fs));
  if (seeded) {
    await seed();
    await backend.flush();
  }
  return {
    kind,
    backend: backend.fs,
    gate,
    tools,
    agentWorkspace: { ...shared, bash: { runner, env: { ...BASH_ENV } } },
    onChange: (listener) => observed.onChange(listener),
    seeded,
    onStorageChanges: (listener) =>
      changeFeed({
        fs: gate.fs,
        root: WORKSPACE_ROOT,
        onChanges: listener,
        paused: observed.isQuiet,
        observe: (onPath) =>
          observed.onChange((change) => {
            onPath(change.path);
            if (change.from !== undefined) onPath(change.from);
          }),
      }),
    quiet: (fn) => observed.quiet(fn),
    async files() {
      const files = await walkFiles(gate.fs, WORKSPACE_ROOT, undefined, {
        skip: (path) => path === `${WORKSPACE_ROOT}/.git`,
      });
      return files.map((file) => ({ path: file.path.slice(WORKSPACE_ROOT.length + 1), size: file.size }));
    },
    async reset() {
      await clear();
      await seed();
      await backend.flush();
    },
    async clear() {
      await clear();
      await backend.flush();
    },
    flush: () => backend.flush(),
    close: () => backend.close(),
  };
}

/**
 * The gate: every file access (tools, bash, host code) passes here before reaching a backend.
 * It canonicalises paths, confines them to the allowed roots, resolves symlinks component by
 * component, and applies allow rules, the approve callback, or fails closed.
 *
 * CONTRACT (implementation pending in this file; keep these exported names and shapes).
 *
 * @module
 */
import type { FileSystem } from "./types.js";
import type { ToolError } from "../tools/result.js";

/** What a call does with a path. Rules are named after it: read → `readFile`, write → `writeFile`, list → `listDir`. */
export type Access = "read" | "write" | "list";

/** An allow rule for access outside the workspace. */
export interface AllowRule {
  /** `readFile`, `writeFile`, `listDir` or `runBash`. */
  readonly tool: "readFile" | "writeFile" | "listDir" | "runBash";
  /** picomatch glob matched against the real absolute path (after symlinks resolve). */
  readonly path?: string;
  /** For `runBash`: a command prefix (`git status`) or a glob (`npm run *`). */
  readonly command?: string;
}

/** What the `approve` callback is asked. */
export interface ApprovalRequest {
  readonly tool: AllowRule["tool"];
  /** Real absolute path, for file access. */
  readonly path?: string;
  /** The command line, for `runBash`. */
  readonly command?: string;
  /** Why approval is needed, in words a user can answer. */
  readonly reason: string;
}

/** Decides an access the rules do not admit; only interactive hosts pass one. */
export type Approve = (request: ApprovalRequest) => boolean | Promise<boolean>;

/** Permission settings. */
export interface PermissionOptions {
  /** Rules that admit access outside the workspace (and commands for bash). */
  readonly allow?: readonly AllowRule[];
  /** Interactive hosts: asked when no rule admits. Without it the gate fails closed. */
  readonly approve?: Approve;
}

/** Options of {@link createGate}. */
export interface GateOptions {
  /** The backend the gate guards. */
  readonly fs: FileSystem;
  /** Working directory for relative paths (absolute). Default: the first allowed root, or `/`. */
  readonly cwd?: string;
  /** Roots the tools may use without a rule (absolute). Default: `[cwd]`, or `["/"]`. */
  readonly allowedRoots?: readonly string[];
  readonly permissions?: PermissionOptions;
}

/** The outcome of a check: the canonical path to use, or an error result for the model. */
export type GateCheck =
  | { readonly ok: true; readonly path: string; readonly outside: boolean }
  | { readonly ok: false; readonly error: ToolError };

export interface Gate {
  /** The guarded backend (raw: calls on it bypass the gate; tools use `fs` below). */
  readonly backend: FileSystem;
  /** A FileSystem whose every call is checked (refusals reject with FsError EACCES). */
  readonly fs: FileSystem;
  readonly cwd: string;
  readonly allowedRoots: readonly string[];
  /** Resolve `path` (relative to cwd or absolute) and check it for `access`. Never throws for bad input. */
  check(path: string, access: Access): Promise<GateCheck>;
  /** Check a bash command against the `runBash` rules / approve. */
  checkCommand(command: string): Promise<{ readonly ok: true } | { readonly ok: false; readonly error: ToolError }>;
  /** A path as the model should see it: relative to cwd when inside it, else absolute. */
  display(path: string): string;
}

export declare function createGate(options: GateOptions): Gate;

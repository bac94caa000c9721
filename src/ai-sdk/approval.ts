/**
 * AI SDK tool approval (`needsApproval`) wired to the gate's `approve`: the adapter asks the
 * gate, before the call, whether it would need approval for the paths or command of the input;
 * an approved call then runs with an `approve` that admits exactly those requests.
 *
 * @module
 */
import type { Access, ApprovalRequest, PermissionOptions } from "../gate/gate.js";
import { createContextResolver, type ToolContextOptions } from "../tools/kit/context.js";
import type { ToolCall } from "../tools/kit/tool.js";
import { parsePatch } from "../tools/apply-patch/parser.js";

/** A path or command a core input touches, as the gate is asked about it. */
export type ApprovalTarget = { readonly path: string; readonly access: Access } | { readonly command: string };

/**
 * The paths or command a core input touches: `path` (read → read access, other tools → write),
 * the file paths of a `patch` as the `apply_patch` parser reads them (`*** Add File:`,
 * `*** Update File:`, `*** Delete File:`, `*** Move to:`, indented or not, heredoc wrapper
 * included), or a bash `command` (and its `cwd`, listed). A patch that does not parse names no
 * path: `apply_patch` refuses it before touching any file.
 *
 * @param toolName - the core tool's name (`read`, `write`, `edit`, `apply_patch`, `bash`, ...).
 * @param input - the core input (after `signature.toInput`).
 * @returns the targets, empty when the input names none.
 */
export function approvalTargets(toolName: string, input: unknown): ApprovalTarget[] {
  if (typeof input !== "object" || input === null) return [];
  const record = input as Record<string, unknown>;
  const targets: ApprovalTarget[] = [];
  const access: Access =
    toolName === "read" ? "read" : toolName === "list" || toolName === "glob" || toolName === "grep" ? "list" : "write";
  if (typeof record["path"] === "string") targets.push({ path: record["path"], access });
  for (const key of ["patch", "input"]) {
    const patch = record[key];
    if (typeof patch === "string") targets.push(...patchTargets(patch));
  }
  if (typeof record["command"] === "string") {
    if (typeof record["cwd"] === "string") targets.push({ path: record["cwd"], access: "list" });
    targets.push({ command: record["command"] });
  }
  return targets;
}

/** The paths a patch writes, in patch order (a move names its source, then its destination). */
function patchTargets(patch: string): ApprovalTarget[] {
  const parsed = parsePatch(patch);
  if (!parsed.ok) return [];
  return parsed.operations.flatMap((operation): ApprovalTarget[] =>
    operation.type === "update" && operation.moveTo !== undefined
      ? [
          { path: operation.path, access: "write" },
          { path: operation.moveTo, access: "write" },
        ]
      : [{ path: operation.path, access: "write" }],
  );
}

/**
 * Whether an approved request covers another: the same command, or the same path with the same
 * or a lesser access (an approved write also admits reading and listing that path, an approved
 * read also admits listing it: tools `stat` what they read).
 */
function covers(approved: ApprovalRequest, request: ApprovalRequest): boolean {
  if (approved.command !== undefined || request.command !== undefined) {
    return approved.tool === request.tool && approved.command === request.command;
  }
  if (approved.path !== request.path) return false;
  const rank = { listDir: 0, readFile: 1, writeFile: 2, runBash: 3 } as const;
  return rank[request.tool] <= rank[approved.tool] && request.tool !== "runBash";
}

/**
 * Ask the gate which approvals a call would need, without granting any.
 *
 * @param factory - the factory's name (for the context resolver's messages).
 * @param options - the tool's shared options; `permissions.allow` is kept, `approve` replaced.
 * @returns the approval requests the gate made (empty: the rules admit every target, or refuse it outright).
 */
export async function probeApprovals(
  factory: string,
  options: ToolContextOptions,
  targets: readonly ApprovalTarget[],
  call: ToolCall,
): Promise<ApprovalRequest[]> {
  const requests: ApprovalRequest[] = [];
  const permissions: PermissionOptions = {
    allow: options.permissions?.allow ?? [],
    approve: (request) => {
      requests.push(request);
      return false;
    },
  };
  const context = await createContextResolver(factory, { ...options, permissions })(call);
  for (const target of targets) {
    if ("command" in target) await context.gate.checkCommand(target.command);
    else await context.gate.check(target.path, target.access);
  }
  return requests;
}

/** Permissions whose `approve` admits exactly the given requests (what the user approved). */
export function approvedPermissions(
  allow: PermissionOptions["allow"],
  approved: readonly ApprovalRequest[],
): PermissionOptions {
  return {
    allow: allow ?? [],
    approve: (request) => approved.some((item) => covers(item, request)),
  };
}

/**
 * The gate's `approve` for the playground: the user decides, except for just-bash's own command
 * lookups (it stats `/usr/bin/<name>` before running each built-in), which are refused without
 * a prompt.
 *
 * @module
 */
import type { ApprovalRequest, Approve } from "better-fs-tools";
import { BASH_ENV } from "./session.js";

/** Where just-bash looks commands up (its PATH). */
export const COMMAND_DIRS: readonly string[] = (BASH_ENV.PATH ?? "").split(":").filter((dir) => dir.startsWith("/"));

/** An `approve` that asks `askUser`, but refuses reads of the command directories silently. */
export function createApprove(askUser: (request: ApprovalRequest) => Promise<boolean>): Approve {
  return (request) => {
    const path = request.path ?? "";
    if (request.tool !== "writeFile" && COMMAND_DIRS.some((dir) => path === dir || path.startsWith(`${dir}/`)))
      return Promise.resolve(false);
    return askUser(request);
  };
}

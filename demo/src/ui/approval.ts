/**
 * The gate's approval prompt: when a tool call (from the agent, the console or the terminal)
 * reaches outside the workspace, the gate asks `approve`, and the user answers in this dialog.
 *
 * @module
 */
import type { ApprovalRequest } from "better-fs-tools";
import { byId } from "./dom.js";

export type ApprovalListener = (request: ApprovalRequest, allowed: boolean) => void;

/** An `approve` callback that asks the user, one request at a time. */
export function createApprovalPrompt(onAnswer: ApprovalListener): (request: ApprovalRequest) => Promise<boolean> {
  const dialog = byId<HTMLDialogElement>("approval-dialog");
  const text = byId("approval-text");
  let queue = Promise.resolve();
  return (request) => {
    const answer = queue.then(
      () =>
        new Promise<boolean>((resolve) => {
          text.textContent = `Allow ${request.reason}?`;
          dialog.returnValue = "";
          dialog.addEventListener(
            "close",
            () => {
              const allowed = dialog.returnValue === "allow";
              onAnswer(request, allowed);
              resolve(allowed);
            },
            { once: true },
          );
          dialog.showModal();
          byId("approval-deny").focus();
        }),
    );
    queue = answer.then(() => undefined);
    return answer;
  };
}

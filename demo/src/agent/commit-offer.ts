/**
 * The Changes panel's offer after an agent run that changed files, in a git repository: a
 * "Commit this run" button (see commit-run.ts). Outside a repository nothing is offered (the page
 * stays as it was for everyone who does not use git). The offer follows the workspace: after each
 * terminal command it is checked again, so after a `git init` the button shows at once.
 *
 * @module
 */
import type { ViewerPanel } from "../panels/viewer.js";
import type { SetStatus } from "../ui/status.js";
import type { WorkspaceController } from "../workspace/controller.js";
import { commitRun, isGitRepository, type AgentRun } from "./commit-run.js";

/** The Changes panel's commit offer. */
export interface CommitOffer {
  /** An agent run ended having changed files: offer to commit it (replacing an older offer). */
  runDone(run: AgentRun): Promise<void>;
  /** Check again whether the workspace is a git repository (after a terminal command). */
  refresh(): Promise<void>;
  /** Offer nothing (another workspace opened). */
  clear(): void;
}

/** `n file` or `n files`. */
export function files(count: number): string {
  return `${count} file${count === 1 ? "" : "s"}`;
}

/** Wire the offer to the viewer, the workspace and the status line. */
export function createCommitOffer(options: {
  readonly viewer: ViewerPanel;
  readonly workspace: WorkspaceController;
  readonly setStatus: SetStatus;
}): CommitOffer {
  const { viewer, workspace, setStatus } = options;
  let pending: AgentRun | undefined;
  let busy = false;

  async function commit(run: AgentRun): Promise<void> {
    busy = true;
    await refresh();
    try {
      const outcome = await workspace.asSource("git", () => commitRun(workspace.current().tools, run));
      if (outcome.committed) {
        viewer.addCommit({ kind: "commit", ...outcome.commit });
        setStatus(`Committed: ${outcome.commit.summary}`);
      } else {
        setStatus(`Nothing committed: ${outcome.message}`, true);
      }
      if (pending === run) pending = undefined;
    } catch (error) {
      setStatus(`Commit failed: ${error instanceof Error ? error.message : String(error)}`, true);
    } finally {
      busy = false;
      viewer.setMode("changes");
      await refresh();
    }
  }

  async function refresh(): Promise<void> {
    const run = pending;
    if (run === undefined) {
      viewer.setOffer(undefined);
      return;
    }
    let session: ReturnType<WorkspaceController["current"]>;
    try {
      session = workspace.current();
    } catch {
      return; // another workspace is opening: it clears the offer
    }
    const repository = await isGitRepository(session.gate.fs);
    if (pending !== run) return;
    viewer.setOffer(
      repository
        ? {
            text: `The agent's last run changed ${files(run.paths.length)}.`,
            action: { label: "Commit this run", id: "commit-run", busy, run: () => void commit(run) },
          }
        : undefined,
    );
  }

  return {
    async runDone(run) {
      pending = run;
      await refresh();
    },
    refresh,
    clear() {
      pending = undefined;
      viewer.setOffer(undefined);
    },
  };
}

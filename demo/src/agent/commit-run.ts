/**
 * "Commit this run": once the workspace is a git repository, the files an agent run changed
 * become one commit, made with the shell's own `git` (isomorphic-git, loaded on the first `git`)
 * through the `bash` tool, as the terminal would make it. The commit is shown as `git show`
 * shows it: `git log -1`, then the diff of what was committed (`git diff --cached`, taken just
 * before the commit).
 *
 * A button, not an automatic commit: a commit is the visitor's record (what goes in, when); an
 * agent run that commits on its own would add commits nobody asked for (a replayed run, a run
 * whose edits the visitor wants to look at first).
 *
 * @module
 */
import type { ToolSet } from "ai";
import type { FileSystem } from "better-fs-tools";
import { WORKSPACE_ROOT } from "../workspace/session.js";
import { runTerminalCommand } from "./terminal-command.js";

/** What an agent run left behind: the request it answered and the files it changed. */
export interface AgentRun {
  /** The visitor's message the run answered. */
  readonly request: string;
  /** Workspace-relative paths the run created, changed, deleted or renamed (both names), sorted. */
  readonly paths: readonly string[];
}

/** A commit made by {@link commitRun}: git's own texts. */
export interface RunCommit {
  /** `git commit`'s summary line: `[master 1a2b3c4] Agent run: ...`. */
  readonly summary: string;
  /** `git log -1`: the commit id, author, date and message. */
  readonly log: string;
  /** The committed changes as `git diff` prints them (empty when the commit has no text change). */
  readonly diff: string;
}

/** What {@link commitRun} returns: the commit, or git's message when nothing was committed. */
export type CommitOutcome =
  { readonly committed: true; readonly commit: RunCommit } | { readonly committed: false; readonly message: string };

/** The longest commit subject (git's convention: a subject fits in 72 columns). */
export const SUBJECT_MAX = 72;

/**
 * The commit message of a run: `Agent run: <the request's first line>`, cut to
 * {@link SUBJECT_MAX} characters with `…`.
 *
 * @example
 * ```ts
 * commitMessage("Fix the TODOs\nthen report"); // "Agent run: Fix the TODOs"
 * ```
 */
export function commitMessage(request: string): string {
  const subject = `Agent run: ${request.trim().split("\n")[0]!.trim()}`;
  return subject.length <= SUBJECT_MAX ? subject : `${subject.slice(0, SUBJECT_MAX - 1)}…`;
}

/** `text` as one bash word: single-quoted, a `'` inside written `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * True when the workspace's root holds a `.git` directory (a `git init` ran there).
 *
 * @param fs - the files, through the page's gate.
 */
export async function isGitRepository(fs: FileSystem): Promise<boolean> {
  return fs.stat(`${WORKSPACE_ROOT}/.git`).then(
    (stat) => stat.type === "directory",
    () => false,
  );
}

/**
 * Stage the run's paths (each one alone: a file the run created and deleted again is in no tree,
 * and git refuses it), take the staged diff, commit with {@link commitMessage} and read the commit
 * back with `git log -1`. Anything staged before is committed too, and is in the diff shown.
 *
 * @param tools - the page's AI SDK tools (their `bash` runs the commands, as the terminal's do).
 * @param run - the request and the paths of the run.
 * @returns the commit, or `committed: false` with git's message (nothing staged: the run's
 *   changes are committed already, or a commit failed).
 */
export async function commitRun(tools: ToolSet, run: AgentRun): Promise<CommitOutcome> {
  const stage = run.paths.map((path) => `git add -A -- ${shellQuote(path)} >/dev/null 2>&1`).join("\n");
  const staged = await runTerminalCommand(tools, `${stage}\ngit diff --cached`, WORKSPACE_ROOT);
  if (staged.exitCode !== 0) return { committed: false, message: staged.stderr.trim() };
  const commit = await runTerminalCommand(
    tools,
    `git commit -m ${shellQuote(commitMessage(run.request))}`,
    WORKSPACE_ROOT,
  );
  if (commit.exitCode !== 0) {
    const said = (commit.stderr.trim() || commit.stdout.trim()).split("\n");
    return { committed: false, message: said[said.length - 1] ?? "git commit failed" };
  }
  const log = await runTerminalCommand(tools, "git log -1", WORKSPACE_ROOT);
  return {
    committed: true,
    commit: { summary: commit.stdout.split("\n")[0]!, log: log.stdout, diff: staged.stdout },
  };
}

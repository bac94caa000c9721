/** The real git binary, for side-by-side tests (absent: the tests that need it skip, saying so). */
import { execFileSync, spawnSync } from "node:child_process";

/** Whether `git` runs on this machine. */
export const HAS_GIT = spawnSync("git", ["--version"]).status === 0;

/** A fixed identity and date, so both gits make the same commits. */
export const GIT_ENV: Readonly<Record<string, string>> = {
  GIT_AUTHOR_NAME: "Ada Test",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_AUTHOR_DATE: "@1700000000 +0000",
  GIT_COMMITTER_NAME: "Ada Test",
  GIT_COMMITTER_EMAIL: "ada@example.com",
  GIT_COMMITTER_DATE: "@1700000000 +0000",
};

/** Runs the real git in `cwd` with no user or system config; returns stdout. */
export function realGit(cwd: string, args: readonly string[]): string {
  return execFileSync("git", ["-c", "init.defaultBranch=master", "-c", "core.autocrlf=false", ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", LANG: "C", ...GIT_ENV },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * The unified diff `edit_file` returns in the `filesystem-server` dialect, as the official
 * server gives it (`createTwoFilesPatch` of the `diff` package, headers `original` and
 * `modified`), computed on the changed lines only. Its own module so that the dialect loads the
 * `diff` package on the first edit, not at start.
 *
 * @module
 */
import { createTwoFilesPatch } from "diff";

/**
 * A patch with its `---`/`+++` lines naming `path` as written, as the official server's `diff` 8
 * gives them: `diff` 9 C-quotes a name holding a backslash, a quote or a non-ASCII character
 * (`"/w/a\\b.txt"`, `"/w/caf\303\251"`).
 */
function plainFileNames(path: string, patch: string): string {
  const index = `Index: ${path}\n${"=".repeat(67)}\n`;
  if (!patch.startsWith(index)) return patch;
  const oldLineEnd = patch.indexOf("\n", index.length);
  const newLineEnd = oldLineEnd === -1 ? -1 : patch.indexOf("\n", oldLineEnd + 1);
  if (newLineEnd === -1) return patch;
  return `${index}--- ${path}\toriginal\n+++ ${path}\tmodified${patch.slice(newLineEnd)}`;
}

/** Lines of context around each change in a unified diff (the `diff` package's default). */
const DIFF_CONTEXT_LINES = 3;

/** Count `\n` in `text` before `end`. */
function newlinesBefore(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < end; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/**
 * The unified diff of `before` → `after` (`createTwoFilesPatch`, headers `original` and
 * `modified`), computed on the changed lines only (equal to the `diff` package's whole-text patch
 * for an edit in one place; where repeated lines allow two alignments it may pick the other one,
 * and it always applies to `before` to give `after`): the common
 * leading and trailing lines, beyond the context a hunk shows, are cut before diffing and the
 * hunk line numbers shifted back. A one-line edit of a 10 MiB file diffs a few lines, not 160,000.
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  const patch = (a: string, b: string) =>
    plainFileNames(path, createTwoFilesPatch(path, path, a, b, "original", "modified"));
  if (before === after) return patch(before, after);
  const shortest = Math.min(before.length, after.length);
  let same = 0;
  while (same < shortest && before.charCodeAt(same) === after.charCodeAt(same)) same++;
  // Start of the first changed line, then back over the context lines and one more.
  let head = same === 0 ? 0 : before.lastIndexOf("\n", same - 1) + 1;
  for (let line = 0; line <= DIFF_CONTEXT_LINES && head > 0; line++) {
    head = head === 1 ? 0 : before.lastIndexOf("\n", head - 2) + 1;
  }
  let tail = 0;
  const most = shortest - head;
  while (tail < most && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail))
    tail++;
  // The common tail, cut at a line start after the last changed line, then past the context and one more line.
  let cut = before.indexOf("\n", before.length - tail - 1);
  for (let line = 0; line <= DIFF_CONTEXT_LINES && cut !== -1; line++) cut = before.indexOf("\n", cut + 1);
  const kept = cut === -1 || cut + 1 >= before.length ? 0 : before.length - (cut + 1);
  if (head === 0 && kept === 0) return patch(before, after);
  const offset = newlinesBefore(before, head);
  const middle = patch(before.slice(head, before.length - kept), after.slice(head, after.length - kept));
  if (offset === 0) return middle;
  return middle.replace(
    /^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@/gm,
    (_match, oldStart: string, oldCount = "", newStart: string, newCount = "") =>
      `@@ -${Number(oldStart) + offset}${oldCount} +${Number(newStart) + offset}${newCount} @@`,
  );
}

/** The unified diff `edit_file` returns, fenced with more backticks than it contains. */
export function fencedDiff(path: string, before: string, after: string): string {
  const diff = unifiedDiff(path, before, after);
  let fence = "```";
  while (diff.includes(fence)) fence += "`";
  return `${fence}diff\n${diff}${fence}\n\n`;
}

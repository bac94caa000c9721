/**
 * apply_patch given a unified diff: every diff here is real `git diff` output, made in a temporary
 * repository from the files before and after, then applied to the files before in memory; the
 * result must be the files after, byte for byte.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createTwoFilesPatch } from "diff";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { createApplyPatchTool } from "../../../src/tools/apply-patch/index.js";
import { isUnifiedDiff, parseUnifiedDiff } from "../../../src/tools/apply-patch/unified.js";
import { resultText } from "../../../src/tools/kit/result.js";

const repos: string[] = [];
afterAll(() => {
  for (const repo of repos) rmSync(repo, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "core.autocrlf=false", "-c", "core.quotePath=true", ...args], {
    cwd,
    encoding: "utf8",
  });
}

function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** `git diff` (renames found) from `before` to `after`, both maps of path → text. */
function gitDiff(before: Record<string, string>, after: Record<string, string>, ...options: string[]): string {
  const root = mkdtempSync(join(tmpdir(), "bft-unified-"));
  repos.push(root);
  git(root, "init", "-q");
  writeTree(root, before);
  git(root, "add", "-A");
  git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "before");
  for (const path of Object.keys(before)) if (!(path in after)) rmSync(join(root, path));
  writeTree(root, after);
  git(root, "add", "-A");
  return git(root, "diff", "--cached", "-M", ...options);
}

/** Apply `patch` to `before` in memory: the tool's result and every file after. */
async function apply(
  before: Record<string, string>,
  patch: string,
): Promise<{ text: string; ok: boolean; files: Record<string, string> }> {
  const fs = memoryFileSystem({
    files: Object.fromEntries(Object.entries(before).map(([path, text]) => [`/w/${path}`, text])),
  });
  const tool = createApplyPatchTool({ fs, cwd: "/w" });
  const result = await tool.execute(tool.validate({ patch }));
  const files: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.type === "directory") await walk(path);
      else files[path.slice("/w/".length)] = new TextDecoder().decode(await fs.readFile(path));
    }
  };
  await walk("/w");
  return { text: resultText(result), ok: result.ok, files };
}

const lines = (count: number, prefix = "line"): string =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}\n`).join("");

describe("apply_patch: unified diffs from git", () => {
  test("an update with several hunks", async () => {
    const before = { "src/a.txt": lines(40) };
    const after = {
      "src/a.txt": lines(40).replace("line 3\n", "line three\n").replace("line 35\n", "line 35\nnew 35b\n"),
    };
    const diff = gitDiff(before, after);
    expect(diff.match(/^@@/gm)?.length).toBe(2);
    expect(await apply(before, diff)).toEqual({
      ok: true,
      text: "Success. Updated the following files:\nM src/a.txt",
      files: after,
    });
  });

  test("adds, deletes, renames (with and without changes) and an empty new file, in one diff", async () => {
    const before = {
      "keep.txt": lines(5),
      "gone.txt": "bye\n",
      "old/name.txt": lines(12, "moved"),
      "same/file.txt": lines(10, "same"),
    };
    const after = {
      "keep.txt": lines(5).replace("line 5\n", "line five\n"),
      "new/dir/file.txt": "hello\nworld\n",
      "empty.txt": "",
      "renamed.txt": lines(12, "moved").replace("moved 6\n", "moved six\n"),
      "other/file.txt": lines(10, "same"),
    };
    const diff = gitDiff(before, after);
    expect(diff).toContain("rename from old/name.txt\nrename to renamed.txt\n");
    expect(diff).toContain("similarity index 100%\nrename from same/file.txt\nrename to other/file.txt\n");
    expect(diff).toContain("diff --git a/empty.txt b/empty.txt\nnew file mode 100644\nindex 0000000..e69de29\n");
    expect(diff).toContain("deleted file mode 100644");
    const result = await apply(before, diff);
    expect(result.ok).toBe(true);
    expect(result.files).toEqual(after);
    expect(result.text.split("\n").slice(1).sort()).toEqual([
      "A empty.txt",
      "A new/dir/file.txt",
      "D gone.txt",
      "M keep.txt",
      "M other/file.txt (moved from same/file.txt)",
      "M renamed.txt (moved from old/name.txt)",
    ]);
  });

  test("CRLF files keep their CRLF line ends", async () => {
    const crlf = (text: string): string => text.replaceAll("\n", "\r\n");
    const before = { "win.txt": crlf(lines(8)) };
    const after = { "win.txt": crlf(lines(8).replace("line 4\n", "line four\nline 4b\n")) };
    const diff = gitDiff(before, after);
    expect(diff).toContain("+line four\r\n");
    expect(await apply(before, diff)).toMatchObject({ ok: true, files: after });
  });

  test("'\\ No newline at end of file': removed, added, and kept on a changed last line", async () => {
    const cases: Array<[string, string]> = [
      ["a\nb\n", "a\nb"],
      ["a\nb", "a\nb\n"],
      ["a\nb", "a\nB"],
      ["a\nb", "a\nb\nc"],
      ["x\r\ny", "x\r\nY"],
    ];
    for (const [old, changed] of cases) {
      const diff = gitDiff({ "f.txt": old }, { "f.txt": changed });
      expect(diff).toContain("\\ No newline at end of file");
      expect([old, await apply({ "f.txt": old }, diff)]).toEqual([
        old,
        { ok: true, text: "Success. Updated the following files:\nM f.txt", files: { "f.txt": changed } },
      ]);
    }
  });

  test("a diff as models write it: no git header, wrong counts, trailing context trimmed", async () => {
    const before = { "a.ts": "function f() {\n  return 1;\n}\n\nexport { f };\n" };
    const patch =
      "--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,3 @@\n function f() {\n-  return 1;\n+  return 2;\n+  // two\n }\n";
    expect(await apply(before, patch)).toMatchObject({
      ok: true,
      files: { "a.ts": "function f() {\n  return 2;\n  // two\n}\n\nexport { f };\n" },
    });
  });

  test("diff -u output (timestamps, other names on the two sides) changes the file +++ names", async () => {
    const patch =
      "--- a.txt.orig\t2026-12-03 10:00:00.000000000 +0000\n+++ a.txt\t2026-12-03 10:01:00.000000000 +0000\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n";
    expect(await apply({ "a.txt": "a\nb\n" }, patch)).toEqual({
      ok: true,
      text: "Success. Updated the following files:\nM a.txt",
      files: { "a.txt": "a\nB\n" },
    });
  });

  test("all or nothing: a hunk that does not match leaves every file as it was", async () => {
    const before = { "a.txt": lines(6), "b.txt": lines(6, "b") };
    const diff = gitDiff(before, {
      "a.txt": lines(6).replace("line 2\n", "line two\n"),
      "b.txt": lines(6, "b").replace("b 2\n", "b two\n"),
    });
    const stale = {
      "a.txt": lines(6),
      "b.txt": lines(6, "b").replace("b 1\n", "b one\n").replace("b 3\n", "b three\n"),
    };
    const result = await apply(stale, diff);
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/^Could not find the expected lines in b\.txt, hunk 1/);
    expect(result.files).toEqual(stale);
  });

  test("a malformed diff is refused with what was expected, and changes nothing", async () => {
    const before = { "a.txt": "a\n" };
    const cases: Array<[string, string]> = [
      [
        "--- a/a.txt\n@@ -1 +1 @@\n-a\n+b\n",
        "Invalid unified diff on line 2: expected '+++ b/<path>' after '--- a/a.txt', got '@@ -1 +1 @@'",
      ],
      [
        "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1\n-a\n+b\n",
        "Invalid unified diff on line 3: expected a hunk header like '@@ -12,7 +12,8 @@' (old start,count then new start,count), got '@@ -1 +1'",
      ],
      [
        "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-a\n*b\n",
        "Invalid unified diff on line 5: expected a hunk line starting with ' ' (context), '-' (removed), '+' (added) or '\\' (no newline at end of file), with 1 old and 2 new lines of '@@ -1,2 +1,2 @@' left, got '*b'",
      ],
      [
        "diff --git a/a.txt b/a.txt\nBinary files a/a.txt and b/a.txt differ\n",
        "Invalid unified diff on line 2: binary diffs cannot be applied; write the file with the write tool instead",
      ],
      [
        "diff --git a/a.txt b/a.txt\nold mode 100644\nnew mode 100755\n",
        "Invalid unified diff: it changes no file (expected '--- a/<path>', '+++ b/<path>' and '@@ -<line>,<count> +<line>,<count> @@' hunks)",
      ],
      [
        "--- /dev/null\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n",
        "Invalid unified diff on line 3: a new file's hunk can only add lines ('+'), as it starts from nothing (--- /dev/null)",
      ],
    ];
    for (const [patch, message] of cases) {
      expect(await apply(before, patch)).toEqual({
        ok: false,
        text: `${message}\nNothing was changed.`,
        files: before,
      });
    }
  });

  test("recognises both formats, and an envelope error names the unified one too", async () => {
    expect(isUnifiedDiff(["", "diff --git a/x b/x"])).toBe(true);
    expect(isUnifiedDiff(["--- a/x", "+++ b/x"])).toBe(true);
    expect(isUnifiedDiff(["*** Begin Patch"])).toBe(false);
    expect(parseUnifiedDiff(["--- a/x.txt", "+++ b/x.txt", "@@ -1 +1 @@", "-a", "+b"])).toEqual({
      ok: true,
      operations: [
        {
          type: "update",
          path: "x.txt",
          line: 1,
          chunks: [
            {
              contexts: [],
              oldLines: ["a"],
              newLines: ["b"],
              sources: [-1],
              endOfFile: false,
              line: 3,
              finalNewline: "keep",
              oldStart: 1,
            },
          ],
        },
      ],
    });
    expect(await apply({ "a.txt": "a\n" }, "@@ -1 +1 @@\n-a\n+b\n")).toEqual({
      ok: false,
      text: "Invalid patch: the first line of the patch must be '*** Begin Patch' (or, for a unified diff, 'diff --git a/<path> b/<path>' or '--- a/<path>')\nNothing was changed.",
      files: { "a.txt": "a\n" },
    });
  });

  test("paths git quotes (non-ASCII, with core.quotePath) are unquoted", async () => {
    const before = { "café.txt": "a\n" };
    const after = { "café.txt": "b\n" };
    const diff = gitDiff(before, after);
    expect(diff).toContain('"a/caf\\303\\251.txt"');
    expect(await apply(before, diff)).toMatchObject({ ok: true, files: after });
  });
});

describe("apply_patch: unified diffs from jsdiff (property)", () => {
  test("a diff of two texts turns the first into the second (unique lines: edits, inserts, deletes, final newline, CRLF)", async () => {
    const edit = fc.record({
      keep: fc.array(fc.boolean(), { minLength: 0, maxLength: 30 }),
      inserts: fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 6 }),
      renamed: fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 4 }),
      finalBefore: fc.boolean(),
      finalAfter: fc.boolean(),
      crlf: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(edit, async ({ keep, inserts, renamed, finalBefore, finalAfter, crlf }) => {
        const eol = crlf ? "\r\n" : "\n";
        const beforeLines = keep.map((_, i) => `line ${i}`);
        const afterLines: string[] = [];
        keep.forEach((kept, i) => {
          inserts.filter((at) => at === i).forEach((_, k) => afterLines.push(`new ${i}.${k}`));
          if (kept) afterLines.push(renamed.includes(i) ? `changed ${i}` : `line ${i}`);
        });
        const join = (lines: string[], final: boolean): string =>
          lines.length === 0 ? "" : lines.join(eol) + (final ? eol : "");
        const before = join(beforeLines, finalBefore);
        const after = join(afterLines, finalAfter);
        fc.pre(before !== after);
        // A file with no line break at all shows no line ending to follow: added breaks are "\n".
        fc.pre(!crlf || /\r\n/.test(before));
        const patch = createTwoFilesPatch("a/f.txt", "b/f.txt", before, after).split("\n").slice(1).join("\n");
        const result = await apply({ "f.txt": before }, patch);
        expect({ patch, result }).toEqual({
          patch,
          result: { ok: true, text: "Success. Updated the following files:\nM f.txt", files: { "f.txt": after } },
        });
      }),
      { numRuns: 150 },
    );
  });
});

describe("apply_patch: a hunk header whose counts are far off (found by a new-user trial)", () => {
  // A count of 100,000,000 once padded the hunk with that many blank lines (out of memory: the
  // process died); 1,000,000 gave a 5 MB refusal text. Counts past a diff's trimmed context are
  // taken as wrong, and the hunk as written.
  for (const count of [1_000_000, 100_000_000, 2 ** 32]) {
    test(`@@ -1,${count} +1,${count} @@ applies its two lines as written`, async () => {
      const fs = memoryFileSystem({ files: { "/w/a.txt": "one\ntwo\nthree\n" } });
      const tool = createApplyPatchTool({ fs, cwd: "/w" });
      const result = await tool.execute({
        patch: `--- a/a.txt\n+++ b/a.txt\n@@ -1,${count} +1,${count} @@\n-two\n+TWO\n`,
      });
      expect({ ok: result.ok, text: resultText(result) }).toEqual({
        ok: true,
        text: "Success. Updated the following files:\nM a.txt",
      });
      expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("one\nTWO\nthree\n");
    });
  }

  test("a hunk at the end that lost its blank context lines to trimming still applies", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\ntwo\n\n\n" } });
    const tool = createApplyPatchTool({ fs, cwd: "/w" });
    const result = await tool.execute({ patch: "--- a/a.txt\n+++ b/a.txt\n@@ -2,3 +2,3 @@\n-two\n+TWO" });
    expect(result.ok).toBe(true);
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("one\nTWO\n\n\n");
  });
});

describe("apply_patch: unified diffs the trial found mishandled (finding 6)", () => {
  test("-U0 hunks: a tie goes where the header says, an insertion after the header's line", async () => {
    const before = { "a.txt": "x\na\nx\nb\nx\n", "b.txt": lines(5) };
    const after = { "a.txt": "x\na\nx\nb\ny\n", "b.txt": "line 1\nline 2\nline 3\nnew\nline 4\nline 5\n" };
    const patch = gitDiff(before, after, "-U0");
    expect(patch).toContain("@@ -5 +5 @@ b\n-x\n+y\n");
    expect(patch).toContain("@@ -3,0 +4 @@ line 3\n+new\n");
    expect(await apply(before, patch)).toEqual({
      ok: true,
      text: "Success. Updated the following files:\nM a.txt\nM b.txt",
      files: after,
    });
    // A header naming none of the places the lines are is no tie-break: still ambiguous.
    const off = await apply(before, "--- a/a.txt\n+++ b/a.txt\n@@ -2 +2 @@\n-x\n+y\n");
    expect(off.ok).toBe(false);
    expect(off.files).toEqual(before);
  });

  test("--- /dev/null onto an existing file is EEXIST, and the file is kept", async () => {
    const before = { "a.txt": "keep\n" };
    const result = await apply(before, "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+new\n");
    expect(result).toEqual({
      ok: false,
      text: "Cannot create a.txt: it already exists, and this diff creates it from nothing (--- /dev/null). To change it, diff against its current content (--- a/a.txt and +++ b/a.txt); to replace it whole, write it.\nNothing was changed.",
      files: before,
    });
  });

  test("a repeated or misplaced '\\ No newline at end of file' is refused saying where it belongs", async () => {
    const before = { "a.txt": "one\ntwo\n" };
    const twice = await apply(
      before,
      "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n\\ No newline at end of file\n\\ No newline at end of file\n",
    );
    expect(twice).toEqual({
      ok: false,
      text: "Invalid unified diff on line 7: '\\ No newline at end of file' repeats the line before it: '\\ No newline at end of file' comes once, right after the line it is about (the file's last old line, its last new line, or each)\nNothing was changed.",
      files: before,
    });
    const early = await apply(
      before,
      "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-one\n\\ No newline at end of file\n+ONE\n two\n",
    );
    expect(early.text).toBe(
      "Invalid unified diff on line 7: ' two' follows '\\ No newline at end of file', which may only come after the file's last old line: move the marker after the last line, or leave it out\nNothing was changed.",
    );
    expect(early.files).toEqual(before);
  });

  test("a diff in a Markdown fence is refused with the hint to drop the fence", async () => {
    const before = { "a.txt": "one\n" };
    const result = await apply(before, "```diff\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n```\n");
    expect(result).toEqual({
      ok: false,
      text: "Invalid patch: it is wrapped in a Markdown code fence ('```diff' on line 1); send the patch text alone, without the fence lines, starting with '*** Begin Patch' (or, for a unified diff, 'diff --git a/<path> b/<path>' or '--- a/<path>')\nNothing was changed.",
      files: before,
    });
  });
});

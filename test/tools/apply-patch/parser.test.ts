import { describe, expect, test } from "vitest";
import { parsePatch } from "../../../src/tools/apply-patch/parser.js";

const wrap = (body: string): string => `*** Begin Patch\n${body}\n*** End Patch`;

describe("parsePatch", () => {
  test("parses add, delete, update with move, contexts and end of file", () => {
    const parsed = parsePatch(
      wrap(
        [
          "*** Add File: docs/new.md",
          "+# Title",
          "+",
          "*** Delete File: old.txt",
          "*** Update File: src/a.ts",
          "*** Move to: src/b.ts",
          "@@ class A",
          "@@   method()",
          " keep",
          "-drop",
          "+add",
          "@@",
          "-tail",
          "+TAIL",
          "*** End of File",
        ].join("\n"),
      ),
    );
    expect(parsed).toEqual({
      ok: true,
      operations: [
        { type: "add", path: "docs/new.md", contents: "# Title\n\n", line: 2 },
        { type: "delete", path: "old.txt", line: 5 },
        {
          type: "update",
          path: "src/a.ts",
          moveTo: "src/b.ts",
          line: 6,
          chunks: [
            {
              contexts: ["class A", "  method()"],
              oldLines: ["keep", "drop"],
              newLines: ["keep", "add"],
              sources: [0, -1],
              endOfFile: false,
              line: 8,
            },
            { contexts: [], oldLines: ["tail"], newLines: ["TAIL"], sources: [-1], endOfFile: true, line: 13 },
          ],
        },
      ],
    });
  });

  test("the first hunk may omit @@; an empty line is an empty context line", () => {
    expect(parsePatch(wrap("*** Update File: a\n one\n\n-two\n+2"))).toEqual({
      ok: true,
      operations: [
        {
          type: "update",
          path: "a",
          line: 2,
          chunks: [
            {
              contexts: [],
              oldLines: ["one", "", "two"],
              newLines: ["one", "", "2"],
              sources: [0, 1, -1],
              endOfFile: false,
              line: 3,
            },
          ],
        },
      ],
    });
  });

  test("a unified-diff style @@ header keeps only its trailing text as context", () => {
    const parsed = parsePatch(wrap("*** Update File: a\n@@ -10,3 +10,4 @@ def f():\n-x\n+y\n@@ -20 +21 @@\n-z\n+w"));
    expect(
      parsed.ok && parsed.operations[0]?.type === "update" && parsed.operations[0].chunks.map((c) => c.contexts),
    ).toEqual([["def f():"], []]);
  });

  test.each([
    ["apply_patch <<'EOF'", "EOF"],
    ['apply_patch <<"PATCH"', "PATCH"],
    ["<<EOF", "EOF"],
    ["applypatch <<'EOF'", "EOF"],
    ["applypatch<<EOF", "EOF"],
    ["<<'EOF'", "EOF"],
  ])("accepts the heredoc wrapper %s … %s", (open, close) => {
    expect(parsePatch(`${open}\n*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n${close}\n`)).toEqual({
      ok: true,
      operations: [{ type: "delete", path: "a.txt", line: 2 }],
    });
  });

  test("marker lines tolerate surrounding whitespace, and CRLF patch text parses", () => {
    const text =
      "  *** Begin Patch \r\n  *** Update File: a.txt  \r\n  *** Move to: b.txt \r\n@@\r\n-x\r\n+y\r\n *** End Patch\r\n";
    expect(parsePatch(text)).toEqual({
      ok: true,
      operations: [
        {
          type: "update",
          path: "a.txt",
          moveTo: "b.txt",
          line: 2,
          chunks: [{ contexts: [], oldLines: ["x"], newLines: ["y"], sources: [-1], endOfFile: false, line: 4 }],
        },
      ],
    });
  });

  test("a padded file header after an update hunk starts a new operation", () => {
    const parsed = parsePatch(wrap("*** Update File: a\n@@\n-x\n+y\n  *** Delete File: b"));
    expect(parsed.ok && parsed.operations.map((o) => `${o.type} ${o.path}`)).toEqual(["update a", "delete b"]);
  });

  test.each([
    [
      "bad",
      "Invalid patch: the first line of the patch must be '*** Begin Patch' (or, for a unified diff, 'diff --git a/<path> b/<path>' or '--- a/<path>')",
      1,
    ],
    ["*** Begin Patch\n*** Add File: a\n+x", "Invalid patch: the last line of the patch must be '*** End Patch'", 3],
    [wrap(""), "Invalid patch: the patch has no file operations (no files were modified)", 1],
    [
      wrap("*** Frobnicate File: foo"),
      "Invalid patch hunk on line 2: '*** Frobnicate File: foo' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
      2,
    ],
    [wrap("*** Update File: foo.txt"), "Invalid patch hunk on line 2: Update file hunk for path 'foo.txt' is empty", 2],
    [
      wrap("*** Update File: a\n@@\n-x\n+y\nnot a diff line\n-z"),
      "Invalid patch hunk on line 6: Expected update hunk to start with a @@ context marker, got: 'not a diff line'",
      6,
    ],
    [
      wrap("*** Update File: a\n@@\nbad line"),
      "Invalid patch hunk on line 4: Unexpected line found in update hunk: 'bad line'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
      4,
    ],
    [
      wrap("*** Update File: a\n@@\n*** End of File"),
      "Invalid patch hunk on line 4: Update hunk does not contain any lines",
      4,
    ],
    [wrap("*** Update File: a\n@@"), "Invalid patch hunk on line 4: Update hunk does not contain any lines", 4],
    [
      wrap("*** Add File: "),
      "Invalid patch hunk on line 2: '*** Add File:' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
      2,
    ],
  ])("refuses %j", (text, message, line) => {
    expect(parsePatch(text)).toEqual({ ok: false, message, line });
  });
});

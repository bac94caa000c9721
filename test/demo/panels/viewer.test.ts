/**
 * The viewer's list of changes (demo/src/panels/viewer.ts): writes to one file one after the
 * other in the same command show as one change (`echo hi > f` truncates, then writes).
 */
import { describe, expect, it } from "vitest";
import { gitDiffLineKind, mergeWrites, type ViewerChange } from "../../../demo/src/panels/viewer.js";

const change = (fields: Partial<ViewerChange>): ViewerChange => ({
  path: "f.txt",
  kind: "updated",
  source: "terminal",
  group: 1,
  ...fields,
});

describe("mergeWrites", () => {
  it("folds a write into the previous write of the same file in the same group", () => {
    expect(
      mergeWrites(change({ kind: "created", after: "" }), change({ kind: "updated", before: "", after: "hi\n" })),
    ).toEqual(change({ kind: "created", before: undefined, after: "hi\n" }));
    expect(mergeWrites(change({ before: "old\n", after: "" }), change({ before: "", after: "new\n" }))).toEqual(
      change({ before: "old\n", after: "new\n" }),
    );
  });

  it("keeps changes apart across files, groups, removals and renames, or without a group", () => {
    const next = change({ before: "", after: "x" });
    expect(mergeWrites(undefined, next)).toBe(undefined);
    expect(mergeWrites(change({ path: "g.txt" }), next)).toBe(undefined);
    expect(mergeWrites(change({ group: 2 }), next)).toBe(undefined);
    expect(mergeWrites(change({ group: undefined }), change({ group: undefined }))).toBe(undefined);
    expect(mergeWrites(change({ kind: "deleted" }), next)).toBe(undefined);
    expect(mergeWrites(change({ kind: "renamed", from: "e.txt" }), next)).toBe(undefined);
    expect(mergeWrites(change({}), change({ kind: "deleted" }))).toBe(undefined);
  });
});

describe("gitDiffLineKind", () => {
  it("classes git's diff lines: headers, hunks, additions, removals, context", () => {
    const lines = [
      "diff --git a/a b/a",
      "new file mode 100644",
      "deleted file mode 100644",
      "index 0000000..3e75765",
      "--- /dev/null",
      "+++ b/a",
      "Binary files a/x and b/x differ",
      "@@ -0,0 +1 @@",
      "+new",
      "-- old list item",
      " context",
      "",
    ];
    expect(lines.map(gitDiffLineKind)).toEqual([
      "meta",
      "meta",
      "meta",
      "meta",
      "meta",
      "meta",
      "meta",
      "hunk",
      "add",
      "del",
      "ctx",
      "ctx",
    ]);
  });
});

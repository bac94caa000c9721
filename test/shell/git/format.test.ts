import { describe, expect, it } from "vitest";
import { formatDiffStat, formatFileDiff, formatGitDate, formatShortStat } from "../../../src/shell/git/format.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("git's formats", () => {
  it("dates in the commit's own zone, as git log prints them", () => {
    // 1700000000 is Tue Nov 14 22:13:20 2023 UTC; isomorphic-git's offset -90 is +0130, 300 is -0500.
    expect([formatGitDate(1700000000, 0), formatGitDate(1700000000, -90), formatGitDate(1700000000, 300)]).toEqual([
      "Tue Nov 14 22:13:20 2023 +0000",
      "Tue Nov 14 23:43:20 2023 +0130",
      "Tue Nov 14 17:13:20 2023 -0500",
    ]);
  });

  it("the commit summary line: insertions and deletions as git words them", () => {
    expect([
      formatShortStat(1, 1, 0),
      formatShortStat(2, 0, 3),
      formatShortStat(1, 0, 0),
      formatShortStat(3, 2, 2),
    ]).toEqual([
      " 1 file changed, 1 insertion(+)\n",
      " 2 files changed, 3 deletions(-)\n",
      " 1 file changed, 0 insertions(+), 0 deletions(-)\n",
      " 3 files changed, 2 insertions(+), 2 deletions(-)\n",
    ]);
  });

  it("binary files and mode changes", () => {
    expect(
      formatFileDiff({
        path: "img.png",
        before: { oid: "a".repeat(40), mode: 0o100644, bytes: bytes("\0one") },
        after: { oid: "b".repeat(40), mode: 0o100644, bytes: bytes("\0two") },
      }),
    ).toBe(
      "diff --git a/img.png b/img.png\nindex aaaaaaa..bbbbbbb 100644\nBinary files a/img.png and b/img.png differ\n",
    );
    expect(
      formatFileDiff({
        path: "run.sh",
        before: { oid: "c".repeat(40), mode: 0o100644, bytes: bytes("x\n") },
        after: { oid: "c".repeat(40), mode: 0o100755, bytes: bytes("x\n") },
      }),
    ).toBe("diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n");
  });

  it("diff --stat: counts right-aligned, the graph scaled to 80 columns, binary sizes; nothing for no change", () => {
    const side = (text: string) => ({ oid: "0".repeat(40), mode: 0o100644, bytes: bytes(text) });
    const lines = (count: number) => Array.from({ length: count }, (_, index) => `${index}\n`).join("");
    expect(formatDiffStat([])).toBe("");
    expect(
      formatDiffStat([
        { path: "big.txt", after: side(lines(200)) },
        { path: "gone.txt", before: side("a\nb\n") },
        { path: "img.bin", before: side("\u0000"), after: side("\u0000\u0001") },
      ]),
    ).toBe(
      [
        " big.txt  | 200 " + "+".repeat(63) + "\n",
        " gone.txt |   2 " + "-".repeat(1) + "\n",
        " img.bin  | Bin 1 -> 2 bytes\n",
        " 3 files changed, 200 insertions(+), 2 deletions(-)\n",
      ].join(""),
    );
  });
});

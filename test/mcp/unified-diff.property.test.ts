/**
 * unifiedDiff (the edit_file diff, computed on the changed lines only) is always a patch that takes
 * the old text to the new one (the diff package applies it), and equals the package's whole-text
 * patch for an edit in one place. Where a change can be aligned two ways (repeated lines), the
 * trimmed diff may pick the other, equally valid, alignment.
 */
import { applyPatch, createTwoFilesPatch } from "diff";
import fc from "fast-check";
import { expect, it } from "vitest";
import { unifiedDiff } from "../../src/mcp/dialects/unified-diff.js";

const text = fc
  .array(fc.constantFrom("a", "b", "c", "", "  a", "d\r"), { maxLength: 40 })
  .chain((lines) => fc.constantFrom(lines.join("\n"), `${lines.join("\n")}\n`));

it("is a patch that takes the old text to the new one, for any two texts", () => {
  fc.assert(
    fc.property(text, text, (before, after) => {
      expect(applyPatch(before, unifiedDiff("/f", before, after))).toBe(after);
    }),
    { numRuns: 2000 },
  );
});

it("equals createTwoFilesPatch for one changed line deep in a long file", () => {
  const lines = Array.from({ length: 500 }, (_, index) => `line ${index}`);
  const before = `${lines.join("\n")}\n`;
  const after = before.replace("line 250\n", "LINE 250\n").replace("line 3\n", "");
  expect(unifiedDiff("/f", before, after)).toBe(createTwoFilesPatch("/f", "/f", before, after, "original", "modified"));
});

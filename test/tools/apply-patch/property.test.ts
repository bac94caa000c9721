// Property: a patch written from an edit (with 3 unique context lines, as models write them)
// turns the original into the edited text, for LF and CRLF files alike.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parsePatch } from "../../../src/tools/apply-patch/parser.js";
import { applyChunks } from "../../../src/tools/apply-patch/update.js";

const CONTEXT = 3;

interface Edit {
  /** 0-based first line replaced. */
  readonly at: number;
  /** Lines removed. */
  readonly remove: number;
  /** Lines added. */
  readonly add: readonly string[];
}

/** Non-overlapping edits, sorted, at least 2 * CONTEXT + 1 lines apart so their hunks stay distinct. */
function normalise(edits: readonly Edit[], length: number): Edit[] {
  const out: Edit[] = [];
  let next = 0;
  for (const edit of [...edits].sort((a, b) => a.at - b.at)) {
    const at = Math.max(edit.at, next);
    if (at > length) break;
    const remove = Math.min(edit.remove, length - at);
    if (remove === 0 && edit.add.length === 0) continue;
    out.push({ at, remove, add: edit.add });
    next = at + remove + 2 * CONTEXT + 1;
  }
  return out;
}

function makePatch(path: string, lines: readonly string[], edits: readonly Edit[]): string {
  const out = ["*** Begin Patch", `*** Update File: ${path}`];
  for (const edit of edits) {
    out.push("@@");
    for (const line of lines.slice(Math.max(0, edit.at - CONTEXT), edit.at)) out.push(` ${line}`);
    for (const line of lines.slice(edit.at, edit.at + edit.remove)) out.push(`-${line}`);
    for (const line of edit.add) out.push(`+${line}`);
    for (const line of lines.slice(edit.at + edit.remove, edit.at + edit.remove + CONTEXT)) out.push(` ${line}`);
  }
  out.push("*** End Patch");
  return out.join("\n");
}

function applyEdits(lines: readonly string[], edits: readonly Edit[]): string[] {
  const out = [...lines];
  for (const edit of [...edits].reverse()) out.splice(edit.at, edit.remove, ...edit.add);
  return out;
}

describe("apply_patch property", () => {
  test("a patch made from random edits reproduces the edited file", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 60 }),
            remove: fc.integer({ min: 0, max: 4 }),
            add: fc.array(
              fc.string({ maxLength: 12 }).map((s) => `new ${s.replace(/[\r\n]/g, "")}`),
              { maxLength: 4 },
            ),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        fc.boolean(),
        (length, rawEdits, crlf) => {
          const lines = Array.from({ length }, (_, i) => `line ${i} of the file`);
          const edits = normalise(rawEdits, length);
          fc.pre(edits.length > 0);
          const eol = crlf ? "\r\n" : "\n";
          const parsed = parsePatch(makePatch("f.txt", lines, edits));
          expect(parsed.ok).toBe(true);
          if (!parsed.ok || parsed.operations[0]?.type !== "update") return;
          const applied = applyChunks(lines.map((line) => line + eol).join(""), parsed.operations[0].chunks, "f.txt");
          const expected = applyEdits(lines, edits);
          expect(applied).toEqual({
            ok: true,
            text: expected.map((line) => line + eol).join(""),
            firstLine: expect.any(Number),
          });
        },
      ),
      { numRuns: 300, seed: 6 },
    );
  });
});

// Property: the native-search exact pass (LF text) places hunks exactly as the line-by-line
// matcher does (a CRLF text takes the line-by-line path for every pass): same text, same error.
describe("hunk placement: LF (native search) and CRLF (line by line) agree", () => {
  const line = fc.constantFrom("a", "b", "", " a", "a ", "}", "x y");
  const chunk = fc.record({
    contexts: fc.array(line, { maxLength: 1 }),
    oldLines: fc.array(line, { maxLength: 3 }),
    newLines: fc.array(line, { maxLength: 2 }),
    endOfFile: fc.boolean(),
    line: fc.constant(1),
  });
  test("for random texts of few distinct lines and random hunks", () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.boolean(),
        fc.array(chunk, { minLength: 1, maxLength: 3 }),
        (lines, terminated, chunks) => {
          const lf = lines.join("\n") + (terminated && lines.length > 0 ? "\n" : "");
          const crlf = lf.replace(/\n/g, "\r\n");
          const fromLf = applyChunks(lf, chunks, "f.txt");
          const fromCrlf = applyChunks(crlf, chunks, "f.txt");
          const normalised = fromCrlf.ok
            ? { ok: true, text: fromCrlf.text.replace(/\r\n/g, "\n"), firstLine: fromCrlf.firstLine }
            : fromCrlf;
          expect(fromLf).toStrictEqual(normalised);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

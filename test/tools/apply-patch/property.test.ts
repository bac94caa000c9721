// Property: a patch written from an edit (with 3 unique context lines, as models write them)
// turns the original into the edited text, for LF and CRLF files alike.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parsePatch, type PatchChunk } from "../../../src/tools/apply-patch/parser.js";
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
            changed: true,
          });
        },
      ),
      { numRuns: 300, seed: 6 },
    );
  });
});

/** A random hunk: `@@` context, then context, removed and added lines, as the parser gives it. */
function hunkOf(line: fc.Arbitrary<string>): fc.Arbitrary<PatchChunk> {
  return fc
    .record({
      contexts: fc.array(line, { maxLength: 1 }),
      body: fc.array(fc.tuple(fc.constantFrom(" ", "-", "+"), line), { minLength: 1, maxLength: 4 }),
      endOfFile: fc.boolean(),
    })
    .map(({ contexts, body, endOfFile }) => {
      const oldLines: string[] = [];
      const newLines: string[] = [];
      const sources: number[] = [];
      for (const [kind, text] of body) {
        if (kind !== "+") oldLines.push(text);
        if (kind === "-") continue;
        sources.push(kind === " " ? oldLines.length - 1 : -1);
        newLines.push(text);
      }
      return { contexts, oldLines, newLines, sources, endOfFile, line: 1 };
    });
}

const LINE = fc.constantFrom("a", "b", "", " a", "a ", "}", "x y");

// Property: the native-search exact pass (LF text) places hunks exactly as the line-by-line
// matcher does (a CRLF text takes the line-by-line path for every pass): same text, same error.
describe("hunk placement: LF (native search) and CRLF (line by line) agree", () => {
  test("for random texts of few distinct lines and random hunks", () => {
    fc.assert(
      fc.property(
        fc.array(LINE, { maxLength: 12 }),
        fc.boolean(),
        fc.array(hunkOf(LINE), { minLength: 1, maxLength: 3 }),
        (lines, terminated, chunks) => {
          const lf = lines.join("\n") + (terminated && lines.length > 0 ? "\n" : "");
          const crlf = lf.replace(/\n/g, "\r\n");
          const fromLf = applyChunks(lf, chunks, "f.txt");
          const fromCrlf = applyChunks(crlf, chunks, "f.txt");
          const normalised = fromCrlf.ok ? { ...fromCrlf, text: fromCrlf.text.replace(/\r\n/g, "\n") } : fromCrlf;
          expect(fromLf).toStrictEqual(normalised);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

// Property: with a random terminator per line (LF, CRLF, lone CR), hunks land where they land in
// the LF file: with the terminators read as LF, the result is the LF file's result, and an update
// that changes nothing returns the text as it was. (Which terminator each line keeps: index.test.ts.)
describe("mixed line endings", () => {
  test("a file with mixed terminators patches as its LF form does", () => {
    const ending = fc.constantFrom("\n", "\r\n", "\r");
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("a", "b", "", "}", "x y"), ending), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.array(hunkOf(fc.constantFrom("a", "b", "", "}", "x y", "new")), { minLength: 1, maxLength: 3 }),
        (lines, terminated, chunks) => {
          // A lone CR before an empty LF line would read as one CRLF: not a case of its own.
          fc.pre(lines.every(([, end], i) => end !== "\r" || lines[i + 1]?.[0] !== "" || lines[i + 1]?.[1] !== "\n"));
          const mixed = lines.map(([text, end], i) => text + (terminated || i < lines.length - 1 ? end : "")).join("");
          const lf = lines.map(([text], i) => text + (terminated || i < lines.length - 1 ? "\n" : "")).join("");
          const fromMixed = applyChunks(mixed, chunks, "f.txt");
          const fromLf = applyChunks(lf, chunks, "f.txt");
          expect(fromMixed.ok).toBe(fromLf.ok);
          if (!fromMixed.ok || !fromLf.ok) return;
          expect(fromMixed.text.replace(/\r\n?/g, "\n")).toBe(fromLf.text);
          expect(fromMixed.changed).toBe(fromLf.changed);
          if (!fromMixed.changed) expect(fromMixed.text).toBe(mixed);
        },
      ),
      { numRuns: 2000, seed: 14 },
    );
  });
});

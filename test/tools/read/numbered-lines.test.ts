import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { findNewlines, isAscii, numberLines } from "../../../src/tools/read/numbered-lines.js";

const utf8 = (text: string) => new TextEncoder().encode(text);

describe("findNewlines", () => {
  test("finds every newline and tells ASCII apart, natively and by words, whatever the alignment of the view", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(7), fc.nat(7), (data, cut, start) => {
        const withNewlines = data.map((b) => (b % 5 === 0 ? 10 : b % 3 === 0 ? b & 0x7f : b));
        const view = withNewlines.subarray(Math.min(cut, withNewlines.length));
        const from = Math.min(start, view.length);
        const expected: number[] = [];
        for (let i = from; i < view.length; i++) if (view[i] === 10) expected.push(i);
        const ascii = view.subarray(from).every((b) => b < 0x80);
        for (const native of [true, false]) {
          const { positions, count, ascii: found } = findNewlines(view, from, native);
          expect([...positions.subarray(0, count)]).toEqual(expected);
          expect(found).toBe(ascii);
        }
        expect(isAscii(view, from)).toBe(ascii);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("numberLines", () => {
  test("numbers lines, drops the final newline and CR before LF, skips a BOM", () => {
    expect(numberLines(utf8("one\ntwo\n"), 0, 100)).toEqual({ text: "1|one\n2|two", lines: 2 });
    expect(numberLines(utf8("\uFEFFa\r\nb"), 3, 100)).toEqual({ text: "1|a\n2|b", lines: 2 });
    expect(numberLines(utf8("\n\n"), 0, 100)).toEqual({ text: "1|\n2|", lines: 2 });
    const many = Array.from({ length: 12 }, (_, i) => `l${i + 1}`).join("\n");
    expect(numberLines(utf8(many), 0, 100)?.text.split("\n").slice(8, 10)).toEqual(["9|l9", "10|l10"]);
  });

  test("gives up on a long line, invalid UTF-8 and empty input", () => {
    expect(numberLines(utf8("short\nlonger line\n"), 0, 6)).toBeUndefined();
    expect(numberLines(Uint8Array.of(0x61, 0xff, 0x0a), 0, 100)).toBeUndefined();
    expect(numberLines(utf8(""), 0, 100)).toBeUndefined();
  });
});

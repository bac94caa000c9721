import { describe, expect, test } from "vitest";
import fc from "fast-check";
import {
  cutIndexByBytes,
  cutIndexByChars,
  decodeUtf8,
  detectLineEnding,
  findInvalidUtf8,
  formatBytes,
  formatCount,
  hasNulByte,
  plural,
  sniffBinary,
  utf8Length,
} from "../../../src/tools/kit/text.js";

const bytes = (...values: number[]) => Uint8Array.from(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe("decodeUtf8", () => {
  test("valid text, with and without BOM", () => {
    expect(decodeUtf8(utf8("héllo"))).toEqual({ ok: true, text: "héllo", bom: false });
    expect(decodeUtf8(bytes(0xef, 0xbb, 0xbf, 0x61))).toEqual({ ok: true, text: "a", bom: true });
    expect(decodeUtf8(bytes())).toEqual({ ok: true, text: "", bom: false });
  });

  test("invalid sequences give the offset of the first bad byte (BOM counted)", () => {
    expect(decodeUtf8(bytes(0x61, 0xff))).toEqual({ ok: false, offset: 1 });
    expect(decodeUtf8(bytes(0xef, 0xbb, 0xbf, 0x61, 0x80))).toEqual({ ok: false, offset: 4 });
    expect(decodeUtf8(bytes(0x61, 0xe2, 0x82))).toEqual({ ok: false, offset: 1 }); // truncated €
    expect(decodeUtf8(bytes(0xc0, 0xaf))).toEqual({ ok: false, offset: 0 }); // overlong
    expect(decodeUtf8(bytes(0xed, 0xa0, 0x80))).toEqual({ ok: false, offset: 0 }); // surrogate
    expect(decodeUtf8(bytes(0xf4, 0x90, 0x80, 0x80))).toEqual({ ok: false, offset: 0 }); // > U+10FFFF
  });

  test("findInvalidUtf8 agrees with the WHATWG decoder on random bytes", () => {
    const strict = new TextDecoder("utf-8", { fatal: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (data) => {
        let valid = true;
        try {
          strict.decode(data);
        } catch {
          valid = false;
        }
        expect(findInvalidUtf8(data) === -1).toBe(valid);
      }),
      { numRuns: 2000 },
    );
  });

  test("findInvalidUtf8 finds the first invalid sequence in long mostly-ASCII data, at every alignment", () => {
    const strict = new TextDecoder("utf-8", { fatal: true });
    const chunk = fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom("a", " ", "\n", "z"), maxLength: 20 }).map(utf8) },
      { weight: 2, arbitrary: fc.constantFrom("é", "€", "😀", "日").map(utf8) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 3, min: 0x80 }) },
    );
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 30 }), fc.integer({ min: 0, max: 3 }), (chunks, shift) => {
        const total = chunks.reduce((sum, part) => sum + part.length, 0);
        const backing = new Uint8Array(total + shift);
        let at = shift;
        for (const part of chunks) {
          backing.set(part, at);
          at += part.length;
        }
        const data = backing.subarray(shift);
        const offset = findInvalidUtf8(data);
        let valid = true;
        try {
          strict.decode(data);
        } catch {
          valid = false;
        }
        expect(offset === -1).toBe(valid);
        if (offset >= 0) {
          // Everything before the offset decodes; the sequence at the offset does not.
          expect(() => strict.decode(data.subarray(0, offset))).not.toThrow();
          expect(findInvalidUtf8(data.slice(offset))).toBe(0);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("detectLineEnding", () => {
  test("lf, crlf, mixed, none", () => {
    expect(detectLineEnding("a\nb\n")).toBe("lf");
    expect(detectLineEnding("a\r\nb\r\n")).toBe("crlf");
    expect(detectLineEnding("a\r\nb\n")).toBe("mixed");
    expect(detectLineEnding("a")).toBe("none");
  });
});

describe("sniffBinary", () => {
  test("text is not binary, whatever its script", () => {
    expect(sniffBinary(utf8("plain\ttext\r\n\x1b[31mred\x1b[0m"))).toBeUndefined();
    expect(sniffBinary(utf8("日本語のテキスト 😀"))).toBeUndefined();
    expect(sniffBinary(bytes())).toBeUndefined();
  });

  test("NUL bytes and control-heavy content are binary; magic numbers name the type", () => {
    expect(sniffBinary(bytes(0x61, 0x00))).toEqual({
      mediaType: "application/octet-stream",
      description: "binary data",
    });
    expect(sniffBinary(bytes(1, 2, 3, 0x61))).toEqual({
      mediaType: "application/octet-stream",
      description: "binary data",
    });
    expect(sniffBinary(utf8("wOF2\0\x01"))).toEqual({ mediaType: "font/woff2", description: "WOFF2 font" });
    expect(sniffBinary(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toEqual({
      mediaType: "image/png",
      description: "PNG image",
    });
    expect(sniffBinary(utf8("%PDF-1.7\n"))).toEqual({ mediaType: "application/pdf", description: "PDF document" });
    expect(sniffBinary(bytes(0xff, 0xfe, 0x61, 0x00))).toEqual({
      mediaType: "text/plain; charset=utf-16le",
      description: "UTF-16 (little-endian) text",
    });
  });
});

describe("cutting and sizes", () => {
  test("utf8Length matches TextEncoder", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 30 }), (text) => {
        expect(utf8Length(text)).toBe(utf8(text).length);
      }),
    );
  });

  test("cutIndexByBytes never splits a character", () => {
    expect(cutIndexByBytes("a".repeat(1023) + "é", 1024)).toBe(1023);
    expect(cutIndexByBytes("a".repeat(1023) + "é", 1025)).toBe(1024);
    expect(cutIndexByBytes("😀x", 3)).toBe(0);
    expect(cutIndexByBytes("😀x", 4)).toBe(2);
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 30 }), fc.nat(100), (text, budget) => {
        const end = cutIndexByBytes(text, budget);
        expect(utf8(text.slice(0, end)).length).toBeLessThanOrEqual(budget);
        expect(new TextDecoder().decode(utf8(text.slice(0, end)))).toBe(text.slice(0, end));
      }),
    );
  });

  test("cutIndexByChars keeps surrogate pairs whole", () => {
    expect(cutIndexByChars("ab😀", 3)).toBe(2);
    expect(cutIndexByChars("ab😀", 4)).toBe(4);
    expect(cutIndexByChars("abc", 10)).toBe(3);
  });

  test("formatBytes, formatCount, plural", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(1023)).toBe("1023 bytes");
    expect(formatBytes(300_000)).toBe("293.0 KiB (300,000 bytes)");
    expect(formatBytes(10 * 1024 * 1024)).toBe("10.0 MiB (10,485,760 bytes)");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(plural(1, "line")).toBe("1 line");
    expect(plural(2000, "line")).toBe("2,000 lines");
  });
});

describe("hasNulByte", () => {
  test("agrees with indexOf(0) within the limit, at any alignment", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.nat(5), fc.nat(120), (data, cut, limit) => {
        const view = data.map((b) => (b % 7 === 0 ? 0 : b)).subarray(Math.min(cut, data.length));
        expect(hasNulByte(view, limit)).toBe(view.subarray(0, limit).indexOf(0) >= 0);
      }),
      { numRuns: 1000 },
    );
  });
});

import { loneSurrogateIndex } from "../../../src/tools/kit/text.js";

describe("loneSurrogateIndex", () => {
  test("finds lone high and low surrogates, not pairs", () => {
    expect(loneSurrogateIndex("a😀b")).toBe(-1);
    expect(loneSurrogateIndex("a\uD83D")).toBe(1);
    expect(loneSurrogateIndex("a\uD83Db")).toBe(1);
    expect(loneSurrogateIndex("\uDE00")).toBe(0);
    expect(loneSurrogateIndex("😀\uDE00")).toBe(2);
    expect(loneSurrogateIndex("")).toBe(-1);
  });
});

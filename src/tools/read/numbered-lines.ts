/**
 * The fast path of `read`: a whole text file as `N|text` lines, built in bytes with native
 * copies (no string per line) and decoded once, strictly.
 *
 * @module
 */

import { decodeAscii, nativeByteSearch } from "../kit/text.js";

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Bytes of the prefixes `1|`, `2|`, ... `count|`. */
function prefixBytes(count: number): number {
  let total = 0;
  for (let digits = 1, low = 1; low <= count; digits++, low *= 10) {
    const high = Math.min(count, low * 10 - 1);
    total += (high - low + 1) * (digits + 1);
  }
  return total;
}

/**
 * Positions of every `\n` in `bytes[start..]`, scanning four bytes at a time (a word holds a
 * newline when `x ^ 0x0a0a0a0a` has a zero byte); `TypedArray.indexOf` is a slow call per line.
 *
 * @param useNative - use Node's `Buffer.indexOf` when running on Node (tests turn it off to check the portable scan).
 * @returns the positions (in `bytes`), how many there are, and whether every byte from `start` is ASCII.
 */
export function findNewlines(
  bytes: Uint8Array,
  start: number,
  useNative = true,
): { positions: Int32Array; count: number; ascii: boolean } {
  let positions = new Int32Array(Math.max(64, (bytes.length - start) >> 5));
  let count = 0;
  const push = (at: number): void => {
    if (count === positions.length) {
      const grown = new Int32Array(positions.length * 2);
      grown.set(positions);
      positions = grown;
    }
    positions[count++] = at;
  };
  const length = bytes.length;
  const search = useNative ? nativeByteSearch(bytes) : undefined;
  if (search !== undefined) {
    for (let at = search(10, start); at >= 0; at = search(10, at + 1)) push(at);
    return { positions, count, ascii: isAscii(bytes, start) };
  }
  let i = start;
  const misaligned = (bytes.byteOffset + i) & 3;
  const head = Math.min(length, i + ((4 - misaligned) & 3));
  let high = 0;
  for (; i < head; i++) {
    high |= bytes[i]!;
    if (bytes[i] === 10) push(i);
  }
  const words = (length - i) >> 2;
  if (words > 0) {
    const view = new Int32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let w = 0; w < words; w++) {
      const x = view[w]! ^ 0x0a0a0a0a;
      high |= x;
      if (((x - 0x01010101) & ~x & 0x80808080) !== 0) {
        const at = i + (w << 2);
        if (bytes[at] === 10) push(at);
        if (bytes[at + 1] === 10) push(at + 1);
        if (bytes[at + 2] === 10) push(at + 2);
        if (bytes[at + 3] === 10) push(at + 3);
      }
    }
    i += words << 2;
  }
  for (; i < length; i++) {
    high |= bytes[i]!;
    if (bytes[i] === 10) push(i);
  }
  return { positions, count, ascii: (high & 0x80808080) === 0 };
}

/** True when every byte of `bytes[start..]` is below 0x80 (ORs four bytes at a time). */
export function isAscii(bytes: Uint8Array, start: number): boolean {
  const length = bytes.length;
  let high = 0;
  let i = start;
  const head = Math.min(length, i + ((4 - ((bytes.byteOffset + i) & 3)) & 3));
  for (; i < head; i++) high |= bytes[i]!;
  const words = (length - i) >> 2;
  if (words > 0) {
    const view = new Int32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let w = 0; w < words; w++) high |= view[w]!;
    i += words << 2;
  }
  for (; i < length; i++) high |= bytes[i]!;
  return (high & 0x80808080) === 0;
}

/**
 * Number the lines of `bytes[start..]` as `N|text` joined by `\n` (a final newline does not start
 * a line; a `\r` before `\n` is dropped), decoding the result strictly as UTF-8.
 *
 * The content is copied once to the tail of the output buffer and each line moved forward with
 * `copyWithin` behind its prefix, so there is no allocation per line.
 *
 * @param bytes - the file's bytes.
 * @param start - where the text starts (3 after a BOM).
 * @param maxLineBytes - the fast path gives up (returns undefined) when a line is longer than
 *   this many bytes, so the caller can cut it by characters.
 * @returns the text and the line count, or undefined when a line is too long or the bytes are not
 *   valid UTF-8 (the caller's slow path reports it).
 */
export function numberLines(
  bytes: Uint8Array,
  start: number,
  maxLineBytes: number,
): { text: string; lines: number } | undefined {
  const end = bytes.length;
  if (start >= end) return undefined;
  const { positions, count, ascii } = findNewlines(bytes, start);
  const trailingNewline = bytes[end - 1] === 10;
  const lines = trailingNewline ? count : count + 1;
  const shift = prefixBytes(lines);
  const out = new Uint8Array(shift + (end - start));
  out.set(start === 0 ? bytes : bytes.subarray(start), shift);
  let write = 0;
  let lineStart = start;
  // The line number as ASCII digits, incremented in place (no string per line).
  const digits = new Uint8Array(16);
  let digitCount = 1;
  digits[0] = 48;
  for (let n = 1; n <= lines; n++) {
    let d = digitCount - 1;
    while (d >= 0 && digits[d] === 57) digits[d--] = 48;
    if (d >= 0) digits[d]!++;
    else {
      digits.copyWithin(1, 0, digitCount++);
      digits[0] = 49;
    }
    const lineEnd = n <= count ? positions[n - 1]! : end;
    let contentEnd = lineEnd;
    if (contentEnd > lineStart && bytes[contentEnd - 1] === 13) contentEnd--;
    if (contentEnd - lineStart > maxLineBytes) return undefined;
    for (let k = 0; k < digitCount; k++) out[write++] = digits[k]!;
    out[write++] = 124; // |
    const from = shift + (lineStart - start);
    out.copyWithin(write, from, from + (contentEnd - lineStart));
    write += contentEnd - lineStart;
    if (n < lines) out[write++] = 10;
    lineStart = lineEnd + 1;
  }
  if (ascii) return { text: decodeAscii(out.subarray(0, write)), lines };
  try {
    return { text: strictDecoder.decode(out.subarray(0, write)), lines };
  } catch {
    return undefined;
  }
}

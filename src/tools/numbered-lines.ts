/**
 * The fast path of `read`: a whole text file as `N|text` lines, built in bytes with native
 * copies (no string per line) and decoded once, strictly.
 *
 * @module
 */

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
export function numberLines(bytes: Uint8Array, start: number, maxLineBytes: number): { text: string; lines: number } | undefined {
  const end = bytes.length;
  if (start >= end) return undefined;
  let lines = 0;
  for (let at = bytes.indexOf(10, start); at >= 0; at = bytes.indexOf(10, at + 1)) lines++;
  const trailingNewline = bytes[end - 1] === 10;
  if (!trailingNewline) lines++;
  const shift = prefixBytes(lines);
  const out = new Uint8Array(shift + (end - start));
  out.set(start === 0 ? bytes : bytes.subarray(start), shift);
  let write = 0;
  let lineStart = start;
  for (let n = 1; n <= lines; n++) {
    let lineEnd = bytes.indexOf(10, lineStart);
    if (lineEnd < 0) lineEnd = end;
    let contentEnd = lineEnd;
    if (contentEnd > lineStart && bytes[contentEnd - 1] === 13) contentEnd--;
    if (contentEnd - lineStart > maxLineBytes) return undefined;
    if (n < 10) {
      out[write++] = 48 + n;
    } else {
      const digits = String(n);
      for (let k = 0; k < digits.length; k++) out[write++] = digits.charCodeAt(k);
    }
    out[write++] = 124; // |
    const from = shift + (lineStart - start);
    out.copyWithin(write, from, from + (contentEnd - lineStart));
    write += contentEnd - lineStart;
    if (n < lines) out[write++] = 10;
    lineStart = lineEnd + 1;
  }
  try {
    return { text: strictDecoder.decode(out.subarray(0, write)), lines };
  } catch {
    return undefined;
  }
}

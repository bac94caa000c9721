/**
 * Text helpers shared by the file tools: strict UTF-8 decoding (with the byte offset of the
 * first invalid sequence), BOM handling, line-ending detection, binary sniffing by content, and
 * cutting text to a byte or character budget without splitting a character.
 *
 * @module
 */

/** How many leading bytes {@link sniffBinary} inspects: 8 KiB, as git and ripgrep do. */
export const BINARY_SNIFF_BYTES = 8192;

/**
 * Share of control bytes (other than tab, newline, carriage return, form feed, vertical tab,
 * backspace and escape) above which content counts as binary: 10 %.
 */
export const BINARY_CONTROL_RATIO = 0.1;

/** The UTF-8 byte order mark. */
export const UTF8_BOM: Uint8Array = Uint8Array.of(0xef, 0xbb, 0xbf);

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const encoder = new TextEncoder();

/** The outcome of {@link decodeUtf8}. */
export type DecodedText =
  | {
      readonly ok: true;
      /** The text, without the BOM. */
      readonly text: string;
      /** True when the bytes started with a UTF-8 BOM. */
      readonly bom: boolean;
    }
  | {
      readonly ok: false;
      /** Byte offset (0-based, counted from the start of the file, BOM included) of the first invalid sequence. */
      readonly offset: number;
    };

/** True when `bytes` start with the UTF-8 BOM (EF BB BF). */
export function hasUtf8Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * Decode UTF-8 strictly: invalid bytes are reported with their offset, never replaced by U+FFFD.
 * A leading BOM is removed from the text and reported as `bom: true`.
 *
 * @param bytes - the file's bytes.
 * @returns `{ ok: true, text, bom }`, or `{ ok: false, offset }` with the byte offset of the
 *   first invalid or truncated sequence.
 * @example
 * ```ts
 * decodeUtf8(Uint8Array.of(0x61, 0xff)); // { ok: false, offset: 1 }
 * ```
 */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  const bom = hasUtf8Bom(bytes);
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { ok: true, text: strictDecoder.decode(body), bom };
  } catch {
    const offset = findInvalidUtf8(body);
    return { ok: false, offset: (offset < 0 ? 0 : offset) + (bom ? 3 : 0) };
  }
}

/** Node's `Buffer`, found as a global (never imported), when running on Node. */
interface AsciiDecodingBuffer {
  from(
    buffer: ArrayBufferLike,
    byteOffset: number,
    length: number,
  ): { toString(encoding: "ascii"): string; indexOf(value: number, byteOffset?: number): number };
}
const nodeBuffer: AsciiDecodingBuffer | undefined = (() => {
  const scope = globalThis as { Buffer?: AsciiDecodingBuffer; process?: { versions?: { node?: string } } };
  // Only Node's own Buffer: a browser polyfill decodes byte by byte, slower than TextDecoder.
  return typeof scope.process?.versions?.node === "string" && typeof scope.Buffer?.from === "function"
    ? scope.Buffer
    : undefined;
})();

/**
 * Decode bytes known to be ASCII (every byte < 0x80), for which UTF-8 decoding is the identity.
 * On Node this uses Buffer's native ASCII copy (about 8× faster there than `TextDecoder`);
 * elsewhere, `TextDecoder`.
 */
export function decodeAscii(bytes: Uint8Array): string {
  if (nodeBuffer !== undefined) return nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("ascii");
  return lenientDecoder.decode(bytes);
}

/**
 * A byte search over `bytes` backed by Node's native `Buffer.indexOf` (memchr), or undefined off
 * Node. `TypedArray.prototype.indexOf` is several times slower when called once per line.
 */
export function nativeByteSearch(bytes: Uint8Array): ((value: number, from: number) => number) | undefined {
  if (nodeBuffer === undefined) return undefined;
  const view = nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  return (value, from) => view.indexOf(value, from);
}

/** Decode UTF-8 leniently (invalid bytes become U+FFFD); for searching, never for editing. */
export function decodeUtf8Lenient(bytes: Uint8Array): string {
  return lenientDecoder.decode(hasUtf8Bom(bytes) ? bytes.subarray(3) : bytes);
}

/** Encode text as UTF-8. */
export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * The byte offset of the first invalid UTF-8 sequence in `bytes`, or -1 when all are valid.
 * Overlong forms, surrogates (ED A0..BF) and code points above U+10FFFF are invalid, as in the
 * WHATWG decoder; a sequence cut by the end of the data is invalid at its first byte.
 */
export function findInvalidUtf8(bytes: Uint8Array): number {
  const length = bytes.length;
  // Runs of ASCII are skipped a 4-byte word at a time (the words aligned in the buffer).
  const wordsStart = Math.min(length, (4 - (bytes.byteOffset & 3)) & 3);
  const wordCount = (length - wordsStart) >> 2;
  const words = wordCount > 0 ? new Int32Array(bytes.buffer, bytes.byteOffset + wordsStart, wordCount) : undefined;
  let i = 0;
  while (i < length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      if (words !== undefined && i >= wordsStart && ((i - wordsStart) & 3) === 0) {
        let word = (i - wordsStart) >> 2;
        while (word < wordCount && (words[word]! & 0x80808080) === 0) word++;
        i = wordsStart + (word << 2);
      }
      continue;
    }
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < 0x80 || next > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** What a file's line endings are. `mixed` has both CRLF and bare LF. */
export type LineEnding = "lf" | "crlf" | "mixed" | "none";

/**
 * Classify the line endings of `text`.
 *
 * @returns `crlf` when every `\n` follows a `\r`, `lf` when none does, `mixed` when some do,
 *   `none` when there is no `\n` at all.
 */
export function detectLineEnding(text: string): LineEnding {
  const firstLf = text.indexOf("\n");
  if (firstLf < 0) return "none";
  const firstCrlf = text.indexOf("\r\n");
  if (firstCrlf < 0) return "lf";
  let lf = 0;
  let crlf = 0;
  for (let i = firstLf; i >= 0; i = text.indexOf("\n", i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
    if (lf > 0 && crlf > 0) return "mixed";
  }
  return crlf > 0 ? "crlf" : "lf";
}

/** What {@link sniffBinary} found. */
export interface BinaryKind {
  /** A media type (`image/png`, `font/woff2`, `application/octet-stream`...). */
  readonly mediaType: string;
  /** Words for the model: `PNG image`, `WOFF2 font`, `binary data`... */
  readonly description: string;
}

interface Magic {
  readonly offset: number;
  readonly bytes: readonly number[];
  readonly kind: BinaryKind;
  /** Extra bytes at another offset (WebP: RIFF....WEBP). */
  readonly also?: { readonly offset: number; readonly bytes: readonly number[] };
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** Known signatures, tried in order. */
const MAGICS: readonly Magic[] = [
  {
    offset: 0,
    bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    kind: { mediaType: "image/png", description: "PNG image" },
  },
  { offset: 0, bytes: [0xff, 0xd8, 0xff], kind: { mediaType: "image/jpeg", description: "JPEG image" } },
  { offset: 0, bytes: ascii("GIF87a"), kind: { mediaType: "image/gif", description: "GIF image" } },
  { offset: 0, bytes: ascii("GIF89a"), kind: { mediaType: "image/gif", description: "GIF image" } },
  {
    offset: 0,
    bytes: ascii("RIFF"),
    also: { offset: 8, bytes: ascii("WEBP") },
    kind: { mediaType: "image/webp", description: "WebP image" },
  },
  {
    offset: 0,
    bytes: ascii("BM"),
    kind: { mediaType: "image/bmp", description: "BMP image" },
    also: { offset: 6, bytes: [0, 0, 0, 0] },
  },
  { offset: 0, bytes: [0, 0, 1, 0], kind: { mediaType: "image/x-icon", description: "ICO image" } },
  { offset: 0, bytes: ascii("%PDF-"), kind: { mediaType: "application/pdf", description: "PDF document" } },
  { offset: 0, bytes: ascii("wOF2"), kind: { mediaType: "font/woff2", description: "WOFF2 font" } },
  { offset: 0, bytes: ascii("wOFF"), kind: { mediaType: "font/woff", description: "WOFF font" } },
  { offset: 0, bytes: [0x00, 0x01, 0x00, 0x00, 0x00], kind: { mediaType: "font/ttf", description: "TrueType font" } },
  { offset: 0, bytes: ascii("OTTO"), kind: { mediaType: "font/otf", description: "OpenType font" } },
  { offset: 0, bytes: [0x50, 0x4b, 0x03, 0x04], kind: { mediaType: "application/zip", description: "ZIP archive" } },
  { offset: 0, bytes: [0x1f, 0x8b], kind: { mediaType: "application/gzip", description: "gzip archive" } },
  {
    offset: 0,
    bytes: [0x28, 0xb5, 0x2f, 0xfd],
    kind: { mediaType: "application/zstd", description: "Zstandard archive" },
  },
  {
    offset: 0,
    bytes: ascii("7z\xbc\xaf\x27\x1c"),
    kind: { mediaType: "application/x-7z-compressed", description: "7-Zip archive" },
  },
  { offset: 257, bytes: ascii("ustar"), kind: { mediaType: "application/x-tar", description: "tar archive" } },
  {
    offset: 0,
    bytes: [0x00, 0x61, 0x73, 0x6d],
    kind: { mediaType: "application/wasm", description: "WebAssembly module" },
  },
  {
    offset: 0,
    bytes: [0x7f, 0x45, 0x4c, 0x46],
    kind: { mediaType: "application/x-elf", description: "ELF executable" },
  },
  {
    offset: 0,
    bytes: ascii("SQLite format 3\0"),
    kind: { mediaType: "application/vnd.sqlite3", description: "SQLite database" },
  },
  {
    offset: 0,
    bytes: [0xff, 0xfe],
    kind: { mediaType: "text/plain; charset=utf-16le", description: "UTF-16 (little-endian) text" },
  },
  {
    offset: 0,
    bytes: [0xfe, 0xff],
    kind: { mediaType: "text/plain; charset=utf-16be", description: "UTF-16 (big-endian) text" },
  },
];

const GENERIC_BINARY: BinaryKind = { mediaType: "application/octet-stream", description: "binary data" };

function startsWithAt(bytes: Uint8Array, offset: number, expected: readonly number[]): boolean {
  if (bytes.length < offset + expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[offset + i] !== expected[i]) return false;
  return true;
}

/** The known file type of `bytes` by magic number, or undefined. */
export function sniffMagic(bytes: Uint8Array): BinaryKind | undefined {
  for (const magic of MAGICS) {
    if (!startsWithAt(bytes, magic.offset, magic.bytes)) continue;
    if (magic.also !== undefined && !startsWithAt(bytes, magic.also.offset, magic.also.bytes)) continue;
    return magic.kind;
  }
  return undefined;
}

/**
 * Decide by content whether `bytes` are binary, never by file name. Looks at the first
 * {@link BINARY_SNIFF_BYTES}: a NUL byte, or more than {@link BINARY_CONTROL_RATIO} control
 * bytes, means binary. UTF-8 text (with or without BOM), including control-free Unicode, is not.
 *
 * @returns the kind (from the magic number when known, else `binary data`), or undefined for text.
 * @example
 * ```ts
 * sniffBinary(new TextEncoder().encode("wOF2\0\0...")); // { mediaType: "font/woff2", description: "WOFF2 font" }
 * ```
 */
export function sniffBinary(bytes: Uint8Array): BinaryKind | undefined {
  if (bytes.length === 0) return undefined;
  if (hasUtf8Bom(bytes)) return undefined;
  const magic = sniffMagic(bytes);
  if (magic !== undefined && magic.mediaType !== "image/x-icon" && magic.mediaType !== "font/ttf") return magic;
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < end; i++) {
    const b = bytes[i]!;
    if (b >= 0x20) continue;
    if (b === 0) return magic ?? GENERIC_BINARY;
    // \t \n \v \f \r, backspace and escape (ANSI colours) are normal in text.
    if (b === 9 || b === 10 || b === 11 || b === 12 || b === 13 || b === 8 || b === 27) continue;
    control++;
  }
  if (control / end > BINARY_CONTROL_RATIO) return magic ?? GENERIC_BINARY;
  return undefined;
}

/**
 * Why a file {@link sniffBinary} flagged cannot be read or edited. Text in an encoding the
 * tools do not read (UTF-16) is named as such, with a hint to convert it to UTF-8.
 *
 * @param verb - what was refused (`read`, `edit`).
 * @param size - the file's size in bytes, shown when given.
 * @example
 * ```ts
 * binaryRefusal("read", "u16.txt", { mediaType: "text/plain; charset=utf-16le", description: "UTF-16 (little-endian) text" });
 * // "Cannot read u16.txt: it is a text file in UTF-16 (little-endian), an encoding this tool does not read. Convert it to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8), then read it."
 * ```
 */
export function binaryRefusal(verb: string, display: string, kind: BinaryKind, size?: number): string {
  if (kind.mediaType.startsWith("text/")) {
    const encoding = kind.description.replace(/ text$/, "");
    const shown = size === undefined ? "" : ` (${formatBytes(size)})`;
    return (
      `Cannot ${verb} ${display}${shown}: it is a text file in ${encoding}, an encoding this tool does not read. ` +
      `Convert it to UTF-8 (e.g. iconv -f ${encoding.split(" ")[0]!} -t UTF-8), then ${verb} it.`
    );
  }
  const detail = size === undefined ? "" : `, ${kind.mediaType}, ${formatBytes(size)}`;
  return `Cannot ${verb} ${display}: it is a binary file (${kind.description}${detail}), not text.`;
}

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The index (in UTF-16 code units) of the first lone surrogate in `text`, or -1 when `text` is
 * well-formed. Text with a lone surrogate has no UTF-8 form: `TextEncoder` writes U+FFFD for it.
 *
 * @example
 * ```ts
 * loneSurrogateIndex("a\uD83D"); // 1
 * loneSurrogateIndex("a😀"); // -1
 * ```
 */
export function loneSurrogateIndex(text: string): number {
  return text.search(LONE_SURROGATE);
}

/**
 * The `EINPUT` message for a text field holding a lone surrogate, or undefined when every field is
 * well-formed: `oldText is not well-formed Unicode: it has a lone surrogate (U+D83D) at character 0.`
 *
 * @param fields - the text fields by name, checked in order.
 */
export function loneSurrogateMessage(fields: Readonly<Record<string, string>>): string | undefined {
  for (const [name, text] of Object.entries(fields)) {
    const at = loneSurrogateIndex(text);
    if (at < 0) continue;
    const unit = text.charCodeAt(at).toString(16).toUpperCase();
    return (
      `${name} is not well-formed Unicode: it has a lone surrogate (U+${unit}) at character ${formatCount(at)}, ` +
      "half of a character such as an emoji, which has no UTF-8 form. Send whole characters; nothing was changed."
    );
  }
  return undefined;
}

/** UTF-8 length in bytes of `text` (lone surrogates count 3, as TextEncoder writes U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 2; // 4 bytes for the pair of 2 code units
      i++;
    } else bytes += 2;
  }
  return bytes;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/**
 * The largest index `end ≤ maxChars` at which `text` can be cut without splitting a surrogate pair.
 *
 * @param maxChars - the budget in UTF-16 code units (JavaScript string length).
 */
export function cutIndexByChars(text: string, maxChars: number): number {
  if (text.length <= maxChars) return text.length;
  let end = Math.max(0, maxChars);
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end--;
  return end;
}

/**
 * The largest index `end` such that `text.slice(0, end)` takes at most `maxBytes` bytes in UTF-8,
 * never splitting a character.
 *
 * @param maxBytes - the budget in bytes.
 */
export function cutIndexByBytes(text: string, maxBytes: number): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let size: number;
    let units = 1;
    if (c < 0x80) size = 1;
    else if (c < 0x800) size = 2;
    else if (isHighSurrogate(c) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      size = 4;
      units = 2;
    } else size = 3;
    if (bytes + size > maxBytes) return i;
    bytes += size;
    i += units - 1;
  }
  return text.length;
}

/**
 * Format a byte count for messages: `512 bytes`, `300.0 KiB (307,200 bytes)`, `10.0 MiB (10,485,760 bytes)`.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  const exact = `${formatCount(bytes)} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB (${exact})`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB (${exact})`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GiB (${exact})`;
}

/** Format an integer with thousands separators (`1,234`), independent of locale. */
export function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `1 line`, `2 lines`: a count with its noun, pluralised with `s`. */
export function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * True when `bytes[0..limit)` holds a NUL byte. Scans four bytes at a time (a word holds a zero
 * byte when `(x - 0x01010101) & ~x & 0x80808080` is not 0), several times faster than
 * `TypedArray.prototype.indexOf` on the short buffers grep looks at.
 *
 * @param limit - how many leading bytes to look at (e.g. {@link BINARY_SNIFF_BYTES}).
 */
export function hasNulByte(bytes: Uint8Array, limit: number): boolean {
  const end = Math.min(bytes.length, limit);
  let i = 0;
  const head = Math.min(end, (4 - (bytes.byteOffset & 3)) & 3);
  for (; i < head; i++) if (bytes[i] === 0) return true;
  const words = (end - i) >> 2;
  if (words > 0) {
    const view = new Int32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let w = 0; w < words; w++) {
      const x = view[w]!;
      if (((x - 0x01010101) & ~x & 0x80808080) !== 0) return true;
    }
    i += words << 2;
  }
  for (; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

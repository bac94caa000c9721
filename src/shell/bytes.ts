/**
 * Byte ↔ string conversions for the just-bash bridge, with Node's meaning of each encoding name
 * (`binary`/`latin1`: one char per byte; `utf8` keeps a BOM as U+FEFF; invalid UTF-8 becomes
 * U+FFFD). No `Buffer`: this runs in browsers and Workers.
 *
 * @module
 */

/** The encodings just-bash passes (its `BufferEncoding`). */
export type ByteEncoding = "utf8" | "utf-8" | "ascii" | "binary" | "base64" | "hex" | "latin1";

/** Characters converted per `String.fromCharCode` call (stays well under engines' argument limits). */
const CHARS_PER_CHUNK = 0x8000;

const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });
const utf8Encoder = new TextEncoder();

/** One char per byte (`Buffer.toString("latin1")`). */
export function latin1FromUint8Array(bytes: Uint8Array): string {
  if (bytes.length <= CHARS_PER_CHUNK) return String.fromCharCode(...bytes);
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; start += CHARS_PER_CHUNK) {
    parts.push(String.fromCharCode(...bytes.subarray(start, start + CHARS_PER_CHUNK)));
  }
  return parts.join("");
}

/** One byte per char, keeping the low 8 bits (`Buffer.from(text, "latin1")`). */
export function uint8ArrayFromLatin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index += 1) bytes[index] = text.charCodeAt(index) & 0xff;
  return bytes;
}

/** UTF-8 text of `bytes`, invalid sequences as U+FFFD, a BOM kept as U+FEFF. */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

/** UTF-8 bytes of `text`. */
export function encodeUtf8(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

/**
 * Decode bytes the way Node's `Buffer.toString(encoding)` does.
 *
 * @param encoding - default `utf8`.
 */
export function decodeBytes(bytes: Uint8Array, encoding: ByteEncoding = "utf8"): string {
  switch (encoding) {
    case "utf8":
    case "utf-8":
      return decodeUtf8(bytes);
    case "binary":
    case "latin1":
      return latin1FromUint8Array(bytes);
    case "ascii":
      return latin1FromUint8Array(bytes.map((byte) => byte & 0x7f));
    case "base64":
      return btoa(latin1FromUint8Array(bytes));
    case "hex": {
      let hex = "";
      for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
      return hex;
    }
  }
}

/**
 * Encode text the way Node's `Buffer.from(text, encoding)` does (`ascii` as `latin1`, as Node writes it).
 *
 * @param encoding - default `utf8`.
 */
export function encodeText(text: string, encoding: ByteEncoding = "utf8"): Uint8Array {
  switch (encoding) {
    case "utf8":
    case "utf-8":
      return encodeUtf8(text);
    case "binary":
    case "latin1":
    case "ascii":
      return uint8ArrayFromLatin1(text);
    case "base64":
      return uint8ArrayFromLatin1(atob(text.replace(/[^A-Za-z0-9+/=]/g, "")));
    case "hex": {
      const pairs = text.match(/[0-9a-fA-F]{2}/g) ?? [];
      return Uint8Array.from(pairs, (pair) => Number.parseInt(pair, 16));
    }
  }
}

/** Concatenate two byte arrays into a new one. */
export function concatBytes(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first, 0);
  joined.set(second, first.length);
  return joined;
}

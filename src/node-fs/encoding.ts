/**
 * Text encodings of the `node:fs` face (`utf8`, `latin1`, `ascii`, `base64`, `base64url`, `hex`,
 * `utf16le`) and the bytes it returns: a `Buffer` where the host has one (Node, or a page that
 * installed the `buffer` package globally), else a plain `Uint8Array`.
 *
 * @module
 */

/** The encodings the face accepts, as Node names them. */
export type Encoding =
  | "utf8"
  | "utf-8"
  | "latin1"
  | "binary"
  | "ascii"
  | "base64"
  | "base64url"
  | "hex"
  | "utf16le"
  | "utf-16le"
  | "ucs2"
  | "ucs-2";

const ENCODINGS = new Set<string>([
  "utf8",
  "utf-8",
  "latin1",
  "binary",
  "ascii",
  "base64",
  "base64url",
  "hex",
  "utf16le",
  "utf-16le",
  "ucs2",
  "ucs-2",
]);

/** The host's `Buffer` class, when there is one. */
interface BufferClass {
  from(data: ArrayBufferLike, byteOffset?: number, length?: number): Uint8Array;
  from(data: string, encoding: string): Uint8Array;
}
function hostBuffer(): BufferClass | undefined {
  const candidate = (globalThis as { Buffer?: BufferClass }).Buffer;
  return typeof candidate?.from === "function" ? candidate : undefined;
}

/**
 * The encoding of an option (`"utf8"`, `{ encoding: "utf8" }`, `null`), checked.
 *
 * @returns the encoding, or undefined for bytes.
 * @throws TypeError (`code: "ERR_INVALID_ARG_VALUE"`) for an encoding Node does not know.
 */
export function encodingOf(options: unknown): Encoding | undefined {
  const value =
    typeof options === "string"
      ? options
      : typeof options === "object" && options !== null
        ? (options as { encoding?: unknown }).encoding
        : undefined;
  if (value === undefined || value === null || value === "buffer") return undefined;
  const name = String(value).toLowerCase();
  if (!ENCODINGS.has(name)) {
    const error = new TypeError(`The argument 'encoding' is invalid encoding. Received '${String(value)}'`);
    Object.assign(error, { code: "ERR_INVALID_ARG_VALUE" });
    throw error;
  }
  return name as Encoding;
}

/** Bytes as the face returns them: a `Buffer` over the same memory where there is one. */
export function toBuffer(bytes: Uint8Array): Uint8Array {
  const buffer = hostBuffer();
  return buffer === undefined ? bytes : buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const encoder = new TextEncoder();

/** Text in `encoding` (default UTF-8) as bytes. */
export function encode(text: string, encoding: Encoding = "utf8"): Uint8Array {
  const buffer = hostBuffer();
  if (buffer !== undefined) {
    const bytes = buffer.from(text, encoding);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  switch (encoding) {
    case "utf8":
    case "utf-8":
      return encoder.encode(text);
    case "latin1":
    case "binary":
    case "ascii":
      return Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);
    case "hex": {
      const bytes = new Uint8Array(Math.floor(text.length / 2));
      for (let index = 0; index < bytes.length; index += 1) {
        const byte = Number.parseInt(text.slice(index * 2, index * 2 + 2), 16);
        if (Number.isNaN(byte)) return bytes.slice(0, index);
        bytes[index] = byte;
      }
      return bytes;
    }
    case "base64":
    case "base64url": {
      const plain = text
        .replace(/-/g, "+")
        .replace(/_/g, "/")
        .replace(/[^A-Za-z0-9+/]/g, "");
      return Uint8Array.from(atob(plain + "=".repeat((4 - (plain.length % 4)) % 4)), (char) => char.charCodeAt(0));
    }
    default: {
      const bytes = new Uint8Array(text.length * 2);
      for (let index = 0; index < text.length; index += 1) {
        const unit = text.charCodeAt(index);
        bytes[index * 2] = unit & 0xff;
        bytes[index * 2 + 1] = unit >> 8;
      }
      return bytes;
    }
  }
}

/** Bytes as text in `encoding`. */
export function decode(bytes: Uint8Array, encoding: Encoding): string {
  const buffer = hostBuffer();
  if (buffer !== undefined) {
    return (
      buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as { toString(e: string): string }
    ).toString(encoding);
  }
  switch (encoding) {
    case "utf8":
    case "utf-8":
      return new TextDecoder().decode(bytes);
    case "latin1":
    case "binary":
      return Array.from(bytes, (byte) => String.fromCharCode(byte)).join("");
    case "ascii":
      return Array.from(bytes, (byte) => String.fromCharCode(byte & 0x7f)).join("");
    case "hex":
      return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    case "base64":
      return btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""));
    case "base64url":
      return btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");
    default: {
      let text = "";
      for (let index = 0; index + 1 < bytes.length; index += 2)
        text += String.fromCharCode((bytes[index] as number) | ((bytes[index + 1] as number) << 8));
      return text;
    }
  }
}

/**
 * The bytes of data given to a write: a string (in `encoding`), a typed array or a `DataView`.
 *
 * @throws TypeError (`code: "ERR_INVALID_ARG_TYPE"`) for anything else.
 */
export function dataBytes(data: unknown, encoding: Encoding | undefined): Uint8Array {
  if (typeof data === "string") return encode(data, encoding ?? "utf8");
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const error = new TypeError(
    'The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView.',
  );
  Object.assign(error, { code: "ERR_INVALID_ARG_TYPE" });
  throw error;
}

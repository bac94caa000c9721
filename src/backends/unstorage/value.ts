/**
 * The bytes stored under one key: a kind byte, the modification time, then the file's content.
 * One key holds one whole file with its metadata, so a write is one `set`: nobody ever reads a
 * mix of two writes, nor a size that disagrees with the content.
 *
 * @module
 */

/** The kind byte of a file's value (`F`). */
export const FILE_KIND = 0x46;
/** The kind byte of a directory marker's value (`D`). */
export const DIRECTORY_KIND = 0x44;
/** Bytes before the content: the kind byte and a little-endian float64 `mtimeMs`. */
export const VALUE_HEADER_BYTES = 9;

/** A decoded value. `content` is a view into the stored bytes: copy it before handing it out. */
export interface StoredValue {
  readonly kind: "file" | "directory";
  readonly mtimeMs: number;
  readonly content: Uint8Array;
}

/** Encode a value: a new array, so the caller's `content` can change afterwards. */
export function encodeValue(kind: "file" | "directory", mtimeMs: number, content?: Uint8Array): Uint8Array {
  const length = content?.byteLength ?? 0;
  const value = new Uint8Array(VALUE_HEADER_BYTES + length);
  value[0] = kind === "file" ? FILE_KIND : DIRECTORY_KIND;
  new DataView(value.buffer).setFloat64(1, mtimeMs, true);
  if (content !== undefined) value.set(content, VALUE_HEADER_BYTES);
  return value;
}

/** Decode what the store returned; `undefined` when it is not one of our values (a foreign key or a driver that stringified it). */
export function decodeValue(raw: unknown): StoredValue | undefined {
  if (!(raw instanceof Uint8Array) || raw.byteLength < VALUE_HEADER_BYTES) return undefined;
  const kind = raw[0] === FILE_KIND ? "file" : raw[0] === DIRECTORY_KIND ? "directory" : undefined;
  if (kind === undefined) return undefined;
  const mtimeMs = new DataView(raw.buffer, raw.byteOffset, raw.byteLength).getFloat64(1, true);
  return { kind, mtimeMs, content: raw.subarray(VALUE_HEADER_BYTES) };
}

/**
 * Base64 encoding of bytes with platform built-ins only (`btoa`), in chunks so large inputs do
 * not overflow the argument list of `String.fromCharCode`.
 *
 * @module
 */

/** Bytes converted per `String.fromCharCode` call: 32 KiB. */
const CHUNK_BYTES = 0x8000;

/**
 * Encode bytes as standard base64 (with padding, no line breaks, no `data:` prefix).
 *
 * @example
 * ```ts
 * bytesToBase64(Uint8Array.of(104, 105)); // "aGk="
 * ```
 */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHUNK_BYTES) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK_BYTES));
  }
  return btoa(binary);
}

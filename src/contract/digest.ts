/**
 * Content digests: bytes in, a stable hex string out.
 *
 * @module
 */

/** A content digest: bytes in, a stable hex string out. */
export type Digest = (data: Uint8Array) => Promise<string>;

/**
 * SHA-256 through WebCrypto (`crypto.subtle`), available in browsers, Workers and Node.
 *
 * @returns a {@link Digest} giving 64 lowercase hex characters.
 * @throws TypeError at creation when `crypto.subtle` is missing (an insecure browser context).
 */
export function sha256Digest(): Digest {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new TypeError("sha256Digest needs crypto.subtle (a secure context: https or localhost)");
  }
  return async (data) => {
    const hash = new Uint8Array(await subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
    let hex = "";
    for (const byte of hash) hex += byte.toString(16).padStart(2, "0");
    return hex;
  };
}

/**
 * SHA-256 through `node:crypto`, for hosts that hash large files often.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Digest } from "../../contract/digest.js";

/**
 * SHA-256 through `node:crypto`: the same 64 lowercase hex characters as `sha256Digest()`,
 * without WebCrypto's copy and promise overhead.
 *
 * @returns a {@link Digest}.
 * @example
 * ```ts
 * const tools = createFsTools({ fs, digest: nodeDigest() });
 * await nodeDigest()(new TextEncoder().encode("abc"));
 * // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 * ```
 */
export function nodeDigest(): Digest {
  return async (data) => createHash("sha256").update(data).digest("hex");
}

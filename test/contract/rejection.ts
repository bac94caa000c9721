/** Test helper: the FsError a call rejects with. */
import { FsError } from "../../src/contract/errors.js";

/**
 * Await `promise` and return the {@link FsError} it rejects with.
 *
 * @throws the rejection itself when it is not an FsError; an Error when `promise` resolves.
 * @example
 * ```ts
 * expect((await rejection(fs.readFile("/missing"))).code).toBe("ENOENT");
 * ```
 */
export async function rejection(promise: Promise<unknown>): Promise<FsError> {
  try {
    await promise;
  } catch (error) {
    if (FsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

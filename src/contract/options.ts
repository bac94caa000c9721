/**
 * The one check of option keys every factory makes at creation.
 *
 * @module
 */

/**
 * Throw `TypeError` for option keys a factory does not know.
 *
 * @param factory - the factory's name, used in the message.
 * @param options - the caller's options object.
 * @param known - every key the factory accepts.
 * @throws TypeError `${factory} needs an options object` for a non-object, and
 *   `createReadTool got an unknown option "maxbytes". Known options: fs, cwd, ...` for an unknown key.
 * @example
 * ```ts
 * assertKnownOptions("memoryFileSystem", options, ["files", "cwd"]);
 * ```
 */
export function assertKnownOptions(factory: string, options: object, known: readonly string[]): void {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`${factory} needs an options object`);
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(`${factory} got an unknown option "${key}". Known options: ${known.join(", ") || "none"}`);
    }
  }
}

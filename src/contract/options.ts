/**
 * The one check of option keys every factory makes at creation, and {@link OptionError}, the
 * error every factory throws for an option it does not know or a value it cannot use.
 *
 * @module
 */
import { defineErrorMarker } from "./errors.js";

/** Fields of an {@link OptionError}; its message is built from them. */
export interface OptionErrorFields {
  /** The factory whose options were refused: `createReadTool`, `createFsTools`. */
  readonly factory: string;
  /**
   * The option concerned, as a path from the factory's options: `maxbytes`, `permissions.deny`,
   * `read.maxBytes`, `grep.offload.foo`.
   */
  readonly option: string;
  /**
   * For an unknown option: the keys accepted where it was found (at the top level, or in the
   * object {@link OptionErrorFields.within} names). Absent for a bad value.
   */
  readonly known?: readonly string[];
  /** For an unknown option inside an option object: that object's path (`permissions`, `grep.offload`). */
  readonly within?: string;
  /** For a bad value: what is wrong with it (`must be a positive integer, got 0`). Absent for an unknown option. */
  readonly problem?: string;
  /**
   * For a shared option set inside one tool's options of a bundle (`read: { digest }`): that
   * tool's key (`read`). The message then names the tool's options and the option:
   * `createAiSdkFsTools read options cannot set digest: set it once at the top level`.
   */
  readonly sharedIn?: string;
}

const OPTION_ERROR_MARKER = defineErrorMarker<OptionError>("better-fs-tools.error.OptionError");

/** `a.b` under `prefix`: `prefix.a.b`. */
function under(prefix: string | undefined, path: string): string {
  return prefix === undefined || prefix === "" ? path : `${prefix}.${path}`;
}

/**
 * A factory's refusal of its options, at creation: an unknown key, or a value it cannot use.
 * A `TypeError` (programmer misuse), with the data in fields:
 * - unknown key: `createReadTool got an unknown option "maxbytes". Known options: fs, cwd, ...`
 *   (`{ factory: "createReadTool", option: "maxbytes", known: [...] }`), or inside an option object
 *   `createReadTool permissions got an unknown option "deny". Known options: allow, approve`
 *   (`option: "permissions.deny"`, `within: "permissions"`);
 * - bad value: `createReadTool maxBytes must be a positive integer, got 0`
 *   (`{ option: "maxBytes", problem: "must be a positive integer, got 0" }`).
 *
 * Use {@link OptionError.isInstance} rather than `instanceof` across package copies.
 *
 * @example
 * ```ts
 * try { createReadTool({ fs, maxbytes: 1 } as never); } catch (error) {
 *   if (OptionError.isInstance(error)) error.option; // "maxbytes"
 * }
 * ```
 */
export class OptionError extends TypeError {
  // `name` stays "TypeError": OptionError is the TypeError factories always threw, with fields.
  /** The factory whose options were refused. */
  declare readonly factory: string;
  /** The option concerned, as a path from the factory's options. */
  declare readonly option: string;
  /** For an unknown option: the keys accepted where it was found; undefined for a bad value. */
  declare readonly known: readonly string[] | undefined;
  /** For an unknown option inside an option object: that object's path. */
  declare readonly within: string | undefined;
  /** For a bad value: what is wrong with it; undefined for an unknown option. */
  declare readonly problem: string | undefined;
  /** For a shared option inside one tool's options of a bundle: that tool's key; else undefined. */
  declare readonly sharedIn: string | undefined;

  constructor(fields: OptionErrorFields) {
    super(OptionError.format(fields));
    // Fields are not enumerable, so an OptionError still equals the TypeError with its message.
    const values = {
      factory: fields.factory,
      option: fields.option,
      known: fields.known === undefined ? undefined : Object.freeze([...fields.known]),
      within: fields.within,
      problem: fields.problem,
      sharedIn: fields.sharedIn,
    };
    for (const [key, value] of Object.entries(values)) {
      Object.defineProperty(this, key, { value, enumerable: false });
    }
    OPTION_ERROR_MARKER.mark(this);
  }

  /** The message of an error with these fields (the one format of every option error). */
  static format(fields: OptionErrorFields): string {
    if (fields.sharedIn !== undefined) {
      const name = fields.option.slice(fields.sharedIn.length + 1) || fields.option;
      return `${fields.factory} ${fields.sharedIn} options cannot set ${name}: set it once at the top level`;
    }
    if (fields.problem !== undefined) return `${fields.factory} ${fields.option} ${fields.problem}`;
    const key =
      fields.within === undefined ? fields.option : fields.option.slice(fields.within.length + 1) || fields.option;
    const where = fields.within === undefined ? "" : ` ${fields.within}`;
    return `${fields.factory}${where} got an unknown option "${key}". Known options: ${fields.known?.join(", ") || "none"}`;
  }

  /**
   * The same refusal restated by an enclosing factory: `createReadTool maxBytes ...` as
   * `createFsTools read.maxBytes ...`.
   *
   * @param factory - the enclosing factory's name.
   * @param prefix - the key under which the enclosing factory passed these options (`read`), or
   *   undefined when they were its own top-level options.
   * @param known - the keys to list instead of this error's `known` (for an unknown key found at
   *   the top level of the inner factory's options).
   * @returns a new OptionError.
   */
  restate(factory: string, prefix?: string, known?: readonly string[]): OptionError {
    const topLevel = this.problem === undefined && this.within === undefined;
    return new OptionError({
      factory,
      option: under(prefix, this.option),
      ...(this.problem === undefined ? { known: topLevel && known !== undefined ? known : (this.known ?? []) } : {}),
      ...(this.problem === undefined && (prefix !== undefined || this.within !== undefined)
        ? { within: topLevel ? prefix : under(prefix, this.within!) }
        : {}),
      ...(this.problem === undefined ? {} : { problem: this.problem }),
      ...(this.sharedIn === undefined ? {} : { sharedIn: under(prefix, this.sharedIn) }),
    });
  }

  /** True for any `OptionError`, from this copy of the package or another. */
  static isInstance(value: unknown): value is OptionError {
    return OPTION_ERROR_MARKER.isInstance(value);
  }
}

/**
 * Throw {@link OptionError} for option keys a factory does not know.
 *
 * @param factory - the factory's name, used in the message.
 * @param options - the caller's options object (or, with `within`, one option's object value).
 * @param known - every key accepted there.
 * @param within - the path of the option whose object `options` is (`permissions`), when it is
 *   not the factory's top-level options.
 * @throws TypeError `${factory} needs an options object` for a non-object; OptionError
 *   `createReadTool got an unknown option "maxbytes". Known options: fs, cwd, ...` for an unknown
 *   key, or `createReadTool permissions got an unknown option "deny". Known options: allow, approve`
 *   with `within`.
 * @example
 * ```ts
 * assertKnownOptions("memoryFileSystem", options, ["files", "cwd"]);
 * assertKnownOptions("createReadTool", options.permissions, ["allow", "approve"], "permissions");
 * ```
 */
export function assertKnownOptions(factory: string, options: object, known: readonly string[], within?: string): void {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(
      within === undefined ? `${factory} needs an options object` : `${factory} ${within} must be an object`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new OptionError({
        factory,
        option: under(within, key),
        known,
        ...(within === undefined ? {} : { within }),
      });
    }
  }
}

/**
 * Throw {@link OptionError} for a value a factory cannot use.
 *
 * @param factory - the factory's name.
 * @param option - the option's path (`maxBytes`, `permissions.allow`).
 * @param problem - what is wrong, worded to follow the option (`must be a positive integer, got 0`).
 * @returns never; it throws.
 * @throws OptionError `${factory} ${option} ${problem}`.
 * @example
 * ```ts
 * if (!(value > 0)) optionValueError("createReadTool", "maxBytes", `must be a positive integer, got ${value}`);
 * ```
 */
export function optionValueError(factory: string, option: string, problem: string): never {
  throw new OptionError({ factory, option, problem });
}

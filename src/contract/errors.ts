/**
 * Error codes and errors of the contract: {@link FsError} (what a backend throws, Node's codes
 * and wording) and {@link ToolError} (what a failed tool call carries, the same codes plus the
 * tools' own).
 *
 * @module
 */

/** Node-style error codes a backend or the gate may raise. */
export type FsErrorCode =
  | "ENOENT"
  | "EEXIST"
  | "EISDIR"
  | "ENOTDIR"
  | "ENOTEMPTY"
  | "EACCES"
  | "EPERM"
  | "EINVAL"
  | "ENOSPC"
  | "EFBIG"
  | "ELOOP"
  | "ENAMETOOLONG"
  | "EROFS"
  | "EBUSY"
  | "EXDEV"
  | "ENOTSUP"
  | "EIO";

/** Human text for each code, as Node prints it after the code. */
export const FS_ERROR_DESCRIPTIONS: Readonly<Record<FsErrorCode, string>> = Object.freeze({
  ENOENT: "no such file or directory",
  EEXIST: "file already exists",
  EISDIR: "illegal operation on a directory",
  ENOTDIR: "not a directory",
  ENOTEMPTY: "directory not empty",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EINVAL: "invalid argument",
  ENOSPC: "no space left on device",
  EFBIG: "file too large",
  ELOOP: "too many symbolic links encountered",
  ENAMETOOLONG: "name too long",
  EROFS: "read-only file system",
  EBUSY: "resource busy or locked",
  EXDEV: "cross-device link not permitted",
  ENOTSUP: "operation not supported",
  EIO: "i/o error",
});

/**
 * Whether `code` is one of the {@link FsErrorCode}s (own keys of {@link FS_ERROR_DESCRIPTIONS}
 * only: `"toString"` is not a code).
 *
 * @param code - anything, typically the `code` field of a caught error.
 * @returns true when `code` is a string naming one of our codes.
 * @example
 * ```ts
 * isFsErrorCode("ENOENT"); // true
 * isFsErrorCode("ECONNRESET"); // false
 * ```
 */
export function isFsErrorCode(code: unknown): code is FsErrorCode {
  return typeof code === "string" && Object.hasOwn(FS_ERROR_DESCRIPTIONS, code);
}

/**
 * The marker of one error class: a `Symbol.for` key set on each instance, and the test for it.
 * Because the key is global (`Symbol.for`), `isInstance` matches errors made by another copy of
 * the package, where `instanceof` would not.
 */
export interface ErrorMarker<T extends Error> {
  /** The global symbol, `Symbol.for(key)`. */
  readonly symbol: symbol;
  /** Set the marker on a new instance (call it in the constructor). */
  mark(error: T): void;
  /** True for a value that carries the marker (from this copy of the package or another). */
  isInstance(value: unknown): value is T;
}

/**
 * Make the marker of an error class, shared by {@link FsError}, `OptionError` and `ToolInputError`.
 *
 * @param key - the `Symbol.for` key, `better-fs-tools.error.<ClassName>` (written out whole, so
 *   the key can be found in source and bundles).
 * @returns the marker: `mark(this)` in the constructor, `isInstance` for the class's static.
 * @example
 * ```ts
 * const MARKER = defineErrorMarker<MyError>("better-fs-tools.error.MyError");
 * class MyError extends Error {
 *   constructor(message: string) { super(message); MARKER.mark(this); }
 *   static isInstance(value: unknown): value is MyError { return MARKER.isInstance(value); }
 * }
 * MyError.isInstance({ [Symbol.for("better-fs-tools.error.MyError")]: true }); // true
 * ```
 */
export function defineErrorMarker<T extends Error>(key: string): ErrorMarker<T> {
  const symbol = Symbol.for(key);
  return Object.freeze({
    symbol,
    mark(error: T): void {
      // Not enumerable: the marker stays out of spreads and of deep-equality checks.
      Object.defineProperty(error, symbol, { value: true, enumerable: false });
    },
    isInstance(value: unknown): value is T {
      return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[symbol] === true;
    },
  });
}

const FS_ERROR_MARKER = defineErrorMarker<FsError>("better-fs-tools.error.FsError");

/** Options of {@link FsError}. */
export interface FsErrorOptions {
  /** The call that failed, Node's name for it: `open`, `stat`, `scandir`, `mkdir`, `rm`, `rename`... */
  syscall: string;
  /** The path the call was given (absolute, in the backend's namespace). */
  path?: string;
  /** The second path of a two-path call (`rename`, `symlink`). */
  dest?: string;
  /** Extra detail appended to the message after ` (...)`, e.g. the quota left. */
  detail?: string;
  /** The underlying error (DOMException, memfs or Node error). */
  cause?: unknown;
  /** For `realpath`'s `ENOENT`/`ENOTDIR`: how far the path resolved (see {@link ResolvedPrefix}). */
  resolvedPrefix?: ResolvedPrefix;
}

/**
 * How far a path resolved before a name was missing, carried by an `ENOENT` or `ENOTDIR` from a
 * backend's `realpath` (the Node backend gives it; others may). With it the gate learns the
 * real path of a missing path from that one call, instead of looking its prefixes up itself:
 * the real path is `real` followed by `missing`, and it does not exist.
 *
 * @example
 * ```ts
 * // /w/link -> /w/real; "/w/link/new/a.txt" does not exist yet:
 * // realpath rejects with code "ENOENT", path "/w/link/new/a.txt" and
 * // resolvedPrefix { real: "/w/real", missing: ["new", "a.txt"] }
 * ```
 */
export interface ResolvedPrefix {
  /**
   * The real path (absolute, normalised, every symlink resolved, in the backend's namespace) of
   * the longest leading part of the path that exists: a directory, or a file when the next name
   * failed with `ENOTDIR`.
   */
  readonly real: string;
  /**
   * The names after it, in order, at least one, each a plain name (no `/`, not `.` or `..`).
   * Symlinks met on the way are already followed, so these may come from a link's target. The
   * first does not exist (or `real` is not a directory); none after it was looked up.
   */
  readonly missing: readonly string[];
}

/**
 * A filesystem error with a Node-style `code`. Its message starts with the code, exactly as Node
 * words it (`ENOENT: no such file or directory, open '/a'`), because just-bash and many agents
 * match on that text.
 *
 * Use {@link FsError.isInstance} rather than `instanceof`: it still matches when two copies of
 * the package are installed.
 *
 * @example
 * ```ts
 * throw new FsError("ENOENT", { syscall: "open", path: "/a" });
 * // message: "ENOENT: no such file or directory, open '/a'"
 * ```
 */
export class FsError extends Error {
  override readonly name = "FsError";
  readonly code: FsErrorCode;
  readonly syscall: string;
  readonly path: string | undefined;
  readonly dest: string | undefined;
  /**
   * The extra detail given at creation (shown after the message in parentheses), e.g. the gate's
   * reason or the quota left; `undefined` when none. Read it here, never out of `message`.
   */
  readonly detail: string | undefined;
  /** Set by a `realpath` that rejects with `ENOENT`/`ENOTDIR` when the backend knows it: {@link ResolvedPrefix}. */
  readonly resolvedPrefix: ResolvedPrefix | undefined;

  constructor(code: FsErrorCode, options: FsErrorOptions) {
    const where =
      options.path === undefined
        ? ""
        : options.dest === undefined
          ? ` '${options.path}'`
          : ` '${options.path}' -> '${options.dest}'`;
    const detail = options.detail === undefined ? "" : ` (${options.detail})`;
    super(`${code}: ${FS_ERROR_DESCRIPTIONS[code]}, ${options.syscall}${where}${detail}`, {
      cause: options.cause,
    });
    this.code = code;
    this.syscall = options.syscall;
    this.path = options.path;
    this.dest = options.dest;
    this.detail = options.detail;
    this.resolvedPrefix =
      options.resolvedPrefix === undefined
        ? undefined
        : Object.freeze({
            real: options.resolvedPrefix.real,
            missing: Object.freeze([...options.resolvedPrefix.missing]),
          });
    FS_ERROR_MARKER.mark(this);
  }

  /** True for any `FsError`, from this copy of the package or another. */
  static isInstance(value: unknown): value is FsError {
    return FS_ERROR_MARKER.isInstance(value);
  }
}

/**
 * Why a tool call failed. Filesystem codes keep their Node names; the others are the tools' own:
 * - `EINPUT`: the input does not fit the tool's schema or rules;
 * - `ENOMATCH`: the old text or patch context was not found;
 * - `EAMBIGUOUS`: the old text or context matched more than once;
 * - `ENOTREAD`: write or edit of an existing file that was not read in this session;
 * - `ESTALE`: the file changed since it was read;
 * - `EBINARY`: binary content where text was needed;
 * - `EFBIG`: over a size cap;
 * - `EILSEQ`: not valid UTF-8;
 * - `EDENIED`: refused by the gate (outside the workspace with no rule, or a refused command);
 * - `ETIMEDOUT`: a command ran past its timeout.
 */
export type ToolErrorCode =
  | FsErrorCode
  | "EINPUT"
  | "ENOMATCH"
  | "EAMBIGUOUS"
  | "ENOTREAD"
  | "ESTALE"
  | "EBINARY"
  | "EFBIG"
  | "EILSEQ"
  | "EDENIED"
  | "ETIMEDOUT";

/** The error of a failed tool call. `message` is what the model sees. */
export interface ToolError {
  readonly code: ToolErrorCode;
  readonly message: string;
  /** The path concerned, where there is one (absolute). */
  readonly path?: string;
  /** The path as the message shows it (relative to the working directory when under it), where there is one. */
  readonly displayPath?: string;
  /** `EAMBIGUOUS`: how many times the text or the patch lines matched (overlapping matches counted). */
  readonly occurrences?: number;
  /**
   * `EAMBIGUOUS`: the 1-based lines where the matches start, distinct and ascending; at most the
   * first 10 (the number the message lists), {@link ToolError.lineCount} tells how many in all.
   */
  readonly lines?: readonly number[];
  /** `EAMBIGUOUS`: how many distinct lines the matches start on (can be more than `lines` holds). */
  readonly lineCount?: number;
}

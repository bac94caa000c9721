/**
 * Content converters: how `read` turns a non-text file (an image, say) into result parts the
 * model can take, instead of refusing it as binary.
 *
 * @module
 */
import type { ResultPart } from "../kit/result.js";
import type { ToolError } from "../../contract/errors.js";

/** What a converter is given. */
export interface ConversionInput {
  /** The file's bytes. */
  readonly bytes: Uint8Array;
  /** Absolute path of the file. */
  readonly path: string;
  /** The path as the model sees it (relative to cwd when inside it). */
  readonly displayPath: string;
}

/** What a converter returns for a file it handles: parts for the model, or an error it can act on. */
export type ConversionOutcome =
  { readonly parts: readonly ResultPart[] } | { readonly error: Pick<ToolError, "code" | "message"> };

/**
 * Turns some kinds of files into result parts. `read` asks its converters in order, for files
 * that are not plain text; the first one that returns an outcome wins.
 */
export interface ContentConverter {
  /** Short name for messages (`image`). */
  readonly name: string;
  /**
   * Convert the file, or return `undefined` when this converter does not handle it.
   * Must not throw for a file it handles: return `{ error }` instead.
   */
  convert(input: ConversionInput): ConversionOutcome | undefined | Promise<ConversionOutcome | undefined>;
}

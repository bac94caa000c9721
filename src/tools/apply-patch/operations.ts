/**
 * The file operations a patch parses into, whichever its format (the `*** Begin Patch` envelope
 * of `parser.ts`, or a unified diff of `unified.ts`).
 *
 * @module
 */

/** One hunk of an `*** Update File:` section: lines to find and what replaces them. */
export interface PatchChunk {
  /** Text of the `@@ ...` lines, in order; each narrows the search (empty for a bare `@@`). */
  readonly contexts: readonly string[];
  /** Lines that must be in the file (context and `-` lines), in order. */
  readonly oldLines: readonly string[];
  /** Lines that replace them (context and `+` lines), in order. */
  readonly newLines: readonly string[];
  /**
   * For each of `newLines`, the index in `oldLines` of the context line it repeats (the file's
   * own line is kept there), or -1 for an added (`+`) line.
   */
  readonly sources: readonly number[];
  /** True when `*** End of File` closed the hunk: the old lines must end the file. */
  readonly endOfFile: boolean;
  /** 1-based line of the hunk's first line in the patch text. */
  readonly line: number;
  /**
   * Whether the new text ends with a line break, from a unified diff (read on the last hunk):
   * false or true after its `\ No newline at end of file` (the hunk then ends the file: false
   * when the marker follows the last new line, true when it follows only an old one), `"keep"`
   * without one (the file's end stays as it is). Undefined (the envelope): a changed text ends
   * with a line break, as the reference tool's does.
   */
  readonly finalNewline?: boolean | "keep";
  /**
   * From a unified diff's hunk header (`@@ -12,0 +13,2 @@`): the old start line, 1-based. It
   * only breaks ties (lines matching in several places, as `-U0` hunks without context often
   * do, go where the header says when it names one of those places) and places a hunk with no
   * old lines (inserted after that line; 0: at the start). Undefined for the envelope.
   */
  readonly oldStart?: number;
}

/** One file operation of a patch. `line` is the 1-based line of its `***` header in the patch. */
export type PatchOperation =
  | {
      readonly type: "add";
      readonly path: string;
      readonly contents: string;
      readonly line: number;
      /** True from a unified diff's `--- /dev/null`: the file must not exist (the envelope's Add File replaces one). */
      readonly createOnly?: boolean;
    }
  | { readonly type: "delete"; readonly path: string; readonly line: number }
  | {
      readonly type: "update";
      readonly path: string;
      readonly moveTo?: string;
      readonly chunks: readonly PatchChunk[];
      readonly line: number;
    };

/** The outcome of {@link parsePatch}: the operations, or a message the model can act on. */
export type ParsedPatch =
  | { readonly ok: true; readonly operations: readonly PatchOperation[] }
  | { readonly ok: false; readonly message: string; readonly line?: number };

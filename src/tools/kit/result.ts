/**
 * Tool results: what every core tool returns. A result is made of parts the model sees
 * (`text`, or `media` for images) plus structured fields for the host.
 *
 * Expected failures (missing file, no match, denied path) are results with `ok: false`, never
 * thrown errors: the model reads the text part and acts on it.
 *
 * @module
 */
import type { ToolError, ToolErrorCode } from "../../contract/errors.js";

/** A text part of a result, shown to the model as is. */
export interface TextPart {
  readonly type: "text";
  readonly text: string;
}

/** A media part (an image), shown to the model as a file part. */
export interface MediaPart {
  readonly type: "media";
  /** IANA media type, e.g. `image/png`. */
  readonly mediaType: string;
  /** The bytes, base64-encoded (no `data:` prefix). */
  readonly data: string;
}

export type ResultPart = TextPart | MediaPart;

interface ResultBase {
  /** false when the call failed; `error` then says why and `parts` carries the same message. */
  readonly ok: boolean;
  /** What the model sees. */
  readonly parts: readonly ResultPart[];
  /** Set when `ok` is false. */
  readonly error?: ToolError;
}

/** Result of `read` (and of views in the presets). */
export interface ReadResult extends ResultBase {
  readonly kind: "read";
  /** Absolute path read. */
  readonly path?: string;
  /** Total lines in the file (text reads). */
  readonly totalLines?: number;
  /** First line returned, 1-based. */
  readonly startLine?: number;
  /** Last line returned, 1-based, inclusive. */
  readonly endLine?: number;
  /** True when fewer lines were returned than asked, because of a cap. */
  readonly truncated?: boolean;
  /** True when the file's last line ends with a line break (text reads), which numbered lines do not show. */
  readonly finalNewline?: boolean;
}

/** One file changed by a mutation. */
export interface FileChange {
  readonly action: "added" | "updated" | "deleted" | "moved";
  /** Absolute path (the destination for `moved`). */
  readonly path: string;
  /** Source path for `moved`. */
  readonly from?: string;
  /** `moved` only: a file was already at the destination and was replaced. */
  readonly replaced?: true;
  /** Bytes written, where bytes were written. */
  readonly bytes?: number;
  /**
   * 1-based line where the change starts, where the tool knows it: `edit` the first replaced
   * occurrence, the text editor's `insert` the first inserted line, `apply_patch` the first
   * changed line of an update. The lines before it are unchanged, so it is the same line in the
   * old and the new content.
   */
  readonly line?: number;
}

/** Result of `write`, `edit`, `apply_patch`. */
export interface MutationResult extends ResultBase {
  readonly kind: "mutation";
  readonly changes: readonly FileChange[];
  /**
   * `"relaxed"` when the backend's durability is relaxed (`FileSystem.durability`): the change is
   * made but a crash soon after may lose it; the text ends with {@link RELAXED_DURABILITY_NOTE}.
   */
  readonly durability?: "relaxed";
}

/** The line a successful mutation result ends with on a backend whose durability is relaxed. */
export const RELAXED_DURABILITY_NOTE =
  "Note: this backend saves changes after a short delay (durability: relaxed); a crash before the save loses them.";

/** Result of `bash`. */
export interface ShellResult extends ResultBase {
  readonly kind: "shell";
  readonly stdout: string;
  readonly stderr: string;
  /** Process exit code; 124 on timeout, as `timeout(1)` does. */
  readonly exitCode: number;
  readonly timedOut?: boolean;
  /** Path of the full output under `tool-outputs/` when it was cut. */
  readonly outputPath?: string;
}

/** Result of `list`, `glob`, `grep`. */
export interface SearchResult extends ResultBase {
  readonly kind: "search";
  /** Number of entries or matches found (before caps). */
  readonly count: number;
  readonly truncated?: boolean;
  /**
   * Files `grep` could not read (so did not search; their matches, if any, are missing), sorted
   * by path: absolute path and the error's code (`EIO` for a backend error that has none). The
   * text names them too. Absent when every file was read.
   */
  readonly unreadable?: readonly { readonly path: string; readonly code: ToolErrorCode }[];
  /** Lines `grep` skipped as too long to test (their matches, if any, are missing); the text says so too. Absent when none was. */
  readonly skippedLongLines?: SkippedLongLines;
  /**
   * Paths `list`, `glob` and `grep` skipped because a deny rule of the permissions config refuses
   * them, sorted by path: a `listDir` rule (not listed, a directory not entered) or a `readFile`
   * rule (`grep`: not read, so not searched). The text says how many, without naming them.
   * Absent when none was skipped.
   */
  readonly denied?: readonly DeniedPath[];
}

/** Lines `grep` skipped without testing them, as longer than its limit for the pattern; see {@link SearchResult.skippedLongLines}. */
export interface SkippedLongLines {
  /** Lines skipped, in all files. */
  readonly count: number;
  /**
   * The limit used for this pattern, in characters (a CRLF line's `"\r"` not counted): the tool's
   * `maxScanLineLength`, or `CUBIC_PATTERN_SCAN_LINE_LENGTH` when smaller, for a pattern with
   * two unbounded repeats and text between them that runs on the JavaScript engine because it
   * has a lookaround or a backreference (`a.*b.*c(?!x)`).
   */
  readonly maxScanLineLength: number;
  /** The files that had such lines, sorted by path: absolute path and lines skipped there. */
  readonly files: readonly { readonly path: string; readonly count: number }[];
}

/** A path a search left out because a deny rule of the permissions config refuses it. */
export interface DeniedPath {
  /** Real absolute path. */
  readonly path: string;
  /** The rule's tool: `listDir` (not listed, not entered) or `readFile` (not read, so not searched). */
  readonly tool: "listDir" | "readFile";
}

export type ToolResult = ReadResult | MutationResult | ShellResult | SearchResult;

/** A text-only part list. */
export function textParts(text: string): readonly ResultPart[] {
  return [{ type: "text", text }];
}

/**
 * Build a failed result of the given kind whose single text part is the error message.
 *
 * @example
 * ```ts
 * errorResult("read", { code: "ENOENT", message: "File not found: /a.txt", path: "/a.txt" });
 * ```
 */
export function errorResult<K extends ToolResult["kind"]>(kind: K, error: ToolError): Extract<ToolResult, { kind: K }> {
  const base = { kind, ok: false, parts: textParts(error.message), error };
  const extra =
    kind === "mutation"
      ? { changes: [] }
      : kind === "shell"
        ? { stdout: "", stderr: error.message, exitCode: 1 }
        : kind === "search"
          ? { count: 0 }
          : {};
  return { ...base, ...extra } as unknown as Extract<ToolResult, { kind: K }>;
}

/** The text of all text parts, joined by newlines. */
export function resultText(result: { readonly parts: readonly ResultPart[] }): string {
  return result.parts
    .filter((part): part is TextPart => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}

/**
 * The `edit` tool: replace an exact text that occurs once (or every occurrence with
 * `replaceAll`), keeping the file's line endings and BOM.
 *
 * @module
 */
import type { ToolContextOptions } from "../kit/context.js";
import { defineCoreTool } from "../kit/define.js";
import { toolErrorFromFs } from "../kit/fs-failure.js";
import { checkFresh, recordSeen, describeReadFirst } from "../kit/freshness.js";
import type { InputSpec } from "../kit/input.js";
import { errorResult, textParts, type MutationResult } from "../kit/result.js";
import { type ToolError } from "../../contract/errors.js";
import {
  binaryRefusal,
  decodeUtf8,
  encodeUtf8,
  formatCount,
  loneSurrogateMessage,
  sniffBinary,
  UTF8_BOM,
} from "../kit/text.js";
import type { CoreTool } from "../kit/tool.js";
import { matchLinesText } from "./match-lines.js";
import { trailingSlashError } from "../kit/path-form.js";

/** The `edit` tool's own options (none yet). */
export type EditToolSettings = Record<never, never>;

/** Options of {@link createEditTool}. */
export interface EditToolOptions extends ToolContextOptions, EditToolSettings {}

/** Input of the `edit` tool. */
export interface EditInput {
  /** File path, relative to cwd or absolute. */
  readonly path: string;
  /** The exact text to replace; must occur exactly once unless `replaceAll`. Line endings are compared loosely (LF matches CRLF). */
  readonly oldText: string;
  /** The replacement, taken literally (`$` has no special meaning). */
  readonly newText: string;
  /** Replace every occurrence, left to right, without overlap. @default false */
  readonly replaceAll?: boolean;
}

/** The keys of {@link EditToolSettings}. */
export const EDIT_SETTING_KEYS = [] as const;

/** The fields of {@link EditInput}. */
export const EDIT_INPUT_SPEC: InputSpec = {
  path: {
    type: "string",
    required: true,
    nonEmpty: true,
    description: "Path of the file to edit, relative to the working directory or absolute.",
  },
  oldText: {
    type: "string",
    required: true,
    nonEmpty: true,
    description:
      "The exact text to replace, including whitespace and indentation, without read's `N|` line prefixes. It must occur exactly once unless replaceAll is true.",
  },
  newText: { type: "string", required: true, description: "The text to put in its place." },
  replaceAll: {
    type: "boolean",
    description: "Replace every occurrence of oldText instead of exactly one. Default false.",
  },
};

/** The default description of the `edit` tool (with a read-before-write store, `READ_FIRST_NOTE` follows). */
export const EDIT_DESCRIPTION =
  "Replace exact text in a file. oldText must match the file exactly (whitespace included) and occur exactly once; " +
  "include surrounding lines to make it unique, or set replaceAll to replace every occurrence. " +
  "Line endings and a BOM are kept.";

/** Largest file (in characters) searched again with whitespace ignored for a not-found hint: 4 Mi. */
const WHITESPACE_HINT_MAX_CHARS = 4 * 1024 * 1024;

/** Most occurrences one `replaceAll` edit replaces: 1,000,000 (more is refused with `EFBIG`, nothing written). */
export const MAX_REPLACEMENTS = 1_000_000;

/** Most match lines listed in an ambiguity error. */
const MAX_LISTED_LINES = 10;

/**
 * Create the `edit` tool.
 *
 * @param options - the shared context options.
 * @returns a {@link CoreTool} named `edit`. Success: `replaced 1 occurrence in PATH at line N`
 *   (or `replaced 3 occurrences in PATH at lines 2, 5, 9` with `replaceAll`); identical oldText
 *   and newText is a no-op that says so, and so is an edit whose result is the file's own bytes
 *   (`oldText: "\r\n", newText: "\n"` in a CRLF file: line endings are kept), with no change listed. Failures leave the file untouched: `ENOMATCH` (not found;
 *   hints for whitespace and CRLF differences), `EAMBIGUOUS` (several matches, overlapping ones
 *   counted, with their lines), `EINPUT` (empty oldText; oldText or newText with a lone
 *   surrogate, which has no UTF-8 form), `EFBIG` (`replaceAll` over more than
 *   {@link MAX_REPLACEMENTS} occurrences), `ENOMATCH` saying so for an oldText longer than the file, `ENOTREAD`/`ESTALE` (with a state store), `EBINARY`, `EILSEQ`
 *   (not UTF-8), `ENOENT`, `EISDIR` (also for a path ending in `/`), `EDENIED` (checked for read and for write). The read, the
 *   freshness check and the write run inside `locks` (by default shared by every tool over the
 *   same backend object), so parallel edits of one file serialize and all land.
 * @throws TypeError at creation for an unknown option.
 * @example
 * ```ts
 * const edit = createEditTool({ fs, cwd: "/w" });
 * await edit.execute({ path: "a.py", oldText: "debug = True", newText: "debug = False" });
 * // "replaced 1 occurrence in a.py at line 3"
 * ```
 */
export function createEditTool(options: EditToolOptions): CoreTool<EditInput, MutationResult> {
  return editTool(options);
}

const editTool = defineCoreTool({
  factory: "createEditTool",
  name: "edit",
  kind: "mutation",
  spec: EDIT_INPUT_SPEC,
  settings: EDIT_SETTING_KEYS,
  description: (_setup, options) => describeReadFirst(EDIT_DESCRIPTION, options, "The file"),
  async run(input: EditInput, ctx): Promise<MutationResult> {
    const { gate } = ctx;
    const readable = await gate.check(input.path, "read");
    if (!readable.ok) return errorResult("mutation", readable.error);
    const checked = await gate.check(readable.path, "write");
    if (!checked.ok) return errorResult("mutation", checked.error);
    const path = checked.path;
    const display = gate.display(path);
    const slash = trailingSlashError(input.path, "edit", path);
    if (slash !== undefined) return errorResult("mutation", slash);
    if (input.oldText === "") {
      return errorResult("mutation", {
        code: "EINPUT",
        path,
        message:
          "oldText is empty. To create or replace a whole file, write it whole; to insert text, include a neighbouring line in oldText and in newText.",
      });
    }
    const malformed = loneSurrogateMessage({ oldText: input.oldText, newText: input.newText });
    if (malformed !== undefined) return errorResult("mutation", { code: "EINPUT", path, message: malformed });
    if (input.oldText === input.newText) {
      return {
        kind: "mutation",
        ok: true,
        parts: textParts(`No change: oldText and newText are identical, so ${display} was left as it was.`),
        changes: [],
      };
    }
    return ctx.locks.run([path], async () => {
      let bytes: Uint8Array;
      try {
        bytes = await gate.fs.readFile(path);
      } catch (error) {
        const failure = toolErrorFromFs(error, path, display);
        if (failure.code === "ENOENT") {
          return errorResult("mutation", {
            ...failure,
            message: `${failure.message} To create a new file, write it whole instead of editing.`,
          });
        }
        return errorResult("mutation", failure);
      }
      // Start the staleness digest now; it runs while the text is searched.
      const fresh = checkFresh(ctx, path, display, bytes, "edit");
      const outcome = planEdit(bytes, input, path, display);
      // And the new content's digest (for the store), while the write runs.
      const newDigest = ctx.state !== undefined && "data" in outcome ? ctx.digest(outcome.data) : undefined;
      newDigest?.catch(() => undefined);
      const stale = await fresh;
      if (stale !== undefined) return errorResult("mutation", stale);
      if ("error" in outcome) return errorResult("mutation", outcome.error);
      if (sameBytes(outcome.data, bytes)) {
        return { kind: "mutation", ok: true, parts: textParts(unchangedMessage(input, display)), changes: [] };
      }
      try {
        await gate.fs.writeFile(path, outcome.data);
      } catch (error) {
        return errorResult("mutation", toolErrorFromFs(error, path, display));
      }
      // The file is written: nothing below may throw (a failed digest only leaves the record stale).
      const message = `replaced ${formatCount(outcome.count)} ${outcome.count === 1 ? "occurrence" : "occurrences"} in ${display} ${whereLines(outcome.lines)}`;
      if (newDigest !== undefined) {
        try {
          await recordSeen(ctx, path, outcome.data, await newDigest);
        } catch {
          await Promise.resolve(ctx.state?.delete(path)).catch(() => undefined);
        }
      }
      return {
        kind: "mutation",
        ok: true,
        parts: textParts(message),
        changes: [{ action: "updated", path, bytes: outcome.data.length, line: outcome.lines.shown[0]! }],
      };
    });
  },
});

/** True when `a` and `b` hold the same bytes. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The no-op text of an edit whose result is the file's own bytes (oldText and newText differ). */
function unchangedMessage(input: EditInput, display: string): string {
  const lf = (text: string): string => text.replaceAll("\r\n", "\n");
  const why =
    lf(input.oldText) === lf(input.newText)
      ? "oldText and newText differ only in line endings, and edit keeps the file's own line endings (to change them, write the whole file)"
      : "the replacement gives the same bytes the file already has";
  return `No change: ${why}, so ${display} was left as it was.`;
}

/** The distinct lines of a set of matches: the first {@link MAX_LISTED_LINES} and how many in all. */
interface LineSummary {
  readonly shown: readonly number[];
  readonly distinct: number;
}

/** `at line 3`, `at lines 2, 5, 9`, or the first {@link MAX_LISTED_LINES} and `and N more`. */
function whereLines(lines: LineSummary): string {
  return `at ${matchLinesText(lines.shown, lines.distinct)}`;
}

type EditPlan =
  { readonly data: Uint8Array; readonly count: number; readonly lines: LineSummary } | { readonly error: ToolError };

/**
 * Work out the new bytes of an edit, or why it cannot be made. Matching happens on a view of
 * the text with CRLF and a lone CR folded to LF (and oldText/newText folded likewise), the lines
 * read shows; the splice is made in
 * the original text, so untouched bytes stay as they were, and newText takes the file's line
 * ending (CRLF in a CRLF file, CR over a lone-CR region; in a mixed file, the ending of the replaced region).
 */
export function planEdit(bytes: Uint8Array, input: EditInput, path: string, displayPath: string): EditPlan {
  const binary = sniffBinary(bytes);
  if (binary !== undefined) {
    return {
      error: {
        code: "EBINARY",
        path,
        message: binaryRefusal("edit", displayPath, binary),
      },
    };
  }
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) {
    return {
      error: {
        code: "EILSEQ",
        path,
        message: `Cannot edit ${displayPath}: it is not valid UTF-8 (invalid byte at byte offset ${formatCount(decoded.offset)}). The file was left untouched; edit it with a tool that knows its encoding.`,
      },
    };
  }
  const raw = decoded.text;
  const hasCrlf = raw.includes("\r\n");
  // Positions, in the folded view, of each `\n` that was `\r\n` in the file.
  const folded: number[] = [];
  let view = raw;
  if (hasCrlf) {
    const parts: string[] = [];
    let from = 0;
    for (let at = raw.indexOf("\r\n"); at >= 0; at = raw.indexOf("\r\n", at + 2)) {
      parts.push(raw.slice(from, at));
      folded.push(at - folded.length);
      from = at + 1;
    }
    parts.push(raw.slice(from));
    view = parts.join("");
  }
  // A lone `\r` is a line ending as read shows it: `\n` in the view (same length, so positions
  // map as they are), and a `\n` of newText written over one becomes `\r` again.
  const loneCr = /\r(?!\n)/.test(view);
  if (loneCr) view = view.replaceAll("\r", "\n");
  const oldText = input.oldText.includes("\r\n") ? input.oldText.replaceAll("\r\n", "\n") : input.oldText;
  const newText = input.newText.includes("\r\n") ? input.newText.replaceAll("\r\n", "\n") : input.newText;

  const first = view.indexOf(oldText);
  if (first < 0)
    return {
      error: { code: "ENOMATCH", path, message: notFoundMessage(view, oldText, displayPath, hasCrlf, input.oldText) },
    };

  const starts: number[] = [first];
  if (input.replaceAll) {
    for (
      let at = view.indexOf(oldText, first + oldText.length);
      at >= 0;
      at = view.indexOf(oldText, at + oldText.length)
    ) {
      if (starts.length === MAX_REPLACEMENTS) {
        return {
          error: {
            code: "EFBIG",
            path,
            message:
              `oldText occurs more than ${formatCount(MAX_REPLACEMENTS)} times in ${displayPath}; replaceAll changes at most ` +
              `${formatCount(MAX_REPLACEMENTS)} occurrences in one edit. The file was not changed. Use a longer oldText ` +
              "that occurs fewer times, or write the file whole.",
          },
        };
      }
      starts.push(at);
    }
  } else if (view.indexOf(oldText, first + 1) >= 0) {
    // Overlapping matches count: `aa` occurs twice in `aaa`. Counted and summarized in one pass,
    // without keeping every position (a file may hold millions).
    const { count, lines } = summarizeMatches(view, oldText, first);
    return {
      error: {
        code: "EAMBIGUOUS",
        path,
        displayPath,
        occurrences: count,
        lines: lines.shown,
        lineCount: lines.distinct,
        message:
          `oldText occurs ${formatCount(count)} times in ${displayPath} (${whereLines(lines)}); it must occur exactly once. ` +
          "Include more surrounding lines in oldText to make it unique, or set replaceAll to true to replace every occurrence.",
      },
    };
  }

  const toRaw = (position: number): number => position + countBelow(folded, position);
  let dominantCrlf: boolean | undefined;
  const chunks: string[] = [];
  let from = 0;
  for (const start of starts) {
    const rawStart = toRaw(start);
    const rawEnd = toRaw(start + oldText.length);
    chunks.push(raw.slice(from, rawStart));
    let replacement = newText;
    if (loneCr && newText.includes("\n")) {
      const region = raw.slice(rawStart, rawEnd);
      const crOnly = region.includes("\r") ? !region.includes("\n") : !raw.includes("\n");
      if (crOnly) replacement = newText.replaceAll("\n", "\r");
    } else if (hasCrlf && newText.includes("\n")) {
      const region = raw.slice(rawStart, rawEnd);
      if (!region.includes("\n")) dominantCrlf ??= folded.length * 2 > countChar(view, 10);
      const crlf = region.includes("\r\n") || (!region.includes("\n") && dominantCrlf === true);
      if (crlf) replacement = newText.replaceAll("\n", "\r\n");
    }
    chunks.push(replacement);
    from = rawEnd;
  }
  chunks.push(raw.slice(from));
  const text = chunks.join("");
  const body = encodeUtf8(text);
  let data = body;
  if (decoded.bom) {
    data = new Uint8Array(body.length + 3);
    data.set(UTF8_BOM, 0);
    data.set(body, 3);
  }
  return { data, count: starts.length, lines: summarizeLines(view, starts) };
}

/** Count every (overlapping) match of `needle` from `first` and summarize their lines. */
function summarizeMatches(view: string, needle: string, first: number): { count: number; lines: LineSummary } {
  const shown: number[] = [];
  let count = 0;
  let distinct = 0;
  let line = 1;
  let lastLine = 0;
  // The next newline not yet counted (cached, so text without newlines is not rescanned).
  let nextNl = view.indexOf("\n");
  for (let at = first; at >= 0; at = view.indexOf(needle, at + 1)) {
    count++;
    while (nextNl >= 0 && nextNl < at) {
      line++;
      nextNl = view.indexOf("\n", nextNl + 1);
    }
    if (line !== lastLine) {
      distinct++;
      if (shown.length < MAX_LISTED_LINES) shown.push(line);
      lastLine = line;
    }
  }
  return { count, lines: { shown, distinct } };
}

/** The distinct lines of sorted positions, in one pass, keeping only the first few. */
function summarizeLines(text: string, positions: readonly number[]): LineSummary {
  const shown: number[] = [];
  let distinct = 0;
  let line = 1;
  let lastLine = 0;
  let nextNl = text.indexOf("\n");
  for (const position of positions) {
    while (nextNl >= 0 && nextNl < position) {
      line++;
      nextNl = text.indexOf("\n", nextNl + 1);
    }
    if (line !== lastLine) {
      distinct++;
      if (shown.length < MAX_LISTED_LINES) shown.push(line);
      lastLine = line;
    }
  }
  return { shown, distinct };
}

/** How many sorted `values` are below `position` (binary search). */
function countBelow(values: readonly number[], position: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < position) low = mid + 1;
    else high = mid;
  }
  return low;
}

function countChar(text: string, code: number): number {
  const char = String.fromCharCode(code);
  let count = 0;
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) count++;
  return count;
}

/** 1-based line numbers of sorted positions, in one pass. */
function lineNumbers(text: string, positions: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  for (const position of positions) {
    for (let at = text.indexOf("\n", scanned); at >= 0 && at < position; at = text.indexOf("\n", at + 1)) {
      line++;
      scanned = at + 1;
    }
    lines.push(line);
  }
  return lines;
}

/** Collapse runs of spaces and tabs to one space (one native pass: linear in the text). */
function squeezeBlanks(text: string): string {
  return text.replace(/[ \t]+/g, " ");
}

/** The index in `text` of index `at` of `squeezeBlanks(text)`: one step per blank run before it. */
function sourceIndex(text: string, at: number): number {
  const runs = /[ \t]{2,}/g;
  let removed = 0;
  for (let run = runs.exec(text); run !== null; run = runs.exec(text)) {
    // The run's first blank stays (as one space) at squeezed index run.index - removed.
    if (run.index - removed >= at) break;
    removed += run[0].length - 1;
  }
  return at + removed;
}

/** The ENOMATCH message, with hints for the usual causes. */
function notFoundMessage(
  view: string,
  oldText: string,
  displayPath: string,
  hasCrlf: boolean,
  givenOldText: string,
): string {
  let message = `oldText was not found in ${displayPath}; the file was not changed.`;
  const hints: string[] = [];
  if (/^\s*\d+\|/.test(oldText)) {
    hints.push("oldText seems to start with a line-number prefix from read (`12|`); leave the prefixes out.");
  }
  // Runs of spaces and tabs as one space (one native pass, linear even for a huge oldText).
  const squeezedOld = squeezeBlanks(oldText);
  const longer = squeezedOld.length > view.length;
  // The whitespace-blind search is a hint only; skip it for a very large file (the work stays
  // bounded: a few native passes over at most WHITESPACE_HINT_MAX_CHARS).
  if (!longer && squeezedOld.trim() !== "" && view.length <= WHITESPACE_HINT_MAX_CHARS) {
    const at = squeezeBlanks(view).indexOf(squeezedOld);
    if (at >= 0) {
      const source = sourceIndex(view, at);
      const line = lineNumbers(view, [source])[0]!;
      const fileLine = view.slice(view.lastIndexOf("\n", source) + 1).split("\n", 1)[0]!;
      const indent = /^[\t ]*/.exec(fileLine)?.[0] ?? "";
      const tabs = indent.includes("\t") ? "tabs" : "spaces";
      hints.push(
        `It matches at line ${line} if spaces and tabs are ignored: the whitespace differs (the file's line ${line} is indented with ${tabs}). Copy the exact whitespace from read's output.`,
      );
    }
  }
  if (hasCrlf && givenOldText.includes("\n") && !givenOldText.includes("\r\n")) {
    hints.push(
      `${displayPath} has CRLF line endings; oldText with LF line endings is matched against them, so line endings are not the difference.`,
    );
  }
  if (hints.length === 0 && longer) {
    hints.push(
      `oldText is longer than the whole file (${formatCount(oldText.length)} characters against ${formatCount(view.length)}), ` +
        "so it cannot occur in it: read the file again and copy only the text to replace.",
    );
  }
  if (hints.length === 0) hints.push("Read the file again and copy the text exactly, including indentation.");
  message += ` ${hints.join(" ")}`;
  return message;
}

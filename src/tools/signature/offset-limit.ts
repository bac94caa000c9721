/**
 * The offset/limit preset with `cat -n` output: `read_file(path, offset, limit)`,
 * `write_file(path, content)`, `edit_file(path, old_string, new_string, replace_all)`,
 * `list_files(path, pattern)` (recursive) and `grep_files(pattern, path, glob)`. Failures come
 * back as `Error: ...` strings. Read-only is the entry point's `readOnly: true`, not the preset's.
 *
 * @module
 */
import picomatch from "picomatch";
import type { EditInput } from "../edit/index.js";
import { matchLinesText } from "../edit/match-lines.js";
import { formatCount } from "../kit/text.js";
import { checkInput, specSchema, type InputSpec } from "../kit/input.js";
import { inlineIgnoreCase, type GrepInput } from "../grep/index.js";
import type { ListInput } from "../list/index.js";
import type { ReadInput } from "../read/index.js";
import type { MutationResult, ReadResult, SearchResult, ToolResult } from "../kit/result.js";
import { ToolInputError, type ToolSignature } from "../kit/tool.js";
import type { WriteInput } from "../write/index.js";
import { asErrorString, catNumbered, hasMedia, parseNumberedLines, renameWords, withText } from "./common.js";
import { forTools } from "../kit/tool-selection.js";
import { assertKnownOptions, optionValueError } from "../../contract/options.js";

/** Default most characters of `read_file` output: 100,000; longer output is cut at a line end with a note saying where to continue. */
export const DEFAULT_MAX_READ_CHARS = 100_000;

/** Options of {@link offsetLimitPreset}. */
export interface OffsetLimitPresetOptions {
  /**
   * Most characters (UTF-16 code units) of `read_file` output, numbering included: longer output
   * is cut at the last line end that fits (inside the line when the first one alone is longer),
   * with a note saying where to continue. `Infinity` for no cut (the read tool's own `maxBytes`
   * still applies). @default DEFAULT_MAX_READ_CHARS (100,000)
   */
  readonly maxReadChars?: number;
}

const READ_SPEC: InputSpec = {
  path: { type: "string", required: true, nonEmpty: true, description: "Path of the file to read." },
  offset: {
    type: "integer",
    min: 0,
    description: "Line number to start reading from, 1-based. 0 or omitted starts at line 1.",
  },
  limit: { type: "integer", min: 0, description: "Number of lines to read. 0 or omitted reads to the end." },
};
const WRITE_SPEC: InputSpec = {
  path: { type: "string", required: true, nonEmpty: true, description: "Path of the file to write." },
  content: { type: "string", required: true, description: "The complete content to write." },
};
const EDIT_SPEC: InputSpec = {
  path: { type: "string", required: true, nonEmpty: true, description: "Path of the file to edit." },
  old_string: {
    type: "string",
    required: true,
    nonEmpty: true,
    description: "The exact text to replace; it must be unique in the file unless replace_all is true.",
  },
  new_string: { type: "string", required: true, description: "The text to replace it with." },
  replace_all: { type: "boolean", description: "Replace every occurrence of old_string. Default false." },
};
const LIST_SPEC: InputSpec = {
  path: { type: "string", nonEmpty: true, description: "Directory to list. Omit for the working directory." },
  pattern: {
    type: "string",
    nonEmpty: true,
    description:
      "Glob over paths relative to path, e.g. `*.md` (that directory only) or `**/*.ts` (any depth). Omit for `**/*` (every file).",
  },
};

/** The pattern `list_files` uses when none is given: every file below the directory. */
const EVERY_FILE = "**/*";
const GREP_SPEC: InputSpec = {
  pattern: {
    type: "string",
    required: true,
    nonEmpty: true,
    description: "Regular expression (JavaScript syntax) to search for; a leading `(?i)` makes it case-insensitive.",
  },
  path: {
    type: "string",
    nonEmpty: true,
    description: "File or directory to search in. Omit for the working directory.",
  },
  glob: { type: "string", nonEmpty: true, description: "Only search files matching this glob, e.g. `**/*.ts`." },
};

const EDIT_NAMES = { oldText: "old_string", newText: "new_string", replaceAll: "replace_all" };

/** True for a line of a core `list` result that names an entry (not a note such as `[… 3 more files ...]`). */
function isEntryLine(line: string): boolean {
  return line !== "" && !line.startsWith("[") && !line.startsWith("(");
}

/**
 * `text` cut to at most `maxChars` characters at the last line end that fits, or inside the
 * first line when it alone is longer; `undefined` when it fits.
 */
function cutAtLines(text: string, maxChars: number): { text: string; lines: number; inLine: boolean } | undefined {
  if (text.length <= maxChars) return undefined;
  const end = text.lastIndexOf("\n", maxChars);
  if (end <= 0) return { text: text.slice(0, maxChars), lines: 1, inLine: true };
  const kept = text.slice(0, end);
  return { text: kept, lines: kept.split("\n").length, inLine: false };
}

function errorOut<R extends ToolResult>(result: R, names: Readonly<Record<string, string>> = {}): R {
  return asErrorString(result, renameWords(result.error?.message ?? "", names));
}

/** The signatures of the offset/limit preset, keyed by the core tool each one drives. */
export interface OffsetLimitPreset {
  readonly read: ToolSignature<ReadInput, { path: string; offset?: number; limit?: number }, ReadResult>;
  readonly list: ToolSignature<ListInput, { path?: string; pattern?: string }, SearchResult>;
  readonly grep: ToolSignature<GrepInput, { pattern: string; path?: string; glob?: string }, SearchResult>;
  readonly write: ToolSignature<WriteInput, { path: string; content: string }, MutationResult>;
  readonly edit: ToolSignature<
    EditInput,
    { path: string; old_string: string; new_string: string; replace_all?: boolean },
    MutationResult
  >;
}

/**
 * The offset/limit preset (`cat -n` output, `Error: ...` strings), over the core `read`,
 * `write`, `edit`, `list` and `grep` tools:
 * - `read_file({ path, offset, limit })`: lines as `     1\tone two one` (number right-aligned
 *   in 6 columns, a tab); `offset` is the first line (1-based), `limit` the line count, and 0
 *   (or absent) means from line 1 / to the end. Always a ranged core read, so a file over the
 *   read cap is paged rather than refused; output longer than `maxReadChars` characters is cut
 *   at a line end with `[Output cut at N characters: showed lines a-b of T. Continue with offset=b+1.]`;
 * - `write_file({ path, content })`;
 * - `edit_file({ path, old_string, new_string, replace_all })`: several matches give
 *   `Error: old_string is not unique in PATH: it occurs N times (at lines a, b). ...`;
 * - `list_files({ path, pattern })`: every file below `path` (recursively) whose path relative
 *   to it matches the glob `pattern` (default `**\/*`), as `path/rel (N bytes)`, sorted by path;
 * - `grep_files({ pattern, path, glob })`: the core grep output (`path:line:text`); a leading
 *   `(?i)` in `pattern` searches case-insensitively.
 *
 * Every failure's text is `Error: <message>` with the parameter names of this dialect.
 *
 * @param options - `maxReadChars` (characters,
 *   default {@link DEFAULT_MAX_READ_CHARS}) bounds `read_file` output.
 * @returns the signatures keyed by core tool.
 * @throws TypeError ({@link OptionError}) for an unknown option key, `readOnly` (set it on the
 *   entry point: `createFsTools({ readOnly: true, read: { signature: preset.read } })`), or a `maxReadChars`
 *   that is not a positive integer or `Infinity`.
 * @example
 * ```ts
 * const preset = offsetLimitPreset({ maxReadChars: 20_000 });
 * Object.keys(preset); // ["read", "list", "grep", "write", "edit"]
 * ```
 */
export function offsetLimitPreset(options: OffsetLimitPresetOptions = {}): OffsetLimitPreset {
  if (typeof options !== "object" || options === null) throw new TypeError("offsetLimitPreset needs an options object");
  if (Object.hasOwn(options, "readOnly")) {
    // One way to be read-only: the entry point's option, not a second one in a preset.
    optionValueError(
      "offsetLimitPreset",
      "readOnly",
      "is not a preset option: set readOnly: true where the tools are made (createFsTools, createAiSdkFsTools, createWorkspaceAgent, createMcpServer)",
    );
  }
  assertKnownOptions("offsetLimitPreset", options, ["maxReadChars"]);
  const maxReadChars = options.maxReadChars ?? DEFAULT_MAX_READ_CHARS;
  if (
    maxReadChars !== Number.POSITIVE_INFINITY &&
    (typeof maxReadChars !== "number" || !Number.isSafeInteger(maxReadChars) || maxReadChars <= 0)
  ) {
    throw new TypeError(
      `offsetLimitPreset maxReadChars must be a positive integer (characters) or Infinity, got ${JSON.stringify(maxReadChars)}`,
    );
  }

  const read: OffsetLimitPreset["read"] = {
    name: "read_file",
    description:
      "Read a text file. Lines come back numbered like `cat -n` (`     1\\tfirst line`); the numbers are not part of the file. " +
      `Use offset (first line, 1-based) and limit (number of lines) for part of a large file${maxReadChars === Number.POSITIVE_INFINITY ? "" : `; output is cut at ${formatCount(maxReadChars)} characters`}.`,
    inputSchema: specSchema(READ_SPEC),
    toInput(input) {
      const checked = checkInput<{ path: string; offset?: number; limit?: number }>("read_file", input, READ_SPEC);
      // Always a ranged read (from line 1 at least): a file over the read cap is paged, not refused.
      return {
        path: checked.path,
        offset: checked.offset === undefined || checked.offset === 0 ? 1 : checked.offset,
        ...(checked.limit === undefined || checked.limit === 0 ? {} : { limit: checked.limit }),
      };
    },
    toResult(result) {
      if (!result.ok) return errorOut(result);
      if (hasMedia(result)) return result;
      const text = result.parts.map((part) => (part.type === "text" ? part.text : "")).join("\n");
      const { lines, notes } = parseNumberedLines(text);
      if (lines.length === 0) return result;
      const numbered = catNumbered(lines);
      const cut = cutAtLines(numbered, maxReadChars);
      if (cut === undefined) return withText(result, `${numbered}${notes.length > 0 ? `\n${notes.join("\n")}` : ""}`);
      const first = lines[0]!.line;
      const last = first + cut.lines - 1;
      const total = result.totalLines === undefined ? "" : ` of ${formatCount(result.totalLines)}`;
      const more = result.totalLines === undefined || last < result.totalLines;
      const note = cut.inLine
        ? `[Output cut at ${formatCount(maxReadChars)} characters, inside line ${formatCount(first)}${total}.${more ? ` Continue with offset=${last + 1}.` : ""}]`
        : `[Output cut at ${formatCount(maxReadChars)} characters: showed lines ${first}-${last}${total}.${more ? ` Continue with offset=${last + 1}.` : ""}]`;
      return { ...withText(result, `${cut.text}\n${note}`), endLine: last, truncated: true };
    },
  };

  const list: OffsetLimitPreset["list"] = {
    name: "list_files",
    description:
      "List the files below a directory (recursively), with their sizes in bytes, sorted by path. " +
      "pattern is a glob over paths relative to that directory (default `**/*`, every file).",
    inputSchema: specSchema(LIST_SPEC),
    toInput(input) {
      const checked = checkInput<{ path?: string; pattern?: string }>("list_files", input, LIST_SPEC);
      const pattern = checked.pattern ?? EVERY_FILE;
      try {
        picomatch.makeRe(pattern, { dot: true });
      } catch (error) {
        throw new ToolInputError(
          `list_files input pattern is not a valid glob: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return checked.path === undefined ? { pattern } : { path: checked.path, pattern };
    },
    toResult(result, input) {
      if (!result.ok) return errorOut(result);
      if (result.count === 0) return result;
      // The core lists paths relative to `path`; this dialect shows them relative to the working directory.
      const base = input.path === undefined || input.path === "." ? "" : `${input.path.replace(/\/+$/, "")}/`;
      if (base === "") return result;
      const text = result.parts.map((part) => (part.type === "text" ? part.text : "")).join("\n");
      const out = text.split("\n").map((line) => (isEntryLine(line) ? `${base}${line}` : line));
      return withText(result, out.join("\n"));
    },
  };

  const grep: OffsetLimitPreset["grep"] = {
    name: "grep_files",
    description:
      "Search file contents with a regular expression. Output lines are `path:line:text`. Narrow the files with path and glob.",
    inputSchema: specSchema(GREP_SPEC),
    toInput(input) {
      const checked = checkInput<{ pattern: string; path?: string; glob?: string }>("grep_files", input, GREP_SPEC);
      return { ...checked, ...inlineIgnoreCase(checked.pattern) };
    },
    toResult: (result) => (result.ok ? result : errorOut(result)),
  };

  const write: OffsetLimitPreset["write"] = {
    name: "write_file",
    description:
      "Write a file, replacing its whole content; missing directories are created. To change part of an existing file, use edit_file.",
    inputSchema: specSchema(WRITE_SPEC),
    toInput: (input) => checkInput<WriteInput>("write_file", input, WRITE_SPEC),
    toResult: (result) => (result.ok ? result : errorOut(result)),
  };

  const edit: OffsetLimitPreset["edit"] = {
    name: "edit_file",
    description:
      "Replace old_string with new_string in a file. old_string must match exactly, whitespace included, " +
      "and be unique in the file unless replace_all is true.",
    inputSchema: specSchema(EDIT_SPEC),
    toInput(input) {
      const checked = checkInput<{ path: string; old_string: string; new_string: string; replace_all?: boolean }>(
        "edit_file",
        input,
        EDIT_SPEC,
      );
      return {
        path: checked.path,
        oldText: checked.old_string,
        newText: checked.new_string,
        ...(checked.replace_all === undefined ? {} : { replaceAll: checked.replace_all }),
      };
    },
    toResult(result) {
      if (result.ok) return result;
      const error = result.error;
      if (error?.code === "EAMBIGUOUS" && error.occurrences !== undefined && error.lines !== undefined) {
        const where = matchLinesText(error.lines, error.lineCount ?? error.lines.length);
        return asErrorString(
          result,
          `old_string is not unique in ${error.displayPath ?? error.path}: it occurs ${formatCount(error.occurrences)} times (at ${where}). ` +
            "Include more surrounding lines in old_string to make it unique, or set replace_all to true to replace every occurrence.",
        );
      }
      return errorOut(result, EDIT_NAMES);
    },
  };

  return forTools({ read, list, grep, write, edit });
}

/**
 * The line-range preset: `readFile({ path, startLine, endLine })` with a
 * `[src/server.ts lines 1200-1260 of 3644]` header before ranged output, plus `listDir`,
 * `writeFile`, `editFile({ path, oldText, newText, replaceAll })` and `runBash`.
 *
 * @module
 */
import type { BashInput } from "../bash/index.js";
import type { EditInput } from "../edit/index.js";
import type { ListInput } from "../list/index.js";
import type { ReadInput } from "../read/index.js";
import type { WriteInput } from "../write/index.js";
import { checkInput, specSchema, type InputSpec } from "../kit/input.js";
import type { MutationResult, ReadResult, SearchResult, ShellResult } from "../kit/result.js";
import { ToolInputError, type ToolSignature } from "../kit/tool.js";
import { hasMedia, renameWords, withText } from "./common.js";
import { forTools } from "../kit/tool-selection.js";
import { assertKnownOptions } from "../../contract/options.js";

/** Parameter names of {@link lineRangeSignature}. */
export interface LineRangeNames {
  /** @default "path" */
  readonly path?: string;
  /** First line, 1-based. @default "startLine" */
  readonly start?: string;
  /** Last line, 1-based and inclusive. @default "endLine" */
  readonly end?: string;
}

/** Options of {@link lineRangeSignature}. */
export interface LineRangeSignatureOptions {
  /** The tool name. @default "readFile" */
  readonly name?: string;
  /** Parameter names. */
  readonly names?: LineRangeNames;
}

/** The model input of the line-range read, under the default names. */
export type LineRangeReadInput = Readonly<Record<string, string | number | undefined>>;

const OPTION_KEYS = ["name", "names"];
const NAME_KEYS = ["path", "start", "end"];
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

function checkName(option: string, value: unknown): string {
  if (typeof value !== "string" || !IDENTIFIER.test(value)) {
    throw new TypeError(
      `lineRangeSignature ${option} must be a name of letters, digits, _ or - (up to 64), got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * The line-range read signature over the core `read` tool. Lines are 1-based and inclusive;
 * `endLine` past the end of the file is allowed (the output stops at the last line);
 * `startLine > endLine` is refused. Output is the file's text without line numbers; with a
 * range it starts with the header `[PATH lines A-B of N]` (PATH as the model wrote it, B the
 * last line shown; made from the result's fields); without a range there is no header and the
 * text is the file exactly, as `workspace-filesystem.txt` says: its BOM, CRLF or CR line
 * endings, long lines and final line break as they are, so a model that reads a file and
 * writes it back changes nothing it did not touch.
 *
 * @param options - `name` (default `readFile`) and `names` of the three parameters.
 * @returns a signature whose `toInput` gives the core `{ path, offset, limit, exact: true }` and throws
 *   `ToolInputError` for `startLine > endLine` (`startLine (9) must not be greater than endLine (3)`).
 * @throws TypeError at creation for an unknown option key or a name that is not an identifier,
 *   or two parameters with one name.
 * @example
 * ```ts
 * const signature = lineRangeSignature({ name: "view", names: { path: "file", start: "from", end: "to" } });
 * const read = createAiSdkReadTool({ fs, signature }); // view({ file, from, to })
 * ```
 */
export function lineRangeSignature(
  options: LineRangeSignatureOptions = {},
): ToolSignature<ReadInput, LineRangeReadInput, ReadResult> {
  if (typeof options !== "object" || options === null)
    throw new TypeError("lineRangeSignature needs an options object");
  assertKnownOptions("lineRangeSignature", options, OPTION_KEYS);
  const names = options.names ?? {};
  if (typeof names !== "object" || names === null) throw new TypeError("lineRangeSignature names must be an object");
  assertKnownOptions("lineRangeSignature", names, NAME_KEYS, "names");
  const name = checkName("name", options.name ?? "readFile");
  const pathName = checkName("names.path", names.path ?? "path");
  const startName = checkName("names.start", names.start ?? "startLine");
  const endName = checkName("names.end", names.end ?? "endLine");
  if (new Set([pathName, startName, endName]).size !== 3) {
    throw new TypeError(`lineRangeSignature names must differ, got ${pathName}, ${startName}, ${endName}`);
  }
  const spec: InputSpec = {
    [pathName]: {
      type: "string",
      required: true,
      nonEmpty: true,
      description: "Path of the file, relative to the working directory or absolute.",
    },
    [startName]: { type: "integer", min: 1, description: "First line to read, 1-based. Omit to start at line 1." },
    [endName]: {
      type: "integer",
      min: 1,
      description: "Last line to read, 1-based and inclusive; may be past the end. Omit to read to the end.",
    },
  };
  const rename = { offset: startName };

  return {
    name,
    description:
      `Read a text file. With ${startName}/${endName} (1-based, inclusive) the output starts with a header like ` +
      `[src/server.ts lines 1200-1260 of 3644] giving the range and the file's line count; without them the whole file is returned, with no header. ` +
      "Lines are shown as they are, without numbers. Images come back as images. " +
      "Read a large file in ranges, and change an existing file with editFile instead of writing it whole.",
    inputSchema: specSchema(spec),
    toInput(input) {
      const checked = checkInput<Record<string, string | number | undefined>>(name, input, spec);
      const start = checked[startName] as number | undefined;
      const end = checked[endName] as number | undefined;
      if (start !== undefined && end !== undefined && start > end) {
        throw new ToolInputError(`${startName} (${start}) must not be greater than ${endName} (${end})`);
      }
      const path = checked[pathName] as string;
      if (start === undefined && end === undefined) return { path, exact: true };
      const offset = start ?? 1;
      return end === undefined ? { path, offset, exact: true } : { path, offset, limit: end - offset + 1, exact: true };
    },
    toResult(result, input) {
      // The caller's own unknown key keeps its name (`Unknown readFile input key: offset`).
      if (!result.ok && result.error?.message.startsWith(`Unknown ${name} input key`) === true) return result;
      if (!result.ok) {
        const message = (result.error?.message ?? "")
          .replace(
            "with offset and limit (in lines)",
            `with ${startName} and ${endName} (1-based line numbers, inclusive)`,
          )
          .replace(/e\.g\. offset=1 and limit=(\d+)/, `e.g. ${startName}=1 and ${endName}=$1`);
        return withText(result, renameWords(message, rename));
      }
      if (hasMedia(result)) return result;
      // null is absent, as toInput reads it (strict schemas send null for an unused field).
      const ranged = input[startName] != null || input[endName] != null;
      // Unranged: the core read gave the file exactly (toInput asks for `exact`); nothing to add.
      if (!ranged || result.totalLines === undefined || result.totalLines === 0) return result;
      const [body, ...notes] = result.parts.map((part) => (part.type === "text" ? part.text : ""));
      const header = `[${String(input[pathName])} lines ${result.startLine}-${result.endLine} of ${result.totalLines}]\n`;
      const tail = notes.map((note) => `\n${renameWords(note, rename)}`).join("");
      return withText(result, `${header}${body ?? ""}${tail}`);
    },
  };
}

const LIST_SPEC: InputSpec = {
  path: {
    type: "string",
    nonEmpty: true,
    description: "Directory to list, relative to the working directory or absolute. Omit for the working directory.",
  },
};
const WRITE_SPEC: InputSpec = {
  path: {
    type: "string",
    required: true,
    nonEmpty: true,
    description: "Path of the file to write. Missing parent directories are created.",
  },
  content: { type: "string", required: true, description: "The complete new content of the file." },
};
const EDIT_SPEC: InputSpec = {
  path: { type: "string", required: true, nonEmpty: true, description: "Path of the file to edit." },
  oldText: {
    type: "string",
    required: true,
    nonEmpty: true,
    description:
      "The exact text to replace, whitespace included; it must occur exactly once unless replaceAll is true.",
  },
  newText: { type: "string", required: true, description: "The text to put in its place." },
  replaceAll: { type: "boolean", description: "Replace every occurrence instead of exactly one. Default false." },
};
const BASH_SPEC: InputSpec = {
  command: { type: "string", required: true, nonEmpty: true, description: "The bash command line to run." },
};

/** The signatures of the line-range preset, keyed by the core tool each one drives. */
export interface LineRangePreset {
  readonly read: ToolSignature<ReadInput, LineRangeReadInput, ReadResult>;
  readonly list: ToolSignature<ListInput, { path?: string }, SearchResult>;
  readonly write: ToolSignature<WriteInput, { path: string; content: string }, MutationResult>;
  readonly edit: ToolSignature<
    EditInput,
    { path: string; oldText: string; newText: string; replaceAll?: boolean },
    MutationResult
  >;
  readonly bash: ToolSignature<BashInput, { command: string }, ShellResult>;
}

/**
 * The line-range preset: `readFile` ({@link lineRangeSignature}), `listDir({ path })`,
 * `writeFile({ path, content })`, `editFile({ path, oldText, newText, replaceAll })` and
 * `runBash({ command })`, over the core `read`, `list`, `write`, `edit` and `bash` tools.
 * Results other than `readFile`'s are the core tools' own.
 *
 * @param options - none yet; an empty object, or nothing. (Rename the read tool's parameters
 *   with {@link lineRangeSignature}.)
 * @returns the five signatures keyed by core tool (`read`, `list`, `write`, `edit`, `bash`).
 * @throws TypeError at creation for any option key (an `OptionError`:
 *   `lineRangePreset got an unknown option "readOnly". Known options: none`) or a non-object.
 * @example
 * ```ts
 * const preset = lineRangePreset();
 * const { tools } = createAiSdkFsTools({ fs, read: { signature: preset.read }, edit: { signature: preset.edit } });
 * ```
 */
export function lineRangePreset(options: Readonly<Record<string, never>> = {}): LineRangePreset {
  assertKnownOptions("lineRangePreset", options, []);
  return forTools({
    read: lineRangeSignature(),
    list: {
      name: "listDir",
      description:
        "List a directory: one entry per line, sorted by name, directories ending in `/`, files with their size in bytes.",
      inputSchema: specSchema(LIST_SPEC),
      toInput: (input) => checkInput<ListInput>("listDir", input, LIST_SPEC),
    },
    write: {
      name: "writeFile",
      description:
        "Create a file or replace its whole content; missing parent directories are created. To change part of an existing file, use editFile.",
      inputSchema: specSchema(WRITE_SPEC),
      toInput: (input) => checkInput<WriteInput>("writeFile", input, WRITE_SPEC),
    },
    edit: {
      name: "editFile",
      description:
        "Replace exact text in a file. oldText must match the file exactly (whitespace included) and occur exactly once unless replaceAll is true.",
      inputSchema: specSchema(EDIT_SPEC),
      toInput: (input) => checkInput<EditInput>("editFile", input, EDIT_SPEC),
    },
    bash: {
      name: "runBash",
      description: "Run a bash command in the workspace and return its output and exit code.",
      inputSchema: specSchema(BASH_SPEC),
      toInput: (input) => checkInput<BashInput>("runBash", input, BASH_SPEC),
    },
  });
}

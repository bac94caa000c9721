/**
 * The Anthropic text-editor dialect: one tool, `str_replace_based_edit_tool`, with the commands
 * `view` (a file, optionally a `view_range`, or a directory), `create`, `str_replace` (exactly one
 * match) and `insert` (`insert_line`, `insert_text`), answering in that tool's wording
 * (`Here's the result of running \`cat -n\` on ...`, `No replacement was performed, ...`).
 *
 * It is a core tool composed of the core `read`, `write` and `edit` tools (same gate, store,
 * locks, digest, clock); `insert` and the directory view work on the gate directly.
 *
 * @module
 */
import type { ToolContext, ToolContextOptions } from "../kit/context.js";
import { defineCoreTool } from "../kit/define.js";
import { createEditTool } from "../edit/index.js";
import { listMatchLines } from "../edit/match-lines.js";
import { checkFresh, recordSeen } from "../kit/freshness.js";
import { toolErrorFromFs } from "../kit/fs-failure.js";
import { createReadTool } from "../read/index.js";
import {
  errorResult,
  resultText,
  textParts,
  type MutationResult,
  type ReadResult,
  type SearchResult,
} from "../kit/result.js";
import { decodeUtf8, encodeUtf8 } from "../kit/text.js";
import { ToolInputError, type CoreTool, type JsonSchema } from "../kit/tool.js";
import { createWriteTool } from "../write/index.js";
import { deniedField, deniedNote, walkSource } from "../kit/walk.js";
import { catNumbered, parseNumberedLines } from "../signature/common.js";

/** The tool name Claude models are trained on. */
export const TEXT_EDITOR_TOOL_NAME = "str_replace_based_edit_tool";

/** Lines of context shown around an edit, before and after: 4 (as the reference tool does). */
export const TEXT_EDITOR_SNIPPET_LINES = 4;

/** The commands of the text editor. */
export type TextEditorCommand = "view" | "create" | "str_replace" | "insert";

/** Input of the text-editor tool (absent parameters may also be `null`). */
export interface TextEditorInput {
  readonly command: TextEditorCommand;
  /** File or directory, absolute or relative to the working directory. */
  readonly path: string;
  /** `view`: `[first, last]` lines, 1-based and inclusive; `last` -1 means to the end. */
  readonly view_range?: readonly number[];
  /** `create`: the new file's content. */
  readonly file_text?: string;
  /** `str_replace`: the text to replace, which must occur exactly once. */
  readonly old_str?: string;
  /** `str_replace`: the replacement (default empty). */
  readonly new_str?: string;
  /** `insert`: the line after which to insert (0 inserts at the top). */
  readonly insert_line?: number;
  /** `insert`: the text to insert (a final newline is not needed). */
  readonly insert_text?: string;
}

/** Options of {@link createTextEditorTool}: the shared context options. */
export type TextEditorToolOptions = ToolContextOptions;

const COMMANDS: readonly TextEditorCommand[] = ["view", "create", "str_replace", "insert"];
const KEYS = ["command", "path", "view_range", "file_text", "old_str", "new_str", "insert_line", "insert_text"];

const INPUT_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    command: {
      type: "string",
      enum: COMMANDS,
      description: "The command to run: view, create, str_replace or insert.",
    },
    path: {
      type: "string",
      description: "Absolute path of the file or directory (relative paths resolve against the working directory).",
    },
    view_range: {
      type: "array",
      items: { type: "integer" },
      minItems: 2,
      maxItems: 2,
      description: "view: [first, last] line numbers, 1-based and inclusive; last -1 means to the end of the file.",
    },
    file_text: { type: "string", description: "create: the content of the new file." },
    old_str: {
      type: "string",
      description: "str_replace: the exact text to replace; it must occur exactly once in the file.",
    },
    new_str: { type: "string", description: "str_replace: the new text (omit to delete old_str)." },
    insert_line: {
      type: "integer",
      minimum: 0,
      description: "insert: the line number after which to insert the text (0 for the top of the file).",
    },
    insert_text: { type: "string", description: "insert: the text to insert." },
  },
  required: ["command", "path"],
  additionalProperties: false,
};

const DESCRIPTION =
  "A text editor for viewing, creating and editing files. `view` shows a file with `cat -n` line numbers (optionally a view_range) or lists a directory two levels deep; " +
  "`create` makes a new file (it cannot overwrite); `str_replace` replaces old_str, which must match exactly one place (whitespace included), with new_str; " +
  "`insert` adds insert_text after line insert_line.";

function fail<K extends "read" | "mutation" | "search">(
  kind: K,
  message: string,
  code: "EINPUT" | "ENOENT" | "EISDIR" | "EEXIST" = "EINPUT",
) {
  return errorResult(kind, { code, message });
}

function checkTextEditorInput(input: unknown): TextEditorInput {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ToolInputError(`${TEXT_EDITOR_TOOL_NAME} input must be an object with ${KEYS.join(", ")}`);
  }
  const record = input as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (!KEYS.includes(key))
      throw new ToolInputError(`Unknown ${TEXT_EDITOR_TOOL_NAME} input key: ${key}. Expected ${KEYS.join(", ")}`);
    if (value !== null && value !== undefined) out[key] = value;
  }
  if (typeof out["command"] !== "string" || !COMMANDS.includes(out["command"] as TextEditorCommand)) {
    throw new ToolInputError(
      `Unrecognized command ${String(out["command"])}. The allowed commands for the ${TEXT_EDITOR_TOOL_NAME} tool are: ${COMMANDS.join(", ")}`,
    );
  }
  if (typeof out["path"] !== "string" || out["path"] === "")
    throw new ToolInputError(`Parameter \`path\` is required (a string)`);
  for (const key of ["file_text", "old_str", "new_str", "insert_text"]) {
    if (out[key] !== undefined && typeof out[key] !== "string")
      throw new ToolInputError(`Parameter \`${key}\` must be a string`);
  }
  if (out["insert_line"] !== undefined && !Number.isSafeInteger(out["insert_line"])) {
    throw new ToolInputError("Parameter `insert_line` must be an integer");
  }
  const range = out["view_range"];
  if (
    range !== undefined &&
    (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isSafeInteger(n)))
  ) {
    throw new ToolInputError("Invalid `view_range`. It should be a list of two integers.");
  }
  return out as unknown as TextEditorInput;
}

type TextEditorResult = ReadResult | MutationResult | SearchResult;

/** Split text into lines with their own terminators; the dominant one for new lines. */
function splitLines(text: string): { lines: string[]; endings: string[]; eol: string } {
  const lines: string[] = [];
  const endings: string[] = [];
  let crlf = 0;
  let from = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", from)) {
    const cr = at > from && text.charCodeAt(at - 1) === 13;
    lines.push(text.slice(from, cr ? at - 1 : at));
    endings.push(cr ? "\r\n" : "\n");
    if (cr) crlf += 1;
    from = at + 1;
  }
  if (from < text.length) {
    lines.push(text.slice(from));
    endings.push("");
  }
  return { lines, endings, eol: crlf * 2 > endings.length ? "\r\n" : "\n" };
}

/** Core `read` wording in this dialect: `offset`/`limit` become `view_range`. */
function viewRangeWords(message: string): string {
  return message
    .replace(
      /with offset and limit \(in lines\), e\.g\. offset=(\d+) and limit=(\d+)/,
      (_, first: string, count: string) =>
        `with view_range, e.g. view_range=[${first}, ${Number(first) + Number(count) - 1}]`,
    )
    .replace(/continue with offset=(\d+)/g, "continue with view_range=[$1, -1]")
    .replace(/Continue with offset=(\d+)/g, "Continue with view_range=[$1, -1]");
}

/**
 * Create the Anthropic text-editor tool (`str_replace_based_edit_tool`).
 *
 * Results and errors follow that tool's wording:
 * - `view` of a file: `Here's the result of running \`cat -n\` on PATH:\n     1\tline...`; with
 *   `view_range` errors such as ``Invalid `view_range`: [5, 2]. Its second element `2` should be
 *   larger or equal than its first `5` ``; of a directory: `Here's the files and directories up
 *   to 2 levels deep in PATH, excluding hidden items:` then one path per line (entries a
 *   `listDir` deny rule refuses are left out, and a note counts them);
 * - `create`: `File created successfully at: PATH`; an existing path:
 *   ``File already exists at: PATH. Cannot overwrite files using command `create`.``;
 * - `str_replace`: `The file PATH has been edited. Here's the result of running \`cat -n\` on a
 *   snippet of PATH:` … `Review the changes and make sure they are as expected. Edit the file
 *   again if necessary.`; no match: ``No replacement was performed, old_str `X` did not appear
 *   verbatim in PATH.``; several: ``No replacement was performed. Multiple occurrences of old_str
 *   `X` in lines [1, 3]. Please ensure it is unique``;
 * - `insert`: after line `insert_line` (0 = top); the file's line endings and BOM are kept; one
 *   final newline of `insert_text` is dropped (each inserted line gets the file's line ending);
 *   ``Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 3]``;
 * - a missing path: `The path PATH does not exist. Please provide a valid path.`
 *
 * Read-before-write (`state`) applies as for `edit` and `write`; `view` records the file as read.
 *
 * @param options - the shared context options (`fs` required).
 * @returns a core tool named `str_replace_based_edit_tool`.
 * @throws TypeError for an unknown option key or a missing `fs`.
 * @example
 * ```ts
 * const editor = createTextEditorTool({ fs, cwd: "/w", state: memoryStore() });
 * await editor.execute({ command: "view", path: "/w/a.txt" }); // "Here's the result of running `cat -n` on /w/a.txt:\n     1\tone\n"
 * ```
 */
export function createTextEditorTool(
  options: TextEditorToolOptions,
): CoreTool<TextEditorInput, ReadResult | MutationResult | SearchResult> {
  // Defined first, so the options are checked (in this factory's name) before the inner tools are made.
  const tool = defineCoreTool({
    factory: "createTextEditorTool",
    name: TEXT_EDITOR_TOOL_NAME,
    kind: "read",
    spec: { schema: INPUT_SCHEMA, check: checkTextEditorInput },
    settings: [],
    description: DESCRIPTION,
    run(input: TextEditorInput, ctx): Promise<TextEditorResult> {
      switch (input.command) {
        case "view":
          return view(input, ctx);
        case "create":
          return create(input, ctx);
        case "str_replace":
          return strReplace(input, ctx);
        case "insert":
          return insert(input, ctx);
      }
    },
  })(options);
  // Locks: the host's, else the backend's own (shared with every other tool over it).
  const shared: ToolContextOptions = options;
  const read = createReadTool(shared);
  const write = createWriteTool(shared);
  const edit = createEditTool(shared);

  async function snippet(path: string, first: number, last: number, ctx: ToolContext): Promise<string> {
    const offset = Math.max(1, first);
    const result = await read.execute({ path, offset, limit: Math.max(1, last - offset + 1) }, ctx.call);
    if (!result.ok) return "";
    return catNumbered(parseNumberedLines(resultText(result)).lines);
  }

  async function kindOf(path: string, ctx: ToolContext): Promise<"file" | "directory" | "absent" | "denied" | "other"> {
    const checked = await ctx.gate.check(path, "read");
    if (!checked.ok) return "denied";
    try {
      const stat = await ctx.gate.fs.stat(checked.path);
      return stat.type === "directory" ? "directory" : stat.type === "file" ? "file" : "other";
    } catch {
      return "absent";
    }
  }

  async function view(input: TextEditorInput, ctx: ToolContext): Promise<ReadResult | SearchResult> {
    const kind = await kindOf(input.path, ctx);
    if (kind === "absent")
      return fail("read", `The path ${input.path} does not exist. Please provide a valid path.`, "ENOENT");
    if (kind === "directory") {
      if (input.view_range !== undefined)
        return fail("search", "The `view_range` parameter is not allowed when `path` points to a directory.");
      return viewDirectory(input.path, ctx);
    }
    const range = input.view_range;
    if (range === undefined) {
      const result = await read.execute({ path: input.path }, ctx.call);
      return renderView(result, input.path);
    }
    const [first, last] = range as [number, number];
    const shown = `[${first}, ${last}]`;
    const probe = await read.execute({ path: input.path, offset: 1, limit: 1 }, ctx.call);
    if (!probe.ok) return renderView(probe, input.path);
    const total = probe.totalLines ?? 0;
    if (first < 1 || first > total) {
      return fail(
        "read",
        `Invalid \`view_range\`: ${shown}. Its first element \`${first}\` should be within the range of lines of the file: [1, ${total}]`,
      );
    }
    if (last > total) {
      return fail(
        "read",
        `Invalid \`view_range\`: ${shown}. Its second element \`${last}\` should be smaller than the number of lines in the file: \`${total}\``,
      );
    }
    if (last !== -1 && last < first) {
      return fail(
        "read",
        `Invalid \`view_range\`: ${shown}. Its second element \`${last}\` should be larger or equal than its first \`${first}\``,
      );
    }
    const result = await read.execute(
      last === -1 ? { path: input.path, offset: first } : { path: input.path, offset: first, limit: last - first + 1 },
      ctx.call,
    );
    return renderView(result, input.path);
  }

  function renderView(result: ReadResult, path: string): ReadResult {
    if (!result.ok) {
      const message = viewRangeWords(result.error?.message ?? "");
      return { ...result, parts: textParts(message) };
    }
    if (result.parts.some((part) => part.type === "media")) return result;
    const { lines: numbered, notes: rawNotes } = parseNumberedLines(resultText(result));
    const lines = numbered;
    const notes = rawNotes.map(viewRangeWords);
    if (lines.length === 0)
      return { ...result, parts: textParts(`Here's the result of running \`cat -n\` on ${path}:\n\n`) };
    const kept = notes.filter((note) => !note.startsWith("[Showed lines "));
    return {
      ...result,
      parts: textParts(
        `Here's the result of running \`cat -n\` on ${path}:\n${catNumbered(lines)}\n${kept.length > 0 ? `${kept.join("\n")}\n` : ""}`,
      ),
    };
  }

  async function viewDirectory(path: string, ctx: ToolContext): Promise<SearchResult> {
    const checked = await ctx.gate.check(path, "list");
    if (!checked.ok) return errorResult("search", checked.error);
    const base = path.replace(/\/+$/, "") || "/";
    const join = (a: string, b: string): string => (a.endsWith("/") ? `${a}${b}` : `${a}/${b}`);
    const out: string[] = [base];
    // Entries a listDir deny rule hides are left out (not entered), and counted in a note.
    const source = walkSource(ctx.gate, checked);
    const visible = async (directory: string) =>
      (await source.fs.readdir(directory)).filter(
        (entry) =>
          !entry.name.startsWith(".") && (source.include === undefined || source.include(join(directory, entry.name))),
      );
    try {
      const top = (await visible(checked.path)).sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const entry of top) {
        out.push(join(base, entry.name));
        if (entry.type !== "directory") continue;
        const inner = (await visible(join(checked.path, entry.name))).sort((a, b) => (a.name < b.name ? -1 : 1));
        for (const child of inner) out.push(join(join(base, entry.name), child.name));
      }
    } catch (error) {
      return errorResult("search", toolErrorFromFs(error, checked.path, path));
    }
    const note = deniedNote(source.denied);
    return {
      kind: "search",
      ok: true,
      count: out.length - 1,
      parts: textParts(
        `Here's the files and directories up to 2 levels deep in ${path}, excluding hidden items:\n${out.join("\n")}\n${note === undefined ? "" : `${note}\n`}`,
      ),
      ...deniedField(source.denied),
    };
  }

  async function create(input: TextEditorInput, ctx: ToolContext): Promise<MutationResult> {
    if (input.file_text === undefined) return fail("mutation", "Parameter `file_text` is required for command: create");
    const kind = await kindOf(input.path, ctx);
    if (kind === "file" || kind === "directory" || kind === "other") {
      return fail(
        "mutation",
        `File already exists at: ${input.path}. Cannot overwrite files using command \`create\`.`,
        "EEXIST",
      );
    }
    const result = await write.execute({ path: input.path, content: input.file_text }, ctx.call);
    if (!result.ok) return result;
    return { ...result, parts: textParts(`File created successfully at: ${input.path}`) };
  }

  async function strReplace(input: TextEditorInput, ctx: ToolContext): Promise<MutationResult> {
    if (input.old_str === undefined)
      return fail("mutation", "Parameter `old_str` is required for command: str_replace");
    const kind = await kindOf(input.path, ctx);
    if (kind === "absent")
      return fail("mutation", `The path ${input.path} does not exist. Please provide a valid path.`, "ENOENT");
    if (kind === "directory") {
      return fail(
        "mutation",
        `The path ${input.path} is a directory and only the \`view\` command can be used on directories`,
        "EISDIR",
      );
    }
    const newStr = input.new_str ?? "";
    const result = await edit.execute({ path: input.path, oldText: input.old_str, newText: newStr }, ctx.call);
    if (!result.ok) {
      if (result.error?.code === "ENOMATCH") {
        return {
          ...result,
          parts: textParts(
            `No replacement was performed, old_str \`${input.old_str}\` did not appear verbatim in ${input.path}.`,
          ),
        };
      }
      if (result.error?.code === "EAMBIGUOUS") {
        const { lines = [], lineCount = lines.length } = result.error;
        const listed = listMatchLines(lines, lineCount);
        return {
          ...result,
          parts: textParts(
            `No replacement was performed. Multiple occurrences of old_str \`${input.old_str}\` in lines [${listed}]. Please ensure it is unique`,
          ),
        };
      }
      return result;
    }
    const at = result.changes[0]?.line ?? 1;
    const added = newStr.split("\n").length;
    const shown = await snippet(
      input.path,
      at - TEXT_EDITOR_SNIPPET_LINES,
      at + added - 1 + TEXT_EDITOR_SNIPPET_LINES,
      ctx,
    );
    return {
      ...result,
      parts: textParts(
        `The file ${input.path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${input.path}:\n${shown}\n` +
          "Review the changes and make sure they are as expected. Edit the file again if necessary.",
      ),
    };
  }

  async function insert(input: TextEditorInput, ctx: ToolContext): Promise<MutationResult> {
    if (input.insert_line === undefined)
      return fail("mutation", "Parameter `insert_line` is required for command: insert");
    const insertText = input.insert_text ?? input.new_str;
    if (insertText === undefined) return fail("mutation", "Parameter `insert_text` is required for command: insert");
    const readable = await ctx.gate.check(input.path, "read");
    if (!readable.ok) return errorResult("mutation", readable.error);
    const writable = await ctx.gate.check(input.path, "write");
    if (!writable.ok) return errorResult("mutation", writable.error);
    const path = writable.path;
    return ctx.locks.run([path], async () => {
      let bytes: Uint8Array;
      try {
        const stat = await ctx.gate.fs.stat(path);
        if (stat.type === "directory") {
          return fail(
            "mutation",
            `The path ${input.path} is a directory and only the \`view\` command can be used on directories`,
            "EISDIR",
          );
        }
        bytes = await ctx.gate.fs.readFile(path);
      } catch (error) {
        const failure = toolErrorFromFs(error, path, input.path);
        if (failure.code === "ENOENT")
          return fail("mutation", `The path ${input.path} does not exist. Please provide a valid path.`, "ENOENT");
        return errorResult("mutation", failure);
      }
      const decoded = decodeUtf8(bytes);
      if (!decoded.ok) {
        return errorResult("mutation", {
          code: "EILSEQ",
          path,
          message: `Cannot edit ${input.path}: it is not valid UTF-8 (invalid byte at byte offset ${decoded.offset}); it was left untouched.`,
        });
      }
      const stale = await checkFresh(ctx, path, input.path, bytes, "edit");
      if (stale !== undefined) return errorResult("mutation", stale);
      const { lines, endings, eol } = splitLines(decoded.text);
      const line = input.insert_line as number;
      if (line < 0 || line > lines.length) {
        return fail(
          "mutation",
          `Invalid \`insert_line\` parameter: ${line}. It should be within the range of lines of the file: [0, ${lines.length}]`,
        );
      }
      const body = insertText.endsWith("\r\n")
        ? insertText.slice(0, -2)
        : insertText.endsWith("\n")
          ? insertText.slice(0, -1)
          : insertText;
      const added = body.split(/\r?\n/);
      const addedEndings = added.map(() => eol);
      if (line === lines.length && line > 0 && endings[line - 1] === "") {
        endings[line - 1] = eol;
        addedEndings[addedEndings.length - 1] = "";
      }
      lines.splice(line, 0, ...added);
      endings.splice(line, 0, ...addedEndings);
      let text = decoded.bom ? "\uFEFF" : "";
      for (let i = 0; i < lines.length; i += 1) text += `${lines[i] ?? ""}${endings[i] ?? ""}`;
      const data = encodeUtf8(text);
      try {
        await ctx.gate.fs.writeFile(path, data);
      } catch (error) {
        return errorResult("mutation", toolErrorFromFs(error, path, input.path));
      }
      await recordSeen(ctx, path, data);
      const first = Math.max(1, line - TEXT_EDITOR_SNIPPET_LINES + 1);
      const last = Math.min(lines.length, line + added.length + TEXT_EDITOR_SNIPPET_LINES);
      const shown = catNumbered(lines.slice(first - 1, last).map((text, i) => ({ line: first + i, text })));
      return {
        kind: "mutation",
        ok: true,
        changes: [{ action: "updated", path, bytes: data.length, line: line + 1 }],
        parts: textParts(
          `The file ${input.path} has been edited. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${shown}\n` +
            "Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.",
        ),
      };
    });
  }

  return tool;
}

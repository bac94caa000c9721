/**
 * The `list` tool: a directory's entries with sizes, directories marked with `/`, sorted, capped.
 *
 * @module
 */
import type { ToolContextOptions } from "../kit/context.js";
import { defineCoreTool } from "../kit/define.js";
import { toolErrorFromFs } from "../kit/fs-failure.js";
import picomatch from "picomatch";
import { checkInput, positiveIntegerOption, specSchema, type InputSpec } from "../kit/input.js";
import type { ToolContext } from "../kit/context.js";
import { errorResult, textParts, type SearchResult } from "../kit/result.js";
import {
  resolveSearchSettings,
  SEARCH_SETTING_KEYS,
  type ResolvedSearchSettings,
  type SearchSettings,
} from "../kit/search-settings.js";
import { formatCount, plural } from "../kit/text.js";
import { ToolInputError, type CoreTool, type ToolCall } from "../kit/tool.js";
import {
  compareCodeUnits,
  deniedField,
  deniedNote,
  searchResult,
  walkFiles,
  walkSource,
  type WalkSource,
} from "../kit/walk.js";
import { mapConcurrent } from "../../contract/concurrency.js";
import type { DirEntry } from "../../contract/types.js";

/** Default most entries shown by `list`: 1,000. */
export const DEFAULT_MAX_LIST_ENTRIES = 1000;

/** The `list` tool's own options. */
export interface ListToolSettings extends SearchSettings {
  /** Most entries shown; the rest are counted. @default DEFAULT_MAX_LIST_ENTRIES */
  readonly maxEntries?: number;
}

/** Options of {@link createListTool}. */
export interface ListToolOptions extends ToolContextOptions, ListToolSettings {}

/** Input of the `list` tool. */
export interface ListInput {
  /** Directory, relative to cwd or absolute. @default "." (the working directory) */
  readonly path?: string;
  /**
   * A glob over paths relative to `path` (picomatch: `*` stays within a name, `**` crosses
   * directories). Given, the listing is recursive: every file below `path` whose relative path
   * matches, with its size, sorted by path (directories are walked, not listed; `.git`,
   * `node_modules` and `tool-outputs` are not entered). Not in the default signature's schema
   * (glob covers it there); dialects such as `list_files` use it.
   */
  readonly pattern?: string;
}

/** The keys of {@link ListToolSettings}. */
export const LIST_SETTING_KEYS = ["maxEntries", ...SEARCH_SETTING_KEYS] as const;

/** The fields of {@link ListInput}. */
export const LIST_INPUT_SPEC: InputSpec = {
  path: {
    type: "string",
    nonEmpty: true,
    description: "Directory to list, relative to the working directory or absolute. Omit for the working directory.",
  },
};

/** The input the core `list` accepts: its schema's fields plus the recursive `pattern`. */
const LIST_ACCEPTED_SPEC: InputSpec = {
  ...LIST_INPUT_SPEC,
  pattern: {
    type: "string",
    nonEmpty: true,
    description: "Glob over paths relative to path; given, every matching file below path is listed.",
  },
};

function checkListInput(input: unknown): ListInput {
  const checked = checkInput<ListInput>("list", input, LIST_ACCEPTED_SPEC);
  if (checked.pattern !== undefined) {
    try {
      picomatch.makeRe(checked.pattern, { dot: true });
    } catch (error) {
      throw new ToolInputError(
        `list input pattern is not a valid glob: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return checked;
}

/** The default description of the `list` tool. */
export const LIST_DESCRIPTION =
  "List a directory: one entry per line, sorted by name, directories ending in `/`, files with their size in bytes, symlinks as `name@`. " +
  "Use glob to find files by pattern across directories.";

/**
 * Create the `list` tool.
 *
 * @param options - the shared context options plus `maxEntries`, `concurrency` (stat calls in
 *   flight) and `offload`.
 * @returns a {@link CoreTool} named `list`: lines like `README.md (1,234 bytes)`, `src/`,
 *   `link@ -> target`, sorted by name (UTF-16 code units), at most `maxEntries`, then
 *   `[… N more entries not shown (M in all). ...]`. `count` is the number of entries. With a
 *   `pattern` (accepted by `execute` and `validate`, left out of the default schema), the files
 *   below `path` whose relative paths match, as `src/a.ts (120 bytes)`, sorted by path. Entries a
 *   `listDir` deny rule refuses are neither shown nor entered: a note counts them
 *   (`[Skipped 1 path because of a deny rule for "listDir" in the permissions config.]`) and
 *   `denied` lists them; files denied only for `readFile` are shown with their size (names, not
 *   content). Failures: `ENOENT`, `ENOTDIR` (a file: suggests read), `EDENIED`.
 * @throws TypeError at creation for an unknown option or a bad value.
 * @example
 * ```ts
 * const list = createListTool({ fs, cwd: "/w" });
 * await list.execute({ path: "src" }); // "a.ts (120 bytes)\nlib/"
 * ```
 */
export function createListTool(options: ListToolOptions): CoreTool<ListInput, SearchResult> {
  return listTool(options);
}

const listTool = defineCoreTool({
  factory: "createListTool",
  name: "list",
  kind: "search",
  spec: { schema: specSchema(LIST_INPUT_SPEC), check: checkListInput },
  settings: LIST_SETTING_KEYS,
  description: LIST_DESCRIPTION,
  setup: (options: ListToolOptions) => ({
    maxEntries: positiveIntegerOption("createListTool", "maxEntries", options.maxEntries, DEFAULT_MAX_LIST_ENTRIES),
    settings: resolveSearchSettings("createListTool", options),
  }),
  async run(input: ListInput, ctx, { maxEntries, settings }): Promise<SearchResult> {
    const { gate } = ctx;
    const checked = await gate.check(input.path ?? ".", "list");
    if (!checked.ok) return errorResult("search", checked.error);
    const path = checked.path;
    const display = gate.display(path) || ".";
    const source = walkSource(gate, checked);
    const fs = source.fs;
    const prefix = path === "/" ? "/" : `${path}/`;
    let entries: DirEntry[];
    try {
      const stat = await fs.stat(path);
      if (stat.type !== "directory") {
        return errorResult("search", {
          code: "ENOTDIR",
          path,
          message: `${display} is a file, not a directory; read the file to see its content.`,
        });
      }
      if (input.pattern !== undefined)
        return await listMatching(ctx, source, path, display, input.pattern, maxEntries, settings);
      entries = await fs.readdir(path);
    } catch (error) {
      return errorResult("search", toolErrorFromFs(error, path, display));
    }
    const include = source.include;
    if (include !== undefined) entries = entries.filter((entry) => include(prefix + entry.name, entry));
    entries.sort((a, b) => compareCodeUnits(a.name, b.name));
    const note = deniedNote(source.denied);
    if (entries.length === 0) {
      const text =
        note === undefined ? `${display} is an empty directory.` : `${display} has no entries to show.\n${note}`;
      return { kind: "search", ok: true, parts: textParts(text), count: 0, ...deniedField(source.denied) };
    }
    const shown = entries.slice(0, maxEntries);
    const lines = await mapConcurrent(shown, settings.concurrency, async (entry): Promise<string> => {
      signalCheck(ctx.call);
      if (entry.type === "directory") return `${entry.name}/`;
      if (entry.type === "symlink") {
        const target =
          fs.readlink === undefined ? undefined : await fs.readlink(prefix + entry.name).catch(() => undefined);
        return target === undefined ? `${entry.name}@` : `${entry.name}@ -> ${target}`;
      }
      if (entry.type === "other") return `${entry.name} (special file)`;
      const size = await fs.stat(prefix + entry.name).then(
        (stat) => stat.size,
        () => undefined,
      );
      return size === undefined ? entry.name : `${entry.name} (${plural(size, "byte")})`;
    });
    let text = lines.join("\n");
    const truncated = entries.length > shown.length;
    if (truncated) {
      text += `\n[… ${formatCount(entries.length - shown.length)} more ${entries.length - shown.length === 1 ? "entry" : "entries"} not shown (${formatCount(entries.length)} in all). Use glob with a pattern to narrow the list.]`;
    }
    if (note !== undefined) text += `\n${note}`;
    return searchResult(ctx, settings.offload, text, {
      count: entries.length,
      truncated,
      ...deniedField(source.denied),
    });
  },
});

/**
 * The recursive listing of {@link ListInput.pattern}: every file below `root` whose path relative
 * to it matches, as `rel (N bytes)` (symlinks `rel@ -> target`, not followed), sorted by path.
 */
async function listMatching(
  ctx: ToolContext,
  source: WalkSource,
  root: string,
  display: string,
  pattern: string,
  maxEntries: number,
  settings: ResolvedSearchSettings,
): Promise<SearchResult> {
  const matches = picomatch(pattern, { dot: true });
  const found: Array<{ relative: string; line: string }> = [];
  const fs = source.fs;
  await walkFiles({
    fs,
    root,
    concurrency: settings.concurrency,
    signal: ctx.call.abortSignal,
    ignoreDirectories: settings.ignoreDirectories,
    include: source.include,
    onEntry: async (path, relative, entry) => {
      if (!matches(relative)) return;
      let line: string;
      if (entry.type === "symlink") {
        const target = fs.readlink === undefined ? undefined : await fs.readlink(path).catch(() => undefined);
        line = target === undefined ? `${relative}@` : `${relative}@ -> ${target}`;
      } else if (entry.type === "other") {
        line = `${relative} (special file)`;
      } else {
        const size = await fs.stat(path).then(
          (stat) => stat.size,
          () => undefined,
        );
        line = size === undefined ? relative : `${relative} (${plural(size, "byte")})`;
      }
      found.push({ relative, line });
    },
  });
  const note = deniedNote(source.denied);
  const withNote = (text: string): string => (note === undefined ? text : `${text}\n${note}`);
  if (found.length === 0) {
    return {
      kind: "search",
      ok: true,
      parts: textParts(withNote(`No files match ${pattern} under ${display}.`)),
      count: 0,
      ...deniedField(source.denied),
    };
  }
  found.sort((a, b) => compareCodeUnits(a.relative, b.relative));
  const truncated = found.length > maxEntries;
  let text = (truncated ? found.slice(0, maxEntries) : found).map((entry) => entry.line).join("\n");
  if (truncated) {
    text += `\n[… ${formatCount(found.length - maxEntries)} more ${found.length - maxEntries === 1 ? "file" : "files"} not shown (${formatCount(found.length)} in all). Use a narrower pattern or path.]`;
  }
  return searchResult(ctx, settings.offload, withNote(text), {
    count: found.length,
    truncated,
    ...deniedField(source.denied),
  });
}

function signalCheck(call: ToolCall | undefined): void {
  call?.abortSignal?.throwIfAborted();
}

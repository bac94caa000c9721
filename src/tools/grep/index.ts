/**
 * The `grep` tool: lines matching a JavaScript regular expression, as `path:line:text`, over a
 * file or a directory tree (bounded concurrent walk, optional glob filter), with caps on matches
 * and line length.
 *
 * Speed: a file whose bytes lack the text every match must contain is not decoded at all (see
 * `literal-prefilter.ts`; one that is not all ASCII is checked for UTF-8 validity); any other
 * file is read and decoded once, and its lines found by `line-matcher.ts`: a leading and a
 * trailing `.*` are dropped, and unless the pattern has a lookaround or a part that may match a
 * line break (`[^x]`, `\s`: a repeat of it could run across lines) the expression is tested on
 * the whole text first (with the `m` flag), then only on the lines around each hit, with no
 * per-line allocation for the rest; otherwise each line is tested alone.
 *
 * @module
 */
import picomatch from "picomatch";
import type { ToolContextOptions } from "../kit/context.js";
import { defineCoreTool } from "../kit/define.js";
import { toolErrorFromFs } from "../kit/fs-failure.js";
import { positiveIntegerOption, type InputSpec } from "../kit/input.js";
import { createBytePrefilter } from "./literal-prefilter.js";
import { createLineMatcher, findMatchingLines, type LineMatcher } from "./line-matcher.js";
import { backtrackingFeature, loadLinearEngine } from "./linear-engine.js";
import { patternRisk, riskyPatternReason } from "./regex-risk.js";
import { shownPattern, syntaxReason } from "./shown-pattern.js";
import { errorResult, textParts, type SearchResult, type SkippedLongLines } from "../kit/result.js";
import { resolveSearchSettings, SEARCH_SETTING_KEYS, type SearchSettings } from "../kit/search-settings.js";
import { BINARY_SNIFF_BYTES, decodeUtf8, findInvalidUtf8, formatCount, hasNulByte, plural } from "../kit/text.js";
import { ToolInputError, type CoreTool } from "../kit/tool.js";
import { compareCodeUnits, deniedField, deniedNote, searchResult, walkFiles, walkSource } from "../kit/walk.js";
import type { ToolErrorCode } from "../../contract/errors.js";
import { baseName } from "../../contract/path.js";

/** Default most matching lines shown: 200. */
export const DEFAULT_MAX_GREP_MATCHES = 200;

/** Default longest matching line shown, in characters: 500; longer lines show a window around the match. */
export const DEFAULT_MAX_GREP_LINE_LENGTH = 500;

/**
 * Default longest line tested against the pattern, in characters (a CRLF line's `"\r"` not
 * counted): 20,000. Longer lines (minified bundles, data dumps) are skipped, counted and named in
 * a note, so one line cannot hold the event loop in a long backtracking search. With the patterns
 * grep runs at this limit, a line costs at most about the square of its length: on a worst line
 * of 20,000 characters that does not match, 0.1 to 0.9 s (`import.*from`, `TODO.*fix`, `a.*b`,
 * `\w+x`). Patterns whose cost would grow faster run on the linear-time engine (`linear-engine.ts`).
 */
export const DEFAULT_MAX_GREP_SCAN_LINE_LENGTH = 20_000;

/**
 * Longest line tested, in characters, for a pattern with two unbounded repeats over characters
 * they share and only text the first can match between them (`a.*b.*c`, `import.*from.*\d`,
 * `function.*\(.*\)`; see `patternRisk`) that must run on the JavaScript engine, because it
 * also has a lookaround or a backreference (without one it runs on the linear-time engine, with
 * the usual limit): 1,000, or `maxScanLineLength` when that is smaller. Longer lines are skipped
 * and noted, with this limit, as with `maxScanLineLength`.
 *
 * Such a pattern costs the cube of the line length on a line that does not match: for each
 * start, the first repeat stops at every copy of the text between them, and from each the
 * second runs to the end of the line. Measured on one such line (Node 22, 2 cores, load 9),
 * `a.*a.*b` takes 0.6 s at 1,000 `a`s and 5.3 s at 2,000; `import.*from.*\d` 0.12 s at 2,500
 * characters of `importfrom`, 0.7 s at 5,000, 7 s at 10,000 (again at load 5: `a.*a.*b`
 * 0.17 s and 2.4 s, `import.*from.*\d` 0.03 s and 0.25 s). At 1,000 characters the worst line
 * stays under a second. Refusing these patterns was worse: models send them all the time, and
 * most lines of code are far shorter. Lowering the limit for every pattern would skip ordinary
 * long lines (a paragraph of Markdown, a line of JSON) that the other patterns search in well
 * under a second. Three or more such repeats (`a.*b.*c.*d`) are refused: `a.*a.*a.*b` takes
 * 1.8 s on 400 characters. Two repeats joined by pieces that can match the empty string
 * (`a*x?a*b`, `\w+\s?\w+\(`) cost the same (about 0.2 s at 1,000 characters, side by side
 * with `a.*a.*b`; see `patternRisk`) and run with this limit too.
 */
export const CUBIC_PATTERN_SCAN_LINE_LENGTH = 1_000;

/** Files named in a note (not UTF-8, long lines skipped); the rest are counted. */
const MAX_NOTED_FILES = 5;

/** The `grep` tool's own options. */
export interface GrepToolSettings extends SearchSettings {
  /** Longest line tested against the pattern, in characters; longer lines are skipped and noted. @default DEFAULT_MAX_GREP_SCAN_LINE_LENGTH */
  readonly maxScanLineLength?: number;
  /** Most matching lines shown; all are counted. @default DEFAULT_MAX_GREP_MATCHES */
  readonly maxMatches?: number;
  /** Longest line shown, in characters; longer ones are cut around the match with `…`. @default DEFAULT_MAX_GREP_LINE_LENGTH */
  readonly maxLineLength?: number;
}

/** Options of {@link createGrepTool}. */
export interface GrepToolOptions extends ToolContextOptions, GrepToolSettings {}

/** Input of the `grep` tool. */
export interface GrepInput {
  /** A JavaScript regular expression (no slashes, no flags), tested against each line; a leading `(?i)` means `ignoreCase: true`. */
  readonly pattern: string;
  /** File or directory to search. @default "." (the working directory) */
  readonly path?: string;
  /** Only files whose path (relative to `path`) matches this glob; a glob without `/` matches the file name (`*.ts`). */
  readonly glob?: string;
  /** Match letters case-insensitively. @default false */
  readonly ignoreCase?: boolean;
}

/** The keys of {@link GrepToolSettings}. */
export const GREP_SETTING_KEYS = ["maxMatches", "maxLineLength", "maxScanLineLength", ...SEARCH_SETTING_KEYS] as const;

/** The fields of {@link GrepInput}. */
export const GREP_INPUT_SPEC: InputSpec = {
  pattern: {
    type: "string",
    required: true,
    nonEmpty: true,
    description:
      "JavaScript regular expression tested against each line, e.g. `function \\w+\\(` (escape regex characters for literal text); a leading `(?i)` makes it case-insensitive.",
  },
  path: {
    type: "string",
    nonEmpty: true,
    description:
      "File or directory to search, relative to the working directory or absolute. Omit for the working directory.",
  },
  glob: {
    type: "string",
    nonEmpty: true,
    description:
      "Only search files matching this glob, e.g. `*.ts` (file name) or `src/**/*.md` (path relative to path).",
  },
  ignoreCase: { type: "boolean", description: "Case-insensitive matching. Default false." },
};

/** The default description of the `grep` tool. */
export const GREP_DESCRIPTION =
  "Search file contents with a JavaScript regular expression. Returns matching lines as `path:line:text`, sorted by path and line. " +
  "Binary files and files that are not UTF-8 are skipped; .git, node_modules and tool-outputs are not entered; symlinks are not followed. " +
  "Patterns the JavaScript engine could backtrack on for a long time (nested repetition such as `(a+)+`, a repeated choice of overlapping alternatives such as `(a|aa)+`, " +
  "repeats of the same characters such as `a*a*` or `a.*b.*c`) run on a linear-time engine (RE2, where `\\s` is ASCII whitespace only); " +
  "such a pattern that also has a lookaround or a backreference is refused. " +
  "Very long lines are skipped and named in a note.";

export { riskyPatternReason };

/**
 * A grep pattern's leading `(?i)` (the inline flag of Python, PCRE and ripgrep, which JavaScript
 * lacks and models often send) → the rest of the pattern and `ignoreCase: true`. Any other
 * pattern, and `(?i)` alone, is returned as is.
 *
 * @param pattern - the model's pattern.
 * @returns the pattern to compile, and `ignoreCase: true` when a `(?i)` was taken off.
 * @example
 * ```ts
 * inlineIgnoreCase("(?i)todo"); // { pattern: "todo", ignoreCase: true }
 * inlineIgnoreCase("todo"); // { pattern: "todo" }
 * ```
 */
export function inlineIgnoreCase(pattern: string): { pattern: string; ignoreCase?: true } {
  return pattern.startsWith("(?i)") && pattern.length > 4
    ? { pattern: pattern.slice(4), ignoreCase: true }
    : { pattern };
}

/** The pattern and case flag the core grep runs for `input`: its `ignoreCase`, or a leading `(?i)`. */
function effectivePattern(input: GrepInput): { pattern: string; ignoreCase: boolean } {
  const inline = inlineIgnoreCase(input.pattern);
  return { pattern: inline.pattern, ignoreCase: input.ignoreCase === true || inline.ignoreCase === true };
}

/**
 * Compile the model's pattern: with the `u` flag when it is valid there (so `\p{L}` works),
 * else without.
 *
 * @returns the per-line expression, or why it does not compile ({@link syntaxReason}: without
 *   the engine's copy of the pattern, with a hint for inline flags such as `(?i)`).
 */
export function compileGrepPattern(pattern: string, ignoreCase: boolean): RegExp | string {
  const flags = ignoreCase ? "i" : "";
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      return syntaxReason(error instanceof Error ? error.message : String(error), pattern);
    }
  }
}

interface FileHits {
  readonly display: string;
  readonly lines: number[];
  readonly texts: string[];
}

/**
 * Create the `grep` tool.
 *
 * @param options - the shared context options plus `maxMatches`, `maxLineLength` (characters),
 *   `maxScanLineLength` (characters), `concurrency` (backend calls in flight, default 32), `ignoreDirectories` and `offload`.
 * @returns a {@link CoreTool} named `grep`: `path:line:text` lines sorted by path then line, at
 *   most `maxMatches`, then `[Showed N of M matching lines in K files. ...]`; no match is a success
 *   that says so; `count` is the number of matching lines. Lines end where `read` ends them, at
 *   `"\n"`, `"\r\n"` or a lone `"\r"` (so line numbers agree with read's, and no `"\r"` is
 *   shown). Files that are not valid UTF-8 are
 *   skipped and named in a note (`[Skipped 1 file that is not valid UTF-8: latin1.txt.]`), as are
 *   lines over `maxScanLineLength` characters (never tested against the pattern; also in
 *   `skippedLongLines`, with the limit used), and files that could not be read
 *   (`[1 file could not be read, so it was not searched: a.txt (EIO).]`, also in `unreadable`).
 *   Files a `readFile` deny rule refuses are not read and directories a `listDir` deny rule
 *   refuses not entered: a note counts them (`[Skipped 2 paths because of a deny rule for
 *   "readFile" in the permissions config.]`) and `denied` lists them.
 *   A pattern the JavaScript engine could backtrack on for a long time (`(a+)+`, `(a|aa)+`,
 *   `a*a*`, `a.*b.*c`: see `patternRisk`) runs on the linear-time engine (`linear-engine.ts`,
 *   loaded on first use). A leading and a trailing `.*` are dropped before the pattern is looked
 *   at and run, as they change no line's answer. Failures: `EINPUT` (invalid regular expression
 *   or glob; a risky pattern that also has a lookaround or a backreference, which the
 *   linear-time engine lacks, refused before it runs, see {@link refusedPatternReason}; such a
 *   pattern with two unbounded repeats and text between them, `a.*b.*c(?!x)`, runs on the
 *   JavaScript engine with a limit of {@link CUBIC_PATTERN_SCAN_LINE_LENGTH} (1,000) characters
 *   instead, and the note says so), `ENOENT`, `EDENIED` (also for a `path` a deny rule refuses: a
 *   file for `readFile`, a directory for `readFile` or `listDir`).
 * @throws TypeError at creation for an unknown option or a bad value.
 * @example
 * ```ts
 * const grep = createGrepTool({ fs, cwd: "/w" });
 * await grep.execute({ pattern: "TODO", glob: "*.ts" }); // "src/a.ts:12:// TODO: ..."
 * ```
 */
export function createGrepTool(options: GrepToolOptions): CoreTool<GrepInput, SearchResult> {
  return grepTool(options);
}

const grepTool = defineCoreTool({
  factory: "createGrepTool",
  name: "grep",
  kind: "search",
  spec: GREP_INPUT_SPEC,
  settings: GREP_SETTING_KEYS,
  description: GREP_DESCRIPTION,
  setup: (options: GrepToolOptions) => ({
    maxMatches: positiveIntegerOption("createGrepTool", "maxMatches", options.maxMatches, DEFAULT_MAX_GREP_MATCHES),
    maxLineLength: positiveIntegerOption(
      "createGrepTool",
      "maxLineLength",
      options.maxLineLength,
      DEFAULT_MAX_GREP_LINE_LENGTH,
    ),
    maxScanLineLength: positiveIntegerOption(
      "createGrepTool",
      "maxScanLineLength",
      options.maxScanLineLength,
      DEFAULT_MAX_GREP_SCAN_LINE_LENGTH,
    ),
    settings: resolveSearchSettings("createGrepTool", options),
  }),
  check(input: GrepInput) {
    const { pattern, ignoreCase } = effectivePattern(input);
    const compiled = compileGrepPattern(pattern, ignoreCase);
    if (typeof compiled === "string")
      throw new ToolInputError(`grep input pattern is not a valid regular expression: ${compiled}`);
    const refused = refusedPatternReason(createLineMatcher(compiled).line.source, ignoreCase, pattern);
    if (refused !== undefined) throw new ToolInputError(refused);
  },
  async run(input: GrepInput, ctx, { maxMatches, maxLineLength, maxScanLineLength, settings }): Promise<SearchResult> {
    const { gate } = ctx;
    const effective = effectivePattern(input);
    const lineRe = compileGrepPattern(effective.pattern, effective.ignoreCase);
    if (typeof lineRe === "string") {
      return errorResult("search", {
        code: "EINPUT",
        message: `Invalid regular expression ${shownPattern(input.pattern)}: ${lineRe}`,
      });
    }
    let filter: ((path: string) => boolean) | undefined;
    if (input.glob !== undefined) {
      try {
        filter = picomatch(input.glob, { dot: true, basename: !input.glob.includes("/") });
      } catch (error) {
        return errorResult("search", {
          code: "EINPUT",
          message: `Invalid glob ${JSON.stringify(input.glob)}: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }
    const checked = await gate.check(input.path ?? ".", "read");
    if (!checked.ok) return errorResult("search", checked.error);
    const root = checked.path;
    const rootDisplay = gate.display(root) || ".";
    const source = walkSource(gate, checked);
    const fs = source.fs;
    const planned = await planGrepPattern(lineRe, effective.ignoreCase, input.pattern, maxScanLineLength);
    if (typeof planned === "string") return errorResult("search", { code: "EINPUT", message: planned });
    const { matcher, scanLimit } = planned;
    const prefilter = createBytePrefilter(lineRe);
    const hits: FileHits[] = [];
    let searched = 0;
    const notUtf8: string[] = [];
    const unreadable: Array<{ path: string; display: string; code: ToolErrorCode }> = [];
    const longLines: Array<{ path: string; display: string; count: number }> = [];

    /** Everything done with one file's bytes: synchronous, so a backend may lend its own (no copy). */
    const inspect = (path: string, bytes: Uint8Array): void => {
      searched++;
      // Binary (a NUL byte in the first 8 KiB, as git and ripgrep decide): skipped.
      if (hasNulByte(bytes, BINARY_SNIFF_BYTES)) return;
      // Without the text every match contains, no line can match: the file is not decoded (one
      // that is not all ASCII is only checked for UTF-8 validity, to be named if it is not).
      const verdict = prefilter?.scan(bytes) ?? "maybe";
      if (verdict === "none") return;
      if (verdict === "none-if-utf8") {
        if (findInvalidUtf8(bytes) >= 0) notUtf8.push(gate.display(path));
        return;
      }
      const decoded = decodeUtf8(bytes);
      if (!decoded.ok) {
        notUtf8.push(gate.display(path));
        return;
      }
      const found = findMatchingLines(decoded.text, matcher, { maxLineLength, maxScanLineLength: scanLimit });
      if (found.longLines > 0) longLines.push({ path, display: gate.display(path), count: found.longLines });
      if (found.lines.length > 0) hits.push({ display: gate.display(path), lines: found.lines, texts: found.texts });
    };
    const readFileView = fs.readFileView?.bind(fs);
    const searchFile = async (path: string): Promise<void> => {
      let bytes: Uint8Array | undefined;
      try {
        if (readFileView !== undefined) await readFileView(path, (view) => inspect(path, view));
        else bytes = await fs.readFile(path);
      } catch (error) {
        // Named in the result (an abort is rethrown): a file not searched must not look like no match.
        unreadable.push({ path, display: gate.display(path), code: toolErrorFromFs(error, path, path).code });
        return;
      }
      if (bytes !== undefined) inspect(path, bytes);
    };

    try {
      const stat = await fs.stat(root);
      if (stat.type === "directory") {
        // Walking a directory lists it: a listDir deny rule refuses that as `list` would.
        const unlisted = gate.denied(root, "list");
        if (unlisted !== undefined) return errorResult("search", unlisted);
        await walkFiles({
          fs,
          root,
          concurrency: settings.concurrency,
          signal: ctx.call.abortSignal,
          ignoreDirectories: settings.ignoreDirectories,
          include: source.include,
          onEntry: (path, relative, entry) => {
            if (entry.type !== "file") return;
            if (filter !== undefined && !filter(relative)) return;
            if (!source.readable(path)) return;
            return searchFile(path);
          },
        });
      } else if (filter === undefined || filter(baseName(root))) {
        await searchFile(root);
      }
    } catch (error) {
      return errorResult("search", toolErrorFromFs(error, root, rootDisplay));
    }

    let total = 0;
    for (const file of hits) total += file.lines.length;
    const where = `${rootDisplay}${input.glob === undefined ? "" : ` (files matching ${input.glob})`}`;
    const notes: string[] = [];
    unreadable.sort((a, b) => compareCodeUnits(a.display, b.display));
    if (unreadable.length > 0) {
      notes.push(
        `[${plural(unreadable.length, "file")} could not be read, so ${unreadable.length === 1 ? "it was" : "they were"} not searched: ${nameSome(unreadable.map((file) => `${file.display} (${file.code})`))}.]`,
      );
    }
    const unreadableField = {
      ...(unreadable.length === 0 ? {} : { unreadable: unreadable.map(({ path, code }) => ({ path, code })) }),
      ...deniedField(source.denied),
    };
    const deniedSkips = deniedNote(source.denied);
    if (deniedSkips !== undefined) notes.push(deniedSkips);
    if (notUtf8.length > 0) {
      notUtf8.sort(compareCodeUnits);
      notes.push(
        `[Skipped ${plural(notUtf8.length, "file")} that ${notUtf8.length === 1 ? "is" : "are"} not valid UTF-8: ${nameSome(notUtf8)}.]`,
      );
    }
    let skippedField = {};
    if (longLines.length > 0) {
      longLines.sort((a, b) => compareCodeUnits(a.display, b.display));
      const skipped: SkippedLongLines = {
        count: longLines.reduce((sum, file) => sum + file.count, 0),
        maxScanLineLength: scanLimit,
        files: longLines.map(({ path, count }) => ({ path, count })),
      };
      skippedField = { skippedLongLines: skipped };
      notes.push(longLinesNote(skipped, maxScanLineLength, nameSome(longLines.map((file) => file.display))));
    }
    const withNotes = (text: string): string => (notes.length === 0 ? text : `${text}\n${notes.join("\n")}`);
    if (total === 0) {
      return {
        kind: "search",
        ok: true,
        parts: textParts(
          withNotes(`No matches for ${shownPattern(input.pattern)} in ${where}; searched ${plural(searched, "file")}.`),
        ),
        count: 0,
        ...unreadableField,
        ...skippedField,
      };
    }
    hits.sort((a, b) => compareCodeUnits(a.display, b.display));
    const out: string[] = [];
    outer: for (const file of hits) {
      for (let i = 0; i < file.lines.length; i++) {
        if (out.length >= maxMatches) break outer;
        out.push(`${file.display}:${file.lines[i]}:${file.texts[i]}`);
      }
    }
    const truncated = total > out.length;
    let text = out.join("\n");
    if (truncated) {
      text += `\n[Showed ${formatCount(out.length)} of ${formatCount(total)} matching lines in ${plural(hits.length, "file")}. Narrow the pattern, path or glob to see the rest.]`;
    }
    return searchResult(ctx, settings.offload, withNotes(text), {
      count: total,
      truncated,
      ...unreadableField,
      ...skippedField,
    });
  },
});

/**
 * Why grep refuses a pattern before it runs, or undefined: a shape the JavaScript engine could
 * backtrack on for a long time (see {@link riskyPatternReason}) in a pattern that also uses a
 * feature the linear-time engine lacks (a lookaround or a backreference, see
 * {@link backtrackingFeature}). Any other risky pattern runs on the linear-time engine.
 *
 * @param source - the expression's source as it runs (without a leading and trailing `.*`).
 * @param ignoreCase - whether it runs case-insensitively.
 * @param shown - the pattern as the model sent it, named in the message.
 * @returns the message for the model, or undefined when the pattern runs.
 */
export function refusedPatternReason(source: string, ignoreCase: boolean, shown: string): string | undefined {
  const feature = backtrackingFeature(source);
  if (feature === undefined) return undefined;
  const risky = riskyPatternReason(source, ignoreCase, shown);
  return risky === undefined ? undefined : `${risky} ${linearEngineNote(feature)}`;
}

function linearEngineNote(feature: string): string {
  return `(grep runs such patterns with a linear-time engine, but this one uses ${feature}, which that engine lacks: drop it, or drop the repeat.)`;
}

/** How grep runs a pattern: the line matcher and the longest line it tests, in characters. */
interface GrepPlan {
  readonly matcher: LineMatcher;
  readonly scanLimit: number;
}

/**
 * Choose the engine for a pattern: the JavaScript engine when {@link patternRisk} finds nothing
 * (it is the faster one); else the linear-time engine, unless the pattern uses a lookaround or
 * a backreference. Then a pattern with two unbounded repeats and text between them
 * (`"separated"`) runs on the JavaScript engine with a limit of
 * {@link CUBIC_PATTERN_SCAN_LINE_LENGTH} characters (when smaller than `maxScanLineLength`),
 * and any other risky one is refused.
 *
 * @returns the plan, or the message refusing the pattern.
 */
async function planGrepPattern(
  expression: RegExp,
  ignoreCase: boolean,
  shown: string,
  maxScanLineLength: number,
): Promise<GrepPlan | string> {
  const matcher = createLineMatcher(expression);
  const source = matcher.line.source;
  const risk = patternRisk(source, ignoreCase);
  if (risk === undefined) return { matcher, scanLimit: maxScanLineLength };
  const feature = backtrackingFeature(source);
  const reason =
    feature === undefined
      ? await loadLinearEngine().then((engine) => engine.compile(source, ignoreCase))
      : linearEngineNote(feature);
  if (typeof reason !== "string") {
    return { matcher: { ...matcher, scan: undefined, ...reason }, scanLimit: maxScanLineLength };
  }
  if (risk === "separated") {
    return { matcher, scanLimit: Math.min(CUBIC_PATTERN_SCAN_LINE_LENGTH, maxScanLineLength) };
  }
  const risky = riskyPatternReason(source, ignoreCase, shown) ?? "";
  return feature === undefined
    ? `${risky} (grep runs such patterns with a linear-time engine, but it cannot read this one: ${reason}.)`
    : `${risky} ${reason}`;
}

/** The note for skipped long lines; says why when the limit was lowered for this pattern. */
function longLinesNote(skipped: SkippedLongLines, maxScanLineLength: number, where: string): string {
  const limit = formatCount(skipped.maxScanLineLength);
  const why =
    skipped.maxScanLineLength < maxScanLineLength
      ? ` ${limit} is the limit for this pattern (${formatCount(maxScanLineLength)} for others): its two unbounded repeats ` +
        "with text between them can take the cube of a line's length on the JavaScript engine, which its lookaround or backreference needs. " +
        "Drop that (it then runs on the linear-time engine), keep one `.*`, or bound the other (`.{0,100}`), to search longer lines."
      : "";
  return `[Skipped ${plural(skipped.count, "line")} longer than ${limit} characters, not searched, in ${where}.${why}]`;
}

/** `a, b, c` or the first {@link MAX_NOTED_FILES} and `and N more`. */
function nameSome(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NOTED_FILES).join(", ");
  return names.length > MAX_NOTED_FILES ? `${shown} and ${formatCount(names.length - MAX_NOTED_FILES)} more` : shown;
}

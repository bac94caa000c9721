/**
 * The `glob` tool: files whose path matches a glob (picomatch), found by a bounded concurrent
 * walk, sorted, capped.
 *
 * @module
 */
import picomatch from "picomatch";
import { FsError } from "../../contract/errors.js";
import type { ToolContextOptions } from "../kit/context.js";
import { defineCoreTool } from "../kit/define.js";
import { toolErrorFromFs } from "../kit/fs-failure.js";
import { positiveIntegerOption, type InputSpec } from "../kit/input.js";
import { errorResult, textParts, type SearchResult } from "../kit/result.js";
import { resolveSearchSettings, SEARCH_SETTING_KEYS, type SearchSettings } from "../kit/search-settings.js";
import { formatCount } from "../kit/text.js";
import { ToolInputError, type CoreTool } from "../kit/tool.js";
import {
  compareCodeUnits,
  deniedField,
  deniedNote,
  searchResult,
  walkFileSystem,
  walkFiles,
  walkSource,
} from "../kit/walk.js";
import { baseName } from "../../contract/path.js";

/** Default most paths shown by `glob`: 1,000. */
export const DEFAULT_MAX_GLOB_RESULTS = 1000;

/** The `glob` tool's own options. */
export interface GlobToolSettings extends SearchSettings {
  /** Most paths shown; the rest are counted. @default DEFAULT_MAX_GLOB_RESULTS */
  readonly maxResults?: number;
}

/** Options of {@link createGlobTool}. */
export interface GlobToolOptions extends ToolContextOptions, GlobToolSettings {}

/** Input of the `glob` tool. */
export interface GlobInput {
  /** A glob relative to `path` (`**\/*.ts`, `src/*.{js,mjs}`); `*` stays within one directory. */
  readonly pattern: string;
  /** Directory the pattern is relative to. @default "." (the working directory) */
  readonly path?: string;
}

/** The keys of {@link GlobToolSettings}. */
export const GLOB_SETTING_KEYS = ["maxResults", ...SEARCH_SETTING_KEYS] as const;

/** The fields of {@link GlobInput}. */
export const GLOB_INPUT_SPEC: InputSpec = {
  pattern: {
    type: "string",
    required: true,
    nonEmpty: true,
    description:
      "Glob relative to path, e.g. `**/*.ts` (any depth) or `src/*.json` (one level); `*` does not cross `/`.",
  },
  path: {
    type: "string",
    nonEmpty: true,
    description:
      "Directory to search from, relative to the working directory or absolute. Omit for the working directory.",
  },
};

/** The default description of the `glob` tool. */
export const GLOB_DESCRIPTION =
  "Find files by glob pattern (e.g. `**/*.ts`). Returns matching file paths, sorted, one per line. " +
  "Hidden files are included; .git, node_modules and tool-outputs are not entered; symlinks are listed but not followed.";

function checkPattern(pattern: string): void {
  try {
    picomatch.makeRe(pattern, { dot: true });
  } catch (error) {
    throw new ToolInputError(
      `glob input pattern is not a valid glob: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * Create the `glob` tool.
 *
 * @param options - the shared context options plus `maxResults`, `concurrency`,
 *   `ignoreDirectories` and `offload`.
 * @returns a {@link CoreTool} named `glob`: matching paths (as the model sees paths: relative to
 *   cwd when inside it), sorted, at most `maxResults`, then `[… N more files not shown (M in all). ...]`;
 *   no match is a success that says so. `count` is the number of matches. Paths a `listDir` deny
 *   rule refuses are neither shown nor entered: a note counts them and `denied` lists them; files
 *   denied only for `readFile` are shown (names, not content). Failures: `ENOENT` (no such
 *   directory), `ENOTDIR`, `EDENIED`.
 * @throws TypeError at creation for an unknown option or a bad value.
 * @example
 * ```ts
 * const glob = createGlobTool({ fs, cwd: "/w" });
 * await glob.execute({ pattern: "src/**\/*.ts" }); // "src/a.ts\nsrc/lib/b.ts"
 * ```
 */
export function createGlobTool(options: GlobToolOptions): CoreTool<GlobInput, SearchResult> {
  return globTool(options);
}

const globTool = defineCoreTool({
  factory: "createGlobTool",
  name: "glob",
  kind: "search",
  spec: GLOB_INPUT_SPEC,
  settings: GLOB_SETTING_KEYS,
  description: GLOB_DESCRIPTION,
  setup: (options: GlobToolOptions) => ({
    maxResults: positiveIntegerOption("createGlobTool", "maxResults", options.maxResults, DEFAULT_MAX_GLOB_RESULTS),
    settings: resolveSearchSettings("createGlobTool", options),
  }),
  check: (input: GlobInput) => checkPattern(input.pattern),
  async run(input: GlobInput, ctx, { maxResults, settings }): Promise<SearchResult> {
    const { gate } = ctx;
    const basePath = input.path ?? ".";
    const base = await gate.check(basePath, "list");
    if (!base.ok) return errorResult("search", base.error);
    const baseDisplay = gate.display(base.path) || ".";
    try {
      const stat = await walkFileSystem(gate, base).stat(base.path);
      if (stat.type !== "directory") {
        return errorResult("search", {
          code: "ENOTDIR",
          path: base.path,
          message: `${baseDisplay} is a file, not a directory; give a directory as path.`,
        });
      }
    } catch (error) {
      return errorResult("search", toolErrorFromFs(error, base.path, baseDisplay));
    }

    // Walk only below the pattern's literal prefix: `src/**/*.ts` walks `src`.
    const absolute = input.pattern.startsWith("/");
    const scanned = picomatch.scan(input.pattern);
    let matcher: (path: string) => boolean;
    try {
      matcher = picomatch(scanned.glob === "" ? input.pattern : scanned.glob, { dot: true });
    } catch (error) {
      return errorResult("search", {
        code: "EINPUT",
        message: `Invalid glob ${JSON.stringify(input.pattern)}: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    const literal = scanned.glob === "";
    const rootInput = absolute ? scanned.base || "/" : scanned.base === "" ? base.path : `${base.path}/${scanned.base}`;
    const root = await gate.check(literal ? parentOf(rootInput) : rootInput, "list");
    if (!root.ok) return errorResult("search", root.error);
    const source = walkSource(gate, root);
    const found: string[] = [];
    const wanted = literal ? baseName(rootInput) : undefined;
    try {
      await walkFiles({
        fs: source.fs,
        root: root.path,
        concurrency: settings.concurrency,
        signal: ctx.call.abortSignal,
        ignoreDirectories: settings.ignoreDirectories,
        include: source.include,
        enterDirectory: () => wanted === undefined,
        onEntry: (path, relative, entry) => {
          if (entry.type === "other") return;
          if (wanted !== undefined ? relative === wanted : matcher(relative)) found.push(gate.display(path));
        },
      });
    } catch (error) {
      if (!(FsError.isInstance(error) && (error.code === "ENOENT" || error.code === "ENOTDIR"))) {
        return errorResult("search", toolErrorFromFs(error, root.path, gate.display(root.path)));
      }
    }
    const note = deniedNote(source.denied);
    const withNote = (text: string): string => (note === undefined ? text : `${text}\n${note}`);
    if (found.length === 0) {
      return {
        kind: "search",
        ok: true,
        parts: textParts(withNote(`No files match ${input.pattern} under ${baseDisplay}.`)),
        count: 0,
        ...deniedField(source.denied),
      };
    }
    found.sort(compareCodeUnits);
    const truncated = found.length > maxResults;
    let text = (truncated ? found.slice(0, maxResults) : found).join("\n");
    if (truncated) {
      text += `\n[… ${formatCount(found.length - maxResults)} more ${found.length - maxResults === 1 ? "file" : "files"} not shown (${formatCount(found.length)} in all). Use a narrower pattern or path.]`;
    }
    return searchResult(ctx, settings.offload, withNote(text), {
      count: found.length,
      truncated,
      ...deniedField(source.denied),
    });
  },
});

function parentOf(path: string): string {
  const at = path.lastIndexOf("/");
  return at <= 0 ? (path.startsWith("/") ? "/" : ".") : path.slice(0, at);
}

/**
 * The `read` tool: a text file as numbered lines (`1|one`), a range of it by line, an image as a
 * media part; binary, non-UTF-8, oversized files and directories give errors that say what to do.
 *
 * @module
 */
import type { ToolContextOptions } from "../kit/context.js";
import type { ContentConverter } from "./converter.js";
import { toolErrorFromFs } from "../kit/fs-failure.js";
import { recordSeen } from "../kit/freshness.js";
import { imageConverter } from "./image.js";
import { defineCoreTool } from "../kit/define.js";
import { positiveIntegerOption, type InputSpec } from "../kit/input.js";
import { numberLines } from "./numbered-lines.js";
import { isToolOutputPath } from "../kit/offload.js";
import { errorResult, textParts, type ReadResult } from "../kit/result.js";
import {
  cutIndexByBytes,
  cutIndexByChars,
  decodeUtf8,
  binaryRefusal,
  formatBytes,
  formatCount,
  hasUtf8Bom,
  plural,
  sniffBinary,
  utf8Length,
} from "../kit/text.js";
import type { CoreTool } from "../kit/tool.js";
import { optionValueError } from "../../contract/options.js";

/** Default read cap: 256 KiB of file content per call. */
export const DEFAULT_MAX_READ_BYTES = 256 * 1024;

/**
 * Largest file read loads at all, ranged or not: 256 MiB. A bigger file is refused with `EFBIG`
 * from its size, before any of it is read (read loads a file whole to number its lines).
 */
export const MAX_READ_LOAD_BYTES = 256 * 1024 * 1024;

/**
 * Largest file over the read cap that an unranged read still loads: 16 MiB, for a converter
 * (an image) and for the line count in the refusal. A bigger one is refused from its size alone.
 */
const MAX_OVER_CAP_LOAD_BYTES = 16 * 1024 * 1024;

/** Default longest line shown: 2,000 characters (UTF-16 code units); longer lines are cut with a marker. */
export const DEFAULT_MAX_LINE_LENGTH = 2000;

/** The `read` tool's own options (besides {@link ToolContextOptions}). */
export interface ReadToolSettings {
  /**
   * Read cap in bytes of output: what the model receives, `N|` prefixes and cut markers
   * included (UTF-8). A read without `offset`/`limit` of a file larger than the cap is an `EFBIG`
   * error with no content that says how to page; any other read stops before its output passes
   * the cap and says where to continue. `Infinity` means no cap. Files under `tool-outputs/`
   * (offloaded results) are exempt: they are returned whole, ranged or not. @default DEFAULT_MAX_READ_BYTES
   */
  readonly maxBytes?: number;
  /** Longest line shown, in characters; longer lines are cut with a marker. @default DEFAULT_MAX_LINE_LENGTH */
  readonly maxLineLength?: number;
  /** Converters for non-text files, tried in order. `[]` refuses images as binary. @default [imageConverter()] */
  readonly converters?: readonly ContentConverter[];
}

/** Options of {@link createReadTool}. */
export interface ReadToolOptions extends ToolContextOptions, ReadToolSettings {}

/** Input of the `read` tool. */
export interface ReadInput {
  /** File path, relative to cwd or absolute. */
  readonly path: string;
  /** First line to return, 1-based. @default 1 */
  readonly offset?: number;
  /** Most lines to return. @default all (up to the read cap) */
  readonly limit?: number;
  /**
   * Text without line numbers, for signatures that show files as they are (`lineRangePreset`).
   * Without `offset`/`limit`, the file's text exactly: its BOM, line endings (CRLF, CR) and long
   * lines as they are, nothing added, nothing cut (the read cap still applies to the whole file).
   * With a range, the lines without numbers (cut at `maxLineLength`, line endings not shown),
   * and a note on a cap as a second text part. Not in the model's schema: a signature's
   * `toInput` sets it. @default false
   */
  readonly exact?: boolean;
}

/** The keys of {@link ReadToolSettings}. */
export const READ_SETTING_KEYS = ["maxBytes", "maxLineLength", "converters"] as const;

/** The fields of {@link ReadInput}, as the default signature shows them. */
export const READ_INPUT_SPEC: InputSpec = {
  path: {
    type: "string",
    required: true,
    nonEmpty: true,
    description: "Path of the file to read, relative to the working directory or absolute.",
  },
  offset: { type: "integer", min: 1, description: "First line to read, 1-based. Omit to start at line 1." },
  limit: { type: "integer", min: 1, description: "Most lines to read. Omit to read to the end (within the read cap)." },
  exact: {
    type: "boolean",
    hidden: true,
    description: "Text without line numbers; without a range, the file exactly as it is.",
  },
};

/** The default description of the `read` tool. */
export const READ_DESCRIPTION =
  "Read a file. Text comes back as numbered lines, `N|text` (the number and `|` are not part of the file). " +
  "Use offset and limit (in lines, 1-based) to read part of a large file. Images come back as images. " +
  "Binary files and directories are refused (use list for directories).";

/**
 * Create the `read` tool.
 *
 * @param options - the shared context options plus `maxBytes` (bytes), `maxLineLength`
 *   (characters) and `converters`.
 * @returns a {@link CoreTool} named `read`. Its `execute` returns a {@link ReadResult}: numbered
 *   lines (`1|one`), or for an image a text part and a media part. Failures are results with
 *   `ok: false`: `ENOENT` (missing), `EISDIR` (a directory; suggests list), `EBINARY` (binary
 *   content, with its size and type), `EILSEQ` (invalid UTF-8, with the byte offset), `EFBIG`
 *   (over the cap without a range, says how to page; any read of a file over
 *   {@link MAX_READ_LOAD_BYTES}; both refused from the file's size, before loading it when it is
 *   over 16 MiB), `EINPUT` (offset past the end), `EDENIED`
 *   (refused by the gate). With a state store, a successful read records the file's digest.
 * @throws TypeError at creation for an unknown option or a bad value.
 * @example
 * ```ts
 * const read = createReadTool({ fs: memoryFileSystem({ files: { "/w/a.txt": "one\ntwo\n" } }), cwd: "/w" });
 * const result = await read.execute({ path: "a.txt" });
 * // result.parts[0].text === "1|one\n2|two"
 * ```
 */
export function createReadTool(options: ReadToolOptions): CoreTool<ReadInput, ReadResult> {
  return readTool(options);
}

const readTool = defineCoreTool({
  factory: "createReadTool",
  name: "read",
  kind: "read",
  spec: READ_INPUT_SPEC,
  settings: READ_SETTING_KEYS,
  description: READ_DESCRIPTION,
  setup(options: ReadToolOptions) {
    const maxBytes =
      options.maxBytes === Number.POSITIVE_INFINITY
        ? Number.POSITIVE_INFINITY
        : positiveIntegerOption("createReadTool", "maxBytes", options.maxBytes, DEFAULT_MAX_READ_BYTES);
    const maxLineLength = positiveIntegerOption(
      "createReadTool",
      "maxLineLength",
      options.maxLineLength,
      DEFAULT_MAX_LINE_LENGTH,
    );
    const converters = options.converters ?? [imageConverter()];
    if (!Array.isArray(converters) || converters.some((c) => typeof c?.convert !== "function")) {
      optionValueError(
        "createReadTool",
        "converters",
        "must be an array of converters (objects with a convert function)",
      );
    }
    return { maxBytes, maxLineLength, converters };
  },
  async run(input: ReadInput, ctx, { maxBytes, maxLineLength, converters }): Promise<ReadResult> {
    const { gate } = ctx;
    const checked = await gate.check(input.path, "read");
    if (!checked.ok) return errorResult("read", checked.error);
    const path = checked.path;
    const display = gate.display(path);

    let bytes: Uint8Array;
    try {
      const stat = await gate.fs.stat(path);
      if (stat.type === "directory") {
        return errorResult("read", {
          code: "EISDIR",
          path,
          message: `${display} is a directory, not a file; list it to see what it contains.`,
        });
      }
      if (stat.type !== "file") {
        return errorResult("read", {
          code: "EINVAL",
          path,
          message: `${display} is not a regular file (a device, pipe or socket); it cannot be read.`,
        });
      }
      const refused = refuseBySize(stat.size, input, display, isToolOutputPath(gate, path) ? Infinity : maxBytes);
      if (refused !== undefined) return { ...errorResult("read", { code: "EFBIG", path, message: refused }), path };
      bytes = await gate.fs.readFile(path);
    } catch (error) {
      return errorResult("read", toolErrorFromFs(error, path, display));
    }

    const binary = sniffBinary(bytes);
    if (binary !== undefined) {
      for (const converter of converters) {
        const outcome = await converter.convert({ bytes, path, displayPath: display });
        if (outcome === undefined) continue;
        if ("error" in outcome) return errorResult("read", { ...outcome.error, path });
        await recordSeen(ctx, path, bytes);
        return { kind: "read", ok: true, path, parts: outcome.parts };
      }
      return errorResult("read", {
        code: "EBINARY",
        path,
        message: binaryRefusal("read", display, binary, bytes.length),
      });
    }

    // Offloaded results (under tool-outputs/) have no cap: they are read back whole.
    const exempt = isToolOutputPath(gate, path);
    const cap = exempt ? Number.POSITIVE_INFINITY : maxBytes;
    // Fast path: the whole file, within the cap, no line near maxLineLength: numbered in bytes and
    // decoded once (strictly; invalid UTF-8 falls through to the report below).
    const loneCr = hasLoneCr(bytes);
    if (
      input.exact !== true &&
      input.offset === undefined &&
      input.limit === undefined &&
      bytes.length <= cap &&
      !loneCr
    ) {
      const fast = numberLines(bytes, hasUtf8Bom(bytes) ? 3 : 0, maxLineLength);
      // The cap bounds what the model receives: the file's bytes plus the `N|` prefixes.
      if (fast !== undefined && bytes.length + prefixBytes(1, fast.lines) <= cap) {
        await recordSeen(ctx, path, bytes);
        return {
          kind: "read",
          ok: true,
          path,
          parts: textParts(fast.text),
          totalLines: fast.lines,
          startLine: 1,
          endLine: fast.lines,
          truncated: false,
          finalNewline: bytes[bytes.length - 1] === 10,
        };
      }
    }
    const decoded = decodeUtf8(bytes);
    if (!decoded.ok) {
      let line = 1;
      for (let i = 0; i < decoded.offset; i++) if (bytes[i] === 10) line++;
      const bad = bytes[decoded.offset] ?? 0;
      return errorResult("read", {
        code: "EILSEQ",
        path,
        message:
          `Cannot read ${display}: it is not valid UTF-8 (byte 0x${bad.toString(16).toUpperCase().padStart(2, "0")} at byte offset ${formatCount(decoded.offset)}, line ${formatCount(line)}). ` +
          "It may use another encoding (Latin-1, Windows-1252, UTF-16); it is not shown, to avoid replacement characters.",
      });
    }

    const text = decoded.text;
    const ranged = input.offset !== undefined || input.limit !== undefined;

    if (!ranged && bytes.length > cap) {
      const scanned = scanLines(text);
      const totalLines = scanned.count;
      const fit = Math.max(1, Math.floor((totalLines * maxBytes) / (bytes.length + prefixBytes(1, totalLines))));
      let message =
        `${display} is ${formatBytes(bytes.length)} (${plural(totalLines, "line")}), over the read cap of ${formatBytes(maxBytes)}; nothing was returned. ` +
        `Read it in parts with offset and limit (in lines), e.g. offset=1 and limit=${Math.min(fit, totalLines)}, then continue from the next line; or search its content for what you need.`;
      if (scanned.longest > maxLineLength) {
        message += ` Its lines are long (the longest has ${formatCount(scanned.longest)} characters) and lines over ${formatCount(maxLineLength)} characters are cut in reads, so searching its content is the better way to find something in it.`;
      }
      return { ...errorResult("read", { code: "EFBIG", path, message }), path, totalLines };
    }

    if (input.exact === true && !ranged) {
      // The file exactly: BOM, line endings and long lines as they are (within the cap, checked above).
      await recordSeen(ctx, path, bytes);
      // Counted as a ranged read counts them: a lone CR ends a line too.
      const totalLines = loneCr
        ? text.split(/\r\n|\r|\n/).length - (/[\r\n]$/.test(text) ? 1 : 0)
        : scanLines(text).count;
      return {
        kind: "read",
        ok: true,
        path,
        parts: textParts(decoded.bom ? `\uFEFF${text}` : text),
        totalLines,
        ...(totalLines === 0 ? {} : { startLine: 1, endLine: totalLines }),
        truncated: false,
        finalNewline: bytes[bytes.length - 1] === 10 || (loneCr && bytes[bytes.length - 1] === 13),
      };
    }

    // One native split; the numbered lines are then written over the array in place.
    // A lone `\r` ends a line too (as in apply_patch), so it is never shown inside one.
    const lines = text === "" ? [] : loneCr ? text.split(/\r\n|\r|\n/) : text.split("\n");
    if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    const totalLines = lines.length;
    if (totalLines === 0) {
      await recordSeen(ctx, path, bytes);
      return { kind: "read", ok: true, path, parts: textParts(`(${display} is empty)`), totalLines: 0 };
    }
    const startLine = input.offset ?? 1;
    if (startLine > totalLines) {
      return {
        ...errorResult("read", {
          code: "EINPUT",
          path,
          message: `offset ${startLine} is past the end of ${display}, which has ${plural(totalLines, "line")}.`,
        }),
        path,
        totalLines,
      };
    }
    const lastWanted = input.limit === undefined ? totalLines : Math.min(totalLines, startLine + input.limit - 1);
    // Count bytes only when the output might not fit: every byte of the file is at most one byte
    // out, plus each line's `N|` prefix (cut markers are counted line by line below).
    const budget = bytes.length + prefixBytes(startLine, lastWanted) > cap ? cap : Infinity;
    const numbered = input.exact !== true;
    const page = formatLines(lines, startLine, lastWanted, maxLineLength, budget, text.includes("\r"), numbered);
    await recordSeen(ctx, path, bytes);

    let out = page.text;
    let note: string | undefined;
    if (page.truncated) {
      note = page.cutFirst
        ? `[Line ${startLine} alone is over the read cap of ${formatBytes(maxBytes)}; it was cut. Search the file's content for what you need${startLine < totalLines ? `, or continue with offset=${startLine + 1}` : ""}.]`
        : `[Output capped at ${formatBytes(maxBytes)}: showed lines ${startLine}-${page.endLine} of ${formatCount(totalLines)}. Continue with offset=${page.endLine + 1}.]`;
    } else if (ranged && numbered && page.endLine < totalLines) {
      // Exact (unnumbered) reads leave this to the signature's header, made from the fields.
      note = `[Showed lines ${startLine}-${page.endLine} of ${formatCount(totalLines)}. Continue with offset=${page.endLine + 1}.]`;
    }
    if (note !== undefined && numbered) out += `\n${note}`;
    return {
      kind: "read",
      ok: true,
      path,
      parts: note !== undefined && !numbered ? [...textParts(out), ...textParts(note)] : textParts(out),
      totalLines,
      startLine,
      endLine: page.endLine,
      truncated: page.truncated,
      finalNewline: bytes[bytes.length - 1] === 10 || (loneCr && bytes[bytes.length - 1] === 13),
    };
  },
});

/** True when `bytes` hold a `\r` not followed by `\n` (a lone CR line ending). */
function hasLoneCr(bytes: Uint8Array): boolean {
  for (let at = bytes.indexOf(13); at >= 0; at = bytes.indexOf(13, at + 1)) if (bytes[at + 1] !== 10) return true;
  return false;
}

/**
 * The `EFBIG` message for a file refused from its size before it is read, or undefined: any read
 * of a file over {@link MAX_READ_LOAD_BYTES}, and an unranged read of one over the cap and over
 * {@link MAX_OVER_CAP_LOAD_BYTES}.
 */
function refuseBySize(size: number, input: ReadInput, display: string, cap: number): string | undefined {
  if (size > MAX_READ_LOAD_BYTES) {
    return (
      `${display} is ${formatBytes(size)}, over the ${formatBytes(MAX_READ_LOAD_BYTES)} read loads at most, with or without offset and limit; nothing was read. ` +
      "Search its content for what you need, or look at parts of it with a shell command (head, tail, sed -n) if one is available."
    );
  }
  const ranged = input.offset !== undefined || input.limit !== undefined;
  if (ranged || size <= cap || size <= MAX_OVER_CAP_LOAD_BYTES) return undefined;
  return (
    `${display} is ${formatBytes(size)}, over the read cap of ${formatBytes(cap)}; nothing was returned. ` +
    "Read it in parts with offset and limit (in lines), e.g. offset=1 and limit=1000, then continue from the next line; or search its content for what you need."
  );
}

/** Number of lines (a final line without `\n` counts; a trailing `\n` does not start one) and the longest, in characters. */
function scanLines(text: string): { count: number; longest: number } {
  if (text.length === 0) return { count: 0, longest: 0 };
  let count = 0;
  let longest = 0;
  let start = 0;
  for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
    if (end - start > longest) longest = end - start;
    count++;
    start = end + 1;
  }
  if (start < text.length) {
    count++;
    if (text.length - start > longest) longest = text.length - start;
  }
  return { count, longest };
}

/**
 * Lines `first..last` (1-based, inclusive) of `lines` as `N|text`, cut at `maxLineLength`
 * characters, stopping before the shown content (line text plus newline, in UTF-8 bytes) passes
 * `budget`. A trailing `\r` is not shown. When the first line alone does not fit, what fits of it
 * is shown (`cutFirst`). Overwrites the entries of `lines` it formats.
 */
function formatLines(
  lines: string[],
  first: number,
  last: number,
  maxLineLength: number,
  budget: number,
  stripCr: boolean,
  numbered = true,
): { text: string; endLine: number; truncated: boolean; cutFirst: boolean } {
  let used = 0;
  for (let index = first - 1; index < last; index++) {
    let body = lines[index]!;
    if (stripCr && body.charCodeAt(body.length - 1) === 13) body = body.slice(0, -1);
    let keep = body.length > maxLineLength ? cutIndexByChars(body, maxLineLength) : body.length;
    const prefix = numbered ? `${index + 1}|` : "";
    const line =
      keep < body.length ? `${prefix}${body.slice(0, keep)}${cutMarker(body.length - keep)}` : `${prefix}${body}`;
    if (budget !== Infinity) {
      // What the model receives: the prefixed (and possibly cut) line and its newline, in UTF-8.
      const size = utf8Length(line) + 1;
      if (used + size > budget) {
        if (index >= first)
          return { text: joinRange(lines, first - 1, index), endLine: index, truncated: true, cutFirst: false };
        // Room for the text: the cap less the prefix, the newline and the longest marker it could need.
        const room = budget - prefix.length - 1 - utf8Length(cutMarker(body.length));
        keep = cutIndexByBytes(body.slice(0, keep), Math.max(0, room));
        return {
          text: `${prefix}${body.slice(0, keep)}${cutMarker(body.length - keep)}`,
          endLine: first,
          truncated: true,
          cutFirst: true,
        };
      }
      used += size;
    }
    lines[index] = line;
  }
  return { text: joinRange(lines, first - 1, last), endLine: last, truncated: false, cutFirst: false };
}

/** `lines[start..end)` joined with `\n`, without copying the array when it is all of it. */
function joinRange(lines: readonly string[], start: number, end: number): string {
  return start === 0 && end === lines.length ? lines.join("\n") : lines.slice(start, end).join("\n");
}

/** Bytes of the `N|` prefixes of lines `first..last` (1-based, inclusive), without a loop per line. */
function prefixBytes(first: number, last: number): number {
  let total = 0;
  for (let digits = String(first).length, from = first; from <= last; digits++) {
    const to = Math.min(last, 10 ** digits - 1);
    total += (to - from + 1) * (digits + 1);
    from = to + 1;
  }
  return total;
}

/** The marker ending a cut line. */
function cutMarker(rest: number): string {
  return `… [cut: ${plural(rest, "more character")} on this line]`;
}

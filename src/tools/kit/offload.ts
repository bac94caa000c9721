/**
 * Tool-output offloading: a result over a size threshold is saved to `tool-outputs/<id>.txt`
 * under the working directory, and the model gets a preview plus the path, which `read` can
 * page through (files under `tool-outputs/` are exempt from the read cap).
 *
 * @module
 */
import type { Gate } from "../../gate/gate.js";
import type { ToolCall } from "./tool.js";
import type { Clock } from "../../contract/clock.js";
import { cutIndexByBytes, encodeUtf8, formatBytes, plural } from "./text.js";
import { assertKnownOptions, optionValueError } from "../../contract/options.js";

/** The directory, under cwd, where offloaded outputs go. */
export const TOOL_OUTPUTS_DIR = "tool-outputs";

/** Outputs larger than this are offloaded: 32 KiB (about 8,000 tokens). */
export const DEFAULT_OFFLOAD_THRESHOLD_BYTES = 32 * 1024;

/** How much of an offloaded output the model sees inline: 8 KiB. */
export const DEFAULT_OFFLOAD_PREVIEW_BYTES = 8 * 1024;

/**
 * Most bytes saved to one file under `tool-outputs/`: 10 MiB. A longer output is saved up to
 * that size (cut at a line end where one is near) followed by a marker line saying how much was
 * left out, so one runaway command cannot fill the backend.
 */
export const MAX_OFFLOAD_FILE_BYTES = 10 * 1024 * 1024;

/** Options of {@link offloadOutput}. */
export interface OffloadOptions {
  /** Outputs over this many bytes (UTF-8) are saved to a file. @default DEFAULT_OFFLOAD_THRESHOLD_BYTES */
  readonly thresholdBytes?: number;
  /** Bytes of the output shown inline, cut at a line end where one is near. @default DEFAULT_OFFLOAD_PREVIEW_BYTES */
  readonly previewBytes?: number;
  /** The file name's stem; default: the tool call id, else the clock plus a random suffix. */
  readonly id?: string;
}

/** What {@link offloadOutput} needs of a tool context. */
export interface OffloadContext {
  readonly gate: Gate;
  readonly clock: Clock;
  readonly call?: ToolCall;
}

/** The outcome of {@link offloadOutput}. */
export interface OffloadedOutput {
  /** What to show the model: the output itself, or a preview with the path and how to read it. */
  readonly text: string;
  /** Absolute path of the saved output, when it was saved. */
  readonly path?: string;
  /** Size of the whole output in bytes (UTF-8). */
  readonly bytes: number;
}

/**
 * Check the numbers of an offload setting (a tool option) at creation.
 *
 * @throws OptionError naming `option` when a value is not a positive integer or an unknown key is present.
 */
export function checkOffloadOptions(factory: string, option: string, value: OffloadOptions | false | undefined): void {
  if (value === undefined || value === false) return;
  if (typeof value !== "object" || value === null) {
    optionValueError(factory, option, "must be an object ({ thresholdBytes, previewBytes }) or false");
  }
  // `id` is internal (the tools set it); it is not listed among the known options.
  const { id: _id, ...numbers } = value as OffloadOptions & { readonly id?: unknown };
  assertKnownOptions(factory, numbers, ["thresholdBytes", "previewBytes"], option);
  for (const [key, number] of Object.entries(numbers)) {
    if (!Number.isSafeInteger(number) || (number as number) <= 0) {
      optionValueError(factory, `${option}.${key}`, `must be a positive integer (bytes), got ${String(number)}`);
    }
  }
}

/** The bytes saved for an output: all of it, or its first {@link MAX_OFFLOAD_FILE_BYTES} and a marker. */
function cappedForFile(text: string, data: Uint8Array): Uint8Array {
  if (data.length <= MAX_OFFLOAD_FILE_BYTES) return data;
  let cut = cutIndexByBytes(text, MAX_OFFLOAD_FILE_BYTES - 200);
  const lineEnd = text.lastIndexOf("\n", cut - 1);
  if (lineEnd > cut - 64 * 1024) cut = lineEnd;
  const kept = encodeUtf8(text.slice(0, cut));
  const marker = encodeUtf8(
    `\n[Saved output cut at ${formatBytes(kept.length)}: ${formatBytes(data.length - kept.length)} more were not saved (cap: ${formatBytes(MAX_OFFLOAD_FILE_BYTES)}).]\n`,
  );
  const out = new Uint8Array(kept.length + marker.length);
  out.set(kept, 0);
  out.set(marker, kept.length);
  return out;
}

function sanitizeId(id: string): string {
  const clean = id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
  return clean === "" ? "output" : clean;
}

/** True when `path` (absolute) lies in `tool-outputs/` under the gate's cwd. */
export function isToolOutputPath(gate: Pick<Gate, "cwd">, path: string): boolean {
  const dir = `${gate.cwd === "/" ? "" : gate.cwd}/${TOOL_OUTPUTS_DIR}/`;
  return path.startsWith(dir) && path.length > dir.length;
}

/**
 * Save a large output to `tool-outputs/<id>.txt` (under cwd) and return a preview with the path
 * and how to read the rest; small outputs come back as they are. At most
 * {@link MAX_OFFLOAD_FILE_BYTES} (10 MiB) are saved; a longer output's file ends with a marker line
 * `[Saved output cut at ...: ... more were not saved (cap: 10.0 MiB (10,485,760 bytes)).]`. If the file cannot be saved
 * (a read-only backend, say) the preview says so and how much was left out.
 *
 * @param ctx - the tool context (its gate writes the file, its clock names it).
 * @param text - the whole output.
 * @returns `{ text, bytes }`, plus `path` when the output was saved.
 * @example
 * ```ts
 * const { text } = await offloadOutput(ctx, hugeGrepOutput, { thresholdBytes: 32_768 });
 * // "src/a.ts:1:...\n...\n[Output is 1.2 MiB (...) ... saved to tool-outputs/call_1.txt ...]"
 * ```
 */
export async function offloadOutput(
  ctx: OffloadContext,
  text: string,
  options: OffloadOptions = {},
): Promise<OffloadedOutput> {
  const thresholdBytes = options.thresholdBytes ?? DEFAULT_OFFLOAD_THRESHOLD_BYTES;
  const previewBytes = Math.min(options.previewBytes ?? DEFAULT_OFFLOAD_PREVIEW_BYTES, thresholdBytes);
  // Every character takes at least one byte: short strings need no encoding to be under the threshold.
  if (text.length <= thresholdBytes / 3) return { text, bytes: text.length <= 0 ? 0 : encodeUtf8(text).length };
  const data = encodeUtf8(text);
  if (data.length <= thresholdBytes) return { text, bytes: data.length };

  let cut = cutIndexByBytes(text, previewBytes);
  const lineEnd = text.lastIndexOf("\n", cut - 1);
  if (lineEnd > cut / 2) cut = lineEnd;
  const preview = text.slice(0, cut);
  const shownLines = preview === "" ? 0 : preview.split("\n").length;
  let totalLines = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) totalLines++;
  if (text.endsWith("\n")) totalLines--;

  const id = sanitizeId(
    options.id ?? ctx.call?.toolCallId ?? `${ctx.clock()}-${Math.random().toString(36).slice(2, 8)}`,
  );
  const requested = `${TOOL_OUTPUTS_DIR}/${id}.txt`;
  const summary = `Output is ${formatBytes(data.length)}, ${plural(totalLines, "line")}; showed the first ${plural(shownLines, "line")}.`;
  const checked = await ctx.gate.check(requested, "write");
  let failure: string;
  if (checked.ok) {
    try {
      await ctx.gate.fs.writeFile(checked.path, cappedForFile(text, data));
      const display = ctx.gate.display(checked.path);
      return {
        text: `${preview}\n[${summary} ${data.length > MAX_OFFLOAD_FILE_BYTES ? `Its first ${formatBytes(MAX_OFFLOAD_FILE_BYTES)} at most are saved` : "The full output is saved"} in ${display}: read that file in ranges (from line ${shownLines + 1}, 500 lines at a time), or search it.]`,
        path: checked.path,
        bytes: data.length,
      };
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
  } else {
    failure = checked.error.message;
  }
  return {
    text: `${preview}\n[${summary} The rest could not be saved to ${requested} (${failure}); narrow the request to see more.]`,
    bytes: data.length,
  };
}

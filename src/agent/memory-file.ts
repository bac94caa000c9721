/**
 * The agent's memory file (`AGENTS.md`): read through the gate at the start of every run,
 * capped, and added to the system prompt.
 *
 * @module
 */
import type { Gate } from "../gate/gate.js";
import { FsError } from "../contract/errors.js";

/** The memory file the agent reads when `memoryFile` is not given, relative to the working directory. */
export const DEFAULT_MEMORY_FILE = "AGENTS.md";

/**
 * Most bytes of the memory file added to the system prompt: 32 KiB. A memory file is notes for
 * every run, and every byte of it is sent with every step; a larger file is cut at this size
 * (on a UTF-8 character boundary) and the prompt says so.
 */
export const DEFAULT_MAX_MEMORY_BYTES = 32 * 1024;

/** The memory file as one run saw it. */
export interface MemoryFile {
  /** The path as given (`AGENTS.md`), relative to the working directory or absolute. */
  readonly path: string;
  /** The text added to the system prompt (at most `maxBytes` bytes of the file). */
  readonly text: string;
  /** The file's whole size, in bytes. */
  readonly bytes: number;
  /** Whether the file was longer than `maxBytes` and was cut. */
  readonly truncated: boolean;
  /** Bytes of the file kept in `text` (a cut backs up to a UTF-8 character boundary). */
  readonly keptBytes: number;
  /** Whether the file is not UTF-8 text (a NUL byte or an invalid sequence): then `text` is empty. */
  readonly binary: boolean;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Read the memory file through the gate.
 *
 * @param gate - the gate of the agent's tools (its `cwd` resolves a relative `path`).
 * @param path - the memory file, relative to the gate's cwd or absolute.
 * @param maxBytes - most bytes kept (see {@link DEFAULT_MAX_MEMORY_BYTES}).
 * @returns the file, or `undefined` when it does not exist (or is a directory).
 * @throws FsError `EACCES` when the gate refuses the path; whatever else the backend raises.
 * @internal used by createWorkspaceAgent.
 */
export async function readMemoryFile(gate: Gate, path: string, maxBytes: number): Promise<MemoryFile | undefined> {
  const checked = await gate.check(path, "read");
  if (!checked.ok) {
    throw new FsError("EACCES", { syscall: "open", path, detail: checked.error.message });
  }
  let data: Uint8Array;
  try {
    data = await gate.backend.readFile(checked.path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "EISDIR") return undefined;
    throw error;
  }
  const truncated = data.byteLength > maxBytes;
  let end = truncated ? maxBytes : data.byteLength;
  // Do not cut a UTF-8 sequence in two: back up over continuation bytes (10xxxxxx).
  if (truncated) while (end > 0 && ((data[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  const kept = data.subarray(0, end);
  let text: string;
  try {
    text = kept.includes(0) ? "" : utf8.decode(kept);
  } catch {
    text = "";
  }
  if (text === "" && end > 0) return { path, text, bytes: data.byteLength, truncated, keptBytes: 0, binary: true };
  // decode drops a leading BOM (ignoreBOM is false).
  return { path, text, bytes: data.byteLength, truncated, keptBytes: end, binary: false };
}

/**
 * The system prompt of one run: the agent's instructions, then the memory file under a heading
 * that names it.
 *
 * @param instructions - the agent's own instructions, if any.
 * @param memory - the memory file as read for this run, if any.
 * @param maxBytes - the cap, named in the note on a cut file.
 * @returns the system prompt, or `undefined` when there is neither.
 * @example
 * ```ts
 * systemPrompt("You review code.", { path: "AGENTS.md", text: "Use tabs.\n", bytes: 10, truncated: false, keptBytes: 10, binary: false }, 32768);
 * // "You review code.\n\n# Agent memory (AGENTS.md)\n\nUse tabs.\n"
 * ```
 */
export function systemPrompt(
  instructions: string | undefined,
  memory: MemoryFile | undefined,
  maxBytes: number,
): string | undefined {
  if (memory === undefined) return instructions;
  const note = memory.binary
    ? `[${memory.path} is not UTF-8 text (${memory.bytes} bytes): its content was left out]`
    : memory.truncated
      ? `\n\n[${memory.path} cut at ${memory.keptBytes} of ${memory.bytes} bytes (cap ${maxBytes}): read the file for the rest]`
      : "";
  const section = `# Agent memory (${memory.path})\n\n${memory.text}${note}`;
  return instructions === undefined || instructions === "" ? section : `${instructions}\n\n${section}`;
}

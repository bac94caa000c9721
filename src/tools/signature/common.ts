/**
 * Helpers shared by the signature presets: re-rendering `read`'s `N|text` lines, `Error: ...`
 * strings, and parameter renames in messages.
 *
 * @module
 */
import { textParts, type ToolResult } from "../kit/result.js";

/** One line of a `read` result: its 1-based number and its text. */
export interface NumberedLine {
  readonly line: number;
  readonly text: string;
}

const NUMBERED = /^(\d+)\|/;

/**
 * Split the text of a successful `read` result into its `N|text` lines and the notes after
 * them (`[Showed lines 1-5 of 9. Continue with offset=6.]`).
 *
 * @param text - the text part of a `read` result.
 * @returns the numbered lines in order and the note lines (without the numbers).
 */
export function parseNumberedLines(text: string): { lines: NumberedLine[]; notes: string[] } {
  const lines: NumberedLine[] = [];
  const notes: string[] = [];
  for (const raw of text.split("\n")) {
    const match = NUMBERED.exec(raw);
    if (match !== null && notes.length === 0) lines.push({ line: Number(match[1]), text: raw.slice(match[0].length) });
    else notes.push(raw);
  }
  return { lines, notes };
}

/** `cat -n` numbering: the number right-aligned in 6 columns, a tab, the text (`     1\tone`). */
export function catNumbered(lines: readonly NumberedLine[]): string {
  return lines.map(({ line, text }) => `${String(line).padStart(6)}\t${text}`).join("\n");
}

/** The same result with its parts replaced by one text part. */
export function withText<R extends ToolResult>(result: R, text: string): R {
  return { ...result, parts: textParts(text) };
}

/** A failed result whose text becomes `Error: <message>` (the error field keeps the message). */
export function asErrorString<R extends ToolResult>(result: R, message = result.error?.message ?? ""): R {
  return withText(result, `Error: ${message}`);
}

/** Replace whole-word parameter names in a message (`oldText` → `old_string`). */
export function renameWords(message: string, names: Readonly<Record<string, string>>): string {
  let out = message;
  for (const [from, to] of Object.entries(names)) {
    if (from !== to) out = out.replace(new RegExp(`\\b${from}\\b`, "g"), to);
  }
  return out;
}

/** True when a result carries a media part (images pass through presets unchanged). */
export function hasMedia(result: ToolResult): boolean {
  return result.parts.some((part) => part.type === "media");
}

/**
 * The tool console stands in for the model, and a model reads a file before it changes it: the
 * tools refuse an `edit`, an overwrite or a patch's update of a file not read in the session
 * (`ENOTREAD`), or one changed since it was read (`ESTALE`: the terminal, an import or a reset
 * changed it). So the console reads such files first, through the `read` tool, and says so; the
 * prefilled examples then run as they are.
 *
 * @module
 */
import type { ToolSet } from "ai";
import type { JSONSchema7 } from "@ai-sdk/provider";
import { fitInput } from "./fit-input.js";
import { callToolAsModel, toolJsonSchema } from "./tool-call.js";

/**
 * The files a call of `toolName` with `input` changes and must have read first, as the input
 * names them: `edit`'s and `write`'s path, `apply_patch`'s updated and deleted files.
 */
export function filesToReadFirst(toolName: string, input: unknown): string[] {
  if (typeof input !== "object" || input === null) return [];
  const fields = input as Record<string, unknown>;
  if (toolName === "edit" || toolName === "write") {
    return typeof fields["path"] === "string" && fields["path"] !== "" ? [fields["path"]] : [];
  }
  if (toolName === "apply_patch") {
    const patch = Object.values(fields).find((value): value is string => typeof value === "string");
    if (patch === undefined) return [];
    const paths = [...patch.matchAll(/^\*\*\* (?:Update|Delete) File: (.+)$/gm)].map((match) => match[1]!.trim());
    return [...new Set(paths)];
  }
  return [];
}

/** What {@link readFirst} needs of the session. */
export interface ReadFirstContext {
  readonly tools: ToolSet;
  /** True when `path` is an existing file. */
  isFile(path: string): Promise<boolean>;
}

/**
 * Read, through the `read` tool, each file of {@link filesToReadFirst} that exists: also one read
 * before, since it may have changed since (the console's user changes files in many ways).
 *
 * @returns the paths read (as the input names them), in order; a failed read is left out (the
 *   call itself then reports the problem).
 */
export async function readFirst(context: ReadFirstContext, toolName: string, input: unknown): Promise<string[]> {
  const read: string[] = [];
  if (context.tools["read"] === undefined) return read;
  for (const path of filesToReadFirst(toolName, input)) {
    if (!(await context.isFile(path))) continue;
    const schema = (await toolJsonSchema(context.tools, "read")) as JSONSchema7;
    const { result } = await callToolAsModel(context.tools, "read", fitInput(schema, { path }));
    if (typeof result === "object" && result !== null && (result as { ok?: unknown }).ok === false) continue;
    read.push(path);
  }
  return read;
}

/**
 * The `better-fs-tools` dialect: our core tools under their own names and JSON Schemas (read,
 * write, edit, apply_patch, list, glob, grep, and bash when a runner is given).
 *
 * @module
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { createApplyPatchTool } from "../../tools/apply-patch/index.js";
import { createBashTool } from "../../tools/bash/index.js";
import type { ToolContextOptions } from "../../tools/kit/context.js";
import { createEditTool } from "../../tools/edit/index.js";
import { createGlobTool } from "../../tools/glob/index.js";
import { createGrepTool } from "../../tools/grep/index.js";
import { createListTool } from "../../tools/list/index.js";
import { createReadTool } from "../../tools/read/index.js";
import { createWriteTool } from "../../tools/write/index.js";
import type { ToolResult } from "../../tools/kit/result.js";
import type { CoreTool } from "../../tools/kit/tool.js";
import { noRootsResult, type DialectContext } from "../options.js";

/** The tool names of the `better-fs-tools` dialect, in the order `tools/list` gives them. */
export const BETTER_FS_TOOLS_NAMES = ["read", "write", "edit", "apply_patch", "list", "glob", "grep", "bash"] as const;

/** The tools that change nothing: the only ones a read-only server offers. */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(["read", "list", "glob", "grep"]);

type ToolName = (typeof BETTER_FS_TOOLS_NAMES)[number];
type Tools = Partial<Record<ToolName, CoreTool<unknown>>>;

/**
 * The dialect's core tools over one scope: one per name the server offers, sharing the store,
 * locks, digest and clock of `options`; each tool's settings come from its key (`applyPatch`
 * for apply_patch).
 */
function buildTools(
  options: DialectContext["options"],
  scope: { readonly cwd?: string; readonly allowedRoots?: readonly string[] },
  names: readonly ToolName[],
): Tools {
  const { read, write, edit, list, glob, grep, applyPatch, bash, ...rest } = options;
  const shared: ToolContextOptions = { ...rest, ...scope };
  const make: Record<ToolName, () => object> = {
    read: () => createReadTool({ ...shared, ...read }),
    write: () => createWriteTool({ ...shared, ...write }),
    edit: () => createEditTool({ ...shared, ...edit }),
    apply_patch: () => createApplyPatchTool({ ...shared, ...(applyPatch === true ? {} : applyPatch) }),
    list: () => createListTool({ ...shared, ...list }),
    glob: () => createGlobTool({ ...shared, ...glob }),
    grep: () => createGrepTool({ ...shared, ...grep }),
    bash: () => createBashTool({ ...shared, ...bash }),
  };
  return Object.fromEntries(names.map((name) => [name, make[name]() as CoreTool<unknown>])) as Tools;
}

/**
 * A core result as an MCP tool result: text parts as `text` content, media parts as `image`
 * content (`data` base64, `mimeType`), `isError: true` when the tool failed (its text part then
 * says why), and the result's structured fields (all but `parts`) as `structuredContent`.
 *
 * @example
 * ```ts
 * toCallToolResult({ kind: "read", ok: true, parts: [{ type: "text", text: "1|hi" }], path: "/w/a.txt" });
 * // { content: [{ type: "text", text: "1|hi" }], structuredContent: { kind: "read", ok: true, path: "/w/a.txt" } }
 * ```
 */
export function toCallToolResult(result: ToolResult): CallToolResult {
  const { parts, ...fields } = result;
  return {
    content: parts.map((part) =>
      part.type === "text"
        ? { type: "text" as const, text: part.text }
        : { type: "image" as const, data: part.data, mimeType: part.mediaType },
    ),
    structuredContent: fields as Record<string, unknown>,
    ...(result.ok ? {} : { isError: true }),
  };
}

/** Register the dialect's tools on the context's server. */
export function registerBetterFsTools(context: DialectContext): void {
  const { server, options, readOnly } = context;
  const withRunner = options.bash?.runner !== undefined;
  const names = BETTER_FS_TOOLS_NAMES.filter((name) =>
    name === "bash" ? withRunner && !readOnly : !readOnly || READ_ONLY_TOOLS.has(name),
  );
  let cache: { generation: number; tools: Tools } | undefined;
  const toolsNow = async (): Promise<Tools | undefined> => {
    const scope = await context.scope();
    if (scope.roots.length === 0) return undefined;
    if (cache?.generation !== scope.generation) {
      cache = {
        generation: scope.generation,
        tools: buildTools(options, { cwd: scope.cwd, allowedRoots: scope.roots }, names),
      };
    }
    return cache.tools;
  };
  // Built once now so option errors throw at creation, and for the names and schemas.
  const first = buildTools(options, {}, names);
  for (const name of names) {
    const tool = first[name]!;
    server.registerTool(
      name,
      {
        description: tool.description,
        inputSchema: z.fromJSONSchema(tool.inputSchema as Parameters<typeof z.fromJSONSchema>[0]),
        annotations: {
          readOnlyHint: READ_ONLY_TOOLS.has(name),
          ...(READ_ONLY_TOOLS.has(name) ? {} : { destructiveHint: true }),
          openWorldHint: name === "bash",
        },
      },
      async (args: unknown, extra): Promise<CallToolResult> => {
        const tools = await toolsNow();
        if (tools === undefined) return noRootsResult(context.serverRoots);
        const result = await tools[name]!.execute(args, {
          abortSignal: extra.signal,
        });
        return toCallToolResult(result);
      },
    );
  }
}

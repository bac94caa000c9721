/**
 * The `better-fs-tools` dialect: our core tools under their own names and JSON Schemas (read,
 * write, edit, apply_patch, list, glob, grep, and bash when a runner is given).
 *
 * @module
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { optionValueError } from "../../contract/options.js";
import { createBashTool } from "../../tools/bash/index.js";
import { createFsTools } from "../../tools/kit/fs-tools.js";
import type { ToolResult } from "../../tools/kit/result.js";
import type { ToolSettingsKey } from "../../tools/kit/setting-keys.js";
import { withSignature, type CoreTool } from "../../tools/kit/tool.js";
import { selectTools } from "../../tools/kit/tool-selection.js";
import { noRootsResult, type DialectContext } from "../options.js";

/** The tool names of the `better-fs-tools` dialect, in the order `tools/list` gives them. */
export const BETTER_FS_TOOLS_NAMES = ["read", "write", "edit", "apply_patch", "list", "glob", "grep", "bash"] as const;

/** The tools that change nothing: the only ones a read-only server offers. */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(["read", "list", "glob", "grep"]);

type ToolName = (typeof BETTER_FS_TOOLS_NAMES)[number];
/** The tools by the name the client calls (a signature's name replaces the default). */
type Tools = Readonly<Record<string, CoreTool<unknown>>>;

/** Every tool but bash, which needs a runner. */
const ON_BY_DEFAULT: readonly ToolSettingsKey[] = ["read", "write", "edit", "applyPatch", "list", "glob", "grep"];

/** Each option key's tool name in this dialect. */
const NAMES: Readonly<Record<ToolSettingsKey, ToolName>> = {
  read: "read",
  write: "write",
  edit: "edit",
  applyPatch: "apply_patch",
  list: "list",
  glob: "glob",
  grep: "grep",
  bash: "bash",
};

/**
 * The dialect's core tools over one scope: the tools the options select (the one shape of
 * `createFsTools`: `false`, `true` or settings with an optional `signature`), sharing the store,
 * locks, digest and clock of `options`, keyed by the name the client calls, in the order of
 * {@link BETTER_FS_TOOLS_NAMES}, each with its option key.
 */
function buildTools(
  options: DialectContext["options"],
  scope: { readonly cwd?: string; readonly allowedRoots?: readonly string[] },
  readOnly: boolean,
): { readonly tools: Tools; readonly keys: Readonly<Record<string, ToolSettingsKey>> } {
  const { read, write, edit, list, glob, grep, applyPatch, bash, ...rest } = options;
  const given = { read, write, edit, list, glob, grep, applyPatch, bash };
  const selected = selectTools("createMcpServer", { ...given, readOnly }, { onByDefault: ON_BY_DEFAULT }).sort(
    (a, b) => BETTER_FS_TOOLS_NAMES.indexOf(NAMES[a.key]) - BETTER_FS_TOOLS_NAMES.indexOf(NAMES[b.key]),
  );
  // Two tools with one name are this entry point's misuse: refused here, before createFsTools
  // would name itself in the error.
  const names = new Set<string>();
  for (const { key, signature } of selected) {
    const name = signature?.name ?? NAMES[key];
    if (names.has(name)) {
      optionValueError("createMcpServer", `${key}.signature`, `names a second tool "${name}": give it another name`);
    }
    names.add(name);
  }
  // Bash is made below, with its runner; the rest as createFsTools makes them.
  const core = createFsTools({ ...rest, ...scope, ...given, readOnly, bash: false }) as Readonly<
    Record<string, CoreTool<unknown> | undefined>
  >;
  const tools: Record<string, CoreTool<unknown>> = {};
  const keys: Record<string, ToolSettingsKey> = {};
  for (const { key, settings, signature } of selected) {
    let made: CoreTool<unknown>;
    if (key === "bash") {
      // Without a runner bash would not be offered: `bash: true` or settings without one throw.
      if (settings["runner"] === undefined) {
        optionValueError(
          "createMcpServer",
          "bash",
          "needs a runner (nodeCommandRunner() from better-fs-tools/node, or justBashCommandRunner() from better-fs-tools/shell)",
        );
      }
      const bashTool = createBashTool({ ...rest, ...scope, ...settings });
      made = (signature === undefined ? bashTool : withSignature(bashTool, signature)) as CoreTool<unknown>;
    } else {
      made = core[NAMES[key]]!;
    }
    if (Object.hasOwn(tools, made.name)) {
      optionValueError(
        "createMcpServer",
        `${key}.signature`,
        `names a second tool "${made.name}": give it another name`,
      );
    }
    tools[made.name] = made;
    keys[made.name] = key;
  }
  return { tools, keys };
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
  let cache: { generation: number; tools: Tools } | undefined;
  const toolsNow = async (): Promise<Tools | undefined> => {
    const scope = await context.scope();
    if (scope.roots.length === 0) return undefined;
    if (cache?.generation !== scope.generation) {
      cache = {
        generation: scope.generation,
        tools: buildTools(options, { cwd: scope.cwd, allowedRoots: scope.roots }, readOnly).tools,
      };
    }
    return cache.tools;
  };
  // Built once now so option errors throw at creation, and for the names and schemas.
  const first = buildTools(options, {}, readOnly);
  for (const [name, tool] of Object.entries(first.tools)) {
    // The annotations follow the core tool (a signature renames it; what it does stays).
    const coreName = NAMES[first.keys[name]!];
    server.registerTool(
      name,
      {
        description: tool.description,
        inputSchema: z.fromJSONSchema(tool.inputSchema as Parameters<typeof z.fromJSONSchema>[0]),
        annotations: {
          readOnlyHint: READ_ONLY_TOOLS.has(coreName),
          ...(READ_ONLY_TOOLS.has(coreName) ? {} : { destructiveHint: true }),
          openWorldHint: coreName === "bash",
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

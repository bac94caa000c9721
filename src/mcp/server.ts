/**
 * `createMcpServer`: the file tools as an MCP server (the SDK's `McpServer`) over any backend,
 * in one of two dialects, with the client's MCP roots narrowing the allowed roots.
 *
 * @module
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { buildMcpServer, ROOTS_WAIT_MS } from "./build-server.js";
import { registerBetterFsTools } from "./dialects/better-fs-tools.js";
import { registerFilesystemServerTools } from "./dialects/filesystem-server.js";
import type { McpServerOptions } from "./options.js";

export { ROOTS_WAIT_MS };

const DIALECTS = Object.freeze({
  "better-fs-tools": registerBetterFsTools,
  "filesystem-server": registerFilesystemServerTools,
});

/**
 * Create an MCP server whose tools run over `fs` through the gate (every path is resolved and
 * checked against the allowed roots before the backend sees it). Connect it to any transport:
 * `StdioServerTransport` in Node (the `better-fs-tools mcp` bin does), or one half of
 * `InMemoryTransport.createLinkedPair()` in a page or Worker, with an MCP client in the same tab.
 *
 * Allowed roots: `allowedRoots`, else the backend's own (`nodeFileSystem` has them), else
 * `[cwd]`, else `["/"]`. A client with the `roots` capability narrows them (`clientRoots`): its
 * roots that are directories (real paths; a file or a missing one is skipped) and lie inside
 * them; `allowedRoots: []` serves nothing until the client's roots arrive, then those. A call
 * waits at most {@link ROOTS_WAIT_MS} for a pending `roots/list` answer, then runs over the
 * roots in force.
 *
 * @param options - `fs` (required), the shared tool options (`cwd`, `allowedRoots`,
 *   `permissions`, `state`, `locks`, `digest`, `clock`), `readOnly`, a key per tool (`read`,
 *   `write`, `edit`, `list`, `glob`, `grep`, `applyPatch`, `bash`) in the shape of
 *   `createFsTools`: `false` leaves it out, `true` or settings (with an optional `signature`)
 *   make it; every tool but bash is on by default, and bash needs `bash.runner`; these keys
 *   are for the `better-fs-tools` dialect only. And `dialect`, `clientRoots`, `name`, `version`,
 *   `homeDirectory`.
 * @returns the SDK's `McpServer`, not yet connected.
 * @throws TypeError at creation for an unknown option, a `dialect` not in {@link MCP_DIALECTS},
 *   a tool key with the `filesystem-server` dialect, a tool set beside `readOnly: true` (write,
 *   edit, applyPatch, bash) or `write: false` (edit, applyPatch, bash), `bash` without a `runner`,
 *   a non-boolean `readOnly` or `clientRoots`, a `homeDirectory` that is not absolute, a missing
 *   `fs`, and whatever the tool factories
 *   throw for their options. Tool failures never throw: they are `isError` results.
 * @example
 * ```ts
 * const server = createMcpServer({ fs: memoryFileSystem({ files: { "/w/a.txt": "hi\n" } }), cwd: "/w" });
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverSide);
 * const client = new Client({ name: "tab", version: "1.0.0" });
 * await client.connect(clientSide);
 * await client.callTool({ name: "read", arguments: { path: "a.txt" } }); // { content: [{ type: "text", text: "1|hi" }] }
 * ```
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  return buildMcpServer(options, DIALECTS);
}

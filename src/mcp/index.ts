/**
 * `better-fs-tools/mcp`: the file tools as an MCP server over any backend
 * ({@link createMcpServer}), in our dialect or the official filesystem server's. Browser-safe:
 * nothing here imports `node:`; connect the server to an `InMemoryTransport` in a page or
 * Worker, or run the `better-fs-tools mcp` bin for stdio in Node.
 *
 * @module
 */
export { createMcpServer } from "./server.js";
export {
  DEFAULT_MCP_SERVER_NAME,
  MCP_DIALECTS,
  type McpDialect,
  type McpScope,
  type McpServerOptions,
} from "./options.js";
export { type McpRoot, narrowRoots, rootPathOf } from "./roots.js";
export { BETTER_FS_TOOLS_NAMES, toCallToolResult } from "./dialects/better-fs-tools.js";
export { FILESYSTEM_SERVER_TOOL_NAMES, MEDIA_TYPES_BY_EXTENSION } from "./dialects/filesystem-server.js";

/**
 * What the MCP server and its dialects share: the options, the dialect names, the scope a call
 * runs over, and the context a dialect registers its tools with. Its own module so the dialects
 * and the server import it, never each other.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { FileSystem } from "../contract/types.js";
import type { FsToolsOptions } from "../tools/kit/fs-tools.js";

/** The dialects {@link createMcpServer} speaks. */
export const MCP_DIALECTS = ["better-fs-tools", "filesystem-server"] as const;

/**
 * The tool set a server offers:
 * - `"better-fs-tools"`: our tools under their own names (read, write, edit, apply_patch, list,
 *   glob, grep, and bash when `bash.runner` is given);
 * - `"filesystem-server"`: the tool names, parameters and output shapes of the official
 *   `@modelcontextprotocol/server-filesystem`, so a client configured for it works unchanged.
 */
export type McpDialect = (typeof MCP_DIALECTS)[number];

/** The server name and version sent in `initialize` when none are given. */
export const DEFAULT_MCP_SERVER_NAME = "better-fs-tools";

/** Options of {@link createMcpServer}. */
export interface McpServerOptions extends Omit<FsToolsOptions, "fs"> {
  /** The backend (a middleware stack is fine). */
  readonly fs: FileSystem;
  /** The tool set. @default "better-fs-tools" */
  readonly dialect?: McpDialect;
  /**
   * Offer only the tools that do not change files, and refuse every write at the backend
   * (`EROFS`) as well. `bash` is left out. @default false
   */
  readonly readOnly?: boolean;
  /**
   * Ask a client that declares the `roots` capability for its roots (after `initialized` and on
   * each `roots/list_changed`) and narrow the allowed roots to them (see {@link narrowRoots}).
   * Client roots never widen what the server was given. @default true
   */
  readonly clientRoots?: boolean;
  /** The server's name in `initialize`. @default DEFAULT_MCP_SERVER_NAME */
  readonly name?: string;
  /** The server's version in `initialize`. @default "0.1.0" */
  readonly version?: string;
  /**
   * The directory `~` and `~/x` stand for in tool paths of the `filesystem-server` dialect (the
   * bin gives the user's home). @default undefined: `~` is a plain name
   */
  readonly homeDirectory?: string;
}

/** What a dialect's tools run over at one moment: the allowed roots now in force and the cwd. */
export interface McpScope {
  /** The allowed roots now (absolute); empty when the client's roots share nothing with the server's. */
  readonly roots: readonly string[];
  /** Working directory for relative paths: the configured cwd when it lies in a root, else the first root. */
  readonly cwd: string;
  /** Bumped on every change of `roots`, for caches built from a scope. */
  readonly generation: number;
}

/** What the dialect modules receive from {@link createMcpServer}. */
export interface DialectContext {
  readonly server: McpServer;
  /** The tool options, `fs` already wrapped for `readOnly`. */
  readonly options: McpServerOptions & { readonly state: NonNullable<McpServerOptions["state"]> };
  readonly readOnly: boolean;
  /** The roots the server was created with (before any client narrowing). */
  readonly serverRoots: readonly string[];
  /** What `~` stands for in tool paths, if anything. */
  readonly homeDirectory: string | undefined;
  /** The scope to use for a call: waits for a pending roots request first. */
  scope(): Promise<McpScope>;
}

/** The refusal every call gets while no root is left. */
export function noRootsResult(serverRoots: readonly string[]): CallToolResult {
  return {
    isError: true,
    content: [
      {
        type: "text",
        text:
          `EACCES: no allowed directory: the client's MCP roots share nothing with the server's ` +
          `(${serverRoots.join(", ")}). List one of those directories, or a directory inside one, as a root.`,
      },
    ],
  };
}

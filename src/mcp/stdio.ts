/**
 * The Node-only half of the MCP server: serving over stdio, and the `better-fs-tools mcp`
 * command line. Used by the bin; the browser-safe entry (`better-fs-tools/mcp`) never imports it.
 *
 * @module
 */
import { realpath, stat } from "node:fs/promises";
import { posix, resolve } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { nodeFileSystem } from "../backends/node/index.js";
import { MCP_DIALECTS, type McpDialect } from "./options.js";
import { createMcpServer } from "./server.js";

/** The parsed `better-fs-tools mcp` command line. */
export interface McpCommandLine {
  /** The directories to serve, as given (at least one). */
  readonly directories: readonly string[];
  readonly readOnly: boolean;
  readonly dialect: McpDialect;
  /**
   * Serve a Redis workspace instead of local directories (`--redis <url> --prefix <p>`): the
   * directories are then absolute paths in that workspace (default `/`), created if missing.
   */
  readonly redis?: { readonly url: string; readonly prefix: string };
}

/** The usage text the bin prints for a bad command line. */
export const MCP_USAGE =
  "Usage: better-fs-tools mcp <directory>... [--read-only] [--dialect better-fs-tools|filesystem-server]\n" +
  "       better-fs-tools mcp --redis <url> --prefix <prefix> [<workspace path>...] [--read-only] [--dialect ...]";

/**
 * Parse the arguments after the program name: `mcp <dir>... [--read-only] [--dialect <name>]`
 * (`--dialect=<name>` works too; `--` ends the options).
 *
 * @returns the command line, or an error message to print with {@link MCP_USAGE}.
 * @example
 * ```ts
 * parseMcpCommandLine(["mcp", "/w", "--read-only"]); // { directories: ["/w"], readOnly: true, dialect: "better-fs-tools" }
 * ```
 */
export function parseMcpCommandLine(args: readonly string[]): McpCommandLine | { readonly error: string } {
  if (args[0] !== "mcp") return { error: `unknown command ${JSON.stringify(args[0] ?? "")}` };
  const directories: string[] = [];
  let readOnly = false;
  let dialect: string = "better-fs-tools";
  let redisUrl: string | undefined;
  let prefix: string | undefined;
  let options = true;
  for (let index = 1; index < args.length; index++) {
    const arg = args[index]!;
    if (options && arg === "--") options = false;
    else if (options && arg === "--read-only") readOnly = true;
    else if (options && (arg === "--dialect" || arg.startsWith("--dialect="))) {
      const value = arg === "--dialect" ? args[++index] : arg.slice("--dialect=".length);
      if (value === undefined) return { error: "--dialect needs a value" };
      dialect = value;
    } else if (options && (arg === "--redis" || arg === "--prefix")) {
      const value = args[++index];
      if (value === undefined || value === "") return { error: `${arg} needs a value` };
      if (arg === "--redis") redisUrl = value;
      else prefix = value;
    } else if (options && arg.startsWith("--")) return { error: `unknown option ${arg}` };
    else directories.push(arg);
  }
  if (!(MCP_DIALECTS as readonly string[]).includes(dialect)) {
    return { error: `--dialect must be one of ${MCP_DIALECTS.join(", ")}, got ${JSON.stringify(dialect)}` };
  }
  if (redisUrl !== undefined || prefix !== undefined) {
    if (redisUrl === undefined || prefix === undefined) return { error: "--redis and --prefix go together" };
    if (!/^rediss?:\/\//.test(redisUrl))
      return { error: `--redis must be a redis:// URL, got ${JSON.stringify(redisUrl)}` };
    const paths = directories.length === 0 ? ["/"] : directories;
    const relative = paths.find((path) => !path.startsWith("/"));
    if (relative !== undefined)
      return { error: `workspace paths in Redis are absolute, got ${JSON.stringify(relative)}` };
    return { directories: paths, readOnly, dialect: dialect as McpDialect, redis: { url: redisUrl, prefix } };
  }
  if (directories.length === 0) return { error: "give at least one directory to serve" };
  return { directories, readOnly, dialect: dialect as McpDialect };
}

/**
 * Serve the directories over stdio: a Node backend jailed to their real paths (symlinks in the
 * given paths resolved once, at start), the tools' cwd the first of them, client roots narrowing
 * them. Resolves once the transport is connected; the process then lives as long as stdin.
 *
 * @throws Error when a directory does not exist or is not a directory (named).
 */
export async function serveMcpStdio(commandLine: McpCommandLine): Promise<void> {
  if (commandLine.redis !== undefined) return serveRedisWorkspace(commandLine, commandLine.redis);
  const roots: string[] = [];
  for (const directory of commandLine.directories) {
    const absolute = resolve(directory);
    let real: string;
    try {
      real = await realpath(absolute);
    } catch {
      throw new Error(`${directory}: no such directory`);
    }
    if (!(await stat(real)).isDirectory()) throw new Error(`${directory}: not a directory`);
    if (!roots.includes(real)) roots.push(real);
  }
  const fs = nodeFileSystem({ cwd: roots[0]!, allowedRoots: roots });
  const server = createMcpServer({
    fs,
    cwd: roots[0]!,
    allowedRoots: roots,
    dialect: commandLine.dialect,
    readOnly: commandLine.readOnly,
  });
  await server.connect(new StdioServerTransport());
}

/**
 * Serve a Redis workspace over stdio: `redisFileSystem` (loaded on demand: it needs the optional
 * peers unstorage and ioredis) with its Redis locks, so several servers on several hosts share
 * the workspace; the workspace paths are created if missing.
 *
 * @throws Error when unstorage or ioredis is not installed, or Redis cannot be reached (named).
 */
async function serveRedisWorkspace(
  commandLine: McpCommandLine,
  redis: { readonly url: string; readonly prefix: string },
): Promise<void> {
  let backend: typeof import("../backends/redis/index.js");
  try {
    backend = await import("../backends/redis/index.js");
  } catch (error) {
    throw new Error(
      `--redis needs the packages unstorage and ioredis (npm i unstorage ioredis): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const roots = [...new Set(commandLine.directories.map((path) => posix.resolve(path)))];
  const fs = backend.redisFileSystem({ url: redis.url, prefix: redis.prefix, cwd: roots[0]! });
  for (const root of roots) await fs.mkdir(root, { recursive: true });
  const server = createMcpServer({
    fs,
    cwd: roots[0]!,
    allowedRoots: roots,
    dialect: commandLine.dialect,
    readOnly: commandLine.readOnly,
  });
  await server.connect(new StdioServerTransport());
}

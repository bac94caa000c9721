/**
 * The Node-only half of the MCP server: serving over stdio, and the `better-fs-tools mcp`
 * command line. Used by the bin; the browser-safe entry (`better-fs-tools/mcp`) never imports it.
 *
 * @module
 */
import { realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { posix, resolve } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// The backend's own module, not its index: the command runner (node:child_process) is not needed here.
import { nodeFileSystem } from "../backends/node/file-system.js";
import { buildMcpServer, type DialectRegistrars } from "./build-server.js";
import { MCP_DIALECTS, type McpDialect } from "./options.js";

/**
 * The registrar of `dialect` alone: the other dialect's modules (and, for the
 * `filesystem-server` dialect, the library's own tools) are never imported, so the bin answers
 * `initialize` sooner.
 */
async function registrarsFor(dialect: McpDialect): Promise<DialectRegistrars> {
  return dialect === "filesystem-server"
    ? { "filesystem-server": (await import("./dialects/filesystem-server.js")).registerFilesystemServerTools }
    : { "better-fs-tools": (await import("./dialects/better-fs-tools.js")).registerBetterFsTools };
}

/** The parsed `better-fs-tools mcp` command line. */
export interface McpCommandLine {
  /**
   * The directories to serve, as given. Empty only in the `filesystem-server` dialect: nothing is
   * served until the client's MCP roots arrive.
   */
  readonly directories: readonly string[];
  readonly readOnly: boolean;
  readonly dialect: McpDialect;
  /**
   * Serve a Redis workspace instead of local directories (`--redis <url> --prefix <p>`): the
   * directories are then absolute paths in that workspace (default `/`), created if missing.
   */
  readonly redis?: { readonly url: string; readonly prefix: string };
}

/** What `--help` and a bad command line print. */
export const MCP_USAGE = `Usage: better-fs-tools mcp <directory>... [--read-only] [--dialect better-fs-tools|filesystem-server]
       better-fs-tools mcp --redis <url> --prefix <prefix> [<workspace path>...] [--read-only] [--dialect ...]

Serves the directories to an MCP client over stdio.
  --dialect better-fs-tools    our tools: read, write, edit, apply_patch, list, glob, grep (default)
  --dialect filesystem-server  the tools of @modelcontextprotocol/server-filesystem, a drop-in for it;
                               with no directory, the client's MCP roots are served once they arrive
  --read-only                  offer only the tools that change nothing
  --redis <url> --prefix <p>   serve a Redis workspace (needs unstorage and ioredis); paths are absolute
  --help, --version            print this text, or the version, and exit
A directory that does not exist or is not a directory is skipped with a warning; ~ and ~/x are
expanded. The client's MCP roots narrow the directories served, never widen them.`;

/**
 * Parse the arguments after the program name: `mcp <dir>... [--read-only] [--dialect <name>]`
 * (`--dialect=<name>` works too; `--` ends the options), or `--help` / `--version` anywhere.
 *
 * @returns the command line, `{ help: true }` or `{ version: true }`, or an error message to
 *   print with {@link MCP_USAGE}.
 * @example
 * ```ts
 * parseMcpCommandLine(["mcp", "/w", "--read-only"]); // { directories: ["/w"], readOnly: true, dialect: "better-fs-tools" }
 * ```
 */
export function parseMcpCommandLine(
  args: readonly string[],
): McpCommandLine | { readonly help: true } | { readonly version: true } | { readonly error: string } {
  const optionsEnd = args.indexOf("--");
  const flags = optionsEnd === -1 ? args : args.slice(0, optionsEnd);
  if (flags.includes("--help") || flags.includes("-h")) return { help: true };
  if (flags.includes("--version") || flags.includes("-v")) return { version: true };
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
  if (directories.length === 0 && dialect !== "filesystem-server") {
    return { error: "give at least one directory to serve" };
  }
  return { directories, readOnly, dialect: dialect as McpDialect };
}

/** `~` and `~/x` as the user's home (and below it); anything else as it is. */
export function expandHome(path: string, home: string = homedir()): string {
  return path === "~" || path.startsWith("~/") ? home + path.slice(1) : path;
}

/**
 * The real paths of the directories to serve, each resolved once (symlinks included) so that a
 * directory swapped for a link later does not move the jail. A missing path or one that is not
 * a directory is skipped with a warning on `warn` (the official server's words).
 */
export async function servedDirectories(
  directories: readonly string[],
  warn: (line: string) => void = (line) => console.error(line),
): Promise<string[]> {
  const roots: string[] = [];
  for (const directory of directories) {
    const absolute = resolve(expandHome(directory));
    let real: string;
    try {
      real = await realpath(absolute);
      if (!(await stat(real)).isDirectory()) {
        warn(`Warning: ${absolute} is not a directory, skipping`);
        continue;
      }
    } catch {
      warn(`Warning: Cannot access directory ${absolute}, skipping`);
      continue;
    }
    if (!roots.includes(real)) roots.push(real);
  }
  return roots;
}

/**
 * Serve the directories over stdio: a Node backend jailed to their real paths (resolved once,
 * at start), the tools' cwd the first of them, client roots narrowing them. With no directory
 * (the `filesystem-server` dialect), nothing is served until the client's roots arrive.
 * Resolves once the transport is connected; the process then lives as long as stdin.
 *
 * @throws Error "None of the specified directories are accessible" when directories were given
 *   and none of them is a directory.
 */
export async function serveMcpStdio(commandLine: McpCommandLine): Promise<void> {
  if (commandLine.redis !== undefined) return serveRedisWorkspace(commandLine, commandLine.redis);
  // The dialect loads while the directories are checked; their warnings are printed once the
  // server is ready, just before its start line, as the official server prints them together.
  const loading = registrarsFor(commandLine.dialect);
  loading.catch(() => {}); // Awaited below; a failure must not also be an unhandled rejection.
  const warnings: string[] = [];
  const roots = await servedDirectories(commandLine.directories, (line) => warnings.push(line));
  const printWarnings = () => {
    for (const line of warnings) console.error(line);
  };
  if (roots.length === 0 && commandLine.directories.length > 0) {
    printWarnings();
    throw new Error("None of the specified directories are accessible");
  }
  const home = homedir();
  const fs = nodeFileSystem(
    roots.length === 0 ? { cwd: "/", allowedRoots: ["/"] } : { cwd: roots[0]!, allowedRoots: roots },
  );
  // Resolve the jail now: the backend keeps each root's real path from its first call on.
  await Promise.all(roots.map((root) => fs.stat(root)));
  const server = buildMcpServer(
    {
      fs,
      cwd: roots[0] ?? "/",
      allowedRoots: roots,
      dialect: commandLine.dialect,
      readOnly: commandLine.readOnly,
      ...(home.startsWith("/") ? { homeDirectory: home } : {}),
    },
    await loading,
  );
  printWarnings();
  await server.connect(new StdioServerTransport());
  if (commandLine.dialect === "filesystem-server") {
    console.error("Secure MCP Filesystem Server running on stdio");
    if (roots.length === 0) {
      console.error("Started without allowed directories - waiting for client to provide roots via MCP protocol");
    }
  }
}

/**
 * Serve a Redis workspace over stdio: `redisFileSystem` (loaded on demand: it needs the optional
 * peers unstorage and ioredis) with its Redis locks, so several servers on several hosts share
 * the workspace; the workspace paths are created if missing. The Redis connection is closed
 * when stdin ends, so the process exits with its client.
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
  // The Redis connection keeps the process alive: close it when stdin ends (the client is gone),
  // so the server exits as the directory form does, and when the start fails.
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    void fs.close().catch(() => {});
  };
  try {
    for (const root of roots) await fs.mkdir(root, { recursive: true });
    const server = buildMcpServer(
      {
        fs,
        cwd: roots[0]!,
        allowedRoots: roots,
        dialect: commandLine.dialect,
        readOnly: commandLine.readOnly,
      },
      await registrarsFor(commandLine.dialect),
    );
    await server.connect(new StdioServerTransport());
  } catch (error) {
    close();
    throw error;
  }
  process.stdin.once("end", close);
  process.stdin.once("close", close);
}

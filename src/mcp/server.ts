/**
 * `createMcpServer`: the file tools as an MCP server (the SDK's `McpServer`) over any backend,
 * in one of two dialects, with the client's MCP roots narrowing the allowed roots.
 *
 * @module
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { RootsListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { assertKnownOptions, optionValueError } from "../contract/options.js";
import { isWithin, resolvePath } from "../contract/path.js";
import type { FileSystem } from "../contract/types.js";
import { readOnly as readOnlyMiddleware } from "../gate/middleware.js";
import { CONTEXT_OPTION_KEYS } from "../tools/kit/context.js";
import type { FsToolsOptions } from "../tools/kit/fs-tools.js";
import { TOOL_SETTINGS_KEYS } from "../tools/kit/setting-keys.js";
import { memoryStore } from "../tools/kit/state.js";
import { registerBetterFsTools } from "./dialects/better-fs-tools.js";
import { registerFilesystemServerTools } from "./dialects/filesystem-server.js";
import { narrowRoots, rootPathOf } from "./roots.js";
import {
  DEFAULT_MCP_SERVER_NAME,
  MCP_DIALECTS,
  noRootsResult,
  type DialectContext,
  type McpScope,
  type McpServerOptions,
} from "./options.js";

const FACTORY = "createMcpServer";
const OWN_KEYS = ["dialect", "readOnly", "clientRoots", "name", "version", "homeDirectory"] as const;

/**
 * How long a call waits for the client's answer to `roots/list` before it runs over the roots
 * in force (the server's own until the answer narrows them), in milliseconds.
 */
export const ROOTS_WAIT_MS = 1000;

function backendRoots(fs: FileSystem): readonly string[] | undefined {
  const roots = (fs as { readonly allowedRoots?: unknown }).allowedRoots;
  return Array.isArray(roots) && roots.every((root) => typeof root === "string" && root.startsWith("/"))
    ? (roots as readonly string[])
    : undefined;
}

/**
 * The client roots that are directories, as their real paths (a file, a missing directory, or
 * one the backend refuses is skipped), without duplicates.
 */
async function usableRoots(fs: FileSystem, paths: readonly string[]): Promise<string[]> {
  const found = await Promise.all(
    paths.map(async (path) => {
      try {
        const real = await fs.realpath(path);
        return (await fs.stat(real)).type === "directory" ? real : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  return [...new Set(found.filter((path) => path !== undefined))];
}

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
  if (typeof options !== "object" || options === null) throw new TypeError(`${FACTORY} needs an options object`);
  assertKnownOptions(FACTORY, options, [...CONTEXT_OPTION_KEYS, ...TOOL_SETTINGS_KEYS, ...OWN_KEYS]);
  if (typeof options.fs !== "object" || options.fs === null || typeof options.fs.realpath !== "function") {
    throw new TypeError(`${FACTORY} needs an fs option (a FileSystem)`);
  }
  const dialect = options.dialect ?? "better-fs-tools";
  if (!(MCP_DIALECTS as readonly string[]).includes(dialect)) {
    optionValueError(FACTORY, "dialect", `must be one of ${MCP_DIALECTS.join(", ")}, got ${JSON.stringify(dialect)}`);
  }
  for (const key of ["readOnly", "clientRoots"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "boolean") {
      optionValueError(FACTORY, key, `must be a boolean, got ${JSON.stringify(options[key])}`);
    }
  }
  if (
    options.homeDirectory !== undefined &&
    (typeof options.homeDirectory !== "string" || !options.homeDirectory.startsWith("/"))
  ) {
    optionValueError(
      FACTORY,
      "homeDirectory",
      `must be an absolute path, got ${JSON.stringify(options.homeDirectory)}`,
    );
  }
  for (const key of ["name", "version"] as const) {
    if (options[key] !== undefined && (typeof options[key] !== "string" || options[key] === "")) {
      optionValueError(FACTORY, key, `must be a non-empty string, got ${JSON.stringify(options[key])}`);
    }
  }
  if (dialect === "filesystem-server") {
    // That dialect's tools are the official server's: per-tool options would be ignored.
    const set = TOOL_SETTINGS_KEYS.find((key) => options[key] !== undefined);
    if (set !== undefined) {
      optionValueError(
        FACTORY,
        set,
        'is not taken by the "filesystem-server" dialect (its tools are the official server\'s); per-tool options are for the "better-fs-tools" dialect',
      );
    }
  }
  const readOnly = options.readOnly === true;
  const fs = readOnly ? readOnlyMiddleware()(options.fs) : options.fs;
  const serverRoots = (options.allowedRoots ?? backendRoots(options.fs) ?? [options.cwd ?? "/"]).map((root) =>
    resolvePath("/", root),
  );
  const configuredCwd = options.cwd ?? serverRoots[0] ?? "/";
  const {
    dialect: _dialect,
    readOnly: _readOnly,
    clientRoots: _clientRoots,
    homeDirectory,
    name,
    version,
    ...rest
  } = options;
  const toolOptions = {
    ...rest,
    fs,
    // One read-before-write store for the server's life, across roots changes.
    state: options.state ?? memoryStore(),
  };

  let scope: McpScope = { roots: serverRoots, cwd: configuredCwd, generation: 0 };
  let pending: Promise<void> | undefined;
  const setRoots = (roots: readonly string[]): void => {
    const cwd = roots.some((root) => isWithin(root, configuredCwd)) ? configuredCwd : (roots[0] ?? configuredCwd);
    scope = { roots, cwd, generation: scope.generation + 1 };
  };

  const server = new McpServer(
    { name: name ?? DEFAULT_MCP_SERVER_NAME, version: version ?? "0.1.0" },
    { capabilities: { tools: {} } },
  );
  const context: DialectContext = {
    server,
    options: toolOptions,
    readOnly,
    serverRoots,
    homeDirectory,
    async scope() {
      // A client that never answers roots/list must not stall the call: after ROOTS_WAIT_MS it
      // runs over the roots in force (narrowed as soon as the answer comes).
      if (pending !== undefined) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          pending,
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, ROOTS_WAIT_MS);
          }),
        ]);
        clearTimeout(timer);
      }
      return scope;
    },
  };
  if (dialect === "filesystem-server") registerFilesystemServerTools(context);
  else registerBetterFsTools(context);

  if (options.clientRoots !== false) {
    const refresh = (): void => {
      if (server.server.getClientCapabilities()?.roots === undefined) return;
      const request = (async () => {
        try {
          const { roots } = await server.server.listRoots();
          const paths = await usableRoots(
            fs,
            roots.map((root) => rootPathOf(root.uri)).filter((path) => path !== undefined),
          );
          // No usable root from the client: keep the server's own (as the official server does).
          // A server started with none takes the client's as they are.
          setRoots(
            paths.length === 0 ? serverRoots : serverRoots.length === 0 ? paths : narrowRoots(serverRoots, paths),
          );
        } catch {
          // The client did not answer roots/list: keep the roots in force.
        }
      })();
      pending = request;
      void request.finally(() => {
        if (pending === request) pending = undefined;
      });
    };
    server.server.oninitialized = refresh;
    server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => refresh());
  }
  return server;
}

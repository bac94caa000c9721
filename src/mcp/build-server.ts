/**
 * `buildMcpServer`: the MCP server over a backend, its options checked, its roots kept and
 * narrowed by the client's, with the tools of one dialect registered by a function given by the
 * caller. `createMcpServer` gives it both dialects; the stdio bin loads only the dialect it
 * serves, so its start imports nothing the other one needs.
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
import { TOOL_SETTINGS_KEYS } from "../tools/kit/tool-keys.js";
import { memoryStore } from "../tools/kit/state.js";
import { narrowRoots, rootPathOf } from "./roots.js";
import {
  DEFAULT_MCP_SERVER_NAME,
  MCP_DIALECTS,
  noRootsResult,
  type DialectContext,
  type McpDialect,
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

/** The function that registers a dialect's tools on the server, per dialect. */
export type DialectRegistrars = Readonly<Partial<Record<McpDialect, (context: DialectContext) => void>>>;

/**
 * {@link createMcpServer} with the dialects' registrars given: the options are checked as there,
 * and the chosen dialect's registrar adds its tools.
 *
 * @internal used by `createMcpServer` (both dialects) and the stdio bin (the one it serves).
 * @param options - as {@link createMcpServer}'s.
 * @param registrars - the dialects that can be served.
 * @returns the SDK's `McpServer`, not yet connected.
 * @throws TypeError as {@link createMcpServer}, and when the chosen dialect has no registrar.
 * @example
 * ```ts
 * const { registerFilesystemServerTools } = await import("./dialects/filesystem-server.js");
 * const server = buildMcpServer({ fs, dialect: "filesystem-server" }, { "filesystem-server": registerFilesystemServerTools });
 * ```
 */
export function buildMcpServer(options: McpServerOptions, registrars: DialectRegistrars): McpServer {
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
  const register = registrars[dialect];
  if (register === undefined) throw new TypeError(`${FACTORY}: the "${dialect}" dialect is not loaded here`);
  register(context);

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

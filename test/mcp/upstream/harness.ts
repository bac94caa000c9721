/**
 * The harness of our port of the official filesystem server's test suite
 * (modelcontextprotocol/servers, `src/filesystem/__tests__/`): every test drives a server binary
 * over stdio with the SDK's `Client`, so the same file runs against either server.
 *
 * - By default (and in `npm test`) the server is ours: `src/mcp/bin.ts` built with tsc into
 *   `node_modules/.cache/mcp-upstream/<hash of src>` (built once per source state, shared by the
 *   files), run as `bin.js mcp <dir>... --dialect filesystem-server`.
 * - `UPSTREAM_SERVER=official` runs the official `@modelcontextprotocol/server-filesystem` bin
 *   (the dev dependency) instead: `npx vitest run --project node test/mcp/upstream/` counts what
 *   it passes.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { mkdtemp, readdir, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { REPOSITORY_ROOT } from "../../package/stage.js";

/** Which server the suite runs against. */
export const SERVER: "ours" | "official" = process.env.UPSTREAM_SERVER === "official" ? "official" : "ours";

const OFFICIAL_BIN = join(
  REPOSITORY_ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-filesystem",
  "dist",
  "index.js",
);

function sourceHash(): string {
  const hash = createHash("sha256");
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) hash.update(path).update(readFileSync(path));
    }
  };
  walk(join(REPOSITORY_ROOT, "src"));
  hash.update(readFileSync(join(REPOSITORY_ROOT, "tsconfig.build.json")));
  return hash.digest("hex").slice(0, 16);
}

let oursBin: string | undefined;
/** Our bin, built from the current sources (once per source state). */
function ourBin(): string {
  if (oursBin !== undefined) return oursBin;
  const out = join(REPOSITORY_ROOT, "node_modules", ".cache", "mcp-upstream", sourceHash());
  const bin = join(out, "mcp", "bin.js");
  if (!existsSync(bin)) {
    const staging = `${out}.${process.pid}`;
    execFileSync(
      process.execPath,
      [join(REPOSITORY_ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--outDir", staging],
      { cwd: REPOSITORY_ROOT, stdio: "pipe" },
    );
    try {
      renameSync(staging, out);
    } catch {
      // Another file built it meanwhile.
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return (oursBin = bin);
}

/** The node arguments that start the server over `directories` (as its command line gives them). */
export function serverArgs(directories: readonly string[]): string[] {
  return SERVER === "official"
    ? [OFFICIAL_BIN, ...directories]
    : [ourBin(), "mcp", ...directories, "--dialect", "filesystem-server"];
}

export interface Connected {
  readonly client: Client;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** How many `roots/list` requests the client has answered. */
  rootsAnswered(): number;
  /** Replace the client's roots and notify the server. */
  setRoots(uris: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Start the server over `directories` and connect a client. With `roots`, the client declares
 * the roots capability and answers `roots/list` with them (`"never"`: it declares the capability
 * and never answers).
 */
export async function connect(
  directories: readonly string[],
  options: {
    readonly roots?: readonly string[] | "never";
    readonly env?: Record<string, string>;
    /** Start the server under this umask (through `sh -c "umask ...; exec node ..."`). */
    readonly umask?: string;
  } = {},
): Promise<Connected> {
  let roots = options.roots;
  let answered = 0;
  const client = new Client(
    { name: "upstream-test", version: "1.0.0" },
    roots === undefined ? {} : { capabilities: { roots: { listChanged: true } } },
  );
  if (roots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      if (roots === "never") return new Promise<never>(() => {});
      answered++;
      return { roots: (roots ?? []).map((uri) => ({ uri })) };
    });
  }
  const transport = new StdioClientTransport({
    ...(options.umask === undefined
      ? { command: process.execPath, args: serverArgs(directories) }
      : {
          command: "/bin/sh",
          args: ["-c", `umask ${options.umask} && exec "$0" "$@"`, process.execPath, ...serverArgs(directories)],
        }),
    stderr: "pipe",
    ...(options.env !== undefined ? { env: { ...(process.env as Record<string, string>), ...options.env } } : {}),
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    rootsAnswered: () => answered,
    async setRoots(uris) {
      roots = uris;
      await client.sendRootsListChanged();
    },
    close: () => client.close(),
  };
}

/** Call a tool; protocol errors come back as `isError` results, as the SDK server gives them. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  } catch (error) {
    return { isError: true, content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }] };
  }
}

/** The text of a result's first block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : JSON.stringify(first);
}

/** A fresh directory under the OS temp directory, as its real path. */
export async function makeTempDir(prefix: string): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

/** Remove everything inside `dir`, keeping `dir` (one server serves it across a file's tests). */
export async function emptyDir(dir: string): Promise<void> {
  await Promise.all((await readdir(dir)).map((name) => rm(join(dir, name), { recursive: true, force: true })));
}

/** The allowed directories the server lists now. */
export async function allowedDirectoriesOf(client: Client): Promise<string[]> {
  return textOf(await call(client, "list_allowed_directories"))
    .split("\n")
    .slice(1);
}

const QUIET_MS = 400;

/**
 * Run the server with `args` (directories, or flags such as `--help`) and no client, until it
 * exits or `timeoutMs` passes; its exit code, stdout and stderr.
 */
export function runServer(
  args: readonly string[],
  timeoutMs = 20_000,
  env: Record<string, string> = {},
): Promise<{ exitCode: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, serverArgs(args), {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let stderr = "";
    let stdout = "";
    // Stopped once stderr has said something and then been quiet a while (the server has
    // started, or said why not), or after timeoutMs on a machine too busy to start it sooner.
    let quiet: ReturnType<typeof setTimeout> | undefined;
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      clearTimeout(quiet);
      quiet = setTimeout(() => child.kill("SIGTERM"), QUIET_MS);
    });
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      clearTimeout(quiet);
      resolve({ exitCode: code, stderr, stdout });
    });
  });
}

/**
 * The `better-fs-tools mcp` bin over stdio, spawned with the pinned node on a fresh tsc build of
 * src/ (under node_modules/.cache, so packages resolve), driven by the SDK's Client; and the
 * filesystem-server dialect's tool list compared with the official server's, over stdio too.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMcpCommandLine } from "../../src/mcp/stdio.js";
import { REPOSITORY_ROOT } from "../package/stage.js";

const OUT = join(REPOSITORY_ROOT, "node_modules", ".cache", "mcp-stdio-test");
const BIN = join(OUT, "mcp", "bin.js");
const OFFICIAL = join(
  REPOSITORY_ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-filesystem",
  "dist",
  "index.js",
);

let dir: string;
const clients: Client[] = [];

async function spawnClient(args: readonly string[]): Promise<Client> {
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [...args], stderr: "pipe" }));
  clients.push(client);
  return client;
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

beforeAll(async () => {
  await rm(OUT, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [join(REPOSITORY_ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--outDir", OUT],
    { cwd: REPOSITORY_ROOT, stdio: "pipe" },
  );
  dir = await realpath(await mkdtemp(join(tmpdir(), "bft-mcp-")));
  await mkdir(join(dir, "w", "src"), { recursive: true });
  await writeFile(join(dir, "w", "a.txt"), "one\ntwo\n");
  await writeFile(join(dir, "w", "src", "b.ts"), "export {};\n");
  await writeFile(join(dir, "secret.txt"), "SECRET");
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await rm(dir, { recursive: true, force: true });
});

describe("parseMcpCommandLine", () => {
  it("parses directories and flags, and names what is wrong", () => {
    expect(parseMcpCommandLine(["mcp", "/a", "--read-only", "/b", "--dialect", "filesystem-server"])).toEqual({
      directories: ["/a", "/b"],
      readOnly: true,
      dialect: "filesystem-server",
    });
    expect(parseMcpCommandLine(["mcp", "--dialect=better-fs-tools", "--", "--odd"])).toEqual({
      directories: ["--odd"],
      readOnly: false,
      dialect: "better-fs-tools",
    });
    expect(parseMcpCommandLine(["mcp"])).toEqual({ error: "give at least one directory to serve" });
    expect(parseMcpCommandLine(["mcp", "/a", "--dialect", "x"])).toEqual({
      error: '--dialect must be one of better-fs-tools, filesystem-server, got "x"',
    });
    expect(parseMcpCommandLine(["mcp", "/a", "--write"])).toEqual({ error: "unknown option --write" });
    expect(parseMcpCommandLine(["serve"])).toEqual({ error: 'unknown command "serve"' });
    expect(parseMcpCommandLine(["mcp", "--dialect", "filesystem-server"])).toEqual({
      directories: [],
      readOnly: false,
      dialect: "filesystem-server",
    });
    expect(parseMcpCommandLine(["--help"])).toEqual({ help: true });
    expect(parseMcpCommandLine(["mcp", "/a", "--version"])).toEqual({ version: true });
    expect(parseMcpCommandLine(["mcp", "--", "--help"])).toEqual({
      directories: ["--help"],
      readOnly: false,
      dialect: "better-fs-tools",
    });
  });
});

describe("the bin's own command line", () => {
  it("--help prints the usage and --version the package version, both exiting 0", () => {
    const help = execFileSync(process.execPath, [BIN, "--help"], { encoding: "utf8" });
    expect(help.split("\n")[0]).toBe(
      "Usage: better-fs-tools mcp <directory>... [--read-only] [--dialect better-fs-tools|filesystem-server]",
    );
    expect(execFileSync(process.execPath, [BIN, "--version"], { encoding: "utf8" })).toBe("0.1.0\n");
  });

  it("without @modelcontextprotocol/sdk it says in one line what to install", async () => {
    // The build copied where no node_modules can be found: the SDK import fails.
    const lone = await realpath(await mkdtemp(join(tmpdir(), "bft-mcp-no-sdk-")));
    try {
      await cp(OUT, lone, { recursive: true });
      let stderr = "";
      let status: number | null = null;
      try {
        execFileSync(process.execPath, [join(lone, "mcp", "bin.js"), "mcp", lone], { stdio: "pipe" });
      } catch (error) {
        stderr = String((error as { stderr: Buffer }).stderr);
        status = (error as { status: number | null }).status;
      }
      expect(status).toBe(1);
      expect(stderr).toBe(
        "better-fs-tools: the MCP server needs its optional peers @modelcontextprotocol/sdk and zod: npm i @modelcontextprotocol/sdk zod\n",
      );
    } finally {
      await rm(lone, { recursive: true, force: true });
    }
  });
});

describe("better-fs-tools mcp without its optional peers", () => {
  it("says in one line what to install (the SDK made unresolvable by a module hook)", () => {
    const hook =
      "export async function resolve(specifier, context, next) {" +
      ' if (specifier.startsWith("@modelcontextprotocol/sdk")) {' +
      " const error = new Error(`Cannot find package '${specifier}'`);" +
      ' error.code = "ERR_MODULE_NOT_FOUND"; throw error; }' +
      " return next(specifier, context); }";
    const register = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
    let failure: { status?: number; stdout?: string; stderr?: string } = {};
    try {
      execFileSync(
        process.execPath,
        ["--import", `data:text/javascript,${encodeURIComponent(register)}`, BIN, "mcp", join(dir, "w")],
        { encoding: "utf8", stdio: "pipe" },
      );
    } catch (error) {
      failure = error as typeof failure;
    }
    expect([failure.status, failure.stdout, failure.stderr]).toEqual([
      1,
      "",
      "better-fs-tools: the MCP server needs its optional peers @modelcontextprotocol/sdk and zod: npm i @modelcontextprotocol/sdk zod\n",
    ]);
  });
});

describe("better-fs-tools mcp over stdio", () => {
  it("serves our dialect jailed to the directory", async () => {
    const client = await spawnClient([BIN, "mcp", join(dir, "w")]);
    expect(textOf(await client.callTool({ name: "read", arguments: { path: "a.txt" } }))).toBe("1|one\n2|two");
    expect(textOf(await client.callTool({ name: "glob", arguments: { pattern: "**/*.ts" } }))).toBe("src/b.ts");
    const escape = (await client.callTool({ name: "read", arguments: { path: "../secret.txt" } })) as CallToolResult;
    expect(escape.isError).toBe(true);
    expect(textOf(escape)).not.toContain("SECRET");
    expect(textOf(await client.callTool({ name: "write", arguments: { path: "c.txt", content: "c\n" } }))).toBe(
      "wrote 2 bytes to c.txt",
    );
    expect(await readFile(join(dir, "w", "c.txt"), "utf8")).toBe("c\n");
  });

  it("serves the filesystem-server dialect read-only", async () => {
    const client = await spawnClient([BIN, "mcp", join(dir, "w"), "--read-only", "--dialect", "filesystem-server"]);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain("write_file");
    expect(textOf(await client.callTool({ name: "list_allowed_directories", arguments: {} }))).toBe(
      `Allowed directories:\n${join(dir, "w")}`,
    );
    expect(textOf(await client.callTool({ name: "read_text_file", arguments: { path: "a.txt", tail: 1 } }))).toBe("");
  });

  it("matches the official server's tool names, schemas, output schemas and annotations", async () => {
    const ours = await spawnClient([BIN, "mcp", join(dir, "w"), "--dialect", "filesystem-server"]);
    const official = await spawnClient([OFFICIAL, join(dir, "w")]);
    const shape = (tools: Awaited<ReturnType<Client["listTools"]>>["tools"]) =>
      tools
        .map(({ name, inputSchema, outputSchema, annotations, title }) => {
          const properties = Object.fromEntries(
            Object.entries(inputSchema.properties ?? {}).map(([key, value]) => {
              const { description: _description, ...rest } = value as Record<string, unknown>;
              return [key, rest];
            }),
          );
          return { name, title, inputSchema: { ...inputSchema, properties }, outputSchema, annotations };
        })
        .sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(shape((await ours.listTools()).tools)).toEqual(shape((await official.listTools()).tools));
  });
});

#!/usr/bin/env node
/**
 * The `better-fs-tools` command: `better-fs-tools mcp <directory>... [--read-only]
 * [--dialect better-fs-tools|filesystem-server]` serves the directories over stdio;
 * `better-fs-tools mcp --redis <url> --prefix <p> [<path>...]` serves a Redis workspace.
 *
 * The server is loaded by a dynamic `import()`, so a missing optional peer (the MCP SDK, zod) is
 * one line naming what to install, not a stack trace.
 *
 * @module
 */

/** What to install when the server's optional peers are missing. */
const MISSING_PEERS =
  "better-fs-tools: the MCP server needs its optional peers @modelcontextprotocol/sdk and zod: npm i @modelcontextprotocol/sdk zod";

let stdio: typeof import("./stdio.js");
try {
  stdio = await import("./stdio.js");
} catch (error) {
  const code = (error as { code?: unknown } | null)?.code;
  console.error(
    code === "ERR_MODULE_NOT_FOUND"
      ? MISSING_PEERS
      : `better-fs-tools: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
const { MCP_USAGE, parseMcpCommandLine, serveMcpStdio } = stdio;

const commandLine = parseMcpCommandLine(process.argv.slice(2));
if ("error" in commandLine) {
  console.error(`better-fs-tools: ${commandLine.error}\n${MCP_USAGE}`);
  process.exit(2);
}
try {
  await serveMcpStdio(commandLine);
} catch (error) {
  console.error(`better-fs-tools: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

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
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** What to install when the server's optional peers are missing. */
const MISSING_PEERS =
  "better-fs-tools: the MCP server needs its optional peers @modelcontextprotocol/sdk and zod: npm i @modelcontextprotocol/sdk zod";

/** The MCP SDK and zod are optional peers: without them, one line saying what to install. */
function peerMissing(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = String((error as Error).message);
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    (message.includes("@modelcontextprotocol/sdk") || message.includes("'zod'") || message.includes('"zod"'))
  );
}

/** The version in our package.json (found walking up from this file: dist/mcp/bin.js in the package). */
function ownVersion(): string {
  for (let up = "../"; up.length < 30; up += "../") {
    try {
      const found = require(`${up}package.json`) as { name?: string; version?: string };
      if (found.name === "better-fs-tools" && typeof found.version === "string") return found.version;
    } catch {
      // Not at this level.
    }
  }
  return "unknown";
}

let stdio: typeof import("./stdio.js");
try {
  stdio = await import("./stdio.js");
} catch (error) {
  if (!peerMissing(error)) throw error;
  console.error(MISSING_PEERS);
  process.exit(1);
}
const commandLine = stdio.parseMcpCommandLine(process.argv.slice(2));
if ("help" in commandLine) {
  console.log(stdio.MCP_USAGE);
  process.exit(0);
}
if ("version" in commandLine) {
  console.log(ownVersion());
  process.exit(0);
}
if ("error" in commandLine) {
  console.error(`better-fs-tools: ${commandLine.error}\n${stdio.MCP_USAGE}`);
  process.exit(2);
}
try {
  await stdio.serveMcpStdio(commandLine);
} catch (error) {
  // The dialect's modules load on demand (zod among them): a missing peer is still one line.
  if (peerMissing(error)) {
    console.error(MISSING_PEERS);
    process.exit(1);
  }
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

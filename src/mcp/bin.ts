#!/usr/bin/env node
/**
 * The `better-fs-tools` command: `better-fs-tools mcp <directory>... [--read-only]
 * [--dialect better-fs-tools|filesystem-server]` serves the directories over stdio.
 *
 * @module
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The MCP SDK is an optional peer: without it, one line saying what to install. */
function sdkMissing(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    String((error as Error).message).includes("@modelcontextprotocol/sdk")
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
  if (!sdkMissing(error)) throw error;
  console.error(
    "better-fs-tools: the MCP server needs @modelcontextprotocol/sdk: install it beside better-fs-tools (npm i @modelcontextprotocol/sdk)",
  );
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
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

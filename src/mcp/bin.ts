#!/usr/bin/env node
/**
 * The `better-fs-tools` command: `better-fs-tools mcp <directory>... [--read-only]
 * [--dialect better-fs-tools|filesystem-server]` serves the directories over stdio;
 * `better-fs-tools mcp --redis <url> --prefix <p> [<path>...]` serves a Redis workspace.
 *
 * @module
 */
import { MCP_USAGE, parseMcpCommandLine, serveMcpStdio } from "./stdio.js";

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

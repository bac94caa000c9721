/**
 * `better-fs-tools mcp --redis <url> --prefix <p>`: the command line, and two servers (two
 * "hosts") over stdio on one Redis workspace, from a tsc build of src/, on a real redis-server
 * this file starts on a free port.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { parseMcpCommandLine } from "../../src/mcp/stdio.js";
import { spawn } from "node:child_process";
import { buildForProcesses } from "../backends/redis/processes.js";
import { NO_REDIS_REASON, REDIS_AVAILABLE, startRedisServer, type RedisServer } from "../backends/redis/server.js";

describe("parseMcpCommandLine --redis", () => {
  it("takes --redis with --prefix, workspace paths default to /, and names what is wrong", () => {
    expect(parseMcpCommandLine(["mcp", "--redis", "redis://h:6379", "--prefix", "team-a"])).toEqual({
      directories: ["/"],
      readOnly: false,
      dialect: "better-fs-tools",
      redis: { url: "redis://h:6379", prefix: "team-a" },
    });
    expect(parseMcpCommandLine(["mcp", "/w", "--read-only", "--redis", "redis://h:6379", "--prefix", "p"])).toEqual({
      directories: ["/w"],
      readOnly: true,
      dialect: "better-fs-tools",
      redis: { url: "redis://h:6379", prefix: "p" },
    });
    expect(parseMcpCommandLine(["mcp", "--redis", "redis://h:6379"])).toEqual({
      error: "--redis and --prefix go together",
    });
    expect(parseMcpCommandLine(["mcp", "--prefix"])).toEqual({ error: "--prefix needs a value" });
    expect(parseMcpCommandLine(["mcp", "--redis", "h:6379", "--prefix", "p"])).toEqual({
      error: '--redis must be a redis:// URL, got "h:6379"',
    });
    expect(parseMcpCommandLine(["mcp", "w", "--redis", "redis://h", "--prefix", "p"])).toEqual({
      error: 'workspace paths in Redis are absolute, got "w"',
    });
  });
});

describe.skipIf(!REDIS_AVAILABLE)(`better-fs-tools mcp --redis over stdio (${NO_REDIS_REASON})`, () => {
  let server: RedisServer | undefined;
  const clients: Client[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server?.stop();
  });
  const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

  it(
    "two servers (two hosts) share one workspace: a write through one is read and edited through the other",
    { timeout: 180_000 },
    async () => {
      const [running, built] = await Promise.all([startRedisServer(), buildForProcesses("mcp-stdio-redis")]);
      server = running;
      const spawnHost = async () => {
        const client = new Client({ name: "stdio-redis-test", version: "1.0.0" });
        const args = [join(built, "mcp", "bin.js"), "mcp", "--redis", running.url, "--prefix", "team-a", "/w"];
        await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "pipe" }));
        clients.push(client);
        return client;
      };
      const [one, two] = await Promise.all([spawnHost(), spawnHost()]);
      const wrote = textOf(
        await one.callTool({ name: "write", arguments: { path: "notes.md", content: "one\ntwo\n" } }),
      );
      const read = textOf(await two.callTool({ name: "read", arguments: { path: "notes.md" } }));
      const edited = textOf(
        await two.callTool({ name: "edit", arguments: { path: "notes.md", oldText: "two", newText: "three" } }),
      );
      const escape = (await one.callTool({ name: "read", arguments: { path: "/elsewhere/x.txt" } })) as CallToolResult;
      const after = textOf(await one.callTool({ name: "read", arguments: { path: "notes.md" } }));
      expect({ wrote, read, edited: edited.length > 0, escape: escape.isError, after }).toEqual({
        wrote: "wrote 8 bytes to notes.md",
        read: "1|one\n2|two",
        edited: true,
        escape: true,
        after: "1|one\n2|three",
      });
    },
  );

  it(
    "exits when stdin closes (the Redis connection is closed), as the directory form does",
    { timeout: 180_000 },
    async () => {
      const [running, built] = await Promise.all([
        server === undefined ? startRedisServer() : Promise.resolve(server),
        buildForProcesses("mcp-stdio-redis"),
      ]);
      server = running;
      const child = spawn(
        process.execPath,
        [join(built, "mcp", "bin.js"), "mcp", "--redis", running.url, "--prefix", "team-b", "/w"],
        { stdio: ["pipe", "pipe", "pipe"] },
      );
      // Ask once so the server is surely up (Redis connected, /w made), then hang up.
      const initialize = {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      };
      const answered = new Promise<string>((resolve) =>
        child.stdout.once("data", (chunk: Buffer) => resolve(String(chunk))),
      );
      child.stdin.write(`${JSON.stringify(initialize)}\n`);
      const answer = JSON.parse(await answered) as { id: number };
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.stdin.end();
      // No timer here: the test's own timeout fails a server that keeps running.
      expect({ answered: answer.id, code: await exited }).toEqual({ answered: 1, code: 0 });
    },
  );
});

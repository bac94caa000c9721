/** Test helper: an SDK `Client` connected in memory to a {@link createMcpServer} server. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ListRootsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createMcpServer, type McpServerOptions } from "../../src/mcp/index.js";

export interface ConnectedClient {
  readonly client: Client;
  /** Call a tool and return its result (content, structuredContent, isError). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The text of a call's first content block. */
  text(name: string, args?: Record<string, unknown>): Promise<string>;
  /** Replace the client's roots (file URIs) and tell the server. */
  setRoots(uris: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Create the server over `options`, connect a client through `InMemoryTransport`. With `roots`,
 * the client declares the roots capability and answers `roots/list` with those URIs.
 */
export async function connect(
  options: McpServerOptions,
  clientOptions: { readonly roots?: readonly string[] } = {},
): Promise<ConnectedClient> {
  const server = createMcpServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  let roots = clientOptions.roots;
  const client = new Client(
    { name: "test", version: "1.0.0" },
    roots === undefined ? {} : { capabilities: { roots: { listChanged: true } } },
  );
  if (roots !== undefined) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: (roots ?? []).map((uri) => ({ uri })),
    }));
  }
  await client.connect(clientSide);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    client,
    call,
    async text(name, args) {
      const result = await call(name, args);
      const first = result.content[0];
      return first?.type === "text" ? first.text : JSON.stringify(first);
    },
    async setRoots(uris) {
      roots = uris;
      await client.sendRootsListChanged();
    },
    close: () => client.close(),
  };
}

/** The attack corpus (test/security/attacks.ts) through MCP: both dialects, over the SDK's Client in memory, on every Node backend. */
import { describe } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { FileSystem } from "../../src/contract/types.js";
import { NODE_CORPUS_BACKENDS } from "../security/backends.js";
import { runSecurityCorpus, WORKSPACE_ROOT, type AttackTarget, type AttemptOutcome } from "../security/corpus.js";
import { connect } from "./client.js";

function outcome(result: CallToolResult): AttemptOutcome {
  const text = result.content.map((block) => (block.type === "text" ? block.text : JSON.stringify(block))).join("\n");
  return { ok: result.isError !== true, text };
}

const TARGETS: ReadonlyArray<{
  name: string;
  target: (fs: FileSystem) => Promise<AttackTarget>;
  /** A backslash is a name byte where the backend says so (the filesystem-server dialect, as the official server). */
  backslashNames?: boolean;
}> = [
  {
    name: "MCP better-fs-tools dialect (read, write, list)",
    target: async (fs) => {
      const mcp = await connect({ fs, cwd: WORKSPACE_ROOT, allowedRoots: [WORKSPACE_ROOT], state: false });
      return {
        read: async (path) => outcome(await mcp.call("read", { path })),
        write: async (path, content) => outcome(await mcp.call("write", { path, content })),
        list: async (path) => outcome(await mcp.call("list", { path })),
      };
    },
  },
  {
    name: "MCP filesystem-server dialect (read_text_file, write_file, list_directory)",
    backslashNames: true,
    target: async (fs) => {
      const mcp = await connect({
        fs,
        cwd: WORKSPACE_ROOT,
        allowedRoots: [WORKSPACE_ROOT],
        dialect: "filesystem-server",
      });
      return {
        read: async (path) => outcome(await mcp.call("read_text_file", { path })),
        // As a client of the official server writes into a new directory: create_directory
        // first (write_file makes no parent in this dialect).
        write: async (path, content) => {
          const slash = path.lastIndexOf("/");
          if (slash > 0) await mcp.call("create_directory", { path: path.slice(0, slash) });
          return outcome(await mcp.call("write_file", { path, content }));
        },
        list: async (path) => outcome(await mcp.call("list_directory", { path })),
      };
    },
  },
  {
    name: "MCP filesystem-server dialect (read_multiple_files, search_files, directory_tree)",
    backslashNames: true,
    target: async (fs) => {
      const mcp = await connect({
        fs,
        cwd: WORKSPACE_ROOT,
        allowedRoots: [WORKSPACE_ROOT],
        dialect: "filesystem-server",
      });
      return {
        read: async (path) => {
          const result = await mcp.call("read_text_file", { path });
          const multiple = outcome(await mcp.call("read_multiple_files", { paths: [path] }));
          return { ok: result.isError !== true, text: `${outcome(result).text}\n${multiple.text}` };
        },
        list: async (path) => {
          const search = await mcp.call("search_files", { path, pattern: "**" });
          const tree = outcome(await mcp.call("directory_tree", { path }));
          return { ok: search.isError !== true && tree.ok, text: `${outcome(search).text}\n${tree.text}` };
        },
      };
    },
  },
];

describe("security corpus through MCP", () => {
  for (const { name: backendName, backend, destroy } of NODE_CORPUS_BACKENDS) {
    for (const { name, target, backslashNames } of TARGETS) {
      runSecurityCorpus({
        name: `${name} on ${backendName}`,
        backend,
        ...(destroy ? { destroy } : {}),
        target,
        ...(backslashNames === true ? { backslashNames } : {}),
      });
    }
  }
});

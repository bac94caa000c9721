/** The MCP server in Chromium on OPFS, with the SDK's Client in the same page over InMemoryTransport: both dialects. */
import { afterAll, describe, expect, it } from "vitest";
import { opfsFileSystem, type OpfsFileSystem } from "../../src/backends/opfs/index.js";
import { connect } from "./client.js";

const ROOT = "test-mcp-opfs";
const open: OpfsFileSystem[] = [];

async function fresh(): Promise<OpfsFileSystem> {
  const origin = await navigator.storage.getDirectory();
  await origin.removeEntry(ROOT, { recursive: true }).catch((error: unknown) => {
    if (!(error instanceof DOMException && error.name === "NotFoundError")) throw error;
  });
  const fs = opfsFileSystem({ root: `/${ROOT}`, worker: false });
  open.push(fs);
  await fs.writeFile("/w/a.txt", new TextEncoder().encode("one\ntwo\n"));
  await fs.writeFile("/secret.txt", new TextEncoder().encode("SECRET"));
  return fs;
}

afterAll(async () => {
  for (const fs of open) await fs.close();
});

describe("MCP server on OPFS over InMemoryTransport", () => {
  it("better-fs-tools dialect: read, edit, glob; a path outside is an isError result", async () => {
    const fs = await fresh();
    const mcp = await connect({ fs, cwd: "/w" });
    expect(await mcp.text("read", { path: "a.txt" })).toBe("1|one\n2|two");
    expect(await mcp.text("edit", { path: "a.txt", oldText: "two", newText: "TWO" })).toBe(
      "replaced 1 occurrence in a.txt at line 2",
    );
    expect(new TextDecoder().decode(await fs.readFile("/w/a.txt"))).toBe("one\nTWO\n");
    expect(await mcp.text("glob", { pattern: "*.txt" })).toBe("a.txt");
    const outside = await mcp.call("read", { path: "/secret.txt" });
    expect(outside.isError).toBe(true);
    expect(JSON.stringify(outside.content)).not.toContain("SECRET");
  });

  it("filesystem-server dialect: write_file, edit_file dryRun, search_files", async () => {
    const fs = await fresh();
    const mcp = await connect({ fs, cwd: "/w", dialect: "filesystem-server" });
    expect(await mcp.text("write_file", { path: "b.md", content: "# B\n" })).toBe("Successfully wrote to b.md");
    expect(await mcp.text("edit_file", { path: "b.md", edits: [{ oldText: "B", newText: "C" }], dryRun: true })).toBe(
      "```diff\nIndex: /w/b.md\n===================================================================\n" +
        "--- /w/b.md\toriginal\n+++ /w/b.md\tmodified\n@@ -1,1 +1,1 @@\n-# B\n+# C\n```\n\n",
    );
    expect(await mcp.text("search_files", { path: ".", pattern: "*" })).toBe("/w/a.txt\n/w/b.md");
    expect((await mcp.call("read_text_file", { path: "../secret.txt" })).isError).toBe(true);
  });
});

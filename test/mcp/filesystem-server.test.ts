/** The `filesystem-server` dialect through the SDK's Client, in memory: every tool with its exact output. */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { FILESYSTEM_SERVER_TOOL_NAMES } from "../../src/mcp/index.js";
import { connect } from "./client.js";

const fixture = () =>
  memoryFileSystem({
    files: {
      "/w/a.txt": "one\ntwo\nthree\n",
      "/w/src/b.ts": "export const b = 1;\n",
      "/w/src/deep/c.ts": "c",
      "/w/img.png": new Uint8Array([137, 80, 78, 71]),
      "/w/blob.bin": new Uint8Array([1, 2]),
      "/secret/key": "KEY",
    },
  });

const text = (value: string) => ({ content: [{ type: "text", text: value }], structuredContent: { content: value } });
const failure = (value: string) => ({ content: [{ type: "text", text: value }], isError: true });
/** The official server's refusal, word for word (no permissions config is named: the command line has none). */
const denied = (path: string) => `Access denied - path outside allowed directories: ${path} not in /w`;
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("filesystem-server dialect", () => {
  it("lists the official tool set; read-only keeps the tools that change nothing", async () => {
    const mcp = await connect({ fs: fixture(), cwd: "/w", dialect: "filesystem-server" });
    expect((await mcp.client.listTools()).tools.map((tool) => tool.name)).toEqual([...FILESYSTEM_SERVER_TOOL_NAMES]);
    const readOnly = await connect({ fs: fixture(), cwd: "/w", dialect: "filesystem-server", readOnly: true });
    expect((await readOnly.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "read_file",
      "read_text_file",
      "read_media_file",
      "read_multiple_files",
      "list_directory",
      "list_directory_with_sizes",
      "directory_tree",
      "search_files",
      "get_file_info",
      "list_allowed_directories",
    ]);
  });

  it("reads text whole, by head and by tail, and media as base64", async () => {
    const mcp = await connect({ fs: fixture(), cwd: "/w", dialect: "filesystem-server" });
    expect(await mcp.call("read_text_file", { path: "a.txt", head: 2 })).toEqual(text("one\ntwo"));
    expect(await mcp.call("read_text_file", { path: "/w/a.txt", tail: 2 })).toEqual(text("three\n"));
    expect(await mcp.call("read_file", { path: "a.txt" })).toEqual(text("one\ntwo\nthree\n"));
    expect(await mcp.call("read_text_file", { path: "a.txt", head: 1, tail: 1 })).toEqual(
      failure("Cannot specify both head and tail parameters simultaneously"),
    );
    const image = { type: "image", data: "iVBORw==", mimeType: "image/png" };
    expect(await mcp.call("read_media_file", { path: "img.png" })).toEqual({
      content: [image],
      structuredContent: { content: [image] },
    });
    const resource = {
      type: "resource",
      resource: { uri: "file:///w/blob.bin", mimeType: "application/octet-stream", blob: "AQI=" },
    };
    expect(await mcp.call("read_media_file", { path: "blob.bin" })).toEqual({
      content: [resource],
      structuredContent: { content: [resource] },
    });
    expect(await mcp.call("read_multiple_files", { paths: ["a.txt", "nope.txt", "/secret/key"] })).toEqual(
      text(
        "a.txt:\none\ntwo\nthree\n\n\n---\n" +
          "nope.txt: Error - ENOENT: no such file or directory, open '/w/nope.txt'\n---\n" +
          `/secret/key: Error - ${denied("/secret/key")}`,
      ),
    );
  });

  it("writes, edits with a diff (dryRun leaves the file), creates directories and moves", async () => {
    const fs = fixture();
    const mcp = await connect({ fs, cwd: "/w", dialect: "filesystem-server" });
    expect(await mcp.call("write_file", { path: "new.txt", content: "x\n" })).toEqual(
      text("Successfully wrote to new.txt"),
    );
    expect(decode(await fs.readFile("/w/new.txt"))).toBe("x\n");
    const header =
      "Index: /w/a.txt\n===================================================================\n--- /w/a.txt\toriginal\n+++ /w/a.txt\tmodified\n";
    expect(
      await mcp.call("edit_file", { path: "a.txt", edits: [{ oldText: "two", newText: "TWO" }], dryRun: true }),
    ).toEqual(text(`\`\`\`diff\n${header}@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n\`\`\`\n\n`));
    expect(decode(await fs.readFile("/w/a.txt"))).toBe("one\ntwo\nthree\n");
    expect(
      await mcp.call("edit_file", {
        path: "a.txt",
        edits: [
          { oldText: "two", newText: "TWO" },
          { oldText: "  three  ", newText: "3" },
        ],
      }),
    ).toEqual(text(`\`\`\`diff\n${header}@@ -1,3 +1,3 @@\n one\n-two\n-three\n+TWO\n+3\n\`\`\`\n\n`));
    expect(decode(await fs.readFile("/w/a.txt"))).toBe("one\nTWO\n3\n");
    expect(await mcp.call("edit_file", { path: "a.txt", edits: [{ oldText: "zzz", newText: "y" }] })).toEqual(
      failure("Could not find exact match for edit:\nzzz"),
    );
    expect(await mcp.call("create_directory", { path: "d/e" })).toEqual(text("Successfully created directory d/e"));
    expect((await fs.stat("/w/d/e")).type).toBe("directory");
    expect(await mcp.call("move_file", { source: "new.txt", destination: "d/moved.txt" })).toEqual(
      text("Successfully moved new.txt to d/moved.txt"),
    );
    expect(decode(await fs.readFile("/w/d/moved.txt"))).toBe("x\n");
    expect(await mcp.call("move_file", { source: "a.txt", destination: "d/moved.txt" })).toEqual(
      failure("Destination already exists: /w/d/moved.txt"),
    );
    expect(decode(await fs.readFile("/w/a.txt"))).toBe("one\nTWO\n3\n");
  });

  it("names the path in a backend failure the handler did not word itself (no empty prefix)", async () => {
    const fs = fixture();
    const mcp = await connect({ fs, cwd: "/w", dialect: "filesystem-server" });
    expect(await mcp.call("create_directory", { path: "a.txt/sub" })).toEqual(
      failure("ENOTDIR: not a directory, realpath '/w/a.txt/sub'"),
    );
    expect(decode(await fs.readFile("/w/a.txt"))).toBe("one\ntwo\nthree\n");
  });

  it("lists, lists with sizes, builds the tree, searches, gives file info and the allowed directories", async () => {
    const fs = fixture();
    const mcp = await connect({ fs, cwd: "/w", dialect: "filesystem-server" });
    expect(await mcp.call("list_directory", { path: "." })).toEqual(
      text("[FILE] a.txt\n[FILE] blob.bin\n[FILE] img.png\n[DIR] src"),
    );
    expect(await mcp.call("list_directory_with_sizes", { path: "/w", sortBy: "size" })).toEqual(
      text(
        [
          `[FILE] ${"a.txt".padEnd(30)} ${"14 B".padStart(10)}`,
          `[FILE] ${"img.png".padEnd(30)} ${"4 B".padStart(10)}`,
          `[FILE] ${"blob.bin".padEnd(30)} ${"2 B".padStart(10)}`,
          `[DIR] ${"src".padEnd(30)} `,
          "",
          "Total: 3 files, 1 directories",
          "Combined size: 20 B",
        ].join("\n"),
      ),
    );
    expect(await mcp.call("directory_tree", { path: "src", excludePatterns: ["deep"] })).toEqual(
      text(JSON.stringify([{ name: "b.ts", type: "file" }], null, 2)),
    );
    expect(await mcp.call("directory_tree", { path: "src" })).toEqual(
      text(
        JSON.stringify(
          [
            { name: "b.ts", type: "file" },
            { name: "deep", type: "directory", children: [{ name: "c.ts", type: "file" }] },
          ],
          null,
          2,
        ),
      ),
    );
    expect(await mcp.call("search_files", { path: ".", pattern: "**/*.ts" })).toEqual(
      text("/w/src/b.ts\n/w/src/deep/c.ts"),
    );
    expect(await mcp.call("search_files", { path: ".", pattern: "**/*.ts", excludePatterns: ["src/deep/**"] })).toEqual(
      text("/w/src/b.ts"),
    );
    expect(await mcp.call("search_files", { path: ".", pattern: "*.md" })).toEqual(text("No matches found"));
    const stat = await fs.stat("/w/a.txt");
    const date = String(new Date(stat.mtimeMs));
    expect(await mcp.call("get_file_info", { path: "a.txt" })).toEqual(
      text(
        `size: 14\ncreated: ${date}\nmodified: ${date}\naccessed: ${date}\nisDirectory: false\nisFile: true\n` +
          `permissions: ${stat.mode!.toString(8).slice(-3)}`,
      ),
    );
    expect(await mcp.call("list_allowed_directories")).toEqual(text("Allowed directories:\n/w"));
  });

  it("refuses paths outside the allowed directories as isError results, changing nothing", async () => {
    const fs = fixture();
    const mcp = await connect({ fs, cwd: "/w", dialect: "filesystem-server" });
    expect(await mcp.call("read_text_file", { path: "/secret/key" })).toEqual(failure(denied("/secret/key")));
    expect(await mcp.call("write_file", { path: "../secret/key", content: "x" })).toEqual(
      failure(denied("/secret/key")),
    );
    expect(await mcp.call("move_file", { source: "a.txt", destination: "/secret/a.txt" })).toEqual(
      failure(denied("/secret/a.txt")),
    );
    expect(await mcp.call("search_files", { path: "/secret", pattern: "**" })).toEqual(failure(denied("/secret")));
    expect(decode(await fs.readFile("/secret/key"))).toBe("KEY");
    expect(decode(await fs.readFile("/w/a.txt"))).toBe("one\ntwo\nthree\n");
  });
});

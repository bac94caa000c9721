/** MCP roots: URIs to paths, narrowing, and a client's roots changes narrowing a live server. */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { narrowRoots, rootPathOf } from "../../src/mcp/index.js";
import { connect } from "./client.js";

describe("rootPathOf", () => {
  it.each([
    ["file:///home/me/project", "/home/me/project"],
    ["file://localhost/w", "/w"],
    ["file:///a%20b/../c", "/c"],
    ["file:///w/", "/w"],
    ["https://example.com/x", undefined],
    ["file://other-host/w", undefined],
    ["file:///w%00x", undefined],
    ["not a uri", undefined],
  ])("%s → %s", (uri, path) => {
    expect(rootPathOf(uri)).toBe(path);
  });
});

describe("narrowRoots", () => {
  it("keeps client roots inside server roots, server roots inside client roots, nothing else", () => {
    expect(narrowRoots(["/w"], ["/w/src", "/etc"])).toEqual(["/w/src"]);
    expect(narrowRoots(["/w/a", "/w/b"], ["/w"])).toEqual(["/w/a", "/w/b"]);
    expect(narrowRoots(["/w"], ["/w-evil"])).toEqual([]);
    expect(narrowRoots(["/w"], ["/w/src", "/w/src/deep"])).toEqual(["/w/src"]);
  });
});

describe("client roots narrow a live server", () => {
  const fs = () => memoryFileSystem({ files: { "/w/a/x.txt": "x", "/w/b/y.txt": "y", "/etc/passwd": "root" } });

  for (const dialect of ["better-fs-tools", "filesystem-server"] as const) {
    const read = dialect === "filesystem-server" ? "read_text_file" : "read";
    it(`${dialect}: roots at start, then roots/list_changed`, async () => {
      const mcp = await connect({ fs: fs(), cwd: "/w", dialect }, { roots: ["file:///w/a"] });
      expect((await mcp.call(read, { path: "/w/a/x.txt" })).isError).toBeUndefined();
      expect((await mcp.call(read, { path: "/w/b/y.txt" })).isError).toBe(true);
      await mcp.setRoots(["file:///w/b", "file:///etc"]);
      expect((await mcp.call(read, { path: "/w/b/y.txt" })).isError).toBeUndefined();
      expect((await mcp.call(read, { path: "/w/a/x.txt" })).isError).toBe(true);
      // A client root outside the server's roots never widens them.
      expect((await mcp.call(read, { path: "/etc/passwd" })).isError).toBe(true);
      // A missing directory or a file offered as a root is skipped: no usable root keeps the server's.
      await mcp.setRoots(["file:///elsewhere", "file:///w/b/y.txt"]);
      expect((await mcp.call(read, { path: "/w/a/x.txt" })).isError).toBeUndefined();
      await mcp.setRoots(["file:///etc"]);
      expect(await mcp.text(read, { path: "/w/b/y.txt" })).toBe(
        "EACCES: no allowed directory: the client's MCP roots share nothing with the server's (/w). " +
          "List one of those directories, or a directory inside one, as a root.",
      );
      await mcp.setRoots([]);
      expect((await mcp.call(read, { path: "/w/a/x.txt" })).isError).toBeUndefined();
    });
  }

  it("list_allowed_directories shows the narrowed roots", async () => {
    const mcp = await connect(
      { fs: fs(), cwd: "/w", dialect: "filesystem-server" },
      { roots: ["file:///w/b", "file:///w/a"] },
    );
    expect(await mcp.text("list_allowed_directories")).toBe("Allowed directories:\n/w/a\n/w/b");
  });

  it("clientRoots: false ignores the client's roots", async () => {
    const mcp = await connect(
      { fs: fs(), cwd: "/w", dialect: "filesystem-server", clientRoots: false },
      { roots: ["file:///w/a"] },
    );
    expect(await mcp.text("list_allowed_directories")).toBe("Allowed directories:\n/w");
  });
});

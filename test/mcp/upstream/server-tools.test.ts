/**
 * Port of upstream `server-tools.test.ts` (the characterization suite of every tool) to stdio:
 * one server per file over one directory, emptied before each test. Left out: the tests that
 * mock the server's own `fs` module (a stdio client cannot reach into the server process) and
 * those that pin the newer upstream's identity and `$schema` (not in the pinned 2026.8.31).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, connect, emptyDir, makeTempDir, textOf, type Connected } from "./harness.js";

const TOOL_NAMES = [
  "read_file",
  "read_text_file",
  "read_media_file",
  "read_multiple_files",
  "write_file",
  "edit_file",
  "create_directory",
  "list_directory",
  "list_directory_with_sizes",
  "directory_tree",
  "move_file",
  "search_files",
  "get_file_info",
  "list_allowed_directories",
];

interface TreeEntry {
  name: string;
  type: "file" | "directory";
  children?: TreeEntry[];
}

function sortTree(entries: TreeEntry[]): TreeEntry[] {
  return [...entries]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((entry) => (entry.children ? { ...entry, children: sortTree(entry.children) } : entry));
}

let dir: string;
let conn: Connected;
let client: Client;

beforeAll(async () => {
  dir = await makeTempDir("mcp-fs-tools-");
  conn = await connect([dir]);
  client = conn.client;
});

beforeEach(() => emptyDir(dir));

afterAll(async () => {
  await conn.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe("server identity and tool list", () => {
  it("lists the 14 tools in registration order", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
  });

  it("pins each tool's title and annotations (#3402)", async () => {
    const { tools } = await client.listTools();
    const table = Object.fromEntries(tools.map((t) => [t.name, { title: t.title, ...t.annotations }]));
    const readOnly = { readOnlyHint: true, openWorldHint: false };
    expect(table).toEqual({
      read_file: { title: "Read File (Deprecated)", ...readOnly },
      read_text_file: { title: "Read Text File", ...readOnly },
      read_media_file: { title: "Read Media File", ...readOnly },
      read_multiple_files: { title: "Read Multiple Files", ...readOnly },
      write_file: {
        title: "Write File",
        readOnlyHint: false,
        idempotentHint: true,
        destructiveHint: true,
        openWorldHint: false,
      },
      edit_file: {
        title: "Edit File",
        readOnlyHint: false,
        idempotentHint: false,
        destructiveHint: true,
        openWorldHint: false,
      },
      create_directory: {
        title: "Create Directory",
        readOnlyHint: false,
        idempotentHint: true,
        destructiveHint: false,
        openWorldHint: false,
      },
      list_directory: { title: "List Directory", ...readOnly },
      list_directory_with_sizes: { title: "List Directory with Sizes", ...readOnly },
      directory_tree: { title: "Directory Tree", ...readOnly },
      move_file: {
        title: "Move File",
        readOnlyHint: false,
        idempotentHint: false,
        destructiveHint: true,
        openWorldHint: false,
      },
      search_files: { title: "Search Files", ...readOnly },
      get_file_info: { title: "Get File Info", ...readOnly },
      list_allowed_directories: { title: "List Allowed Directories", ...readOnly },
    });
  });

  it("pins the input schemas a client is shown", async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const strip = (schema: Record<string, unknown>) => {
      const { $schema: _dialect, ...rest } = schema;
      return rest;
    };
    expect(strip(byName.read_text_file!.inputSchema)).toEqual({
      type: "object",
      properties: {
        path: { type: "string" },
        tail: { type: "number", description: "If provided, returns only the last N lines of the file" },
        head: { type: "number", description: "If provided, returns only the first N lines of the file" },
      },
      required: ["path"],
    });
    expect(strip(byName.edit_file!.inputSchema)).toEqual({
      type: "object",
      properties: {
        path: { type: "string" },
        edits: {
          type: "array",
          items: {
            type: "object",
            properties: {
              oldText: { type: "string", description: "Text to search for - must match exactly" },
              newText: { type: "string", description: "Text to replace with" },
            },
            required: ["oldText", "newText"],
          },
        },
        dryRun: { type: "boolean", default: false, description: "Preview changes using git-style diff format" },
      },
      required: ["path", "edits"],
    });
    expect(strip(byName.list_allowed_directories!.inputSchema)).toEqual({ type: "object", properties: {} });
    expect(strip(byName.write_file!.outputSchema!)).toEqual({
      type: "object",
      properties: { content: { type: "string" } },
      required: ["content"],
      additionalProperties: false,
    });
  });

  it("advertises read_media_file's union outputSchema with every arm (#4029)", async () => {
    const { tools } = await client.listTools();
    const schema = JSON.stringify(tools.find((t) => t.name === "read_media_file")?.outputSchema);
    expect(schema).toMatch(/"image"/);
    expect(schema).toMatch(/"audio"/);
    expect(schema).toMatch(/"resource"/);
  });

  it("returns every non-media tool's structuredContent as { content: string } mirroring the text block (#3110, #3106, #3093)", async () => {
    await fs.writeFile(path.join(dir, "a.txt"), "alpha");
    const calls: Array<[string, Record<string, unknown>]> = [
      ["read_file", { path: path.join(dir, "a.txt") }],
      ["read_text_file", { path: path.join(dir, "a.txt") }],
      ["read_multiple_files", { paths: [path.join(dir, "a.txt")] }],
      ["write_file", { path: path.join(dir, "b.txt"), content: "beta" }],
      ["edit_file", { path: path.join(dir, "b.txt"), edits: [{ oldText: "beta", newText: "gamma" }] }],
      ["create_directory", { path: path.join(dir, "sub") }],
      ["list_directory", { path: dir }],
      ["list_directory_with_sizes", { path: dir }],
      ["directory_tree", { path: dir }],
      ["move_file", { source: path.join(dir, "b.txt"), destination: path.join(dir, "c.txt") }],
      ["search_files", { path: dir, pattern: "*.txt" }],
      ["get_file_info", { path: path.join(dir, "a.txt") }],
      ["list_allowed_directories", {}],
    ];
    for (const [name, args] of calls) {
      const result = await call(client, name, args);
      expect(result.isError, name).toBeFalsy();
      expect(result.structuredContent, name).toEqual({ content: textOf(result) });
    }
  });

  it("reports an unknown tool as a tool error", async () => {
    const result = await call(client, "no_such_tool");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("MCP error -32602: Tool no_such_tool not found");
  });

  it("reports schema-invalid arguments as a tool error", async () => {
    const result = await call(client, "read_text_file", { path: 42 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^MCP error -32602: Input validation error: Invalid arguments for tool read_text_file/,
    );
  });
});

describe("read_text_file and read_file", () => {
  let file: string;

  beforeEach(async () => {
    file = path.join(dir, "lines.txt");
    await fs.writeFile(file, "one\ntwo\nthree\nfour\n");
  });

  it("returns the whole file", async () => {
    expect(await call(client, "read_text_file", { path: file })).toEqual({
      content: [{ type: "text", text: "one\ntwo\nthree\nfour\n" }],
      structuredContent: { content: "one\ntwo\nthree\nfour\n" },
    });
  });

  it("read_file is a deprecated alias with the same result", async () => {
    const legacy = await call(client, "read_file", { path: file, head: 1 });
    expect(legacy).toEqual(await call(client, "read_text_file", { path: file, head: 1 }));
  });

  it("returns the first N lines with head", async () => {
    expect(textOf(await call(client, "read_text_file", { path: file, head: 2 }))).toBe("one\ntwo");
  });

  it("returns the last N lines with tail, counting the trailing newline as a line", async () => {
    expect(textOf(await call(client, "read_text_file", { path: file, tail: 2 }))).toBe("four\n");
  });

  it("treats head: 0 as absent and returns the whole file", async () => {
    expect(textOf(await call(client, "read_text_file", { path: file, head: 0 }))).toBe("one\ntwo\nthree\nfour\n");
  });

  it("rejects head and tail together", async () => {
    const result = await call(client, "read_text_file", { path: file, head: 1, tail: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Cannot specify both head and tail parameters simultaneously");
  });

  it("reports a missing file as a tool error naming ENOENT", async () => {
    const missing = path.join(dir, "missing.txt");
    const result = await call(client, "read_text_file", { path: missing });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`ENOENT: no such file or directory, open '${missing}'`);
  });

  it("reads an empty file with tail as empty text", async () => {
    const empty = path.join(dir, "empty.txt");
    await fs.writeFile(empty, "");
    expect(textOf(await call(client, "read_text_file", { path: empty, tail: 3 }))).toBe("");
  });
});

describe("read_media_file", () => {
  const cases: Array<[string, string, "image" | "audio"]> = [
    ["a.png", "image/png", "image"],
    ["a.jpg", "image/jpeg", "image"],
    ["a.JPEG", "image/jpeg", "image"],
    ["a.gif", "image/gif", "image"],
    ["a.webp", "image/webp", "image"],
    ["a.bmp", "image/bmp", "image"],
    ["a.svg", "image/svg+xml", "image"],
    ["a.mp3", "audio/mpeg", "audio"],
    ["a.wav", "audio/wav", "audio"],
    ["a.ogg", "audio/ogg", "audio"],
    ["a.flac", "audio/flac", "audio"],
  ];

  it.each(cases)("returns %s as a %s %s block, round-tripping the bytes", async (name, mimeType, type) => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    await fs.writeFile(path.join(dir, name), bytes);
    const result = await call(client, "read_media_file", { path: path.join(dir, name) });
    const block = { type, data: bytes.toString("base64"), mimeType };
    expect(result).toEqual({ content: [block], structuredContent: { content: [block] } });
  });

  it("returns any other file as an embedded resource with a pathToFileURL uri, never a blob block (#4029)", async () => {
    const bytes = Buffer.from([0x00, 0x01, 0xfe, 0xff]);
    const file = path.join(dir, "my café.bin");
    await fs.writeFile(file, bytes);
    const result = await call(client, "read_media_file", { path: file });
    const [block] = result.content;
    expect(block?.type).toBe("resource");
    if (block?.type !== "resource") return;
    expect(block.resource.mimeType).toBe("application/octet-stream");
    expect(block.resource.uri).toMatch(/^file:\/\/.*%20.*(%C3%A9|%CC%81)/);
    expect(fileURLToPath(block.resource.uri)).toBe(file);
    expect("blob" in block.resource && block.resource.blob).toBe(bytes.toString("base64"));
    expect(result.structuredContent).toEqual({ content: result.content });
  });

  it("reports a read failure (a directory) as a tool error", async () => {
    await fs.mkdir(path.join(dir, "folder.png"));
    const result = await call(client, "read_media_file", { path: path.join(dir, "folder.png") });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("EISDIR: illegal operation on a directory, read");
  });
});

describe("read_multiple_files", () => {
  it("joins each file's content with its path, and reports per-file failures inline", async () => {
    const a = path.join(dir, "a.txt");
    const b = path.join(dir, "b.txt");
    const missing = path.join(dir, "missing.txt");
    await fs.writeFile(a, "alpha");
    await fs.writeFile(b, "beta");
    const result = await call(client, "read_multiple_files", { paths: [a, missing, b, "/etc/hostname"] });
    expect(result.isError).toBeFalsy();
    expect(textOf(result).split("\n---\n")).toEqual([
      `${a}:\nalpha\n`,
      `${missing}: Error - ENOENT: no such file or directory, open '${missing}'`,
      `${b}:\nbeta\n`,
      `/etc/hostname: Error - Access denied - path outside allowed directories: /etc/hostname not in ${dir}`,
    ]);
  });

  it("rejects an empty paths array at input validation", async () => {
    const result = await call(client, "read_multiple_files", { paths: [] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Input validation error/);
  });
});

describe("write_file", () => {
  it("creates a new file", async () => {
    const file = path.join(dir, "new.txt");
    expect(await call(client, "write_file", { path: file, content: "hello" })).toEqual({
      content: [{ type: "text", text: `Successfully wrote to ${file}` }],
      structuredContent: { content: `Successfully wrote to ${file}` },
    });
    expect(await fs.readFile(file, "utf-8")).toBe("hello");
  });

  it("echoes the requested path, not the resolved one, in its message", async () => {
    const result = await call(client, "write_file", { path: "relative.txt", content: "x" });
    expect(textOf(result)).toBe("Successfully wrote to relative.txt");
    expect(await fs.readFile(path.join(dir, "relative.txt"), "utf-8")).toBe("x");
  });

  it("keeps the permission bits on overwrite (#4512)", async () => {
    const file = path.join(dir, "existing.txt");
    await fs.writeFile(file, "old");
    await fs.chmod(file, 0o640);
    await call(client, "write_file", { path: file, content: "new" });
    expect(await fs.readFile(file, "utf-8")).toBe("new");
    expect((await fs.stat(file)).mode & 0o777).toBe(0o640);
  });

  it("truncates the old content when the new content is shorter", async () => {
    const file = path.join(dir, "existing.txt");
    await fs.writeFile(file, "a much longer original");
    await call(client, "write_file", { path: file, content: "short" });
    expect(await fs.readFile(file, "utf-8")).toBe("short");
  });

  it("writes through a symlink inside the allowed directory to its target", async () => {
    const target = path.join(dir, "target.txt");
    const link = path.join(dir, "link.txt");
    await fs.writeFile(target, "before");
    await fs.symlink(target, link);
    await call(client, "write_file", { path: link, content: "after" });
    expect(await fs.readFile(target, "utf-8")).toBe("after");
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);
  });

  it("reports a missing parent directory as ENOENT, creating nothing", async () => {
    const file = path.join(dir, "no", "such", "file.txt");
    const result = await call(client, "write_file", { path: file, content: "x" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`ENOENT: no such file or directory, open '${file}'`);
    expect(await fs.readdir(dir)).toEqual([]);
  });
});

describe("edit_file", () => {
  let file: string;

  beforeEach(async () => {
    file = path.join(dir, "code.ts");
    await fs.writeFile(file, "function greet() {\n  console.log('hi');\n  return 1;\n}\n");
  });

  it("applies an exact edit and returns a fenced unified diff", async () => {
    const result = await call(client, "edit_file", {
      path: file,
      edits: [{ oldText: "return 1;", newText: "return 2;" }],
    });
    expect(textOf(result)).toBe(
      "```diff\n" +
        `Index: ${file}\n` +
        "===================================================================\n" +
        `--- ${file}\toriginal\n` +
        `+++ ${file}\tmodified\n` +
        "@@ -1,4 +1,4 @@\n" +
        " function greet() {\n" +
        "   console.log('hi');\n" +
        "-  return 1;\n" +
        "+  return 2;\n" +
        " }\n" +
        "```\n\n",
    );
    expect(await fs.readFile(file, "utf-8")).toContain("return 2;");
  });

  it("leaves the file alone on a dry run", async () => {
    const result = await call(client, "edit_file", {
      path: file,
      edits: [{ oldText: "return 1;", newText: "return 2;" }],
      dryRun: true,
    });
    expect(textOf(result)).toContain("+  return 2;");
    expect(await fs.readFile(file, "utf-8")).toContain("return 1;");
  });

  it("applies several edits in order, each against the previous result", async () => {
    await call(client, "edit_file", {
      path: file,
      edits: [
        { oldText: "return 1;", newText: "return 2;" },
        { oldText: "return 2;", newText: "return 3;" },
      ],
    });
    expect(await fs.readFile(file, "utf-8")).toContain("return 3;");
  });

  it("replaces only the first occurrence of an exact match", async () => {
    await fs.writeFile(file, "x\nx\n");
    await call(client, "edit_file", { path: file, edits: [{ oldText: "x", newText: "y" }] });
    expect(await fs.readFile(file, "utf-8")).toBe("y\nx\n");
  });

  it("inserts $ patterns in newText literally", async () => {
    await call(client, "edit_file", { path: file, edits: [{ oldText: "return 1;", newText: "return '$&$1$$';" }] });
    expect(await fs.readFile(file, "utf-8")).toContain("return '$&$1$$';");
  });

  it("reports an edit with no match, quoting its oldText", async () => {
    const result = await call(client, "edit_file", { path: file, edits: [{ oldText: "return 9;", newText: "x" }] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Could not find exact match for edit:\nreturn 9;");
  });

  it("widens the diff fence when the diff itself contains backticks", async () => {
    await fs.writeFile(file, "a\n");
    const text = textOf(await call(client, "edit_file", { path: file, edits: [{ oldText: "a", newText: "````" }] }));
    expect(text.startsWith("`````diff\n")).toBe(true);
    expect(text.endsWith("`````\n\n")).toBe(true);
  });

  describe("whitespace-tolerant matcher (#2034)", () => {
    it("keeps the file's indentation when oldText indents with a different width", async () => {
      await fs.writeFile(file, "    if (a) {\n        b();\n    }\n");
      await call(client, "edit_file", {
        path: file,
        edits: [{ oldText: "if (a) {\n  b();\n}", newText: "if (a) {\n  c();\n}" }],
      });
      expect(await fs.readFile(file, "utf-8")).toBe("    if (a) {\n    c();\n}\n");
    });

    it("keeps a blank replacement line as given", async () => {
      await fs.writeFile(file, "  a\n  b\n");
      await call(client, "edit_file", { path: file, edits: [{ oldText: "a\nb", newText: "a\n\nb" }] });
      expect(await fs.readFile(file, "utf-8")).toBe("  a\n\nb\n");
    });

    it("reports no match when a line differs beyond whitespace", async () => {
      const result = await call(client, "edit_file", {
        path: file,
        edits: [{ oldText: "console.log('hi');\nreturn 2;", newText: "x" }],
      });
      expect(result.isError).toBe(true);
    });
  });

  it("keeps the permission bits on edit (#4512)", async () => {
    await fs.chmod(file, 0o600);
    await call(client, "edit_file", { path: file, edits: [{ oldText: "return 1;", newText: "return 2;" }] });
    expect(await fs.readFile(file, "utf-8")).toContain("return 2;");
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe("create_directory", () => {
  it("creates nested directories in one call (#4629)", async () => {
    const target = path.join(dir, "a", "b", "c");
    expect(textOf(await call(client, "create_directory", { path: target }))).toBe(
      `Successfully created directory ${target}`,
    );
    expect((await fs.stat(target)).isDirectory()).toBe(true);
  });

  it("succeeds on an existing directory", async () => {
    expect((await call(client, "create_directory", { path: dir })).isError).toBeFalsy();
  });

  it("reports an existing file in the way", async () => {
    await fs.writeFile(path.join(dir, "file"), "");
    const result = await call(client, "create_directory", { path: path.join(dir, "file") });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`EEXIST: file already exists, mkdir '${path.join(dir, "file")}'`);
  });
});

describe("list_directory", () => {
  it("lists entries with [DIR] and [FILE] prefixes", async () => {
    await fs.mkdir(path.join(dir, "sub"));
    await fs.writeFile(path.join(dir, "f.txt"), "");
    const result = await call(client, "list_directory", { path: dir });
    expect(textOf(result).split("\n").sort()).toEqual(["[DIR] sub", "[FILE] f.txt"]);
  });

  it("returns empty text for an empty directory", async () => {
    expect(textOf(await call(client, "list_directory", { path: dir }))).toBe("");
  });

  it("reports a file path as ENOTDIR", async () => {
    await fs.writeFile(path.join(dir, "f.txt"), "");
    const result = await call(client, "list_directory", { path: path.join(dir, "f.txt") });
    expect(textOf(result)).toBe(`ENOTDIR: not a directory, scandir '${path.join(dir, "f.txt")}'`);
  });
});

describe("list_directory_with_sizes", () => {
  beforeEach(async () => {
    await fs.writeFile(path.join(dir, "b.txt"), "x".repeat(2048));
    await fs.writeFile(path.join(dir, "a.txt"), "xy");
    await fs.mkdir(path.join(dir, "c"));
  });

  it("sorts by name by default and appends a summary", async () => {
    expect(textOf(await call(client, "list_directory_with_sizes", { path: dir }))).toBe(
      [
        `[FILE] ${"a.txt".padEnd(30)} ${"2 B".padStart(10)}`,
        `[FILE] ${"b.txt".padEnd(30)} ${"2.00 KB".padStart(10)}`,
        `[DIR] ${"c".padEnd(30)} `,
        "",
        "Total: 2 files, 1 directories",
        "Combined size: 2.00 KB",
      ].join("\n"),
    );
  });

  it("sorts by size, largest first, when asked", async () => {
    const files = textOf(await call(client, "list_directory_with_sizes", { path: dir, sortBy: "size" }))
      .split("\n")
      .filter((line) => line.startsWith("[FILE]"))
      .map((line) => line.split(/\s+/)[1]);
    expect(files).toEqual(["b.txt", "a.txt"]);
  });

  it("lists an entry it cannot stat (a dangling symlink) as size 0", async () => {
    await fs.symlink(path.join(dir, "gone"), path.join(dir, "dangling"));
    const text = textOf(await call(client, "list_directory_with_sizes", { path: dir }));
    expect(text).toContain(`[FILE] ${"dangling".padEnd(30)} ${"0 B".padStart(10)}`);
    expect(text).toContain("Total: 3 files, 1 directories");
  });

  it("summarizes an empty directory", async () => {
    expect(textOf(await call(client, "list_directory_with_sizes", { path: path.join(dir, "c") }))).toBe(
      "\nTotal: 0 files, 0 directories\nCombined size: 0 B",
    );
  });
});

describe("directory_tree", () => {
  beforeEach(async () => {
    await fs.mkdir(path.join(dir, "src"));
    await fs.mkdir(path.join(dir, "node_modules"));
    await fs.mkdir(path.join(dir, ".git"));
    await fs.mkdir(path.join(dir, "nested", "node_modules"), { recursive: true });
    await fs.writeFile(path.join(dir, ".env"), "");
    await fs.writeFile(path.join(dir, ".env.local"), "");
    await fs.writeFile(path.join(dir, "src", "index.js"), "");
    await fs.writeFile(path.join(dir, "package.json"), "{}");
    await fs.writeFile(path.join(dir, "node_modules", "m.js"), "");
    await fs.writeFile(path.join(dir, "nested", "node_modules", "d.js"), "");
  });

  async function tree(excludePatterns?: string[], root: string = dir): Promise<TreeEntry[]> {
    const result = await call(client, "directory_tree", {
      path: root,
      ...(excludePatterns ? { excludePatterns } : {}),
    });
    return sortTree(JSON.parse(textOf(result)) as TreeEntry[]);
  }

  it("returns the whole tree as 2-space-indented JSON; directories always carry children", async () => {
    expect(textOf(await call(client, "directory_tree", { path: path.join(dir, "src") }))).toBe(
      '[\n  {\n    "name": "index.js",\n    "type": "file"\n  }\n]',
    );
    expect(await tree()).toEqual([
      { name: ".env", type: "file" },
      { name: ".env.local", type: "file" },
      { name: ".git", type: "directory", children: [] },
      {
        name: "nested",
        type: "directory",
        children: [{ name: "node_modules", type: "directory", children: [{ name: "d.js", type: "file" }] }],
      },
      { name: "node_modules", type: "directory", children: [{ name: "m.js", type: "file" }] },
      { name: "package.json", type: "file" },
      { name: "src", type: "directory", children: [{ name: "index.js", type: "file" }] },
    ]);
  });

  it("excludes a bare name at any depth, and not its prefix matches", async () => {
    expect((await tree(["node_modules", ".env"])).map((e) => e.name)).toEqual([
      ".env.local",
      ".git",
      "nested",
      "package.json",
      "src",
    ]);
    expect((await tree(["node_modules"])).find((e) => e.name === "nested")?.children).toEqual([]);
  });

  it("matches a glob pattern against the relative path only", async () => {
    const names = (await tree(["*.env"])).map((e) => e.name);
    expect(names).not.toContain(".env");
    expect(names).toContain(".env.local");
    expect((await tree(["*.js"])).find((e) => e.name === "src")?.children).toEqual([
      { name: "index.js", type: "file" },
    ]);
  });

  it("lists a symlinked directory as a file and does not descend into it", async () => {
    await fs.symlink(path.join(dir, "src"), path.join(dir, "srclink"));
    expect((await tree()).find((e) => e.name === "srclink")).toEqual({ name: "srclink", type: "file" });
  });

  it("refuses a root outside the allowed directories", async () => {
    const result = await call(client, "directory_tree", { path: "/" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Access denied - path outside allowed directories: / not in ${dir}`);
  });
});

describe("move_file", () => {
  it("moves a file and reports the requested paths", async () => {
    const source = path.join(dir, "a.txt");
    const destination = path.join(dir, "b.txt");
    await fs.writeFile(source, "a");
    expect(textOf(await call(client, "move_file", { source, destination }))).toBe(
      `Successfully moved ${source} to ${destination}`,
    );
    expect(await fs.readFile(destination, "utf-8")).toBe("a");
    await expect(fs.stat(source)).rejects.toThrow();
  });

  it("moves a directory", async () => {
    await fs.mkdir(path.join(dir, "d1"));
    await fs.writeFile(path.join(dir, "d1", "f"), "x");
    await call(client, "move_file", { source: path.join(dir, "d1"), destination: path.join(dir, "d2") });
    expect(await fs.readFile(path.join(dir, "d2", "f"), "utf-8")).toBe("x");
  });

  it("refuses to overwrite an existing destination", async () => {
    await fs.writeFile(path.join(dir, "a.txt"), "a");
    await fs.writeFile(path.join(dir, "b.txt"), "b");
    const result = await call(client, "move_file", {
      source: path.join(dir, "a.txt"),
      destination: path.join(dir, "b.txt"),
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Destination already exists: ${path.join(dir, "b.txt")}`);
    expect(await fs.readFile(path.join(dir, "b.txt"), "utf-8")).toBe("b");
  });

  it("refuses a destination outside the allowed directories", async () => {
    await fs.writeFile(path.join(dir, "a.txt"), "a");
    const result = await call(client, "move_file", {
      source: path.join(dir, "a.txt"),
      destination: "/tmp-outside-allowed/a.txt",
    });
    expect(textOf(result)).toBe(
      `Access denied - path outside allowed directories: /tmp-outside-allowed/a.txt not in ${dir}`,
    );
  });

  it("reports a missing source as ENOENT", async () => {
    const source = path.join(dir, "missing");
    const destination = path.join(dir, "b");
    const result = await call(client, "move_file", { source, destination });
    expect(textOf(result)).toBe(`ENOENT: no such file or directory, rename '${source}' -> '${destination}'`);
  });
});

describe("search_files", () => {
  beforeEach(async () => {
    await fs.mkdir(path.join(dir, "sub", "deeper"), { recursive: true });
    await fs.writeFile(path.join(dir, "top.txt"), "");
    await fs.writeFile(path.join(dir, "top.log"), "");
    await fs.writeFile(path.join(dir, "sub", "mid.txt"), "");
    await fs.writeFile(path.join(dir, "sub", "deeper", "low.txt"), "");
  });

  async function search(args: Record<string, unknown>): Promise<string[]> {
    return textOf(await call(client, "search_files", { path: dir, ...args }))
      .split("\n")
      .sort();
  }

  it("matches a bare glob against top-level entries only", async () => {
    expect(await search({ pattern: "*.txt" })).toEqual([path.join(dir, "top.txt")]);
  });

  it("recurses into subdirectories for a ** glob", async () => {
    expect(await search({ pattern: "**/*.txt" })).toEqual([
      path.join(dir, "sub", "deeper", "low.txt"),
      path.join(dir, "sub", "mid.txt"),
      path.join(dir, "top.txt"),
    ]);
  });

  it("matches directories as well as files", async () => {
    expect(await search({ pattern: "**/deeper" })).toEqual([path.join(dir, "sub", "deeper")]);
  });

  it("skips excluded paths and does not descend into them", async () => {
    expect(await search({ pattern: "**/*.txt", excludePatterns: ["sub"] })).toEqual([path.join(dir, "top.txt")]);
  });

  it('says "No matches found" when nothing matches', async () => {
    expect(textOf(await call(client, "search_files", { path: dir, pattern: "*.none" }))).toBe("No matches found");
  });

  it("silently skips a symlink that leaves the allowed directories", async () => {
    const outside = await makeTempDir("mcp-fs-outside-");
    try {
      await fs.writeFile(path.join(outside, "secret.txt"), "");
      await fs.symlink(outside, path.join(dir, "escape"));
      const found = await search({ pattern: "**/*" });
      expect(found).not.toContain(path.join(dir, "escape"));
      expect(found).toEqual([
        path.join(dir, "sub"),
        path.join(dir, "sub", "deeper"),
        path.join(dir, "sub", "deeper", "low.txt"),
        path.join(dir, "sub", "mid.txt"),
        path.join(dir, "top.log"),
        path.join(dir, "top.txt"),
      ]);
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });
});

describe("get_file_info", () => {
  it("reports a file's metadata as key: value lines", async () => {
    const file = path.join(dir, "f.txt");
    await fs.writeFile(file, "12345");
    await fs.chmod(file, 0o640);
    const lines = textOf(await call(client, "get_file_info", { path: file })).split("\n");
    expect(lines.map((l) => l.split(":")[0])).toEqual([
      "size",
      "created",
      "modified",
      "accessed",
      "isDirectory",
      "isFile",
      "permissions",
    ]);
    expect(lines[0]).toBe("size: 5");
    expect(lines[4]).toBe("isDirectory: false");
    expect(lines[5]).toBe("isFile: true");
    expect(lines[6]).toBe("permissions: 640");
    expect(lines[2]).toMatch(/^modified: \w{3} \w{3} \d{2} \d{4} /);
  });

  it("reports a directory", async () => {
    const text = textOf(await call(client, "get_file_info", { path: dir }));
    expect(text).toContain("isDirectory: true");
    expect(text).toContain("isFile: false");
  });
});

describe("list_allowed_directories", () => {
  it("lists the directories the server was built with", async () => {
    expect(textOf(await call(client, "list_allowed_directories"))).toBe(`Allowed directories:\n${dir}`);
  });
});

describe("two servers", () => {
  it("keep separate allow-lists (#4854)", async () => {
    const other = await makeTempDir("mcp-fs-other-");
    const second = await connect([other]);
    try {
      await fs.writeFile(path.join(dir, "mine.txt"), "mine");
      await fs.writeFile(path.join(other, "theirs.txt"), "theirs");
      expect(textOf(await call(second.client, "list_allowed_directories"))).toBe(`Allowed directories:\n${other}`);
      const crossed = await call(second.client, "read_text_file", { path: path.join(dir, "mine.txt") });
      expect(textOf(crossed)).toBe(
        `Access denied - path outside allowed directories: ${path.join(dir, "mine.txt")} not in ${other}`,
      );
      expect(textOf(await call(second.client, "read_text_file", { path: path.join(other, "theirs.txt") }))).toBe(
        "theirs",
      );
    } finally {
      await second.close();
      await fs.rm(other, { recursive: true, force: true });
    }
  });
});

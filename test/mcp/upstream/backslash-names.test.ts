/**
 * Names holding a backslash (not a port: upstream has no such test; written in the port's style,
 * so `UPSTREAM_SERVER=official` runs the same calls on the official server and both give these
 * texts). On a POSIX host a backslash is an ordinary byte of a name: `a\b.txt` is one file, and
 * `..\x` is a name, never `..`. Every tool reads, writes and lists such names, and a backslash
 * never acts as a separator: the attacks below (`..\..\etc\passwd`, `a\..\..\x`, `/` and `\`
 * mixed) stay inside the served directory as literal names, or are refused where a real `..`
 * name leads out, and nothing outside changes.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, connect, emptyDir, makeTempDir, textOf, type Connected } from "./harness.js";

let home: string;
let dir: string;
let conn: Connected;
let client: Client;

beforeAll(async () => {
  home = await makeTempDir("mcp-fs-backslash-");
  dir = path.join(home, "work");
  await fs.mkdir(dir);
  await fs.writeFile(path.join(home, "secret.txt"), "SECRET");
  conn = await connect([dir]);
  client = conn.client;
});

beforeEach(async () => {
  await emptyDir(dir);
  await fs.writeFile(path.join(dir, "a\\b.txt"), "backslash\n");
});

afterAll(async () => {
  await conn.close();
  await fs.rm(home, { recursive: true, force: true });
});

const text = async (name: string, args: Record<string, unknown>) => textOf(await call(client, name, args));
const names = async (at = dir) => (await fs.readdir(at)).sort();
/** Everything beside the served directory: it never changes. */
const outsideNow = async () => ({
  names: await names(home),
  secret: await fs.readFile(path.join(home, "secret.txt"), "utf8"),
});
const OUTSIDE = { names: ["secret.txt", "work"], secret: "SECRET" };

describe("a name with a backslash is an ordinary name", () => {
  it("reads it with read_text_file, read_file and read_multiple_files, relative or absolute", async () => {
    expect(await text("read_text_file", { path: "a\\b.txt" })).toBe("backslash\n");
    expect(await text("read_text_file", { path: `${dir}/a\\b.txt` })).toBe("backslash\n");
    expect(await text("read_text_file", { path: "a\\b.txt", head: 1 })).toBe("backslash");
    expect(await text("read_file", { path: "a\\b.txt" })).toBe("backslash\n");
    expect(await text("read_multiple_files", { paths: ["a\\b.txt", `${dir}/a\\b.txt`] })).toBe(
      `a\\b.txt:\nbackslash\n\n\n---\n${dir}/a\\b.txt:\nbackslash\n\n`,
    );
  });

  it("reads it with read_media_file", async () => {
    await fs.writeFile(path.join(dir, "p\\q.png"), Uint8Array.of(1, 2, 3));
    const result = await call(client, "read_media_file", { path: "p\\q.png" });
    expect(result.content).toEqual([{ type: "image", data: "AQID", mimeType: "image/png" }]);
  });

  it("writes, edits, makes and moves such names, one name each", async () => {
    expect(await text("write_file", { path: "c\\d.txt", content: "new" })).toBe("Successfully wrote to c\\d.txt");
    expect(await text("create_directory", { path: "e\\f" })).toBe("Successfully created directory e\\f");
    const edited = await text("edit_file", { path: "a\\b.txt", edits: [{ oldText: "backslash", newText: "edited" }] });
    expect(edited).toBe(
      [
        "```diff",
        "Index: " + `${dir}/a\\b.txt`,
        "===================================================================",
        `--- ${dir}/a\\b.txt\toriginal`,
        `+++ ${dir}/a\\b.txt\tmodified`,
        "@@ -1,1 +1,1 @@",
        "-backslash",
        "+edited",
        "```",
        "",
        "",
      ].join("\n"),
    );
    expect(await text("move_file", { source: "c\\d.txt", destination: "e\\f\\g.txt" })).toBe(
      "Successfully moved c\\d.txt to e\\f\\g.txt",
    );
    expect(await names()).toEqual(["a\\b.txt", "e\\f", "e\\f\\g.txt"]);
    expect((await fs.stat(path.join(dir, "e\\f"))).isDirectory()).toBe(true);
    expect(await fs.readFile(path.join(dir, "a\\b.txt"), "utf8")).toBe("edited\n");
    expect(await fs.readFile(path.join(dir, "e\\f\\g.txt"), "utf8")).toBe("new");
    expect(await outsideNow()).toEqual(OUTSIDE);
  });

  it("edit_file's diff names a non-ASCII or quoted name as written, not C-quoted", async () => {
    for (const name of ["caf\u00e9.txt", 'say "hi".txt']) {
      await fs.writeFile(path.join(dir, name), "one\n");
      const diff = await text("edit_file", { path: name, edits: [{ oldText: "one", newText: "two" }] });
      expect(diff.split("\n").slice(1, 5)).toEqual([
        `Index: ${dir}/${name}`,
        "===================================================================",
        `--- ${dir}/${name}\toriginal`,
        `+++ ${dir}/${name}\tmodified`,
      ]);
    }
  });

  it("lists it with list_directory, list_directory_with_sizes, directory_tree and search_files", async () => {
    await fs.mkdir(path.join(dir, "s\\t"));
    expect(await text("list_directory", { path: dir })).toBe("[FILE] a\\b.txt\n[DIR] s\\t");
    expect(await text("list_directory_with_sizes", { path: dir })).toBe(
      [
        `[FILE] ${"a\\b.txt".padEnd(30)} ${"10 B".padStart(10)}`,
        `[DIR] ${"s\\t".padEnd(30)} `,
        "",
        "Total: 1 files, 1 directories",
        "Combined size: 10 B",
      ].join("\n"),
    );
    expect(JSON.parse(await text("directory_tree", { path: dir }))).toEqual([
      { name: "a\\b.txt", type: "file" },
      { name: "s\\t", type: "directory", children: [] },
    ]);
    expect(await text("search_files", { path: dir, pattern: "*.txt" })).toBe(`${dir}/a\\b.txt`);
  });

  it("gives its metadata with get_file_info", async () => {
    const info = await text("get_file_info", { path: "a\\b.txt" });
    expect(info.split("\n").filter((line) => !/^(created|modified|accessed): /.test(line))).toEqual([
      "size: 10",
      "isDirectory: false",
      "isFile: true",
      "permissions: 644",
    ]);
  });
});

describe("a backslash never acts as a separator (attacks)", () => {
  const missing = (name: string) => `ENOENT: no such file or directory, open '${dir}/${name}'`;

  it("reads ..\\..\\etc\\passwd, a\\..\\..\\x and ..\\secret.txt as missing names inside", async () => {
    for (const name of ["..\\..\\etc\\passwd", "a\\..\\..\\secret.txt", "..\\secret.txt", "\\..\\secret.txt"]) {
      expect(await text("read_text_file", { path: name })).toBe(missing(name));
    }
    expect(await text("read_multiple_files", { paths: ["..\\secret.txt"] })).toBe(
      `..\\secret.txt: Error - ${missing("..\\secret.txt")}`,
    );
    expect(await text("get_file_info", { path: "..\\secret.txt" })).toBe(
      `ENOENT: no such file or directory, stat '${dir}/..\\secret.txt'`,
    );
    expect(await text("list_directory", { path: "..\\" })).toBe(
      `ENOENT: no such file or directory, scandir '${dir}/..\\'`,
    );
  });

  it("writes ..\\secret.txt and ..\\..\\etc\\passwd as new names inside, nothing outside", async () => {
    expect(await text("write_file", { path: "..\\secret.txt", content: "PWNED" })).toBe(
      "Successfully wrote to ..\\secret.txt",
    );
    expect(await text("write_file", { path: "..\\..\\etc\\passwd", content: "PWNED" })).toBe(
      "Successfully wrote to ..\\..\\etc\\passwd",
    );
    expect(await text("create_directory", { path: "..\\x" })).toBe("Successfully created directory ..\\x");
    expect(await text("move_file", { source: "a\\b.txt", destination: "..\\moved.txt" })).toBe(
      "Successfully moved a\\b.txt to ..\\moved.txt",
    );
    expect(await names()).toEqual(["..\\..\\etc\\passwd", "..\\moved.txt", "..\\secret.txt", "..\\x"]);
    expect(await outsideNow()).toEqual(OUTSIDE);
  });

  it("refuses / and \\ mixed where the `..` names lead out, in every tool", async () => {
    // `a\..` is one name; the two `..` after it climb out of the served directory.
    const out = "a\\../../../secret.txt";
    const denied = `Access denied - path outside allowed directories: ${home}/secret.txt not in ${dir}`;
    const deniedDir = `Access denied - path outside allowed directories: ${home} not in ${dir}`;
    expect(await text("read_text_file", { path: out })).toBe(denied);
    expect(await text("read_file", { path: out })).toBe(denied);
    expect(await text("read_media_file", { path: out })).toBe(denied);
    expect(await text("read_multiple_files", { paths: [out] })).toBe(`${out}: Error - ${denied}`);
    expect(await text("write_file", { path: out, content: "PWNED" })).toBe(denied);
    expect(await text("edit_file", { path: out, edits: [{ oldText: "SECRET", newText: "PWNED" }] })).toBe(denied);
    expect(await text("get_file_info", { path: out })).toBe(denied);
    expect(await text("move_file", { source: "a\\b.txt", destination: out })).toBe(denied);
    expect(await text("create_directory", { path: "a\\../../../x" })).toBe(
      `Access denied - path outside allowed directories: ${home}/x not in ${dir}`,
    );
    for (const tool of ["list_directory", "list_directory_with_sizes", "directory_tree"]) {
      expect(await text(tool, { path: "a\\../../.." })).toBe(deniedDir);
    }
    expect(await text("search_files", { path: "a\\../../..", pattern: "*" })).toBe(deniedDir);
    expect(await outsideNow()).toEqual(OUTSIDE);
    expect(await names()).toEqual(["a\\b.txt"]);
  });
});

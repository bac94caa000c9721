/**
 * Port of upstream `unicode-paths.test.ts`, `tail-head-real-fs.test.ts`, `path-validation` and
 * the symlink and parent-directory cases of `lib.test.ts` to stdio (the upstream files call
 * `validatePath`, `tailFile` and `headFile` in process; here the same cases go through the
 * tools), with the security cases of issue 24 as attacks: the umask, a served directory swapped
 * for a link, a deleted served directory. Left out: the tail cases that pin the newer
 * upstream's trailing-newline rule (the pinned 2026.8.31 counts the empty piece after the last
 * newline as a line, and so do we).
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, connect, emptyDir, makeTempDir, textOf, type Connected } from "./harness.js";

let home: string;
let dir: string;
let outside: string;
let conn: Connected;
let client: Client;

beforeAll(async () => {
  home = await makeTempDir("mcp-fs-home-");
  dir = path.join(home, "work");
  await fs.mkdir(dir);
  outside = await makeTempDir("mcp-fs-outside-");
  await fs.writeFile(path.join(outside, "secret.txt"), "SECRET");
  // Served as `~/work`: the server expands it with its HOME.
  conn = await connect(["~/work"], { env: { HOME: home } });
  client = conn.client;
});

beforeEach(() => emptyDir(dir));

afterAll(async () => {
  await conn.close();
  await fs.rm(home, { recursive: true, force: true });
  await fs.rm(outside, { recursive: true, force: true });
});

const text = async (name: string, args: Record<string, unknown>) => textOf(await call(client, name, args));

describe("home directory expansion", () => {
  it("serves ~/work as the expanded directory", async () => {
    expect(await text("list_allowed_directories", {})).toBe(`Allowed directories:\n${dir}`);
  });

  it("expands ~/ in tool paths", async () => {
    await fs.writeFile(path.join(dir, "a.txt"), "alpha");
    expect(await text("read_text_file", { path: "~/work/a.txt" })).toBe("alpha");
  });
});

describe("relative and empty paths", () => {
  it("resolves a relative path in the allowed directory", async () => {
    await fs.writeFile(path.join(dir, "a.txt"), "alpha");
    expect(await text("read_text_file", { path: "a.txt" })).toBe("alpha");
  });

  it('lists the first allowed directory for list_directory ""', async () => {
    await fs.writeFile(path.join(dir, "a.txt"), "");
    expect(await text("list_directory", { path: "" })).toBe("[FILE] a.txt");
  });

  it("refuses a relative path climbing out", async () => {
    expect(await text("read_text_file", { path: "../../etc/passwd" })).toBe(
      `Access denied - path outside allowed directories: ${path.resolve(dir, "../../etc/passwd")} not in ${dir}`,
    );
  });

  it("refuses a sibling directory sharing the prefix", async () => {
    await fs.mkdir(`${dir}-evil`, { recursive: true });
    await fs.writeFile(`${dir}-evil/x.txt`, "x");
    try {
      expect(await text("read_text_file", { path: `${dir}-evil/x.txt` })).toBe(
        `Access denied - path outside allowed directories: ${dir}-evil/x.txt not in ${dir}`,
      );
    } finally {
      await fs.rm(`${dir}-evil`, { recursive: true, force: true });
    }
  });

  it("refuses a path with a NUL byte", async () => {
    const result = await call(client, "read_text_file", { path: `${dir}/a\0.txt` });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Access denied - path outside allowed directories: ${dir}/a\0.txt not in ${dir}`);
  });
});

describe("Unicode-equivalent filesystem paths", () => {
  it("resolves an existing decomposed path from a composed request", async () => {
    await fs.mkdir(path.join(dir, "de\u0301marche"));
    await fs.writeFile(path.join(dir, "de\u0301marche", "re\u0301sume\u0301.txt"), "content");
    expect(await text("read_text_file", { path: path.join(dir, "d\u00e9marche", "r\u00e9sum\u00e9.txt") })).toBe(
      "content",
    );
  });

  it("resolves an existing composed path from a decomposed request", async () => {
    await fs.writeFile(path.join(dir, "caf\u00e9.txt"), "composed");
    expect(await text("read_text_file", { path: path.join(dir, "cafe\u0301.txt") })).toBe("composed");
  });

  it("preserves a new basename after resolving a Unicode-equivalent parent", async () => {
    await fs.mkdir(path.join(dir, "de\u0301marche"));
    await call(client, "write_file", { path: path.join(dir, "d\u00e9marche", "new.txt"), content: "n" });
    expect(await fs.readFile(path.join(dir, "de\u0301marche", "new.txt"), "utf8")).toBe("n");
  });

  it("rejects ambiguous canonically equivalent entries", async () => {
    await fs.mkdir(path.join(dir, "caf\u00e9"));
    await fs.mkdir(path.join(dir, "cafe\u0301"));
    expect(await text("write_file", { path: path.join(dir, "cafe\u0341", "file.txt"), content: "x" })).toBe(
      "Ambiguous Unicode path component: cafe\u0341",
    );
  });
});

describe("symlinks", () => {
  it("refuses a link whose target is outside", async () => {
    await fs.symlink(path.join(outside, "secret.txt"), path.join(dir, "link.txt"));
    const result = await call(client, "read_text_file", { path: path.join(dir, "link.txt") });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `Access denied - symlink target outside allowed directories: ${path.join(outside, "secret.txt")} not in ${dir}`,
    );
  });

  it("refuses a write through a linked directory leading outside, writing nothing", async () => {
    await fs.symlink(outside, path.join(dir, "out"));
    const result = await call(client, "write_file", { path: path.join(dir, "out", "new.txt"), content: "x" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Access denied - symlink target outside allowed directories: /);
    await expect(fs.stat(path.join(outside, "new.txt"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("search_files leaves out links leading outside and dangling links", async () => {
    await fs.writeFile(path.join(dir, "a.txt"), "");
    await fs.symlink(path.join(outside, "secret.txt"), path.join(dir, "out.txt"));
    await fs.symlink(path.join(dir, "gone.txt"), path.join(dir, "dangling.txt"));
    await fs.symlink(path.join(dir, "a.txt"), path.join(dir, "in.txt"));
    expect((await text("search_files", { path: dir, pattern: "*.txt" })).split("\n").sort()).toEqual([
      path.join(dir, "a.txt"),
      path.join(dir, "in.txt"),
    ]);
  });
});

describe("parent directories", () => {
  it("write_file does not create a missing parent", async () => {
    const file = path.join(dir, "missing", "a.txt");
    expect(await text("write_file", { path: file, content: "x" })).toBe(
      `ENOENT: no such file or directory, open '${file}'`,
    );
    await expect(fs.stat(path.join(dir, "missing"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("move_file into a missing directory names the destination", async () => {
    await fs.writeFile(path.join(dir, "a.txt"), "a");
    const destination = path.join(dir, "missing", "a.txt");
    expect(await text("move_file", { source: path.join(dir, "a.txt"), destination })).toBe(
      `ENOENT: no such file or directory, rename '${path.join(dir, "a.txt")}' -> '${destination}'`,
    );
  });
});

describe("head and tail", () => {
  beforeEach(() => fs.writeFile(path.join(dir, "lines.txt"), "line1\nline2\nline3"));

  it("tail returns the exact requested number of lines when the file has no trailing newline", async () => {
    expect(await text("read_text_file", { path: path.join(dir, "lines.txt"), tail: 2 })).toBe("line2\nline3");
  });

  it("tail handles a single line without a trailing newline", async () => {
    await fs.writeFile(path.join(dir, "single.txt"), "hello");
    expect(await text("read_text_file", { path: path.join(dir, "single.txt"), tail: 1 })).toBe("hello");
  });

  it("tail of a large file across chunk boundaries", async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line_${String(i + 1).padStart(3, "0")}`);
    await fs.writeFile(path.join(dir, "large.txt"), lines.join("\n"));
    expect(await text("read_text_file", { path: path.join(dir, "large.txt"), tail: 3 })).toBe(
      "line_198\nline_199\nline_200",
    );
    expect(await text("read_text_file", { path: path.join(dir, "large.txt"), head: 2 })).toBe("line_001\nline_002");
  });

  it("negative and fractional counts give what the official server gives", async () => {
    const file = path.join(dir, "lines.txt");
    expect(await text("read_text_file", { path: file, head: -1 })).toBe("");
    expect(await text("read_text_file", { path: file, tail: -1 })).toBe("");
    expect(await text("read_text_file", { path: file, head: 1.5 })).toBe("line1\nline2");
    expect(await text("read_text_file", { path: file, tail: 1.5 })).toBe("line3");
    expect(await text("read_text_file", { path: file, tail: 0.5 })).toBe("line1\nline2\nline3");
  });
});

describe("encodings and names", () => {
  it("keeps a UTF-8 BOM: read shows it, edit_file keeps it", async () => {
    const file = path.join(dir, "bom.txt");
    await fs.writeFile(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("a\nb\n")]));
    expect(await text("read_text_file", { path: file })).toBe("\ufeffa\nb\n");
    await call(client, "edit_file", { path: file, edits: [{ oldText: "b", newText: "c" }] });
    expect([...(await fs.readFile(file))]).toEqual([0xef, 0xbb, 0xbf, 0x61, 0x0a, 0x63, 0x0a]);
  });

  it("directory_tree with dir/** keeps dir, empty", async () => {
    await fs.mkdir(path.join(dir, "build"));
    await fs.writeFile(path.join(dir, "build", "out.js"), "");
    expect(JSON.parse(await text("directory_tree", { path: dir, excludePatterns: ["build/**"] }))).toEqual([
      { name: "build", type: "directory", children: [] },
    ]);
  });

  it("a NUL byte in a search pattern matches nothing", async () => {
    await fs.writeFile(path.join(dir, "a.txt"), "");
    expect(await text("search_files", { path: dir, pattern: "*\0" })).toBe("No matches found");
  });

  it("get_file_info reports the birth and access times", async () => {
    const file = path.join(dir, "f.txt");
    await fs.writeFile(file, "x");
    const past = new Date("2001-02-03T04:05:06Z");
    await fs.utimes(file, past, new Date("2002-03-04T05:06:07Z"));
    const stat = await fs.stat(file);
    const lines = (await text("get_file_info", { path: file })).split("\n");
    expect(lines[1]).toBe(`created: ${stat.birthtime.toString()}`);
    expect(lines[2]).toBe(`modified: ${new Date("2002-03-04T05:06:07Z").toString()}`);
    expect(lines[3]).toBe(`accessed: ${past.toString()}`);
  });
});

describe("security", () => {
  it("a new file honours the umask (077 gives 0600)", async () => {
    const served = await makeTempDir("mcp-fs-umask-");
    const masked = await connect([served], { umask: "077" });
    try {
      await call(masked.client, "write_file", { path: path.join(served, "new.txt"), content: "x" });
      expect((await fs.stat(path.join(served, "new.txt"))).mode & 0o777).toBe(0o600);
    } finally {
      await masked.close();
      await fs.rm(served, { recursive: true, force: true });
    }
  });

  it("a served directory swapped for a link after start does not move the jail", async () => {
    const base = await makeTempDir("mcp-fs-swap-");
    const served = path.join(base, "served");
    await fs.mkdir(served);
    const swapped = await connect([served]);
    try {
      await fs.rename(served, path.join(base, "was-served"));
      await fs.symlink(outside, served);
      const result = await call(swapped.client, "read_text_file", { path: path.join(served, "secret.txt") });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^Access denied - symlink target outside allowed directories: /);
      const write = await call(swapped.client, "write_file", { path: path.join(served, "planted.txt"), content: "x" });
      expect(write.isError).toBe(true);
      await expect(fs.stat(path.join(outside, "planted.txt"))).rejects.toMatchObject({ code: "ENOENT" });
    } finally {
      await swapped.close();
      await fs.rm(base, { recursive: true, force: true });
    }
  });

  it("a deleted served directory is not re-created by a write", async () => {
    const base = await makeTempDir("mcp-fs-deleted-");
    const served = path.join(base, "served");
    await fs.mkdir(served);
    const deleted = await connect([served]);
    try {
      await fs.rm(base, { recursive: true });
      const file = path.join(served, "sub", "a.txt");
      expect(textOf(await call(deleted.client, "write_file", { path: file, content: "x" }))).toBe(
        `Parent directory does not exist: ${path.join(served, "sub")}`,
      );
      expect(textOf(await call(deleted.client, "create_directory", { path: path.join(served, "sub") }))).toBe(
        `Parent directory does not exist: ${served}`,
      );
      await expect(fs.stat(base)).rejects.toMatchObject({ code: "ENOENT" });
    } finally {
      await deleted.close();
    }
  });
});

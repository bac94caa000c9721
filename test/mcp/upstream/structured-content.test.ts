/** Port of upstream `structured-content.test.ts` (already over stdio there): one server per file. */
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, connect, emptyDir, makeTempDir, textOf, type Connected } from "./harness.js";

let testDir: string;
let conn: Connected;
let client: Client;

beforeAll(async () => {
  testDir = await makeTempDir("mcp-fs-test-");
  conn = await connect([testDir]);
  client = conn.client;
});

beforeEach(async () => {
  await emptyDir(testDir);
  await fs.writeFile(path.join(testDir, "test.txt"), "test content");
  await fs.mkdir(path.join(testDir, "subdir"));
  await fs.writeFile(path.join(testDir, "subdir", "nested.txt"), "nested content");
});

afterAll(async () => {
  await conn.close();
  await fs.rm(testDir, { recursive: true, force: true });
});

const structured = (result: Awaited<ReturnType<typeof call>>) =>
  (result.structuredContent as { content: unknown }).content;

describe("structuredContent schema compliance", () => {
  it("directory_tree: structuredContent.content is a string of the JSON tree", async () => {
    const content = structured(await call(client, "directory_tree", { path: testDir }));
    expect(typeof content).toBe("string");
    expect(Array.isArray(JSON.parse(content as string))).toBe(true);
  });

  it("list_directory_with_sizes: structuredContent.content is a string", async () => {
    const content = structured(await call(client, "list_directory_with_sizes", { path: testDir }));
    expect(typeof content).toBe("string");
    expect(content).toContain("[FILE]");
  });

  it("move_file: structuredContent.content is a string", async () => {
    const content = structured(
      await call(client, "move_file", {
        source: path.join(testDir, "test.txt"),
        destination: path.join(testDir, "moved.txt"),
      }),
    );
    expect(content).toBe(`Successfully moved ${path.join(testDir, "test.txt")} to ${path.join(testDir, "moved.txt")}`);
  });

  it("move_file rejects an existing destination without replacing it", async () => {
    const sourcePath = path.join(testDir, "source.txt");
    const destPath = path.join(testDir, "existing.txt");
    await fs.writeFile(sourcePath, "source content");
    await fs.writeFile(destPath, "existing content");
    const result = await call(client, "move_file", { source: sourcePath, destination: destPath });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Destination already exists: ${destPath}`);
    expect(await fs.readFile(sourcePath, "utf8")).toBe("source content");
    expect(await fs.readFile(destPath, "utf8")).toBe("existing content");
  });

  it("move_file moves directories recursively", async () => {
    const sourcePath = path.join(testDir, "source-dir");
    const destPath = path.join(testDir, "moved-dir");
    await fs.mkdir(path.join(sourcePath, "nested"), { recursive: true });
    await fs.writeFile(path.join(sourcePath, "nested", "file.txt"), "source content");
    const result = await call(client, "move_file", { source: sourcePath, destination: destPath });
    expect(result.isError).not.toBe(true);
    await expect(fs.stat(sourcePath)).rejects.toMatchObject({ code: "ENOENT" });
    expect(await fs.readFile(path.join(destPath, "nested", "file.txt"), "utf8")).toBe("source content");
  });

  it("move_file rejects an existing directory destination without merging trees", async () => {
    const sourcePath = path.join(testDir, "source-dir");
    const destPath = path.join(testDir, "existing-dir");
    await fs.mkdir(sourcePath);
    await fs.mkdir(destPath);
    await fs.writeFile(path.join(sourcePath, "source.txt"), "source content");
    await fs.writeFile(path.join(destPath, "existing.txt"), "existing content");
    const result = await call(client, "move_file", { source: sourcePath, destination: destPath });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Destination already exists: ${destPath}`);
    expect(await fs.readFile(path.join(sourcePath, "source.txt"), "utf8")).toBe("source content");
    await expect(fs.stat(path.join(destPath, "source.txt"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("list_directory: structuredContent.content is a string", async () => {
    expect(structured(await call(client, "list_directory", { path: testDir }))).toBe(
      textOf(await call(client, "list_directory", { path: testDir })),
    );
  });

  it("search_files: structuredContent.content is a string", async () => {
    expect(structured(await call(client, "search_files", { path: testDir, pattern: "*.txt" }))).toBe(
      path.join(testDir, "test.txt"),
    );
  });
});

describe("read_media_file (issue #4029)", () => {
  it('returns type "image" for image files, round-tripping the bytes', async () => {
    const pngBytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await fs.writeFile(path.join(testDir, "pixel.png"), pngBytes);
    const result = await call(client, "read_media_file", { path: path.join(testDir, "pixel.png") });
    const block = { type: "image", data: pngBytes.toString("base64"), mimeType: "image/png" };
    expect(result.content).toEqual([block]);
    expect(result.structuredContent).toEqual({ content: [block] });
  });

  it('returns type "audio" for audio files, round-tripping the bytes', async () => {
    const mp3Bytes = Buffer.from([0x49, 0x44, 0x33, 0x04]);
    await fs.writeFile(path.join(testDir, "clip.mp3"), mp3Bytes);
    const result = await call(client, "read_media_file", { path: path.join(testDir, "clip.mp3") });
    const block = { type: "audio", data: mp3Bytes.toString("base64"), mimeType: "audio/mpeg" };
    expect(result.content).toEqual([block]);
    expect(result.structuredContent).toEqual({ content: [block] });
  });

  it('returns an embedded resource (never "blob") for non-media binaries, round-tripping the bytes', async () => {
    const binBytes = Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff, 0xfe]);
    const binPath = path.join(testDir, "data.bin");
    await fs.writeFile(binPath, binBytes);
    const result = await call(client, "read_media_file", { path: binPath });
    const [block] = result.content;
    expect(block?.type).toBe("resource");
    if (block?.type !== "resource") return;
    expect(fileURLToPath(block.resource.uri)).toBe(binPath);
    expect(block.resource.mimeType).toBe("application/octet-stream");
    expect("blob" in block.resource && block.resource.blob).toBe(binBytes.toString("base64"));
    expect(result.structuredContent).toEqual({ content: result.content });
  });

  it("percent-encodes spaces and non-ASCII chars in the resource uri", async () => {
    await fs.writeFile(path.join(testDir, "my café.bin"), Buffer.from([0x10, 0x20, 0x30]));
    const result = await call(client, "read_media_file", { path: path.join(testDir, "my café.bin") });
    const [block] = result.content;
    if (block?.type !== "resource") throw new Error("not a resource");
    expect(block.resource.uri).toBe(`file://${testDir}/my%20caf%C3%A9.bin`);
  });
});

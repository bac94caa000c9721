/**
 * Port of upstream `server-roots.test.ts` to stdio: the client's roots as the server applies
 * them. Ours narrows the command-line directories with the client's roots and never replaces
 * them (a client cannot widen what the user served): the tests that pin replacing are kept,
 * inverted, with that reason in their names. The stderr lines the official server logs are not
 * asserted (they are logging, not behaviour).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { allowedDirectoriesOf, call, connect, makeTempDir, textOf, type Connected } from "./harness.js";

let cliDir: string;
let rootDir: string;
const open: Connected[] = [];

async function connectTracked(...args: Parameters<typeof connect>): Promise<Connected> {
  const conn = await connect(...args);
  open.push(conn);
  return conn;
}

const uriOf = (dir: string) => pathToFileURL(dir).href;

beforeEach(async () => {
  cliDir = await makeTempDir("mcp-fs-cli-");
  rootDir = await makeTempDir("mcp-fs-root-");
});

afterEach(async () => {
  for (const conn of open.splice(0)) await conn.close();
  await fs.rm(cliDir, { recursive: true, force: true });
  await fs.rm(rootDir, { recursive: true, force: true });
});

describe("initial roots", () => {
  it("narrow the command-line directories, never replace them (inverted #3602: ours never lets a client widen the served directories)", async () => {
    const conn = await connectTracked([cliDir], { roots: [uriOf(rootDir)] });
    const client = conn.client;
    await vi.waitFor(() => expect(conn.rootsAnswered()).toBe(1));
    await allowedDirectoriesOf(client);
    expect(await allowedDirectoriesOf(client)).toEqual([cliDir]);
    const result = await call(client, "list_directory", { path: rootDir });
    expect(textOf(result)).toBe(`Access denied - path outside allowed directories: ${rootDir} not in ${cliDir}`);
  });

  it("narrow to a root inside a command-line directory", async () => {
    const sub = path.join(cliDir, "sub");
    await fs.mkdir(sub);
    await fs.writeFile(path.join(cliDir, "outer.txt"), "outer");
    const { client } = await connectTracked([cliDir], { roots: [uriOf(sub)] });
    await vi.waitFor(async () => expect(await allowedDirectoriesOf(client)).toEqual([sub]));
    expect(textOf(await call(client, "read_text_file", { path: path.join(cliDir, "outer.txt") }))).toBe(
      `Access denied - path outside allowed directories: ${path.join(cliDir, "outer.txt")} not in ${sub}`,
    );
  });

  it("accept a pathToFileURL root with spaces and non-ASCII characters", async () => {
    const fancy = path.join(rootDir, "my café dir");
    await fs.mkdir(fancy);
    const { client } = await connectTracked([], { roots: [uriOf(fancy)] });
    await vi.waitFor(async () => expect(await allowedDirectoriesOf(client)).toEqual([fancy]));
  });

  it("resolve a symlinked root to its target", async () => {
    const link = path.join(cliDir, "link-to-root");
    await fs.symlink(rootDir, link);
    const { client } = await connectTracked([], { roots: [uriOf(link)] });
    await vi.waitFor(async () => expect(await allowedDirectoriesOf(client)).toEqual([rootDir]));
  });

  it("drop invalid roots (missing, a file) and keep the valid ones", async () => {
    const sub = path.join(cliDir, "sub");
    await fs.mkdir(sub);
    await fs.writeFile(path.join(cliDir, "file.txt"), "");
    const { client } = await connectTracked([cliDir], {
      roots: [uriOf(path.join(cliDir, "missing")), uriOf(path.join(cliDir, "file.txt")), uriOf(sub)],
    });
    await vi.waitFor(async () => expect(await allowedDirectoriesOf(client)).toEqual([sub]));
  });

  it("keep the command-line directories when no root is valid", async () => {
    const { client } = await connectTracked([cliDir], { roots: [uriOf(path.join(cliDir, "missing"))] });
    expect(await allowedDirectoriesOf(client)).toEqual([cliDir]);
  });

  it("keep the command-line directories when the client returns an empty list", async () => {
    const { client } = await connectTracked([cliDir], { roots: [] });
    expect(await allowedDirectoriesOf(client)).toEqual([cliDir]);
  });

  it("are awaited by concurrent tool calls, which then all succeed (#3204)", async () => {
    await fs.writeFile(path.join(rootDir, "a.txt"), "a");
    await fs.writeFile(path.join(rootDir, "b.txt"), "b");
    const { client } = await connectTracked([], { roots: [uriOf(rootDir)] });
    const results = await Promise.all([
      call(client, "read_text_file", { path: path.join(rootDir, "a.txt") }),
      call(client, "read_text_file", { path: path.join(rootDir, "b.txt") }),
      call(client, "list_allowed_directories"),
    ]);
    expect(results.map(textOf)).toEqual(["a", "b", `Allowed directories:\n${rootDir}`]);
  });

  it("a client that never answers roots/list does not stall a call: the command-line directories are served meanwhile", async () => {
    await fs.writeFile(path.join(cliDir, "f.txt"), "from cli");
    const { client } = await connectTracked([cliDir], { roots: "never" });
    const started = Date.now();
    const result = await call(client, "read_text_file", { path: path.join(cliDir, "f.txt") });
    expect(textOf(result)).toBe("from cli");
    expect(Date.now() - started < 10_000).toBe(true);
  });
});

describe("roots/list_changed", () => {
  it("re-fetches the roots and narrows again (inverted: ours never replaces the command-line directories)", async () => {
    const a = path.join(cliDir, "a");
    const b = path.join(cliDir, "b");
    await fs.mkdir(a);
    await fs.mkdir(b);
    const conn = await connectTracked([cliDir], { roots: [uriOf(a)] });
    await vi.waitFor(async () => expect(await allowedDirectoriesOf(conn.client)).toEqual([a]));
    await conn.setRoots([uriOf(a), uriOf(b), uriOf(rootDir)]);
    await vi.waitFor(async () => expect(await allowedDirectoriesOf(conn.client)).toEqual([a, b]));
  });
});

describe("a client without the roots capability", () => {
  it("keeps the command-line directories", async () => {
    const { client } = await connectTracked([cliDir]);
    expect(await allowedDirectoriesOf(client)).toEqual([cliDir]);
  });

  it("with no directory either, every call is refused with a message (inverted #4992: ours stays up rather than closing)", async () => {
    const { client } = await connectTracked([]);
    const result = await call(client, "list_directory", { path: rootDir });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Access denied - no allowed directories: the server was started without directories and the client gave no MCP roots",
    );
  });
});

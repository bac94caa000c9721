/**
 * The examples of the workspace filesystem specification (../shared/spec/workspace-filesystem.txt),
 * run as written with our names (../shared/spec/README.md): `localFilesystem()` is
 * `nodeFileSystem()`, `ctx.fs` is the handle of `createWorkspace`, the five agent tools are the
 * `lineRangePreset()` dialect over the core tools, a route's tool scope is `createWorkspaceAgent`'s
 * `tools`, and a `b4.config.ts` setting is the option it configures. Each test names its section.
 */
import { mkdtempSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  compose,
  createFsTools,
  createWorkspace,
  DEFAULT_WORKSPACE_MAX_READ_BYTES,
  type FileSystem,
  type FilesystemLogEntry,
  lineRangePreset,
  resultText,
  ToolInputError,
  type ToolResult,
  type ToolSignature,
  withFilesystemLogging,
  type Workspace,
} from "better-fs-tools";
import { memoryFileSystem } from "better-fs-tools/memory";
import { nodeFileSystem } from "better-fs-tools/node";
import { createWorkspaceAgent } from "better-fs-tools/agent";
import { policyModel, toolNamesOf } from "../agent/mock-model.js";

const encoder = new TextEncoder();

/** A backend written by hand (the spec's `myRemoteBackend()`): every method of the contract, over a memfs volume. */
function myRemoteBackend(): FileSystem {
  const store = memoryFileSystem();
  return {
    name: "remote",
    capabilities: store.capabilities,
    readFile: (path) => store.readFile(path),
    writeFile: (path, data) => store.writeFile(path, data),
    stat: (path) => store.stat(path),
    lstat: (path) => store.lstat(path),
    readdir: (path) => store.readdir(path),
    mkdir: (path, options) => store.mkdir(path, options),
    rm: (path, options) => store.rm(path, options),
    rename: (from, to) => store.rename(from, to),
    realpath: (path) => store.realpath(path),
  };
}

/** The config a `b4.config.ts` would hold: the backend for every workspace tool and handle. */
const config = { backends: { filesystem: myRemoteBackend() } };

/** The five agent tools, as the line-range dialect names them, over the core tools of `options`. */
function agentTools(options: Parameters<typeof createFsTools>[0]) {
  const core = createFsTools(options);
  const preset = lineRangePreset();
  const call =
    <I, M, R extends ToolResult>(tool: { execute(input: I): Promise<R> }, signature: ToolSignature<I, M, R>) =>
    async (input: M): Promise<string> => {
      let coreInput: I;
      try {
        coreInput = signature.toInput(input);
      } catch (error) {
        // What an adapter sends the model for input that does not fit (a ToolInputError).
        if (ToolInputError.isInstance(error)) return error.message;
        throw error;
      }
      const result = await tool.execute(coreInput);
      return resultText(signature.toResult?.(result, input) ?? result);
    };
  return {
    listDir: call(core.list, preset.list),
    readFile: call(core.read, preset.read),
    writeFile: call(core.write, preset.write),
    editFile: call(core.edit, preset.edit),
    runBash: call(core.bash, preset.bash),
  };
}

describe("The pluggable backend", () => {
  it("your own backend, set once in the config, serves the handle and the tools", async () => {
    const fs = config.backends.filesystem;
    const workspace = createWorkspace({ fs, root: "/app/workspace" });
    expect(await workspace.writeFile("reports/result.md", "# Result\n")).toEqual({ bytesWritten: 9 });
    const { readFile } = agentTools({ fs, cwd: "/app/workspace" });
    expect(await readFile({ path: "reports/result.md" })).toBe("# Result\n");
  });

  it("defaults: a 256 KiB read cap per call (maxBytes overrides it, Infinity for none); writeFile creates parents", async () => {
    const fs = memoryFileSystem({ files: { "/w/big.txt": "x".repeat(256 * 1024 + 1) } });
    const workspace = createWorkspace({ fs, root: "/w" });
    expect(DEFAULT_WORKSPACE_MAX_READ_BYTES).toBe(262_144);
    await expect(workspace.readFile("big.txt")).rejects.toMatchObject({ code: "EFBIG" });
    expect((await workspace.readFile("big.txt", { maxBytes: Number.POSITIVE_INFINITY })).length).toBe(262_145);
    expect(await workspace.writeFile("reports/result.md", "done\n")).toEqual({ bytesWritten: 5 });
    expect(await workspace.listDir("reports")).toEqual(["result.md"]);
  });
});

describe("Middleware", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("compose(withFilesystemLogging())(nodeFileSystem()) writes each method and its arguments to stderr", async () => {
    const stderr = vi.spyOn(console, "error").mockImplementation(() => {});
    const filesystem = compose(withFilesystemLogging())(nodeFileSystem());
    const cwd = realpathSync(process.cwd());
    const workspace = createWorkspace({ fs: filesystem, root: cwd });
    const manifest = JSON.parse(await workspace.readFile("package.json", { maxBytes: Infinity })) as { name: string };
    expect(manifest.name).toBe("better-fs-tools");
    const lines = stderr.mock.calls.map(([line]) => String(line));
    expect(lines.filter((line) => line.startsWith("fs.readFile"))).toEqual([`fs.readFile("${cwd}/package.json")`]);
    expect(lines.every((line) => /^fs\.\w+\(/.test(line))).toBe(true);
  });

  it("a destination function gets { method, args }: writeFile with the whole content, readBinaryFile the path only", async () => {
    const logged: Array<{ event: string; fields: FilesystemLogEntry }> = [];
    const structuredLogger = { debug: (event: string, fields: FilesystemLogEntry) => logged.push({ event, fields }) };
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const filesystem = compose(
      withFilesystemLogging({
        destination: ({ method, args }) => {
          structuredLogger.debug("workspace", { method, args });
        },
      }),
    )(memoryFileSystem({ files: { "/w/images/logo.png": png } }));
    const workspace = createWorkspace({ fs: filesystem, root: "/w" });
    await workspace.writeFile("notes.md", "# Notes\nsecret plan\n");
    expect(await workspace.readBinaryFile("images/logo.png")).toEqual(png);

    const calls = logged.map(({ fields }) => fields);
    expect(logged.every(({ event }) => event === "workspace")).toBe(true);
    expect(calls.filter(({ method }) => method === "writeFile")).toEqual([
      { method: "writeFile", args: ["/w/notes.md", "# Notes\nsecret plan\n"] },
    ]);
    expect(calls.filter(({ method }) => method === "readFile")).toEqual([
      { method: "readFile", args: ["/w/images/logo.png"] },
    ]);
    // No argument of any call carries the image's bytes.
    expect(calls.flatMap(({ args }) => args).some((arg) => arg instanceof Uint8Array)).toBe(false);
  });
});

describe("The five agent-facing tools", () => {
  const files = {
    "/w/corpus/intro.md": "# Intro\n",
    "/w/corpus/api-reference.md": "# API\n",
    "/w/corpus/changelog.md": "# Changes\n",
    "/w/src/server.ts": Array.from({ length: 3644 }, (_, i) => `// line ${i + 1}`).join("\n") + "\n",
    "/w/src/config.ts": Array.from({ length: 41 }, () => "//").join("\n") + "\n  retries: 3,\n",
  };

  it("listDir: names without the directory path (the handle); the tool adds sizes", async () => {
    const workspace = createWorkspace({ fs: memoryFileSystem({ files }), root: "/w" });
    expect(await workspace.listDir("corpus")).toEqual(["api-reference.md", "changelog.md", "intro.md"]);
    const { listDir } = agentTools({ fs: memoryFileSystem({ files }), cwd: "/w" });
    expect(await listDir({ path: "corpus" })).toBe(
      "api-reference.md (6 bytes)\nchangelog.md (10 bytes)\nintro.md (8 bytes)",
    );
    expect(await listDir({})).toBe("corpus/\nsrc/");
  });

  it("readFile: a ranged read starts with a header giving the file's length; without a range, no header", async () => {
    const { readFile } = agentTools({ fs: memoryFileSystem({ files }), cwd: "/w" });
    const ranged = await readFile({ path: "src/server.ts", startLine: 1200, endLine: 1260 });
    expect(ranged.split("\n")[0]).toBe("[src/server.ts lines 1200-1260 of 3644]");
    expect(ranged.split("\n").slice(1, 3)).toEqual(["// line 1200", "// line 1201"]);
    expect(ranged.split("\n")).toHaveLength(62);
    expect(await readFile({ path: "corpus/intro.md" })).toBe("# Intro\n");
    expect(await readFile({ path: "src/server.ts", startLine: 3640, endLine: 9999 })).toMatch(
      /^\[src\/server\.ts lines 3640-3644 of 3644\]\n\/\/ line 3640\n/,
    );
    expect(await readFile({ path: "src/server.ts", startLine: 10, endLine: 9 })).toBe(
      "startLine (10) must not be greater than endLine (9)",
    );
  });

  it("readFile: the description tells the model to read large files in ranges and change them with editFile", () => {
    const { read, write, edit } = lineRangePreset();
    expect(read.description).toMatch(/Read a large file in ranges, and change an existing file with editFile/);
    expect(write.description).toMatch(/To change part of an existing file, use editFile\.$/);
    // Read-before-write is opt-in (state), so the dialect does not claim it.
    expect([read, write, edit].some((signature) => signature.description?.includes("read first"))).toBe(false);
  });

  it("readFile: the default cap is 256 KiB; a larger file is an error with no partial content", async () => {
    const fs = memoryFileSystem({ files: { "/w/big.txt": `${"x".repeat(100)}\n`.repeat(3000) } });
    const { readFile } = agentTools({ fs, cwd: "/w" });
    expect(await readFile({ path: "big.txt" })).toMatch(
      /^big\.txt is 295\.9 KiB \(303,000 bytes\) \(3,000 lines\), over the read cap of 256\.0 KiB \(262,144 bytes\); nothing was returned\./,
    );
  });

  it("writeFile creates missing parents and says how many bytes it wrote", async () => {
    const { writeFile } = agentTools({ fs: memoryFileSystem(), cwd: "/w" });
    const content = "# Summary\n\n" + "x".repeat(1223 - 11) + "\n";
    expect(await writeFile({ path: "reports/summary.md", content })).toBe("wrote 1224 bytes to reports/summary.md");
    expect(await writeFile({ path: "reports/2024-q1.md", content: "..." })).toBe("wrote 3 bytes to reports/2024-q1.md");
  });

  it("editFile replaces an exact span and says where", async () => {
    const fs = memoryFileSystem({ files });
    const { editFile } = agentTools({ fs, cwd: "/w" });
    expect(await editFile({ path: "src/config.ts", oldText: "retries: 3,", newText: "retries: 5," })).toBe(
      "replaced 1 occurrence in src/config.ts at line 42",
    );
    expect(await editFile({ path: "src/config.ts", oldText: "retries: 9,", newText: "x" })).toMatch(
      /^oldText was not found in src\/config\.ts/,
    );
  });

  it("denying writeFile in a route's tool scope also withholds editFile; a route can deny runBash", async () => {
    const fs = memoryFileSystem({ files });
    const model = policyModel(() => ({ text: "ok" }));
    const agent = createWorkspaceAgent({ model, fs, cwd: "/w", write: false, bash: false });
    await agent.generate({ prompt: "hi" });
    expect(toolNamesOf(model.doGenerateCalls[0]!)).toEqual(["read", "list", "glob", "grep"]);
  });

  it("the agent speaks this specification's tool names through lineRangePreset(): listDir, readFile, writeFile, editFile", async () => {
    const fs = memoryFileSystem({ files });
    const model = policyModel(() => ({ text: "ok" }));
    const preset = lineRangePreset();
    const agent = createWorkspaceAgent({
      model,
      fs,
      cwd: "/w",
      read: { signature: preset.read },
      list: { signature: preset.list },
      write: { signature: preset.write },
      edit: { signature: preset.edit },
      glob: false,
      grep: false,
      applyPatch: false,
    });
    await agent.generate({ prompt: "hi" });
    expect(toolNamesOf(model.doGenerateCalls[0]!)).toEqual(["readFile", "listDir", "writeFile", "editFile"]);
    const withWriteDenied = createWorkspaceAgent({
      model,
      fs,
      cwd: "/w",
      write: false,
      read: { signature: preset.read },
    });
    expect(Object.keys(withWriteDenied.tools)).toEqual(["readFile", "list", "glob", "grep"]);
  });
});

describe("ctx.fs for tools and routes", () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  it("a route tool that reads a binary file", async () => {
    const describe = async (input: { readonly path: string }, ctx: { readonly fs: Workspace }) => {
      const bytes = await ctx.fs.readBinaryFile(input.path);
      const dataUrl = `data:image/png;base64,${Buffer.from(bytes).toString("base64")}`;
      // Pass dataUrl to a vision model call, return the description, etc.
      return { dataUrl };
    };
    const ctx = {
      fs: createWorkspace({
        fs: memoryFileSystem({ files: { "/app/workspace/images/logo.png": png } }),
        root: "/app/workspace",
      }),
    };
    expect(await describe({ path: "images/logo.png" }, ctx)).toEqual({ dataUrl: "data:image/png;base64,iVBORw0KGgo=" });
  });

  it("if the backend has no readBinaryFile (our readFile), the call throws an error that says how to fix it", async () => {
    const { readFile: _readFile, ...partial } = myRemoteBackend();
    await partial.mkdir("/w/images", { recursive: true });
    const ctx = { fs: createWorkspace({ fs: partial as unknown as FileSystem, root: "/w" }) };
    await expect(ctx.fs.readBinaryFile("images/logo.png")).rejects.toThrow(
      new TypeError(
        'The backend "remote" has no readFile method, which every FileSystem needs (readFile, writeFile, stat, lstat, readdir, mkdir, rm, rename, realpath). ' +
          "Add readFile(path) → Promise<Uint8Array> (the file's bytes; text and binary reads both use it) to it, " +
          "or build it on a backend that has every method with forwardFileSystem(backend, overrides).",
      ),
    );
  });

  it("a workflow that lists and reads files, parsing its input first", async () => {
    const Input = z.object({ topic: z.string() });
    async function workflow(input: unknown, ctx: { readonly fs: Workspace }) {
      const { topic } = Input.parse(input);
      const entries = await ctx.fs.listDir("drafts");
      const first = entries[0];
      if (!first) return { topic, summary: "no drafts found" };
      const content = await ctx.fs.readFile(`drafts/${first}`);
      return { topic, summary: content.slice(0, 500) };
    }
    const fs = memoryFileSystem({
      files: { "/w/drafts/b.md": "second", "/w/drafts/a.md": `first ${"y".repeat(600)}` },
    });
    const result = await workflow({ topic: "parsers" }, { fs: createWorkspace({ fs, root: "/w" }) });
    expect(result).toEqual({ topic: "parsers", summary: `first ${"y".repeat(494)}` });
    await fs.mkdir("/v/drafts", { recursive: true });
    expect(await workflow({ topic: "none" }, { fs: createWorkspace({ fs, root: "/v" }) })).toEqual({
      topic: "none",
      summary: "no drafts found",
    });
    await expect(workflow({}, { fs: createWorkspace({ fs, root: "/w" }) })).rejects.toThrow(z.ZodError);
  });

  it("listDir() with no argument lists the root; reads throw ENOENT until the workspace exists", async () => {
    const fs = memoryFileSystem();
    const workspace = createWorkspace({ fs, root: "/app/workspace" });
    await expect(workspace.listDir()).rejects.toMatchObject({ code: "ENOENT" });
    await expect(workspace.readFile("AGENTS.md")).rejects.toMatchObject({ code: "ENOENT" });
    await workspace.writeFile("AGENTS.md", "memory\n");
    expect(await workspace.listDir()).toEqual(["AGENTS.md"]);
  });
});

describe("Navlog scaffold example and Tool-output offloading", () => {
  it("a large result offloaded to tool-outputs/ is read back in full with the same readFile call", async () => {
    const fs = memoryFileSystem({
      files: {
        "/w/poh/table.txt": Array.from({ length: 4000 }, (_, i) => `row ${i} FUEL ${"f".repeat(60)}`).join("\n"),
      },
    });
    const core = createFsTools({ fs, cwd: "/w", read: { maxBytes: 16 * 1024 }, grep: { maxMatches: 10_000 } });
    const grep = await core.grep.execute({ pattern: "FUEL" }, { toolCallId: "call_7" });
    expect(resultText(grep)).toContain("The full output is saved in tool-outputs/call_7.txt");
    const { readFile } = agentTools({ fs, cwd: "/w", read: { maxBytes: 16 * 1024 } });
    const back = await readFile({ path: "tool-outputs/call_7.txt" });
    expect(back.split("\n")).toHaveLength(4000);
    expect(back.split("\n")[3999]).toBe(`poh/table.txt:4000:row 3999 FUEL ${"f".repeat(60)}`);
    expect(await readFile({ path: "poh/table.txt" })).toMatch(/over the read cap of 16\.0 KiB/);
  });

  it("writeFile saves a navlog to reports/, creating the directory on the first write", async () => {
    const fs = memoryFileSystem({ files: { "/server/workspace/AGENTS.md": "Navlogs go to reports/.\n" } });
    const model = policyModel((options, n) =>
      n === 0
        ? { calls: [{ tool: "write", input: { path: "reports/KPAO-KSQL.md", content: "# Navlog\n" } }] }
        : { text: "saved" },
    );
    const agent = createWorkspaceAgent({ model, fs, cwd: "/server/workspace" });
    const result = await agent.generate({ prompt: "Plan KPAO to KSQL." });
    expect([result.text, result.memory?.text]).toEqual(["saved", "Navlogs go to reports/.\n"]);
    expect(new TextDecoder().decode(await fs.readFile("/server/workspace/reports/KPAO-KSQL.md"))).toBe("# Navlog\n");
    expect(toolNamesOf(model.doGenerateCalls[0]!)).not.toContain("bash");
  });
});

describe("Permissions", () => {
  const refusal =
    "Permission denied: /etc/hosts is outside the workspace and interactive permission prompts are not available in this execution context. " +
    'Add an allow rule for "readFile" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.';

  it("a path outside the workspace with no rule fails closed, for the tool and for ctx.fs alike", async () => {
    const fs = memoryFileSystem({ files: { "/etc/hosts": "127.0.0.1 localhost\n", "/w/a.txt": "a\n" } });
    const { readFile } = agentTools({ fs, cwd: "/w" });
    expect(await readFile({ path: "/etc/hosts" })).toBe(refusal);
    const workspace = createWorkspace({ fs, root: "/w" });
    await expect(workspace.readFile("/etc/hosts")).rejects.toThrow(
      `EACCES: permission denied, open '/etc/hosts' (${refusal})`,
    );
    const allowed = createWorkspace({
      fs,
      root: "/w",
      permissions: { allow: [{ tool: "readFile", path: "/etc/hosts" }] },
    });
    expect(await allowed.readFile("/etc/hosts")).toBe("127.0.0.1 localhost\n");
  });

  it("a symlink inside the workspace that points outside is treated like any outside path", async () => {
    const fs = memoryFileSystem({ files: { "/etc/hosts": "127.0.0.1 localhost\n", "/w/a.txt": "a\n" } });
    await fs.symlink!("/etc", "/w/etc-link");
    const { readFile } = agentTools({ fs, cwd: "/w" });
    expect(await readFile({ path: "etc-link/hosts" })).toBe(
      "Permission denied: /etc/hosts (the real path of /w/etc-link/hosts, through a symlink) is outside the workspace and interactive permission prompts are not available in this execution context. " +
        'Add an allow rule for "readFile" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.',
    );
  });

  it("allow rules match real paths: a rule written with a symlinked path does not match and fails closed", async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "bft-spec-")));
    mkdirSync(join(base, "private", "data"), { recursive: true });
    writeFileSync(join(base, "private", "data", "notes.txt"), "real\n");
    symlinkSync(join(base, "private", "data"), join(base, "data"));
    mkdirSync(join(base, "app", "workspace"), { recursive: true });
    const fs = nodeFileSystem({
      cwd: join(base, "app", "workspace"),
      allowedRoots: [join(base, "app"), join(base, "private")],
    });
    const viaLink = createWorkspace({
      fs,
      root: join(base, "app", "workspace"),
      permissions: { allow: [{ tool: "readFile", path: `${base}/data/**` }] },
    });
    await expect(viaLink.readFile(`${base}/data/notes.txt`)).rejects.toMatchObject({ code: "EACCES" });
    const canonical = createWorkspace({
      fs,
      root: join(base, "app", "workspace"),
      permissions: { allow: [{ tool: "readFile", path: `${base}/private/data/**` }] },
    });
    expect(await canonical.readFile(`${base}/data/notes.txt`)).toBe("real\n");
  });

  it("writing a file under a workspace that does not exist yet, below a symlink, works (macOS /var → /private/var)", async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "bft-spec-")));
    mkdirSync(join(base, "private", "var"), { recursive: true });
    symlinkSync(join(base, "private", "var"), join(base, "var"));
    const root = join(base, "var", "app", "workspace");
    const { writeFile, readFile } = agentTools({ fs: nodeFileSystem({ cwd: root }) });
    expect(await writeFile({ path: "reports/a.md", content: "a\n" })).toBe("wrote 2 bytes to reports/a.md");
    expect(await readFile({ path: "reports/a.md" })).toBe("a\n");
    const workspace = createWorkspace({
      fs: nodeFileSystem({ cwd: join(base, "var", "other") }),
      root: join(base, "var", "other"),
    });
    expect(await workspace.writeFile("x.txt", encoder.encode("x"))).toEqual({ bytesWritten: 1 });
  });
});

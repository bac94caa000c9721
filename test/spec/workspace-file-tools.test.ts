/**
 * The examples of the workspace file tools specification (../shared/spec/workspace-file-tools.txt),
 * in TypeScript with our names (../shared/spec/README.md): the file tools are the
 * `offsetLimitPreset()` dialect over the core tools of `createFsTools` on a Node backend jailed to
 * the job directory (`makeFileTools` below is the equivalent of `make_file_tools`), `hash_files`
 * is `hashFiles`, and the worker (rounds, read-only mode, run cache, expected outputs,
 * validation) is `createWorkspaceAgent` from `better-fs-tools/agent`, driven by a scripted model.
 * Each test names its section.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createFsTools,
  DEFAULT_MAX_READ_CHARS,
  type FsTools,
  hashFiles,
  offsetLimitPreset,
  resultText,
  ToolInputError,
  type ToolResult,
  type ToolSignature,
} from "better-fs-tools";
import { nodeFileSystem } from "better-fs-tools/node";
import { memoryFileSystem } from "better-fs-tools/memory";
import { createWorkspaceAgent, DEFAULT_MAX_TOOL_ROUNDS, memoryRunCache } from "better-fs-tools/agent";
import { policyModel, toolNamesOf, userTextsOf } from "../agent/mock-model.js";

/** A file tool as the specification's tests use it: a name, and `execute` returning the text the model reads. */
interface FileTool {
  readonly name: string;
  execute(input: Record<string, unknown>): Promise<string>;
}

/** Options of {@link makeFileTools}, named as the specification names them. */
interface MakeFileToolsOptions {
  readonly readOnly?: boolean;
  readonly maxReadChars?: number;
  readonly maxListEntries?: number;
  readonly maxGrepMatches?: number;
  readonly maxGrepLineChars?: number;
}

/** `make_file_tools(workspace)`: read_file, write_file, edit_file, list_files, grep_files over `root`. */
function makeFileTools(root: string, options: MakeFileToolsOptions = {}): FileTool[] {
  const core = createFsTools({
    fs: nodeFileSystem({ cwd: root }),
    readOnly: options.readOnly === true,
    ...(options.maxListEntries === undefined ? {} : { list: { maxEntries: options.maxListEntries } }),
    grep: {
      ...(options.maxGrepMatches === undefined ? {} : { maxMatches: options.maxGrepMatches }),
      ...(options.maxGrepLineChars === undefined ? {} : { maxLineLength: options.maxGrepLineChars }),
    },
  });
  const preset = offsetLimitPreset(options.maxReadChars === undefined ? {} : { maxReadChars: options.maxReadChars });
  // Typed wide (readOnly is a boolean here), so the writers are looked up as maybe absent.
  const writers: Partial<FsTools> = core;
  const tool = <I, M, R extends ToolResult>(
    core: { execute(input: I): Promise<R> },
    signature: ToolSignature<I, M, R>,
  ): FileTool => ({
    name: signature.name,
    async execute(input) {
      let coreInput: I;
      try {
        coreInput = signature.toInput(input as M);
      } catch (error) {
        if (ToolInputError.isInstance(error)) return `Error: ${error.message}`;
        throw error;
      }
      const result = await core.execute(coreInput);
      return resultText(signature.toResult?.(result, input as M) ?? result);
    },
  });
  return [
    tool(core.read, preset.read),
    // read_only is the tool set's readOnly, as at every entry point.
    ...(writers.write === undefined ? [] : [tool(writers.write, preset.write)]),
    ...(writers.edit === undefined ? [] : [tool(writers.edit, preset.edit)]),
    tool(core.list, preset.list),
    tool(core.grep, preset.grep),
  ];
}

function tmpPath(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "bft-file-tools-")));
}

const byName = (tools: readonly FileTool[]) => Object.fromEntries(tools.map((tool) => [tool.name, tool]));

describe("Testing", () => {
  it("test_edit_requires_unique_match, as written", async () => {
    const tmp_path = tmpPath();
    writeFileSync(join(tmp_path, "a.md"), "one two one");
    const tools = byName(makeFileTools(tmp_path));

    const result = await tools["edit_file"]!.execute({ path: "a.md", old_string: "one", new_string: "1" });

    expect(result.startsWith("Error: old_string is not unique")).toBe(true);
    expect(await tools["read_file"]!.execute({ path: "a.md" })).toBe("     1\tone two one");
  });
});

describe("The File Tools", () => {
  it("make_file_tools builds read_file, write_file, edit_file, list_files and grep_files; read_only leaves out the writers", () => {
    const root = tmpPath();
    expect(makeFileTools(root).map((tool) => tool.name)).toEqual([
      "read_file",
      "write_file",
      "edit_file",
      "list_files",
      "grep_files",
    ]);
    expect(makeFileTools(root, { readOnly: true }).map((tool) => tool.name)).toEqual([
      "read_file",
      "list_files",
      "grep_files",
    ]);
  });

  it("read_file(path, offset=0, limit=0): numbered like cat -n, paged by offset and limit, truncated at max_read_chars", async () => {
    const root = tmpPath();
    writeFileSync(join(root, "notes.md"), Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    const tools = byName(makeFileTools(root, { maxReadChars: 60 }));
    expect(await tools["read_file"]!.execute({ path: "notes.md", offset: 0, limit: 2 })).toBe(
      "     1\tline 1\n     2\tline 2\n[Showed lines 1-2 of 12. Continue with offset=3.]",
    );
    expect(await tools["read_file"]!.execute({ path: "notes.md", offset: 11, limit: 0 })).toBe(
      "    11\tline 11\n    12\tline 12",
    );
    expect(await tools["read_file"]!.execute({ path: "notes.md" })).toBe(
      "     1\tline 1\n     2\tline 2\n     3\tline 3\n     4\tline 4\n[Output cut at 60 characters: showed lines 1-4 of 12. Continue with offset=5.]",
    );
    expect(DEFAULT_MAX_READ_CHARS).toBe(100_000);
  });

  it("write_file(path, content) creates or overwrites a file, creating parent directories", async () => {
    const root = tmpPath();
    const tools = byName(makeFileTools(root));
    expect(await tools["write_file"]!.execute({ path: "sections/intro.md", content: "# Intro\n" })).toBe(
      "wrote 8 bytes to sections/intro.md",
    );
    expect(await tools["write_file"]!.execute({ path: "sections/intro.md", content: "# Intro!\n" })).toBe(
      "wrote 9 bytes to sections/intro.md",
    );
    expect(readFileSync(join(root, "sections", "intro.md"), "utf8")).toBe("# Intro!\n");
  });

  it("edit_file(path, old_string, new_string, replace_all=False) replaces an exact, unique snippet", async () => {
    const root = tmpPath();
    writeFileSync(join(root, "a.md"), "one two one");
    const tools = byName(makeFileTools(root));
    expect(await tools["edit_file"]!.execute({ path: "a.md", old_string: "two", new_string: "2" })).toBe(
      "replaced 1 occurrence in a.md at line 1",
    );
    expect(
      await tools["edit_file"]!.execute({ path: "a.md", old_string: "one", new_string: "1", replace_all: true }),
    ).toBe("replaced 2 occurrences in a.md at line 1");
    expect(readFileSync(join(root, "a.md"), "utf8")).toBe("1 2 1");
  });

  it('list_files(path=".", pattern="**/*"): files with their sizes, sorted by relative path', async () => {
    const root = tmpPath();
    mkdirSync(join(root, "notes", "old"), { recursive: true });
    writeFileSync(join(root, "input.md"), "in");
    writeFileSync(join(root, "notes", "b.md"), "bbb");
    writeFileSync(join(root, "notes", "a.txt"), "a");
    writeFileSync(join(root, "notes", "old", "c.md"), "cccc");
    const tools = byName(makeFileTools(root));
    expect(await tools["list_files"]!.execute({})).toBe(
      "input.md (2 bytes)\nnotes/a.txt (1 byte)\nnotes/b.md (3 bytes)\nnotes/old/c.md (4 bytes)",
    );
    expect(await tools["list_files"]!.execute({ path: "notes", pattern: "*.md" })).toBe("notes/b.md (3 bytes)");
    expect(await tools["list_files"]!.execute({ pattern: "**/*.md" })).toBe(
      "input.md (2 bytes)\nnotes/b.md (3 bytes)\nnotes/old/c.md (4 bytes)",
    );
    expect(await byName(makeFileTools(root, { maxListEntries: 1 }))["list_files"]!.execute({})).toBe(
      "input.md (2 bytes)\n[… 3 more files not shown (4 in all). Use a narrower pattern or path.]",
    );
  });

  it('grep_files(pattern, path=".", glob="**/*"): each line of the matching files; (?i) works; long lines are cut', async () => {
    const root = tmpPath();
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "src", "a.py"), `import os\nTODO = 1\n# todo: ${"x".repeat(80)} end\n`);
    writeFileSync(join(root, "README.md"), "TODO: docs\n");
    const tools = byName(makeFileTools(root, { maxGrepLineChars: 30 }));
    expect(await tools["grep_files"]!.execute({ pattern: "^TODO", glob: "**/*.py" })).toBe("src/a.py:2:TODO = 1");
    expect(await tools["grep_files"]!.execute({ pattern: "(?i)todo", path: "src" })).toBe(
      `src/a.py:2:TODO = 1\nsrc/a.py:3:# todo: ${"x".repeat(22)}…`,
    );
    expect(await tools["grep_files"]!.execute({ pattern: "(?i)todo" })).toMatch(
      /^README\.md:1:TODO: docs\nsrc\/a\.py:2:/,
    );
    expect(await tools["grep_files"]!.execute({ pattern: "(" })).toMatch(/^Error: /);
  });

  it("paths are workspace-relative: .. and symlinks out of the root are refused with an Error: string, never an exception", async () => {
    const base = tmpPath();
    const root = join(base, "job");
    mkdirSync(root);
    writeFileSync(join(base, "secret.txt"), "secret");
    symlinkSync(base, join(root, "up"));
    const tools = byName(makeFileTools(root));
    // The Node backend's own jail refuses the lookup before the gate's rules are asked.
    expect(await tools["read_file"]!.execute({ path: "../secret.txt" })).toBe(
      `Error: Cannot resolve "../secret.txt": EACCES: permission denied, realpath '${base}/secret.txt' (${base}/secret.txt is outside the allowed roots ${root}). Allowed roots: ${root}.`,
    );
    const outside = (input: string, real: string, asked = real) =>
      `Error: Cannot resolve "${input}": EACCES: permission denied, realpath '${asked}' (${real} is outside the allowed roots ${root}). Allowed roots: ${root}.`;
    expect(await tools["read_file"]!.execute({ path: "/etc/passwd" })).toBe(outside("/etc/passwd", "/etc/passwd"));
    expect(await tools["read_file"]!.execute({ path: "up/secret.txt" })).toBe(
      outside("up/secret.txt", `${base}/secret.txt`, `${root}/up/secret.txt`),
    );
    expect(await tools["write_file"]!.execute({ path: "../evil.txt", content: "x" })).toBe(
      outside("../evil.txt", `${base}/evil.txt`),
    );
    expect(existsSync(join(base, "evil.txt"))).toBe(false);
    expect(await tools["read_file"]!.execute({ path: "" })).toMatch(/^Error: /);
  });
});

describe("A Minimal Example", () => {
  it("a reviewer over /jobs/job-123 writes review.md; max_tool_rounds=40; the structured result flows on", async () => {
    const jobs = tmpPath();
    const workspace = join(jobs, "jobs", "job-123");
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, "app.py"), "print('hi')\n");
    const llm = policyModel((options, n) =>
      n === 0
        ? { calls: [{ tool: "read", input: { path: "app.py", offset: null, limit: null } }] }
        : n === 1
          ? { calls: [{ tool: "write", input: { path: "review.md", content: "No issues.\n" } }] }
          : { text: JSON.stringify({ summary: "clean", issues_found: 0 }) },
    );
    const reviewer = createWorkspaceAgent({
      model: llm,
      fs: nodeFileSystem({ cwd: workspace }),
      instructions: "Review the code in this workspace and write your findings to review.md.",
      maxToolRounds: 40,
      // a cache hit whose files are missing (e.g. a fresh checkout) is re-executed
      expectedOutputFiles: () => ["review.md"],
    });
    const result = await reviewer.generate({ prompt: "Review the code." });
    expect(JSON.parse(result.text)).toEqual({ summary: "clean", issues_found: 0 });
    expect([result.ok, result.rounds, result.maxToolRounds]).toEqual([true, 2, 40]);
    expect(readFileSync(join(workspace, "review.md"), "utf8")).toBe("No issues.\n");
  });
});

describe("How the Workspace Is Found", () => {
  it("a setup step writes input.md into the job directory; the workspace agent downstream works in the same directory", async () => {
    const work = tmpPath();
    const jobDir = join(work, "job-7");
    mkdirSync(jobDir, { recursive: true }); // job_dir.mkdir(parents=True, exist_ok=True)
    writeFileSync(join(jobDir, "input.md"), "draft text\n");
    const model = policyModel((options, n) =>
      n === 0
        ? { calls: [{ tool: "read", input: { path: "input.md", offset: null, limit: null } }] }
        : { text: "read it" },
    );
    const agent = createWorkspaceAgent({ model, fs: nodeFileSystem({ cwd: realpathSync(jobDir) }) });
    const result = await agent.generate({ prompt: "Use input.md." });
    expect(result.steps[0]!.toolResults.map((part) => resultText(part.output as ToolResult))).toEqual(["1|draft text"]);
  });
});

describe("Caching and Files on Disk", () => {
  const writer = (path: string, content: string) =>
    policyModel((options, n) =>
      toolNamesOf(options).includes("write") && n % 2 === 0
        ? { calls: [{ tool: "write", input: { path, content } }] }
        : { text: "written" },
    );

  it("the cache key includes the workspace root: the same request in another directory is not a hit", async () => {
    const fs = memoryFileSystem({ files: { "/jobs/a/notes/n.md": "n\n", "/jobs/b/notes/n.md": "n\n" } });
    const cache = memoryRunCache();
    const model = writer("out.md", "x\n");
    const inA = createWorkspaceAgent({ model, fs, cwd: "/jobs/a", cache });
    const inB = createWorkspaceAgent({ model, fs, cwd: "/jobs/b", cache });
    expect((await inA.generate({ prompt: "go" })).cached).toBe(false);
    expect((await inA.generate({ prompt: "go" })).cached).toBe(true);
    expect((await inB.generate({ prompt: "go" })).cached).toBe(false);
  });

  it("input_globs fold the matching files into the key (hashFiles); a changed input is a miss", async () => {
    const fs = memoryFileSystem({ files: { "/w/notes/a.md": "alpha\n", "/w/other.txt": "o\n" } });
    const agent = createWorkspaceAgent({
      model: writer("section.md", "text\n"),
      fs,
      cwd: "/w",
      cache: memoryRunCache(),
      inputGlobs: ["notes/*.md"],
    });
    const before = await hashFiles(fs, ["notes/*.md"], { cwd: "/w" });
    expect((await agent.generate({ prompt: "write" })).cached).toBe(false);
    await fs.writeFile("/w/other.txt", new TextEncoder().encode("changed\n"));
    expect((await agent.generate({ prompt: "write" })).cached).toBe(true);
    await fs.writeFile("/w/notes/a.md", new TextEncoder().encode("alpha, edited\n"));
    expect(await hashFiles(fs, ["notes/*.md"], { cwd: "/w" })).not.toBe(before);
    expect((await agent.generate({ prompt: "write" })).cached).toBe(false);
  });

  it("expected_output_files: a hit whose files are missing is treated as a miss and runs again", async () => {
    const fs = memoryFileSystem({ files: { "/w/request.md": "r\n" } });
    const model = writer("sections/one.md", "One.\n");
    const agent = createWorkspaceAgent({
      model,
      fs,
      cwd: "/w",
      cache: memoryRunCache(),
      expectedOutputFiles: () => ["sections/one.md"],
    });
    expect((await agent.generate({ prompt: "write one" })).cached).toBe(false);
    expect((await agent.generate({ prompt: "write one" })).cached).toBe(true);
    await fs.rm("/w/sections/one.md");
    const again = await agent.generate({ prompt: "write one" });
    expect([again.cached, again.modelCalls > 0]).toEqual([false, true]);
    expect(new TextDecoder().decode(await fs.readFile("/w/sections/one.md"))).toBe("One.\n");
  });

  it("the key is computed again after the run: a worker that edits its inputs is found by the next run over the edited files", async () => {
    const fs = memoryFileSystem({ files: { "/w/notes/a.md": "draft\n" } });
    const model = policyModel((options, n) =>
      toolNamesOf(options).includes("write") && n % 2 === 0
        ? { calls: [{ tool: "write", input: { path: "notes/a.md", content: "final\n" } }] }
        : { text: "edited" },
    );
    const agent = createWorkspaceAgent({ model, fs, cwd: "/w", cache: memoryRunCache(), inputGlobs: ["notes/*.md"] });
    expect((await agent.generate({ prompt: "finish the notes" })).cached).toBe(false);
    expect((await agent.generate({ prompt: "finish the notes" })).cached).toBe(true);
    await fs.writeFile("/w/notes/a.md", new TextEncoder().encode("draft\n")); // the unedited input again
    expect((await agent.generate({ prompt: "finish the notes" })).cached).toBe(false);
  });
});

describe("Validating What the Model Wrote", () => {
  it("extra_validation: a string goes back to the model as feedback and the request is retried", async () => {
    const fs = memoryFileSystem({ files: { "/w/notes.md": "notes\n" } });
    const input = { output_file: "sections/two.md" };
    const model = policyModel((options, n) => {
      if (n === 0) return { text: "done (without writing)" };
      if (n === 1) return { calls: [{ tool: "write", input: { path: input.output_file, content: "short\n" } }] };
      if (n === 2) return { text: "wrote a short one" };
      if (n === 3)
        return { calls: [{ tool: "write", input: { path: input.output_file, content: `${"long ".repeat(200)}\n` } }] };
      return { text: "wrote it" };
    });
    const agent = createWorkspaceAgent<{ output_file: string }>({
      model,
      fs,
      cwd: "/w",
      maxValidationRetries: 2,
      validate: async ({ fs: files, input: request }) => {
        const path = `/w/${request.output_file}`;
        const exists = await files.stat(path).then(
          () => true,
          () => false,
        );
        if (!exists) return `Write the section to ${request.output_file} with write_file.`;
        if (new TextDecoder().decode(await files.readFile(path)).length < 800) {
          return "The section is too short; expand it to at least 800 characters.";
        }
        return undefined;
      },
    });
    const result = await agent.generate({ prompt: "Write the requested section.", input });
    expect([result.ok, result.attempts, result.text]).toEqual([true, 3, "wrote it"]);
    expect(result.feedback).toEqual([
      "Your result did not pass the checks:\n- Write the section to sections/two.md with write_file.\nFix this, then give your final answer again.",
      "Your result did not pass the checks:\n- The section is too short; expand it to at least 800 characters.\nFix this, then give your final answer again.",
    ]);
    expect(userTextsOf(model.doGenerateCalls[4]!).slice(1)).toEqual(result.feedback);
  });
});

describe("Configuration", () => {
  it("defaults: read_only False, max_tool_rounds 40, input_globs [], max_read_chars 100000, extra tools after the file tools", async () => {
    expect(DEFAULT_MAX_TOOL_ROUNDS).toBe(40);
    expect(DEFAULT_MAX_READ_CHARS).toBe(100_000);
    const fs = memoryFileSystem({ files: { "/w/a.md": "a\n" } });
    const model = policyModel(() => ({ text: "ok" }));
    const { tool } = await import("ai");
    const { z } = await import("zod");
    const extra = tool({
      description: "Echo.",
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    });
    await createWorkspaceAgent({ model, fs, cwd: "/w", extraTools: { echo: extra } }).generate({ prompt: "x" });
    await createWorkspaceAgent({ model, fs, cwd: "/w", readOnly: true }).generate({ prompt: "x" });
    expect(model.doGenerateCalls.map(toolNamesOf)).toEqual([
      ["read", "list", "glob", "grep", "write", "edit", "apply_patch", "echo"],
      ["read", "list", "glob", "grep"],
    ]);
  });

  it("max_tool_rounds: when the limit is reached the model is asked for its final answer with tools disabled", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.md": "a\n" } });
    const model = policyModel((options) =>
      toolNamesOf(options).length > 0 && options.toolChoice?.type !== "none"
        ? { calls: [{ tool: "read", input: { path: "a.md", offset: null, limit: null } }] }
        : { text: "final" },
    );
    const result = await createWorkspaceAgent({ model, fs, cwd: "/w", maxToolRounds: 3 }).generate({ prompt: "loop" });
    expect([result.text, result.rounds, result.modelCalls]).toEqual(["final", 3, 4]);
  });
});

describe("Using the Pieces Directly", () => {
  it("make_file_tools(Workspace(job_dir), read_only=True); constructing it has no side effects, the first write_file creates the directory", async () => {
    const base = tmpPath();
    const jobDir = join(base, "jobs", "job-9");
    const tools = byName(makeFileTools(jobDir));
    expect(existsSync(jobDir)).toBe(false);
    expect(await tools["list_files"]!.execute({})).toMatch(/^Error: File not found: \.\./);
    expect(await tools["write_file"]!.execute({ path: "summary.md", content: "s\n" })).toBe(
      "wrote 2 bytes to summary.md",
    );
    expect(readFileSync(join(jobDir, "summary.md"), "utf8")).toBe("s\n");
    const readOnly = byName(makeFileTools(jobDir, { readOnly: true }));
    expect(Object.keys(readOnly)).toEqual(["read_file", "list_files", "grep_files"]);
    expect(await readOnly["list_files"]!.execute({})).toBe("summary.md (2 bytes)");
  });

  it("hash_files: a stable digest of the matching files' paths and contents", async () => {
    const fs = memoryFileSystem({ files: { "/w/notes/a.md": "a\n", "/w/notes/b.md": "b\n" } });
    const first = await hashFiles(fs, ["notes/*.md"], { cwd: "/w" });
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashFiles(fs, ["notes/*.md"], { cwd: "/w" })).toBe(first);
    await fs.rename("/w/notes/b.md", "/w/notes/c.md");
    expect(await hashFiles(fs, ["notes/*.md"], { cwd: "/w" })).not.toBe(first);
  });
});

/**
 * The README's examples are tested: every fenced block whose info string is `ts test` runs here
 * (imports of `better-fs-tools/...` point at `src/`), and the `text output` block right after
 * one must equal what the example printed with `console.log`, line for line. A block that throws,
 * prints something else, or whose substitution below no longer matches, fails its test.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { format } from "node:util";
import { afterAll, describe, expect, it, vi } from "vitest";
import { scriptedModel } from "./ai-sdk/mock-model.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const GENERATED = join(ROOT, "test", "readme", ".generated");

/** Package subpaths → source entries (package.json `exports`, dist → src). */
const SUBPATHS: Readonly<Record<string, string>> = {
  "better-fs-tools": "src/index.ts",
  "better-fs-tools/memory": "src/fs/memory.ts",
  "better-fs-tools/node": "src/fs/node.ts",
  "better-fs-tools/opfs": "src/fs/opfs.ts",
  "better-fs-tools/idb": "src/fs/idb.ts",
  "better-fs-tools/shell": "src/shell/index.ts",
  "better-fs-tools/ai-sdk": "src/ai-sdk/index.ts",
  "better-fs-tools/sandbox": "src/sandbox/index.ts",
};

/** What a README example uses that a test cannot: a real model becomes a scripted one. */
const SUBSTITUTIONS: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  "quick-start": [['openai("gpt-5.1")', "(globalThis as any).__readmeModel"]],
};

/** Scripted models for the examples that call one, by example name. */
const MODELS: Readonly<Record<string, () => unknown>> = {
  "quick-start": () =>
    scriptedModel([
      { calls: [{ tool: "read", input: { path: "notes.txt", offset: null, limit: null } }] },
      { calls: [{ tool: "edit", input: { path: "notes.txt", oldText: "teh", newText: "the", replaceAll: null } }] },
      { text: "Fixed the typo in notes.txt." },
    ]),
};

interface Example {
  readonly name: string;
  readonly line: number;
  readonly code: string;
  readonly output: string | undefined;
}

/** The `ts test` blocks of a markdown text, each with the `text output` block following it. */
export function extractExamples(markdown: string): Example[] {
  const fence = /^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;
  const blocks: { info: string; body: string; start: number; end: number }[] = [];
  for (let match = fence.exec(markdown); match !== null; match = fence.exec(markdown)) {
    blocks.push({ info: (match[1] ?? "").trim(), body: match[2] ?? "", start: match.index, end: match.index + match[0].length });
  }
  const examples: Example[] = [];
  blocks.forEach((block, index) => {
    const words = block.info.split(/\s+/);
    if (words[0] !== "ts" || words[1] !== "test") return;
    const name = words[2] ?? `line-${markdown.slice(0, block.start).split("\n").length}`;
    const next = blocks[index + 1];
    const between = next === undefined ? "" : markdown.slice(block.end, next.start);
    const output = next !== undefined && next.info === "text output" && !between.includes("```") && between.split("\n").length <= 4 ? next.body : undefined;
    examples.push({ name, line: markdown.slice(0, block.start).split("\n").length, code: block.body, output });
  });
  return examples;
}

function rewriteImports(code: string, file: string): string {
  return code.replace(/(from\s+|import\s*\(\s*)"(better-fs-tools(?:\/[a-z-]+)?)"/g, (_all, lead: string, specifier: string) => {
    const target = SUBPATHS[specifier];
    if (target === undefined) throw new Error(`README imports ${specifier}, which is not a package subpath`);
    let path = relative(dirname(file), join(ROOT, target)).replace(/\.ts$/, ".js");
    if (!path.startsWith(".")) path = `./${path}`;
    return `${lead}"${path}"`;
  });
}

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const examples = extractExamples(readme);

describe("README examples", () => {
  // README_KEEP=1 keeps the generated examples and what each printed (`<name>.out`) for a look.
  afterAll(() => {
    if (process.env.README_KEEP !== "1") rmSync(GENERATED, { recursive: true, force: true });
  });

  it("has runnable examples with unique names", () => {
    const names = examples.map((example) => example.name);
    expect(names.length).toBeGreaterThanOrEqual(10);
    expect(new Set(names).size).toBe(names.length);
  });

  it("keeps its opening: the title, then the two commands", () => {
    expect(readme.split("\n").slice(0, 5).join("\n")).toBe(
      [
        "# better-fs-tools",
        "",
        "```sh",
        "npm ci && npm start   # build and serve the playground (an agent on real files, offline, in your browser)",
        "npm test              # every test: Node and headless Chromium (needs /usr/bin/chromium)",
      ].join("\n"),
    );
  });

  for (const example of examples) {
    it(`${example.name} (README.md line ${example.line}) runs${example.output === undefined ? "" : " and prints its output"}`, async () => {
      mkdirSync(GENERATED, { recursive: true });
      const file = join(GENERATED, `${example.name}.ts`);
      let code = example.code;
      for (const [from, to] of SUBSTITUTIONS[example.name] ?? []) {
        expect(code, `substitution ${from} in ${example.name}`).toContain(from);
        code = code.split(from).join(to);
      }
      writeFileSync(file, `${rewriteImports(code, file)}\nexport {};\n`);
      const model = MODELS[example.name];
      (globalThis as { __readmeModel?: unknown }).__readmeModel = model?.();
      const lines: string[] = [];
      const spy = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
        lines.push(format(...args));
      });
      try {
        await import(/* @vite-ignore */ `./readme/.generated/${example.name}.ts`);
      } finally {
        spy.mockRestore();
      }
      if (process.env.README_KEEP === "1") writeFileSync(join(GENERATED, `${example.name}.out`), `${lines.join("\n")}\n`);
      if (example.output !== undefined) expect(lines.join("\n")).toBe(example.output.replace(/\n$/, ""));
    });
  }
});

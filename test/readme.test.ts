/**
 * The examples of every user-facing text are tested: README.md, CONTRIBUTING.md and docs/*.md.
 *
 * - Every fenced `ts` block is type-checked as written (imports of `better-fs-tools/...` point
 *   at `src/`), with the repository's compiler options.
 * - Every block whose info string is `ts test NAME` also runs, and the `text output` block right
 *   after it must equal what it printed with `console.log` (formatted as Node prints), line for
 *   line. A block that throws, prints something else, or whose substitution below no longer
 *   matches fails its test.
 *
 * `README_KEEP=1 npx vitest run --project node test/readme.test.ts` keeps the generated files
 * and each example's actual output (`test/readme/.generated/PID/run/NAME.out`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { format } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { scriptedModel } from "./ai-sdk/mock-model.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Per process, so two test runs at once do not share files. */
const GENERATED = join(ROOT, "test", "readme", ".generated", String(process.pid));
const RUN_DIR = join(GENERATED, "run");
const CHECK_DIR = join(GENERATED, "check");

/** Package subpaths → source entries: package.json `exports` (`types`, dist → src). */
const SUBPATHS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(
    (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        exports: Record<string, string | { types?: string }>;
      }
    ).exports,
  ).flatMap(([subpath, target]) =>
    typeof target === "object" && target.types !== undefined
      ? [[`better-fs-tools${subpath.slice(1)}`, target.types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts")]]
      : [],
  ),
);

/** What a README example uses that a test cannot: a real model becomes a scripted one. */
const SUBSTITUTIONS: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  "quick-start": [['openai("gpt-5.1")', "(globalThis as { __readmeModel?: never }).__readmeModel!"]],
  agent: [['openai("gpt-5.1")', "(globalThis as { __readmeModel?: never }).__readmeModel!"]],
  "recommended-node": [['openai("gpt-5.1")', "(globalThis as { __readmeModel?: never }).__readmeModel!"]],
  "recommended-browser": [['openai("gpt-5.1")', "(globalThis as { __readmeModel?: never }).__readmeModel!"]],
};

/** Scripted models for the examples that call one, by example name. */
const MODELS: Readonly<Record<string, () => unknown>> = {
  "quick-start": () =>
    scriptedModel([
      { calls: [{ tool: "read", input: { path: "notes.txt", offset: null, limit: null } }] },
      { calls: [{ tool: "edit", input: { path: "notes.txt", oldText: "teh", newText: "the", replaceAll: null } }] },
      { text: "Fixed the typo in notes.txt." },
    ]),
  agent: () =>
    scriptedModel([
      { calls: [{ tool: "read", input: { path: "notes/a.md", offset: null, limit: null } }] },
      { calls: [{ tool: "write", input: { path: "report.md", content: "# Report\n\n- alpha\n" } }] },
      { text: "Wrote report.md." },
    ]),
  "recommended-node": () =>
    scriptedModel([
      { calls: [{ tool: "read", input: { path: "LICENSE", offset: 1, limit: 1 } }] },
      { calls: [{ tool: "bash", input: { command: "rm -rf dist", timeout: null, cwd: null } }] },
      { text: "MIT. I may not remove dist/ here." },
    ]),
  "recommended-browser": () =>
    scriptedModel([
      { calls: [{ tool: "bash", input: { command: "grep -n teh notes.txt", timeout: null, cwd: null } }] },
      {
        calls: [
          {
            tool: "apply_patch",
            input: {
              patch: "*** Begin Patch\n*** Update File: notes.txt\n@@\n-fix teh typo\n+fix the typo\n*** End Patch",
            },
          },
        ],
      },
      { text: "Fixed the typo in notes.txt." },
    ]),
};

interface Example {
  readonly name: string;
  readonly line: number;
  readonly code: string;
  /** Runs in the test (`ts test NAME`), else only type-checked. */
  readonly run: boolean;
  readonly output: string | undefined;
}

/** The `ts` blocks of a markdown text, each with the `text output` block following it. */
function extractExamples(markdown: string): Example[] {
  const fence = /^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;
  const blocks: { info: string; body: string; start: number; end: number }[] = [];
  for (let match = fence.exec(markdown); match !== null; match = fence.exec(markdown)) {
    blocks.push({
      info: (match[1] ?? "").trim(),
      body: match[2] ?? "",
      start: match.index,
      end: match.index + match[0].length,
    });
  }
  const examples: Example[] = [];
  blocks.forEach((block, index) => {
    const words = block.info.split(/\s+/);
    if (words[0] !== "ts") return;
    const line = markdown.slice(0, block.start).split("\n").length;
    const run = words[1] === "test";
    const name = (run ? words[2] : undefined) ?? `line-${line}`;
    const next = blocks[index + 1];
    const between = next === undefined ? "" : markdown.slice(block.end, next.start);
    const output =
      run && next !== undefined && next.info === "text output" && between.trim() === "" ? next.body : undefined;
    examples.push({ name, line, code: block.body, run, output });
  });
  return examples;
}

/** Where a README example's relative imports resolve from, as if the file lived there (a test file). */
const RELATIVE_BASE = join(ROOT, "test", "fs");

function rewriteImports(code: string, file: string): string {
  return code.replace(
    /(from\s+|import\s*\(\s*)"((?:better-fs-tools|\.)[^"]*)"/g,
    (_all, lead: string, specifier: string) => {
      let target: string;
      if (specifier.startsWith(".")) {
        target = join(RELATIVE_BASE, specifier);
      } else {
        const entry = SUBPATHS[specifier];
        if (entry === undefined) throw new Error(`README imports ${specifier}, which is not a package subpath`);
        target = join(ROOT, entry).replace(/\.ts$/, ".js");
      }
      let path = relative(dirname(file), target);
      if (!path.startsWith(".")) path = `./${path}`;
      return `${lead}"${path}"`;
    },
  );
}

/** The texts whose examples are tested, relative to the repository root. */
const DOCUMENTS = [
  "README.md",
  "CONTRIBUTING.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

interface DocumentExample extends Example {
  readonly document: string;
}

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const examples: DocumentExample[] = DOCUMENTS.flatMap((document) =>
  extractExamples(readFileSync(join(ROOT, document), "utf8")).map((example) => ({
    ...example,
    // Unnamed blocks are named by their line: prefix the document so two documents never clash.
    name: /^line-\d+$/.test(example.name)
      ? `${document.replace(/\.md$/, "").replace(/[^a-z0-9]+/gi, "-")}-${example.name}`
      : example.name,
    document,
  })),
);

/** The longest the README may be, in lines: a newcomer reads it in five minutes; the rest is in docs/. */
const README_MAX_LINES = 300;

describe("README and docs examples", () => {
  beforeAll(() => {
    rmSync(GENERATED, { recursive: true, force: true });
    mkdirSync(RUN_DIR, { recursive: true });
    mkdirSync(CHECK_DIR, { recursive: true });
    for (const example of examples) {
      const checkFile = join(CHECK_DIR, `${example.name}.ts`);
      writeFileSync(checkFile, `${rewriteImports(example.code, checkFile)}\nexport {};\n`);
    }
    writeFileSync(
      join(CHECK_DIR, "tsconfig.json"),
      JSON.stringify({
        // The check config: its paths map package names to src/, for the test modules (test/fs/)
        // that the examples' relative imports reach.
        extends: "../../../../../tsconfig.check.json",
        compilerOptions: { noEmit: true, rootDir: "../../../../.." },
        include: ["*.ts"],
      }),
    );
  });
  // README_KEEP=1 keeps the generated examples and what each printed (`run/<name>.out`).
  afterAll(() => {
    if (process.env.README_KEEP !== "1") rmSync(GENERATED, { recursive: true, force: true });
  });

  it("has runnable examples with unique names across every document", () => {
    const names = examples.map((example) => example.name);
    expect(examples.filter((example) => example.run).length).toBeGreaterThanOrEqual(25);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it(`keeps the README short: at most ${README_MAX_LINES} lines, with a runnable quick start of at most 15 lines that needs no key`, () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(README_MAX_LINES);
    const quick = examples.find((example) => example.name === "quick-core");
    expect(quick?.document).toBe("README.md");
    expect(quick?.run).toBe(true);
    expect(quick?.code.trimEnd().split("\n").length).toBeLessThanOrEqual(15);
    expect(quick?.code).not.toMatch(/openai|anthropic|API_KEY/i);
  });

  it("keeps its opening: the title, then the two commands", () => {
    expect(readme.split("\n").slice(0, 5).join("\n")).toBe(
      [
        "# better-fs-tools",
        "",
        "```sh",
        "npm ci && npm start   # build and serve the playground (an agent on real files, offline, in your browser)",
        "npm test              # every test: Node and headless Chromium (yours, or one from npm: see CONTRIBUTING.md)",
      ].join("\n"),
    );
  });

  it("names every runtime dependency of package.json in the Install sentence, and no other", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const sentence = /The core \(`better-fs-tools`\) depends on ([^.]*)\./.exec(readme.replaceAll("\n", " "))?.[1];
    const named = [...(sentence ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1]).sort();
    expect(named).toEqual(Object.keys(pkg.dependencies).sort());
  });

  it("type-checks every ts example as written", () => {
    const tsc = spawnSync(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", join(CHECK_DIR, "tsconfig.json")], {
      encoding: "utf8",
    });
    const lines = examples.map((example) => `${example.name}.ts = ${example.document} line ${example.line + 1}`);
    expect(`${tsc.stdout}${tsc.stderr}`, `generated files: ${lines.join(", ")}`).toBe("");
    expect(tsc.status).toBe(0);
  });

  for (const example of examples.filter((candidate) => candidate.run)) {
    it(`${example.name} (${example.document} line ${example.line}) runs${example.output === undefined ? "" : " and prints its output"}`, async () => {
      const file = join(RUN_DIR, `${example.name}.ts`);
      let code = example.code;
      for (const [from, to] of SUBSTITUTIONS[example.name] ?? []) {
        expect(code, `substitution ${from} in ${example.name}`).toContain(from);
        code = code.split(from).join(to);
      }
      writeFileSync(file, `${rewriteImports(code, file)}\nexport {};\n`);
      (globalThis as { __readmeModel?: unknown }).__readmeModel = MODELS[example.name]?.();
      const lines: string[] = [];
      const spy = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
        lines.push(format(...args));
      });
      try {
        await import(/* @vite-ignore */ `./readme/.generated/${process.pid}/run/${example.name}.ts`);
      } finally {
        spy.mockRestore();
      }
      if (process.env.README_KEEP === "1") writeFileSync(join(RUN_DIR, `${example.name}.out`), `${lines.join("\n")}\n`);
      if (example.output !== undefined) expect(lines.join("\n")).toBe(example.output.replace(/\n$/, ""));
    });
  }
});

/** The repository's address, from package.json: absolute links into it must name a file it has. */
const REPOSITORY_BLOB = "https://github.com/better-fs-tools/better-fs-tools/blob/main/";

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a markdown text's headings (outside code fences). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) anchors.add(headingAnchor(line.replace(/^#+ /, "")));
  }
  return anchors;
}

/** The targets of a markdown text's inline links, outside code fences and code spans. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string);
}

describe("links in README, CONTRIBUTING and docs", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    files: string[];
    repository: { url: string };
    homepage: string;
    bugs: { url: string };
    keywords: string[];
  };

  it("package.json names the repository, homepage, bugs and keywords, and ships docs/", () => {
    expect(pkg.repository.url).toBe(`git+${REPOSITORY_BLOB.replace(/\/blob\/main\/$/, "")}.git`);
    expect(pkg.homepage).toBe(`${REPOSITORY_BLOB.replace(/\/blob\/main\/$/, "")}#readme`);
    expect(pkg.bugs.url).toBe(`${REPOSITORY_BLOB.replace(/\/blob\/main\/$/, "")}/issues`);
    expect(pkg.keywords.length).toBeGreaterThanOrEqual(5);
    expect(pkg.files).toEqual(["dist", "docs"]);
  });

  for (const document of DOCUMENTS) {
    it(`${document}: every link resolves (files and headings); from shipped texts only to shipped files or the repository`, () => {
      const text = readFileSync(join(ROOT, document), "utf8");
      const shipped = document === "README.md" || document.startsWith("docs/");
      const broken: string[] = [];
      for (const link of linksOf(text)) {
        if (/^https?:\/\//.test(link)) {
          if (link.startsWith(REPOSITORY_BLOB)) {
            const path = link.slice(REPOSITORY_BLOB.length).split("#")[0] as string;
            if (!existsSync(join(ROOT, path))) broken.push(`${link}: no such file in the repository`);
          }
          continue;
        }
        const [pathPart, anchor] = link.split("#") as [string, string | undefined];
        const target = pathPart === "" ? document : join(dirname(document), pathPart);
        if (!existsSync(join(ROOT, target))) {
          broken.push(`${link}: no such file`);
          continue;
        }
        if (shipped && !/^(README\.md|LICENSE|docs\/[a-z-]+\.md)$/.test(target)) {
          broken.push(`${link}: ${target} is not in the package (link to the repository instead)`);
        }
        if (anchor !== undefined && !anchorsOf(readFileSync(join(ROOT, target), "utf8")).has(anchor)) {
          broken.push(`${link}: no heading #${anchor} in ${target}`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});

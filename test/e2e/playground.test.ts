/**
 * End-to-end tests of the playground (`npm start`): the built app, served on 127.0.0.1 by the
 * test itself, driven in Chromium (scripts/chromium.mjs) through Playwright. A persistent browser
 * context is used so OPFS and IndexedDB behave as they do for a user (and survive a reload).
 *
 * Screenshots of each panel are taken along the way and compared, in the last test, with the
 * references in test/e2e/__screenshots__/ (see ./screenshots.ts; `UPDATE_SCREENSHOTS=1` rewrites them).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { strToU8, unzipSync, zipSync } from "fflate";
import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, serveDemo, type ServedDemo } from "./demo-server.js";
import { launchPersistentChromium, resolveChromium } from "../../scripts/chromium.mjs";
import {
  MAX_MISMATCHED_RATIO,
  SCREENSHOTS,
  UPDATE_SCREENSHOTS,
  browserLabel,
  compareScreenshot,
  recordBrowser,
  recordedBrowser,
  writeReference,
} from "./screenshots.js";

const SAMPLE = join(DEMO, "sample-project");
/** The browser build of this run, and the one that recorded the reference screenshots. */
const BROWSER = browserLabel(await resolveChromium());
const RECORDED = recordedBrowser();
/** Files in the zip imported into the OPFS mirror (issue 16: a 10,000-file workspace). */
const BIG_ZIP_FILES = 10_000;
/** Shots taken in this run, by reference name (compared or written by the last test). */
const shots = new Map<string, Buffer>();

let profileDir = "";
let demo: ServedDemo | undefined;
let context: BrowserContext;
let page: Page;
let url = "";

/** The sample project as it is on disk: workspace-relative path → text. */
async function sampleFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files.set(relative(SAMPLE, path), await readFile(path, "utf8"));
    }
  };
  await walk(SAMPLE);
  return new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

async function open(): Promise<void> {
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");
}

/** The text of a workspace file as the viewer shows it (one span per line). */
async function viewerText(path: string): Promise<string> {
  const renders = await page.evaluate(() =>
    Number(document.querySelector<HTMLElement>("#viewer")!.dataset["fileRenders"] ?? 0),
  );
  await page.click(`#tree [data-path="${path}"]`);
  await page.waitForFunction(
    (before) => Number(document.querySelector<HTMLElement>("#viewer")!.dataset["fileRenders"] ?? 0) > before,
    renders,
  );
  const code = page.locator(`#viewer .code[data-file="${path}"]`);
  await code.waitFor();
  const lines = await code.locator(".tx").allTextContents();
  return `${lines.join("\n")}\n`;
}

/** Run a tool in the console with this input; returns the output type and the text the model receives. */
async function consoleRun(tool: string, input: unknown): Promise<{ type: string; text: string }> {
  await page.click('[data-tab="console"]');
  await page.selectOption("#console-tool", tool);
  await page.fill("#console-input", JSON.stringify(input, null, 2));
  await page.evaluate(() => delete document.querySelector<HTMLElement>("#console-output")!.dataset["outputType"]);
  await page.click("#console-run");
  const output = page.locator("#console-output[data-output-type]");
  await output.waitFor();
  return { type: (await output.getAttribute("data-output-type"))!, text: (await output.textContent())! };
}

/** The texts of the last run's summary line: memory file, rounds, cache, checks. */
async function runSummary(): Promise<string[]> {
  return page.locator("#chat-log .run-summary").last().locator("span").allTextContents();
}

/** The file count of a cancelled import's status line (`Importing <name> cancelled: N files, S imported.`). */
function cancelledCount(status: string | null, name: string): number {
  const match = new RegExp(
    `^Importing ${name.replace(".", "\\.")} cancelled: (\\d+) files, [\\d.]+ (B|KB|MB) imported\\.$`,
  ).exec(status ?? "");
  if (match === null) throw new Error(`not a cancelled import of ${name}: ${status}`);
  return Number(match[1]);
}

/** Cancel the next import from inside the page once its progress shows at least `files` files done. */
async function cancelImportAt(files: number): Promise<void> {
  await page.evaluate((files) => {
    const label = document.querySelector("#progress-label")!;
    const observer = new MutationObserver(() => {
      const done = /: (\d+) \/ \d+ files · /.exec(label.textContent!);
      if (done === null || Number(done[1]) < files) return;
      observer.disconnect();
      (window as unknown as { progressSeen: string }).progressSeen = label.textContent!;
      document.querySelector<HTMLButtonElement>("#progress-cancel")!.click();
    });
    observer.observe(label, { childList: true, characterData: true, subtree: true });
  }, files);
}

/** Workspace-relative paths of the tree's files under `prefix`, sorted. */
async function treePaths(prefix: string): Promise<string[]> {
  const paths = await page
    .locator(`#tree [data-path^="${prefix}"]`)
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute("data-path")!));
  return paths.sort();
}

/** Send the chat input and wait for the run to finish. */
async function runChat(): Promise<void> {
  // A replay can finish before a check for the running state would see it: clear the state first.
  await page.evaluate(() => delete document.querySelector<HTMLElement>("#chat-state")!.dataset["state"]);
  await page.click("#chat-send");
  await page.waitForSelector("#chat-state[data-state=done]");
}

/** Answer the import dialog (a workspace with files asks whether to replace them or merge). */
async function chooseImport(mode: "replace" | "merge"): Promise<void> {
  await page.waitForSelector("#import-dialog[open]");
  await page.click(`#import-${mode}`);
}

async function terminalRun(command: string): Promise<void> {
  await page.click('[data-tab="terminal"]');
  await page.fill("#terminal-input", command);
  await page.press("#terminal-input", "Enter");
  await page.waitForFunction(() => !document.querySelector<HTMLInputElement>("#terminal-input")!.disabled);
}

/** Screenshot one panel, unfocused; run times (agent header, console status) are masked: they differ run to run. */
async function screenshot(selector: string, name: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  shots.set(
    name,
    await page.locator(selector).screenshot({
      mask: [page.locator("#chat-state, #console-status")],
      maskColor: "#eef0f4",
    }),
  );
}

beforeAll(async () => {
  profileDir = await mkdtemp(join(tmpdir(), "playground-e2e-profile-"));
  demo = await serveDemo("playground-e2e-dist-");
  url = demo.url;
  context = await launchPersistentChromium(profileDir, {
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
  });
  // These tests start on memory (a fresh sample project per page load); a first visit's default,
  // the OPFS mirror, is tested in product.test.ts.
  await context.addInitScript(() => {
    if (localStorage.getItem("playground.backend") === null) localStorage.setItem("playground.backend", "memory");
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on("dialog", (dialog) => void dialog.accept());
  await open();
});

afterAll(async () => {
  await context?.close();
  await demo?.close();
  await rm(profileDir, { recursive: true, force: true });
});

describe("playground", () => {
  it("loads the sample project on first visit, with README.md open", async () => {
    const sample = await sampleFiles();
    const bytes = [...sample.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    expect(await page.textContent("#tree-count")).toBe(`${sample.size} files · ${formatBytes(bytes)}`);
    expect(
      new Set(
        await page
          .locator("#tree [data-path]")
          .evaluateAll((buttons) => buttons.map((button) => button.getAttribute("data-path"))),
      ),
    ).toEqual(new Set(sample.keys()));
    expect(await page.textContent("#viewer-title")).toBe("README.md");
    expect(await viewerText("README.md")).toBe(sample.get("README.md"));
    expect(await page.textContent("#model-name")).toBe("offline scripted");
  });

  it("runs the scripted agent to completion: edit, patch, bash and report land in the files", async () => {
    const sample = await sampleFiles();
    await page.click("#chat-send");
    await page.waitForSelector("#chat-state[data-state=done]");
    expect(await page.textContent("#chat-state")).toMatch(/^done: 10 steps in \d+\.\d s$/);
    const calls = page.locator("#chat-log .call");
    expect(
      await calls.evaluateAll((cards) => cards.map((card) => `${card.getAttribute("data-tool")}:${card.className}`)),
    ).toEqual([
      "list:call ok",
      "read:call ok",
      "grep:call ok",
      "read:call ok",
      "edit:call ok",
      "read:call ok",
      "apply_patch:call ok",
      "bash:call ok",
      "write:call ok",
    ]);
    expect(await page.locator("#chat-log .msg.assistant").last().textContent()).toBe(
      "Done. I made 9 tool calls, fixed the first TODO with an edit, updated the changelog with a patch, and wrote AGENT_REPORT.md.",
    );
    expect(await calls.nth(7).locator("pre.result").textContent()).toBe(`${sample.size}\n1\n[exit code 0]`);
    // What the agent layer did: the memory file, the rounds of the maximum, the cache, the checks.
    expect(await runSummary()).toEqual([
      `AGENTS.md loaded (${Buffer.byteLength(sample.get("AGENTS.md")!)} bytes)`,
      "9 of 30 tool rounds",
      "cache miss, 10 model calls",
      "checks passed",
    ]);

    // The viewer shows each change as a diff, newest first.
    expect(await page.textContent("#change-count")).toBe("3");
    expect(await page.locator("#viewer .change .path").allTextContents()).toEqual([
      "AGENT_REPORT.md",
      "CHANGELOG.md",
      "src/lib/validate.ts",
    ]);
    expect(
      await page.locator('#viewer .change[data-change-path="src/lib/validate.ts"] .diff-line.add').allTextContents(),
    ).toEqual([
      "+  if (title.trim().length > MAX_TITLE_LENGTH) {",
      "+    throw new Error(`title must be at most ${MAX_TITLE_LENGTH} characters`);",
      "+  }",
    ]);
    expect(
      await page.locator('#viewer .change[data-change-path="src/lib/validate.ts"] .diff-line.del').allTextContents(),
    ).toEqual(["-  // TODO: reject titles longer than MAX_TITLE_LENGTH"]);
    await screenshot("#viewer-panel", "viewer");
    await screenshot("#chat-panel", "chat");
    shots.set(
      "page",
      await page.screenshot({ mask: [page.locator("#chat-state, #console-status")], maskColor: "#eef0f4" }),
    );

    // The files themselves.
    expect(await viewerText("src/lib/validate.ts")).toBe(
      sample
        .get("src/lib/validate.ts")!
        .replace(
          "  // TODO: reject titles longer than MAX_TITLE_LENGTH\n",
          "  if (title.trim().length > MAX_TITLE_LENGTH) {\n    throw new Error(`title must be at most ${MAX_TITLE_LENGTH} characters`);\n  }\n",
        ),
    );
    expect(await viewerText("CHANGELOG.md")).toBe(
      sample
        .get("CHANGELOG.md")!
        .replace(
          "## Unreleased\n\n",
          "## Unreleased\n\n- Reject todo titles longer than MAX_TITLE_LENGTH (200 characters).\n",
        ),
    );
    expect(await viewerText("AGENT_REPORT.md")).toBe(
      [
        "# Agent report",
        "",
        "- Top-level entries: 13.",
        "- Project: tiny-todos.",
        "- Open to-do comments found: 2.",
        "- Edit of src/lib/validate.ts: replaced 1 occurrence in src/lib/validate.ts at line 9",
        "- Patch: Success. Updated the following files: M CHANGELOG.md",
        `- bash: ${sample.size} files, 1 to-do comments left.`,
        "",
        "Written by the playground's offline scripted model.",
        "",
      ].join("\n"),
    );
    expect(await page.locator('#tree [data-path="AGENT_REPORT.md"]').getAttribute("class")).toBe("file open changed");
    await screenshot("#tree-panel", "tree");
  });

  it("a second turn continues the conversation: the next TODO is triaged and the report rewritten", async () => {
    // Same page as the previous test: the first turn's messages are in the conversation.
    const sample = await sampleFiles();
    await page.press("#chat-input", "Enter");
    await page.waitForSelector("#chat-state[data-state=running]");
    await page.waitForSelector("#chat-state[data-state=done]");
    expect(await page.locator("#chat-log .msg.user").count()).toBe(2);
    expect(await page.locator("#chat-log .call").count()).toBe(18);
    expect(await page.locator("#chat-log .call.ok").count()).toBe(18);
    expect(await page.locator("#chat-log .call").nth(9).getAttribute("data-call-id")).toBe("call-2-0");
    expect(await page.locator("#chat-log .run-summary").count()).toBe(2);
    expect((await runSummary()).slice(1, 3)).toEqual(["9 of 30 tool rounds", "cache miss, 10 model calls"]);
    expect(await viewerText("src/store/memory-store.ts")).toBe(
      sample
        .get("src/store/memory-store.ts")!
        .replace("// TODO: persist todos to disk", "// NOTE (triaged by the playground agent): persist todos to disk"),
    );
    expect(await viewerText("CHANGELOG.md")).toBe(
      sample
        .get("CHANGELOG.md")!
        .replace(
          "## Unreleased\n\n",
          "## Unreleased\n\n- Triaged the first open to-do comment found by the playground agent.\n- Reject todo titles longer than MAX_TITLE_LENGTH (200 characters).\n",
        ),
    );
    expect((await viewerText("AGENT_REPORT.md")).split("\n").slice(4, 6)).toEqual([
      "- Open to-do comments found: 1.",
      "- Edit of src/store/memory-store.ts: replaced 1 occurrence in src/store/memory-store.ts at line 5",
    ]);
  });

  it("a new chat with the same request over the files the run left replays it: 0 model calls; no AGENTS.md is a miss", async () => {
    await open();
    await runChat();
    const answer = await page.locator("#chat-log .msg.assistant").last().textContent();
    const changes = await page.textContent("#change-count");
    await page.click("#chat-new");
    expect(await page.locator("#chat-log > *").count()).toBe(0);
    await runChat();
    expect(await page.textContent("#chat-state")).toMatch(/^done: 0 steps in \d+\.\d s$/);
    expect(await page.locator("#chat-log .call").count()).toBe(0);
    expect(await page.locator("#chat-log .msg.assistant").allTextContents()).toEqual([answer]);
    expect(await runSummary()).toEqual([
      `AGENTS.md loaded (${Buffer.byteLength((await sampleFiles()).get("AGENTS.md")!)} bytes)`,
      "9 of 30 tool rounds",
      "replayed, 0 model calls",
      "checks passed when stored",
    ]);
    expect(await page.getAttribute("#chat-log .run-summary", "data-cached")).toBe("true");
    expect(await page.textContent("#change-count")).toBe(changes);

    // The memory file is part of the key: without it the same request runs the model again.
    await terminalRun("rm AGENTS.md");
    await page.click("#chat-new");
    await runChat();
    expect(await runSummary()).toEqual([
      "no AGENTS.md",
      "9 of 30 tool rounds",
      "cache miss, 10 model calls",
      "checks passed",
    ]);
  });

  it("a run that leaves no AGENT_REPORT.md gets the check's feedback as a new turn, and the second attempt writes it", async () => {
    await open();
    await page.fill("#chat-input", "Review this project, but skip the report.");
    await runChat();
    const feedback =
      "Your result did not pass the checks:\n- The expected output file AGENT_REPORT.md does not exist: write it with the write tool.\nFix this, then give your final answer again.";
    expect(await page.locator("#chat-log .msg.feedback").allTextContents()).toEqual([`check feedback${feedback}`]);
    expect(
      await page.locator("#chat-log .call").evaluateAll((cards) => cards.map((card) => card.getAttribute("data-tool"))),
    ).toEqual(["list", "read", "grep", "read", "edit", "read", "apply_patch", "bash", "write"]);
    expect(await page.locator("#chat-log .msg.assistant").last().textContent()).toBe(
      "Wrote AGENT_REPORT.md, which the check asked for.",
    );
    expect(await runSummary()).toEqual([
      `AGENTS.md loaded (${Buffer.byteLength((await sampleFiles()).get("AGENTS.md")!)} bytes)`,
      "9 of 30 tool rounds",
      "cache miss, 11 model calls",
      "checks passed after 1 feedback round",
    ]);
    expect(await viewerText("AGENT_REPORT.md")).toBe(
      [
        "# Agent report",
        "",
        "- Written because the host's check asked for it; the review is in the previous answer.",
        "",
        "Written by the playground's offline scripted model.",
        "",
      ].join("\n"),
    );
  });

  it("asks the user when the agent reaches outside the workspace; a denial reaches the model and the run goes on", async () => {
    await open();
    await page.fill("#chat-input", "Check /etc/hosts first, then review the project.");
    await page.click("#chat-send");
    await page.waitForSelector("#approval-dialog[open]");
    expect(await page.textContent("#approval-text")).toBe(
      "Allow readFile of /etc/hosts, which is outside the workspace (allowed roots: /workspace)?",
    );
    await page.click("#approval-deny");
    await page.waitForSelector("#chat-state[data-state=done]");
    const first = page.locator("#chat-log .call").first();
    expect(await first.getAttribute("class")).toBe("call failed");
    expect(await first.locator("pre.result").textContent()).toBe(
      "Permission denied: /etc/hosts is outside the workspace and the user did not approve readFile. Allowed roots: /workspace.",
    );
    expect(await page.locator("#chat-log .approval-note").allTextContents()).toEqual(["Denied: readFile /etc/hosts"]);
    expect(await page.locator("#chat-log .call").count()).toBe(10);
    expect((await viewerText("AGENT_REPORT.md")).split("\n")[2]).toBe(
      "- /etc/hosts: Permission denied: /etc/hosts is outside the workspace and the user did not approve readFile. Allowed roots: /workspace.",
    );
  });

  it("stops a running agent, and Reset brings back the sample project", async () => {
    await open();
    const sample = await sampleFiles();
    await page.click("#chat-send");
    await page.waitForSelector("#chat-log .call");
    await page.click("#chat-stop");
    await page.waitForSelector("#chat-state[data-state=stopped]");
    expect(await page.textContent("#chat-state")).toBe("stopped");
    expect(await page.locator("#chat-log .msg.error").allTextContents()).toEqual(["Stopped."]);
    expect(await page.isDisabled("#chat-stop")).toBe(true);
    expect(await consoleRun("write", { path: "scratch.txt", content: "temporary\n" })).toEqual({
      type: "content",
      text: "wrote 10 bytes to scratch.txt",
    });
    await page.click("#reset");
    await page.waitForFunction(
      () => document.querySelector("#status")!.textContent === "Workspace reset to the sample project.",
    );
    expect(
      new Set(
        await page
          .locator("#tree [data-path]")
          .evaluateAll((buttons) => buttons.map((button) => button.getAttribute("data-path"))),
      ),
    ).toEqual(new Set(sample.keys()));
    expect(await page.textContent("#change-count")).toBe("0");
  });

  it("runs every tool from the console and shows exactly what the model receives", async () => {
    await open();
    const sample = await sampleFiles();
    const numbered = (text: string) =>
      text
        .replace(/\n$/, "")
        .split("\n")
        .map((line, index) => `${index + 1}|${line}`)
        .join("\n");

    expect(await consoleRun("read", { path: "src/lib/id.ts", offset: null, limit: null })).toEqual({
      type: "content",
      text: numbered(sample.get("src/lib/id.ts")!),
    });
    expect(await consoleRun("write", { path: "notes/hello.md", content: "# Hello\n" })).toEqual({
      type: "content",
      text: "wrote 8 bytes to notes/hello.md",
    });
    expect(await consoleRun("read", { path: "src/config.ts", offset: 8, limit: 1 })).toEqual({
      type: "content",
      text: "8|export const DEFAULT_PORT = 3000;\n[Showed lines 8-8 of 17. Continue with offset=9.]",
    });
    expect(
      await consoleRun("edit", {
        path: "src/config.ts",
        oldText: "DEFAULT_PORT = 3000",
        newText: "DEFAULT_PORT = 8080",
        replaceAll: null,
      }),
    ).toEqual({
      type: "content",
      text: "replaced 1 occurrence in src/config.ts at line 8",
    });
    expect(
      await consoleRun("apply_patch", { patch: "*** Begin Patch\n*** Add File: docs/faq.md\n+# FAQ\n*** End Patch" }),
    ).toEqual({
      type: "content",
      text: "Success. Updated the following files:\nA docs/faq.md",
    });
    expect(await consoleRun("list", { path: "docs" })).toEqual({
      type: "content",
      text: `api.md (${Buffer.byteLength(sample.get("docs/api.md")!)} bytes)\narchitecture.md (${Buffer.byteLength(sample.get("docs/architecture.md")!)} bytes)\nfaq.md (6 bytes)`,
    });
    expect(await consoleRun("glob", { pattern: "test/*.ts" })).toEqual({
      type: "content",
      text: "test/app.test.ts\ntest/config.test.ts\ntest/memory-store.test.ts\ntest/validate.test.ts",
    });
    expect(await consoleRun("grep", { pattern: "MAX_TITLE_LENGTH", path: "src" })).toEqual({
      type: "content",
      text: "src/lib/validate.ts:3:export const MAX_TITLE_LENGTH = 200;\nsrc/lib/validate.ts:9:  // TODO: reject titles longer than MAX_TITLE_LENGTH",
    });
    expect(await consoleRun("bash", { command: "cat data/seed.json | wc -l", timeout: null, cwd: null })).toEqual({
      type: "content",
      text: "7\n[exit code 0]",
    });
    // Input the strict schema refuses reaches the model as a tool error naming the parameters.
    expect(await consoleRun("read", { file: "README.md" })).toEqual({
      type: "error-text",
      text: 'AI_InvalidToolInputError: Invalid input for tool read: AI_TypeValidationError: Type validation failed: Value: {"file":"README.md"}.\nError message: ToolInputError: Unknown read input key: file. Expected path, offset, limit',
    });
    // The console's edit shows up in the tree and as a diff.
    expect(await viewerText("src/config.ts")).toBe(
      sample.get("src/config.ts")!.replace("DEFAULT_PORT = 3000", "DEFAULT_PORT = 8080"),
    );
    expect(await viewerText("docs/faq.md")).toBe("# FAQ\n");
    await page.selectOption("#console-tool", "grep");
    await page.fill("#console-input", JSON.stringify({ pattern: "MAX_TITLE_LENGTH", path: "src" }, null, 2));
    await page.click("#console-run");
    await page.locator("#console-output[data-output-type]").waitFor();
    await screenshot("#tools-panel", "console");
  });

  it("runs bash commands in the terminal over the same files", async () => {
    await open();
    await terminalRun("echo hello from bash > greeting.txt && cat greeting.txt");
    await terminalRun("grep -c TODO src/store/memory-store.ts");
    await terminalRun("ls docs | sort");
    await terminalRun("cat missing.txt");
    await terminalRun("gzip -k greeting.txt && gunzip -c greeting.txt.gz");
    expect(await page.textContent("#terminal-output")).toBe(
      [
        "just-bash loads on the first command. Try: ls, cat README.md, grep -rn TODO src, wc -l src/*.ts",
        "$ echo hello from bash > greeting.txt && cat greeting.txt",
        "hello from bash",
        "$ grep -c TODO src/store/memory-store.ts",
        "1",
        "$ ls docs | sort",
        "api.md",
        "architecture.md",
        "$ cat missing.txt",
        "cat: missing.txt: No such file or directory",
        "[exit 1]",
        "$ gzip -k greeting.txt && gunzip -c greeting.txt.gz",
        "hello from bash",
        "",
      ].join("\n"),
    );
    expect(await viewerText("greeting.txt")).toBe("hello from bash\n");
    await screenshot("#tools-panel", "terminal");
  });

  it("a path outside the workspace asks for approval, and a denial shows the gate's message", async () => {
    await open();
    await page.click('[data-tab="console"]');
    await page.selectOption("#console-tool", "read");
    await page.fill("#console-input", JSON.stringify({ path: "/etc/hosts", offset: null, limit: null }));
    await page.evaluate(() => delete document.querySelector<HTMLElement>("#console-output")!.dataset["outputType"]);
    await page.click("#console-run");
    await page.waitForSelector("#approval-dialog[open]");
    expect(await page.textContent("#approval-text")).toBe(
      "Allow readFile of /etc/hosts, which is outside the workspace (allowed roots: /workspace)?",
    );
    shots.set("approval", await page.locator("#approval-dialog").screenshot());
    await page.click("#approval-deny");
    await page.locator("#console-output[data-output-type]").waitFor();
    expect(await page.textContent("#console-output")).toBe(
      "Permission denied: /etc/hosts is outside the workspace and the user did not approve readFile. Allowed roots: /workspace.",
    );
    expect(await page.getAttribute("#console-output", "class")).toBe("output error");
  });

  it("exports the workspace as a zip and imports a zip, refusing unsafe names", async () => {
    await open();
    const sample = await sampleFiles();
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-zip")]);
    expect(download.suggestedFilename()).toBe("workspace.zip");
    const unzipped = unzipSync(new Uint8Array(await readFile((await download.path())!)));
    expect(Object.keys(unzipped).sort()).toEqual([...sample.keys()]);
    expect(new TextDecoder().decode(unzipped["src/lib/validate.ts"])).toBe(sample.get("src/lib/validate.ts"));
    await page.waitForSelector("#progress", { state: "hidden" });
    expect(await page.textContent("#status")).toMatch(/^Exported workspace\.zip \(\d+\.\d KB\)\.$/);

    const zip = zipSync({
      "imported/a.txt": strToU8("alpha\n"),
      "imported/deep/b.md": strToU8("# b\n"),
      "../evil.txt": strToU8("x"),
    });
    await page.setInputFiles("#zip-input", {
      name: "incoming.zip",
      mimeType: "application/zip",
      buffer: Buffer.from(zip),
    });
    await chooseImport("merge");
    await page.waitForFunction(() =>
      document.querySelector("#status")!.textContent!.startsWith("Importing incoming.zip:"),
    );
    expect(await page.textContent("#status")).toBe(
      "Importing incoming.zip: 2 files, 11 B; skipped ../evil.txt: unsafe name.",
    );
    expect(await viewerText("imported/a.txt")).toBe("alpha\n");
    expect(await viewerText("imported/deep/b.md")).toBe("# b\n");
    expect(await page.locator('#tree [data-path="evil.txt"]').count()).toBe(0);
  });

  it("imports a folder, leaving out .git and node_modules", async () => {
    await open();
    const folder = await mkdtemp(join(tmpdir(), "playground-e2e-folder-"));
    try {
      const write = async (path: string, text: string) => {
        await mkdir(dirname(join(folder, path)), { recursive: true });
        await writeFile(join(folder, path), text);
      };
      await write("site/index.html", "<h1>hi</h1>\n");
      await write("site/css/main.css", "h1 { color: red; }\n");
      await write("site/.git/HEAD", "ref: refs/heads/main\n");
      await write("site/node_modules/left-pad/index.js", "module.exports = 1;\n");
      await page.setInputFiles("#folder-input", join(folder, "site"));
      await chooseImport("merge");
      await page.waitForFunction(() => document.querySelector("#status")!.textContent!.startsWith("Importing site/:"));
      expect(await page.textContent("#status")).toBe("Importing site/: 2 files, 31 B.");
      expect(await viewerText("index.html")).toBe("<h1>hi</h1>\n");
      expect(await viewerText("css/main.css")).toBe("h1 { color: red; }\n");
      expect(await page.locator('#tree [data-path^=".git/"], #tree [data-path^="node_modules/"]').count()).toBe(0);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("switches to a real provider: the browser calls its API with the key, kept in memory unless remembered", async () => {
    await open();
    const requests: Array<{ url: string; headers: Record<string, string> }> = [];
    await context.route(/^https:\/\/api\.(openai|anthropic)\.com\//, async (route) => {
      requests.push({ url: route.request().url(), headers: route.request().headers() });
      await route.fulfill({
        status: 401,
        contentType: "application/json",
        body: JSON.stringify({
          error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" },
        }),
      });
    });
    try {
      const choose = async (provider: string, key: string, remember: boolean) => {
        await page.click("#model-settings");
        await page.selectOption("#settings-provider", provider);
        await page.fill("#settings-key", key);
        await page.setChecked("#settings-remember", remember);
        if (provider === "openai") shots.set("settings", await page.locator("#settings-dialog").screenshot());
        await page.click("#settings-save");
        // The dialog's close event (which applies the settings) fires after the click returns.
        await page.waitForFunction(
          (name) => document.querySelector("#model-name")!.textContent!.startsWith(name),
          provider,
        );
      };
      await choose("openai", "sk-test-openai", false);
      expect(await page.textContent("#model-name")).toBe("openai · gpt-5-mini");
      expect(await page.evaluate(() => localStorage.getItem("playground.apiKey"))).toBe(null);
      await page.click("#chat-send");
      await page.waitForSelector("#chat-state[data-state=failed]");
      expect(requests.map((request) => [request.url, request.headers["authorization"]])).toEqual([
        ["https://api.openai.com/v1/responses", "Bearer sk-test-openai"],
      ]);
      expect(await page.locator("#chat-log .msg.error").last().textContent()).toBe("Incorrect API key provided");

      await choose("anthropic", "sk-ant-test", true);
      expect(await page.textContent("#model-name")).toBe("anthropic · claude-sonnet-4-5");
      expect(await page.evaluate(() => localStorage.getItem("playground.apiKey"))).toBe("sk-ant-test");
      await page.click("#chat-send");
      await page.waitForSelector("#chat-state[data-state=failed]");
      expect(
        requests
          .slice(1)
          .map((request) => [
            request.url,
            request.headers["x-api-key"],
            request.headers["anthropic-dangerous-direct-browser-access"],
          ]),
      ).toEqual([["https://api.anthropic.com/v1/messages", "sk-ant-test", "true"]]);
    } finally {
      await page.click("#model-settings");
      await page.setChecked("#settings-remember", false);
      await page.selectOption("#settings-provider", "scripted");
      await page.click("#settings-save");
      await page.waitForFunction(() => document.querySelector("#model-name")!.textContent === "offline scripted");
      await context.unroute(/^https:\/\/api\.(openai|anthropic)\.com\//);
    }
    expect(await page.textContent("#model-name")).toBe("offline scripted");
    expect(await page.evaluate(() => localStorage.getItem("playground.apiKey"))).toBe(null);
  });

  it("cancels a large zip import part way, with progress in files and bytes", async () => {
    await open();
    const files: Record<string, Uint8Array> = {};
    for (let index = 0; index < 3000; index += 1)
      files[`bulk/file-${String(index).padStart(4, "0")}.txt`] = strToU8(`${"x".repeat(1000)}\n`);
    // Cancel from inside the page at the first progress report: a click sent from the test
    // process can arrive after a fast import has finished.
    await page.evaluate(() => {
      const label = document.querySelector("#progress-label")!;
      const observer = new MutationObserver(() => {
        if (!/: [1-9]\d* \/ \d+ files · /.test(label.textContent!)) return;
        observer.disconnect();
        (window as unknown as { progressSeen: string }).progressSeen = label.textContent!;
        document.querySelector<HTMLButtonElement>("#progress-cancel")!.click();
      });
      observer.observe(label, { childList: true, characterData: true, subtree: true });
    });
    await page.setInputFiles("#zip-input", {
      name: "bulk.zip",
      mimeType: "application/zip",
      buffer: Buffer.from(zipSync(files)),
    });
    await chooseImport("merge");
    await page.waitForFunction(() => (window as unknown as { progressSeen?: string }).progressSeen !== undefined);
    expect(await page.evaluate(() => (window as unknown as { progressSeen: string }).progressSeen)).toMatch(
      /^Importing bulk\.zip: \d+ \/ 3000 files · [\d.]+ (B|KB|MB) \/ 2\.9 MB$/,
    );
    await page.waitForSelector("#progress", { state: "hidden" });
    const reported = cancelledCount(await page.textContent("#status"), "bulk.zip");
    expect(reported).toBeGreaterThan(0);
    expect(reported).toBeLessThan(3000);
    expect(await page.locator('#tree [data-path^="bulk/"]').count()).toBe(reported);
  });

  it("keeps OPFS files across a reload", async () => {
    await open();
    await page.selectOption("#backend", "opfs");
    await page.waitForSelector("body[data-ready=true][data-backend=opfs]");
    expect(await consoleRun("write", { path: "persisted/note.md", content: "kept across reloads\n" })).toEqual({
      type: "content",
      text: "wrote 20 bytes to persisted/note.md",
    });
    await page.reload();
    await page.waitForSelector("body[data-ready=true][data-backend=opfs]");
    expect(await page.inputValue("#backend")).toBe("opfs");
    expect(await viewerText("persisted/note.md")).toBe("kept across reloads\n");
    expect(await viewerText("README.md")).toBe((await sampleFiles()).get("README.md"));
  });

  it("keeps IndexedDB files across a reload", async () => {
    await open();
    await page.selectOption("#backend", "idb");
    await page.waitForSelector("body[data-ready=true][data-backend=idb]");
    expect(await consoleRun("write", { path: "persisted/idb.md", content: "saved in IndexedDB\n" })).toEqual({
      type: "content",
      text: "wrote 19 bytes to persisted/idb.md",
    });
    await page.reload();
    await page.waitForSelector("body[data-ready=true][data-backend=idb]");
    expect(await viewerText("persisted/idb.md")).toBe("saved in IndexedDB\n");
    await page.selectOption("#backend", "memory");
    await page.waitForSelector("body[data-ready=true][data-backend=memory]");
  });

  it("imports a 10,000-file zip into the OPFS mirror: progress, a cancel part way leaves exactly what it reports, reloads keep it", async () => {
    await open();
    // Deadlines for steps over 10,000 files (each a few seconds on an idle machine), not measurements.
    const LONG = { timeout: 240_000 };
    await page.selectOption("#backend", "mirror");
    await page.waitForSelector("body[data-ready=true][data-backend=mirror]", LONG);
    const files: Record<string, Uint8Array> = {};
    const texts = new Map<string, string>();
    for (let index = 0; index < BIG_ZIP_FILES; index += 1) {
      const path = `big/d${String(index % 100).padStart(2, "0")}/file-${String(index).padStart(5, "0")}.txt`;
      const text = `file ${index}\n${"abcdefghij".repeat(index % 20)}\n`;
      texts.set(path, text);
      files[path] = strToU8(text);
    }
    const zip = { name: "big.zip", mimeType: "application/zip", buffer: Buffer.from(zipSync(files, { level: 1 })) };

    await page.evaluate(() => delete (window as unknown as { progressSeen?: string }).progressSeen);
    await cancelImportAt(2000);
    await page.setInputFiles("#zip-input", zip);
    await chooseImport("merge");
    await page.waitForFunction(
      () => (window as unknown as { progressSeen?: string }).progressSeen !== undefined,
      undefined,
      LONG,
    );
    expect(await page.evaluate(() => (window as unknown as { progressSeen: string }).progressSeen)).toMatch(
      /^Importing big\.zip: \d+ \/ 10000 files · [\d.]+ (KB|MB) \/ 1\.0 MB$/,
    );
    await page.waitForSelector("#progress", { state: "hidden", ...LONG });
    const reported = cancelledCount(await page.textContent("#status"), "big.zip");
    expect(reported).toBeGreaterThanOrEqual(2000);
    expect(reported).toBeLessThan(BIG_ZIP_FILES);
    const cancelled = await treePaths("big/");
    expect(cancelled.length).toBe(reported);
    expect(cancelled.filter((path) => !texts.has(path))).toEqual([]);

    await page.reload();
    await page.waitForSelector("body[data-ready=true][data-backend=mirror]", LONG);
    expect(await page.inputValue("#backend")).toBe("mirror");
    expect(await treePaths("big/")).toEqual(cancelled);
    const someCancelled = cancelled[Math.floor(cancelled.length / 2)]!;
    expect(await viewerText(someCancelled)).toBe(texts.get(someCancelled));

    await page.setInputFiles("#zip-input", zip);
    await chooseImport("merge");
    await page.waitForFunction(
      () => document.querySelector("#status")!.textContent!.startsWith("Importing big.zip:"),
      undefined,
      LONG,
    );
    expect(await page.textContent("#status")).toMatch(/^Importing big\.zip: 10000 files, 1\.0 MB\.$/);
    await page.reload();
    await page.waitForSelector("body[data-ready=true][data-backend=mirror]", LONG);
    expect((await treePaths("big/")).length).toBe(BIG_ZIP_FILES);
    // Every byte of every file, as the export reads them back after the reload.
    const [download] = await Promise.all([page.waitForEvent("download", LONG), page.click("#export-zip")]);
    const exported = unzipSync(new Uint8Array(await readFile((await download.path())!)));
    const exportedBig = Object.keys(exported).filter((path) => path.startsWith("big/"));
    expect(exportedBig.length).toBe(BIG_ZIP_FILES);
    expect(exportedBig.filter((path) => new TextDecoder().decode(exported[path]) !== texts.get(path))).toEqual([]);
    await page.waitForSelector("#progress", { state: "hidden", ...LONG });

    await page.selectOption("#backend", "memory");
    await page.waitForSelector("body[data-ready=true][data-backend=memory]");
  }, 900_000);

  /** Every shot the tests above take, by reference name. */
  const SHOT_NAMES = ["approval", "chat", "console", "page", "settings", "terminal", "tree", "viewer"];
  if (UPDATE_SCREENSHOTS) {
    it(`writes the reference screenshots, recorded in ${BROWSER} (UPDATE_SCREENSHOTS=1)`, async () => {
      await mkdir(SCREENSHOTS, { recursive: true });
      expect([...shots.keys()].sort()).toEqual(SHOT_NAMES);
      for (const [name, png] of shots) writeReference(name, png);
      recordBrowser(BROWSER);
    });
  } else if (RECORDED === BROWSER) {
    it(`the screenshots match the references recorded in ${BROWSER} (at most ${MAX_MISMATCHED_RATIO * 100}% of pixels differ)`, () => {
      expect([...shots.keys()].sort()).toEqual(SHOT_NAMES);
      const outcomes = SHOT_NAMES.map((name) => compareScreenshot(name, shots.get(name)!));
      expect(outcomes.filter((outcome) => outcome.outcome !== "within tolerance")).toEqual([]);
    });
  } else {
    it.skipIf(RECORDED !== BROWSER)(
      `screenshots not compared: the references were recorded in ${RECORDED ?? "no browser"}, this run uses ${BROWSER}`,
      () => {},
    );
  }
});

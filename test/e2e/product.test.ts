/**
 * The playground as a new visitor meets it (issue 26), from a fresh profile, in Chromium: the
 * default storage and what the menu says of each mode; the open file never stale on memory and
 * OPFS (console, terminal, import); the tool console's prefilled examples; the terminal's
 * messages, directory and changes; nothing lost without asking (switching away from memory,
 * replace or merge on import, an emptied workspace after a reload); a 3,000-file import into
 * plain OPFS with a grep at once and no uncaught error, and an unexpected error shown in the
 * status line; at 390 px wide every panel reachable, nothing overflowing.
 *
 * Screenshots of the narrow page are compared with test/e2e/__screenshots__/ (see
 * ./screenshots.ts; `UPDATE_SCREENSHOTS=1` rewrites them).
 */
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import type { BrowserContext, Dialog, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE, sampleCount, serveDemo, type ServedDemo } from "./demo-server.js";
import { launchPersistentChromium, resolveChromium } from "../../scripts/chromium.mjs";
import {
  MAX_MISMATCHED_RATIO,
  SCREENSHOTS,
  UPDATE_SCREENSHOTS,
  browserLabel,
  compareScreenshot,
  recordedBrowser,
  writeReference,
} from "./screenshots.js";

const BROWSER = browserLabel(await resolveChromium());
const RECORDED = recordedBrowser();
const DISCARD_QUESTION =
  "The memory workspace has changes that are saved nowhere else; switching storage discards them (Export zip keeps a copy). Switch anyway?";
const DENIED =
  "Permission denied: /etc/hosts is outside the workspace and the user did not approve readFile. Allowed roots: /workspace.";
/** Shots taken in this file, by reference name. */
const shots = new Map<string, Buffer>();
const SHOT_NAMES = ["narrow-files", "narrow-tools"];

let profileDir = "";
let demo: ServedDemo | undefined;
let context: BrowserContext;
let page: Page;
/** Messages of the page's native dialogs (confirm), in order; each is answered with `confirmAnswer`. */
const dialogs: string[] = [];
let confirmAnswer = true;

async function ready(backend: string): Promise<void> {
  await page.waitForSelector(`body[data-ready=true][data-backend=${backend}]`, { timeout: 120_000 });
}

async function switchTo(backend: string): Promise<void> {
  await page.selectOption("#backend", backend);
  await ready(backend);
}

/** Open a file from the tree and show the File tab. */
async function openFile(path: string): Promise<void> {
  await page.click(`#tree [data-path="${path}"]`);
  await page.locator(`#viewer .code[data-file="${path}"]`).waitFor();
}

/** Wait until the viewer's File tab shows `path` with exactly `text` (lines joined by "\n"). */
async function viewerShows(path: string, text: string): Promise<void> {
  await page.click('#viewer-panel [data-view="file"]');
  await page.waitForFunction(
    ({ path, text }) => {
      const code = document.querySelector(`#viewer .code[data-file="${path}"]`);
      return code !== null && [...code.querySelectorAll(".tx")].map((line) => line.textContent).join("\n") === text;
    },
    { path, text },
    { timeout: 30_000 },
  );
}

/** Run the console's tool `tool` with its prefilled input (or `input`); the output type and text. */
async function consoleRun(tool: string, input?: unknown): Promise<{ type: string; text: string; failed: boolean }> {
  await page.click('[data-tab="console"]');
  const before = await page.inputValue("#console-input");
  await page.selectOption("#console-tool", tool);
  if (input === undefined) {
    // The example is filled in once the tool's schema is read.
    await page.waitForFunction(
      (before) => document.querySelector<HTMLTextAreaElement>("#console-input")!.value !== before,
      before,
    );
  } else {
    await page.fill("#console-input", JSON.stringify(input, null, 2));
  }
  await page.evaluate(() => delete document.querySelector<HTMLElement>("#console-output")!.dataset["outputType"]);
  await page.click("#console-run");
  const output = page.locator("#console-output[data-output-type]");
  await output.waitFor({ timeout: 180_000 });
  return {
    type: (await output.getAttribute("data-output-type"))!,
    text: (await output.textContent())!,
    failed: (await output.getAttribute("class"))!.includes("error"),
  };
}

async function terminalRun(command: string, approval?: "allow" | "deny"): Promise<void> {
  await page.click('[data-tab="terminal"]');
  await page.fill("#terminal-input", command);
  await page.press("#terminal-input", "Enter");
  if (approval !== undefined) {
    await page.waitForSelector("#approval-dialog[open]");
    await page.click(`#approval-${approval}`);
  }
  await page.waitForFunction(() => !document.querySelector<HTMLInputElement>("#terminal-input")!.disabled, undefined, {
    timeout: 60_000,
  });
}

async function treePaths(): Promise<string[]> {
  return page.locator("#tree [data-path]").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("data-path")!));
}

async function importZip(name: string, files: Record<string, string>, choice?: "replace" | "merge"): Promise<void> {
  const zip = zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)])));
  await page.evaluate(() => (document.querySelector("#status")!.textContent = ""));
  await page.setInputFiles("#zip-input", { name, mimeType: "application/zip", buffer: Buffer.from(zip) });
  if (choice !== undefined) {
    await page.waitForSelector("#import-dialog[open]");
    await page.click(`#import-${choice}`);
  }
  await page.waitForFunction(
    (name) => document.querySelector("#status")!.textContent!.startsWith(`Importing ${name}: `),
    name,
    { timeout: 240_000 },
  );
}

beforeAll(async () => {
  profileDir = await mkdtemp(join(tmpdir(), "product-e2e-profile-"));
  demo = await serveDemo("product-e2e-dist-");
  context = await launchPersistentChromium(profileDir, { viewport: { width: 1280, height: 800 } });
  page = context.pages()[0] ?? (await context.newPage());
  page.on("dialog", (dialog: Dialog) => {
    dialogs.push(dialog.message());
    void (dialog.type() === "beforeunload" || confirmAnswer ? dialog.accept() : dialog.dismiss());
  });
  await page.goto(demo.url);
});

afterAll(async () => {
  await context?.close();
  await demo?.close();
  await rm(profileDir, { recursive: true, force: true });
});

describe("the playground for a new visitor", () => {
  it("a first visit opens the OPFS mirror with the sample project; the storage menu says what each mode is for", async () => {
    await ready("mirror");
    expect(await page.inputValue("#backend")).toBe("mirror");
    expect(await page.locator("#tree [data-path]").count()).toBe(await sampleCount());
    const options = await page
      .locator("#backend option")
      .evaluateAll((all) =>
        all.map((option) => [option.getAttribute("value"), option.textContent, option.getAttribute("title")]),
      );
    expect(options).toEqual([
      [
        "mirror",
        "OPFS mirror (persistent, default)",
        "OPFS mirror: the files in memory, each change saved to the browser's private storage (OPFS) before the call returns. Fast reads and searches, survives reloads, shared by tabs. The default.",
      ],
      [
        "opfs",
        "OPFS (few large files)",
        "OPFS: each file in the browser's private storage, read and written in a Worker. For a few large files; survives reloads.",
      ],
      [
        "idb",
        "IndexedDB (persistent)",
        "IndexedDB: the files in memory, saved to IndexedDB a moment after each change. Survives reloads; for browsers without OPFS.",
      ],
      [
        "memory",
        "Memory (this tab only)",
        "Memory: this tab only. Gone on reload or when you switch storage (you are asked first).",
      ],
    ]);
    expect(await page.textContent("#backend-help")).toBe(options[0]![2]);
    await switchTo("memory");
    expect(await page.textContent("#backend-help")).toBe(options[3]![2]);
  });

  it("the open file is never stale on memory: the console, the terminal and an import change it in the viewer", async () => {
    const config = await readFile(join(SAMPLE, "src/config.ts"), "utf8");
    const lines = (text: string) => text.replace(/\n$/, "");
    await openFile("src/config.ts");
    // The prefilled edit runs as it is: the console reads the file first, and says so.
    expect(await consoleRun("edit")).toEqual({
      type: "content",
      text: "replaced 1 occurrence in src/config.ts at line 8",
      failed: false,
    });
    expect(await page.textContent("#console-status")).toMatch(
      /^read src\/config\.ts first \(a file is read before it is changed\) · edit: ok in \d+ ms · output type "content"$/,
    );
    const edited = config.replace("DEFAULT_PORT = 3000", "DEFAULT_PORT = 8080");
    await viewerShows("src/config.ts", lines(edited));
    await terminalRun("sed -i s/8080/9090/ src/config.ts");
    await viewerShows("src/config.ts", lines(edited.replace("8080", "9090")));
    await importZip("config.zip", { "src/config.ts": "export const DEFAULT_PORT = 1;\n" }, "merge");
    expect(await page.textContent("#status")).toBe("Importing config.zip: 1 files, 31 B.");
    await viewerShows("src/config.ts", "export const DEFAULT_PORT = 1;");
  });

  it("the terminal: one message per refusal, cd carries over, echo > file is one change, the status line clears after", async () => {
    await page.click('[data-tab="terminal"]');
    await page.evaluate(() => document.querySelector("#terminal-output")!.replaceChildren());
    const changes = Number(await page.textContent("#change-count"));
    await terminalRun("cd src/lib");
    await terminalRun("ls");
    await terminalRun("echo hi > hello.txt");
    await terminalRun("cat /etc/hosts", "deny");
    expect(await page.textContent("#terminal-output")).toBe(
      [
        "$ cd src/lib",
        "src/lib $ ls",
        "http.ts",
        "id.ts",
        "logger.ts",
        "validate.ts",
        "src/lib $ echo hi > hello.txt",
        "src/lib $ cat /etc/hosts",
        `cat: /etc/hosts: ${DENIED}`,
        "[exit 1]",
        "",
      ].join("\n"),
    );
    expect(await page.textContent("#terminal-prompt")).toBe("src/lib $");
    expect(Number(await page.textContent("#change-count"))).toBe(changes + 1);
    await page.click('#viewer-panel [data-view="changes"]');
    expect(await page.locator("#viewer .change").first().locator(".change-head").textContent()).toBe(
      "src/lib/hello.txtcreatedterminal+1",
    );
    // The approval's answer stayed on the status line while the command ran; it is over now.
    expect(await page.textContent("#status")).toBe("");
  });

  it("the tool console's prefilled example of every tool runs as it is", async () => {
    // On the sample project as loaded (Reset asks first: confirmed).
    await page.click("#reset");
    await page.waitForFunction(
      () => document.querySelector("#status")!.textContent === "Workspace reset to the sample project.",
    );
    const outcomes: Array<[string, boolean]> = [];
    for (const tool of ["read", "write", "edit", "apply_patch", "list", "glob", "grep", "bash"]) {
      const run = await consoleRun(tool);
      outcomes.push([tool, run.failed]);
    }
    expect(outcomes).toEqual([
      ["read", false],
      ["write", false],
      ["edit", false],
      ["apply_patch", false],
      ["list", false],
      ["glob", false],
      ["grep", false],
      ["bash", false],
    ]);
  });

  it("nothing is lost without asking: leaving memory asks, an import offers replace or merge, an emptied workspace stays empty", async () => {
    confirmAnswer = false;
    dialogs.length = 0;
    await page.selectOption("#backend", "opfs");
    await page.waitForSelector("body[data-ready=true][data-backend=memory]");
    expect(dialogs).toEqual([DISCARD_QUESTION]);
    expect(await page.inputValue("#backend")).toBe("memory");
    expect(await page.locator('#tree [data-path="notes/hello.md"]').count()).toBe(1);
    confirmAnswer = true;
    await switchTo("opfs");
    expect(dialogs).toEqual([DISCARD_QUESTION, DISCARD_QUESTION]);
    const count = await sampleCount();

    await page.evaluate(() => (document.querySelector("#status")!.textContent = ""));
    await page.setInputFiles("#zip-input", {
      name: "only.zip",
      mimeType: "application/zip",
      buffer: Buffer.from(zipSync({ "only/a.txt": strToU8("a\n") })),
    });
    await page.waitForSelector("#import-dialog[open]");
    expect(await page.textContent("#import-text")).toBe(
      `The workspace has ${count} files. Replace them with only.zip, or merge only.zip into them (files with the same name are overwritten)?`,
    );
    await page.click("#import-replace");
    await page.waitForFunction(() =>
      document.querySelector("#status")!.textContent!.startsWith("Importing only.zip: "),
    );
    // The status line is set before the tree's refresh ends: wait for the tree.
    await expect.poll(() => treePaths(), { timeout: 30_000 }).toEqual(["only/a.txt"]);

    await terminalRun("rm -r only");
    await page.waitForSelector("#tree .empty");
    await page.reload();
    await ready("opfs");
    expect(await page.textContent("#tree")).toBe("The workspace is empty.");
    expect(await page.textContent("#tree-count")).toBe("0 files · 0 B");
  });

  it("a 3,000-file zip into plain OPFS then a grep at once: no uncaught error; the open file follows the terminal", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 3000; index += 1) {
      files[`bulk/f${String(index).padStart(4, "0")}.txt`] =
        index % 1000 === 7 ? `needle ${index}\n` : `hay ${index}\n`;
    }
    await importZip("bulk.zip", files);
    const grep = await consoleRun("grep", { pattern: "needle", path: "." });
    expect(grep).toEqual({
      type: "content",
      text: "bulk/f0007.txt:1:needle 7\nbulk/f1007.txt:1:needle 1007\nbulk/f2007.txt:1:needle 2007",
      failed: false,
    });
    expect(await page.getAttribute("#status", "data-error")).toBe(null);
    await openFile("bulk/f0001.txt");
    await terminalRun("echo changed > bulk/f0001.txt");
    await viewerShows("bulk/f0001.txt", "changed");

    // Anything unexpected shows in the status line.
    await page.evaluate(() => setTimeout(() => Promise.reject(new Error("lost promise")), 0));
    await page.waitForFunction(() => document.querySelector("#status")!.textContent!.startsWith("Unexpected error"));
    expect(await page.textContent("#status")).toBe("Unexpected error: Error: lost promise");
  }, 600_000);

  it("at 390 px wide every panel is reachable through the panel tabs and nothing overflows", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await ready("opfs");
    const seen: Array<[string, string[], number]> = [];
    for (const [tab, panel] of [
      ["tree", "tree-panel"],
      ["viewer", "viewer-panel"],
      ["tools", "tools-panel"],
      ["chat", "chat-panel"],
    ] as const) {
      await page.click(`#panel-nav [data-panel=${tab}]`);
      const visible = await page.evaluate(() =>
        ["tree-panel", "viewer-panel", "tools-panel", "chat-panel"].filter(
          (id) => document.getElementById(id)!.getBoundingClientRect().width > 0,
        ),
      );
      seen.push([panel, visible, await page.evaluate(() => document.documentElement.scrollWidth)]);
      if (tab === "tree") shots.set("narrow-files", await page.screenshot());
    }
    expect(seen).toEqual([
      ["tree-panel", ["tree-panel"], 390],
      ["viewer-panel", ["viewer-panel"], 390],
      ["tools-panel", ["tools-panel"], 390],
      ["chat-panel", ["chat-panel"], 390],
    ]);
    // The tool description wraps: all of its first paragraph shows, none of it cut.
    await page.click("#panel-nav [data-panel=tools]");
    await page.click('[data-tab="console"]');
    await page.selectOption("#console-tool", "edit");
    await page.waitForFunction(() => document.querySelector("#console-status")!.textContent!.startsWith("Replace"));
    const status = await page.$eval("#console-status", (element) => ({
      cut: element.scrollWidth > element.clientWidth,
      lines: Math.round(element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight)),
    }));
    expect(status.cut).toBe(false);
    expect(status.lines).toBeGreaterThan(1);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    shots.set("narrow-tools", await page.screenshot());
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  if (UPDATE_SCREENSHOTS) {
    it(`writes the narrow screenshots, recorded in ${BROWSER} (UPDATE_SCREENSHOTS=1)`, async () => {
      await mkdir(SCREENSHOTS, { recursive: true });
      expect([...shots.keys()].sort()).toEqual(SHOT_NAMES);
      for (const [name, png] of shots) writeReference(name, png);
    });
  } else if (RECORDED === BROWSER) {
    it(`the narrow screenshots match the references recorded in ${BROWSER} (at most ${MAX_MISMATCHED_RATIO * 100}% of pixels differ)`, () => {
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

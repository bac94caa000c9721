/**
 * Git in the playground (issue 26 item 7), from a fresh profile, in Chromium: the terminal runs
 * `git init`, `add`, `commit`, `status`, `diff` and `log` on every storage (the OPFS mirror, OPFS,
 * IndexedDB, memory) with the same commit ids; the repository's `.git` shows neither in the tree
 * nor in the Changes list; after an agent run in a repository (a `git init` after the run counts) the
 * Changes panel offers "Commit this run", and shows the commit as `git show` does; at 390 px wide the offer
 * and the commit are reachable and nothing overflows (a screenshot of the offer compared with
 * test/e2e/__screenshots__/, see ./screenshots.ts).
 */
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/** A fixed author and committer date, so commit ids are the same on every run and storage. */
const DATE = "GIT_AUTHOR_DATE='@1767225600 +0000' GIT_COMMITTER_DATE='@1767225600 +0000'";

const BROWSER = browserLabel(await resolveChromium());
const RECORDED = recordedBrowser();
/** Shots taken in this file, by reference name. */
const shots = new Map<string, Buffer>();
const SHOT_NAMES = ["narrow-commit-offer"];

let profileDir = "";
let demo: ServedDemo | undefined;
let context: BrowserContext;
let page: Page;

async function ready(backend: string): Promise<void> {
  await page.waitForSelector(`body[data-ready=true][data-backend=${backend}]`, { timeout: 120_000 });
}

/** Run `commands` in the terminal, one after the other, on a cleared terminal; its text after. */
async function terminal(...commands: string[]): Promise<string> {
  await page.click('[data-tab="terminal"]');
  await page.evaluate(() => document.querySelector("#terminal-output")!.replaceChildren());
  for (const command of commands) {
    await page.fill("#terminal-input", command);
    await page.press("#terminal-input", "Enter");
    await page.waitForFunction(
      () => !document.querySelector<HTMLInputElement>("#terminal-input")!.disabled,
      undefined,
      { timeout: 120_000 },
    );
  }
  return (await page.textContent("#terminal-output"))!;
}

async function treePaths(): Promise<string[]> {
  return page.locator("#tree [data-path]").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("data-path")!));
}

/** Send `text` to the agent and wait for the run to end. */
async function runAgent(text: string): Promise<void> {
  await page.fill("#chat-input", text);
  await page.press("#chat-input", "Enter");
  await page.waitForSelector("#chat-state[data-state=running]");
  await page.waitForSelector("#chat-state[data-state=done]", { timeout: 300_000 });
}

async function changesText(): Promise<{ offer: string | null; heads: string[] }> {
  await page.click('#viewer-panel [data-view="changes"]');
  return {
    offer: await page.locator("#viewer .change-offer").evaluateAll((all) => all[0]?.textContent ?? null),
    heads: await page.locator("#viewer .change-head").evaluateAll((all) => all.map((head) => head.textContent!)),
  };
}

beforeAll(async () => {
  profileDir = await mkdtemp(join(tmpdir(), "git-e2e-profile-"));
  demo = await serveDemo("git-e2e-dist-");
  context = await launchPersistentChromium(profileDir, { viewport: { width: 1280, height: 800 } });
  page = context.pages()[0] ?? (await context.newPage());
  page.on("dialog", (dialog: Dialog) => void dialog.accept());
  await page.goto(demo.url);
}, 300_000);

afterAll(async () => {
  await context?.close();
  await demo?.close();
  await rm(profileDir, { recursive: true, force: true });
});

describe("git in the playground", () => {
  for (const backend of ["mirror", "opfs", "idb", "memory"] as const) {
    it(`the terminal runs git init, add, commit, status, diff and log on ${backend}; .git is in neither the tree nor the Changes list`, async () => {
      if (backend !== "mirror") await page.selectOption("#backend", backend);
      await ready(backend);
      const changes = Number(await page.textContent("#change-count"));
      const readme = await readFile(join(SAMPLE, "README.md"), "utf8");
      const out = await terminal(
        "git init",
        "git add -A",
        `${DATE} git commit -q -m 'Sample project'`,
        "git status",
        "echo more >> README.md",
        "git status -s",
        "git diff",
        `${DATE} git commit -am 'More in the README'`,
        "git log --oneline",
      );
      const tail = readme.split("\n").slice(21, 24);
      expect(out).toBe(
        [
          "$ git init",
          "Initialized empty Git repository in /workspace/.git/",
          "$ git add -A",
          `$ ${DATE} git commit -q -m 'Sample project'`,
          "$ git status",
          "On branch master",
          "nothing to commit, working tree clean",
          "$ echo more >> README.md",
          "$ git status -s",
          " M README.md",
          "$ git diff",
          "diff --git a/README.md b/README.md",
          "index d3b57c8..8017b17 100644",
          "--- a/README.md",
          "+++ b/README.md",
          "@@ -22,3 +22,4 @@",
          ...tail.map((line) => ` ${line}`),
          "+more",
          `$ ${DATE} git commit -am 'More in the README'`,
          // The same commit ids on every storage (and as the real git gives: the dates are fixed).
          "[master 0996a2a] More in the README",
          " 1 file changed, 1 insertion(+)",
          "$ git log --oneline",
          "0996a2a More in the README",
          "49e60a7 Sample project",
          "",
        ].join("\n"),
      );
      expect(tail).toEqual([
        "| DELETE | /todos/:id     |                           |",
        "",
        "See `docs/api.md` for the full reference and `docs/architecture.md` for the layout.",
      ]);
      // git's bookkeeping under .git is neither in the tree nor in the Changes list: the README is.
      expect(await treePaths()).toHaveLength(await sampleCount());
      expect((await treePaths()).filter((path) => path.startsWith(".git"))).toEqual([]);
      expect(Number(await page.textContent("#change-count"))).toBe(changes + 1);
      expect(await changesText()).toEqual({ offer: null, heads: ["README.mdupdatedterminal+1"] });
      expect(await page.getAttribute("#status", "data-error")).toBe(null);
    }, 300_000);
  }

  it("after an agent run the Changes panel offers a commit once the workspace is a repository; nothing to commit is said so", async () => {
    await page.click("#reset");
    await page.waitForFunction(
      () => document.querySelector("#status")!.textContent === "Workspace reset to the sample project.",
    );
    await runAgent("Fix the TODOs");
    const firstRun = [
      "AGENT_REPORT.mdcreatedagent+10",
      "CHANGELOG.mdupdatedagent+1",
      "src/lib/validate.tsupdatedagent+3-1",
    ];
    // Not a repository: nothing offered, the page as it is without git.
    expect(await changesText()).toEqual({ offer: null, heads: firstRun });
    expect(await page.locator("#commit-run").count()).toBe(0);
    // git init in the terminal: the offer becomes a button at once.
    await terminal("git init", "git add -A", `${DATE} git commit -q -m 'Reviewed'`);
    expect(await changesText()).toEqual({
      offer: "The agent's last run changed 3 files.Commit this run",
      heads: firstRun,
    });
    // The run's files were committed by hand: nothing left to commit, and the status line says so.
    await page.click("#commit-run");
    await page.waitForFunction(() => document.querySelector("#status")!.textContent!.startsWith("Nothing committed"));
    expect(await page.textContent("#status")).toBe("Nothing committed: nothing to commit, working tree clean");
    expect(await changesText()).toEqual({ offer: null, heads: firstRun });
  }, 600_000);

  it("Commit this run commits the run's files and shows the commit as git show does; at 390 px it is reachable", async () => {
    await runAgent("Fix the TODOs");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click("#panel-nav [data-panel=viewer]");
    await page.click('#viewer-panel [data-view="changes"]');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    const button = await page.locator("#commit-run").boundingBox();
    expect(button !== null && button.x >= 0 && button.x + button.width <= 390).toBe(true);
    shots.set("narrow-commit-offer", await page.locator("#viewer-panel").screenshot());
    await page.click("#commit-run");
    await page.waitForFunction(() => document.querySelector("#status")!.textContent!.startsWith("Committed"));
    const status = (await page.textContent("#status"))!;
    const short = /^Committed: \[master ([0-9a-f]{7})\] Agent run: Fix the TODOs$/.exec(status)?.[1];
    expect(short).toMatch(/^[0-9a-f]{7}$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await page.setViewportSize({ width: 1280, height: 800 });

    const { offer, heads } = await changesText();
    expect(offer).toBe(null);
    expect(heads[0]).toBe(`[master ${short}] Agent run: Fix the TODOscommit`);
    const lines = await page
      .locator("#viewer .change.commit .diff-line")
      .evaluateAll((all) => all.map((line) => [line.className.replace("diff-line ", ""), line.textContent!]));
    // git log -1: the id, author, date (now) and message.
    expect(lines[0]![1]).toMatch(new RegExp(`^commit ${short}[0-9a-f]{33}$`));
    expect(lines[2]![1]).toMatch(/^Date: {3}\w{3} \w{3} \d{1,2} \d\d:\d\d:\d\d \d{4} \+0000$/);
    const memoryStore = (await readFile(join(SAMPLE, "src/store/memory-store.ts"), "utf8")).split("\n");
    expect([...lines.slice(0, 2), ...lines.slice(3)]).toEqual([
      ["meta", `commit ${lines[0]![1].slice(7)}`],
      ["meta", "Author: agent <agent@localhost>"],
      ["meta", ""],
      ["meta", "    Agent run: Fix the TODOs"],
      ["ctx", ""],
      ["meta", "diff --git a/AGENT_REPORT.md b/AGENT_REPORT.md"],
      ["meta", "index 52292ef..d5e3eaa 100644"],
      ["meta", "--- a/AGENT_REPORT.md"],
      ["meta", "+++ b/AGENT_REPORT.md"],
      ["hunk", "@@ -1,10 +1,10 @@"],
      ["ctx", " # Agent report"],
      ["ctx", " "],
      ["del", "-- Top-level entries: 13."],
      ["add", "+- Top-level entries: 15."],
      ["ctx", " - Project: tiny-todos."],
      ["del", "-- Open to-do comments found: 2."],
      ["del", "-- Edit of src/lib/validate.ts: replaced 1 occurrence in src/lib/validate.ts at line 9"],
      ["add", "+- Open to-do comments found: 1."],
      ["add", "+- Edit of src/store/memory-store.ts: replaced 1 occurrence in src/store/memory-store.ts at line 5"],
      ["ctx", " - Patch: Success. Updated the following files: M CHANGELOG.md"],
      ["del", "-- bash: 30 files, 1 to-do comments left."],
      // The scripted model's `find . -type f` counts git's files too.
      ["add", "+- bash: 78 files, 0 to-do comments left."],
      ["ctx", " "],
      ["ctx", " Written by the playground's offline scripted model."],
      ["meta", "diff --git a/CHANGELOG.md b/CHANGELOG.md"],
      ["meta", "index 41a73f8..f95d72c 100644"],
      ["meta", "--- a/CHANGELOG.md"],
      ["meta", "+++ b/CHANGELOG.md"],
      ["hunk", "@@ -2,6 +2,7 @@"],
      ["ctx", " "],
      ["ctx", " ## Unreleased"],
      ["ctx", " "],
      ["add", "+- Triaged the first open to-do comment found by the playground agent."],
      ["ctx", " - Reject todo titles longer than MAX_TITLE_LENGTH (200 characters)."],
      ["ctx", " - Initial todo API: list, create, update, delete."],
      ["ctx", " "],
      ["meta", "diff --git a/src/store/memory-store.ts b/src/store/memory-store.ts"],
      ["meta", "index 50b262e..19c5053 100644"],
      ["meta", "--- a/src/store/memory-store.ts"],
      ["meta", "+++ b/src/store/memory-store.ts"],
      ["hunk", "@@ -2,7 +2,7 @@"],
      ...memoryStore.slice(1, 4).map((line) => ["ctx", ` ${line}`]),
      ["del", `-${memoryStore[4]}`],
      [
        "add",
        "+// NOTE (triaged by the playground agent): persist todos to disk between restarts (see docs/architecture.md)",
      ],
      ...memoryStore.slice(5, 8).map((line) => ["ctx", ` ${line}`]),
    ]);
    expect(memoryStore[4]).toBe("// TODO: persist todos to disk between restarts (see docs/architecture.md)");
    expect(await terminal("git log --oneline", "git status")).toBe(
      [
        "$ git log --oneline",
        `${short} Agent run: Fix the TODOs`,
        "7bcafdb Reviewed",
        "$ git status",
        "On branch master",
        "nothing to commit, working tree clean",
        "",
      ].join("\n"),
    );
    expect(await page.getAttribute("#status", "data-error")).toBe(null);
  }, 600_000);

  if (UPDATE_SCREENSHOTS) {
    it(`writes the narrow commit screenshot, recorded in ${BROWSER} (UPDATE_SCREENSHOTS=1)`, async () => {
      await mkdir(SCREENSHOTS, { recursive: true });
      expect([...shots.keys()].sort()).toEqual(SHOT_NAMES);
      for (const [name, png] of shots) writeReference(name, png);
    });
  } else if (RECORDED === BROWSER) {
    it(`the narrow commit screenshot matches the reference recorded in ${BROWSER} (at most ${MAX_MISMATCHED_RATIO * 100}% of pixels differ)`, () => {
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

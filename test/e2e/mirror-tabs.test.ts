/**
 * The playground on the OPFS mirror in two tabs of one browser (the built app, served on
 * 127.0.0.1 by the test, driven in Chromium through Playwright, a persistent profile so OPFS is
 * on disk): tab A opens the mirror first (the writer), tab B opens it next (a reader). What A's
 * tools change shows in B's file tree and in the file B has open, without a reload: the mirror's
 * `watch` reports each change applied from the other tab, and the playground refreshes on it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveDemo, type ServedDemo } from "./demo-server.js";
import { launchPersistentChromium } from "../../scripts/chromium.mjs";

/** Deadline for a tab to open the mirror or show another tab's change (not a measurement). */
const DEADLINE = { timeout: 60_000 };
const FILE = "live/from-tab-a.md";

let profileDir = "";
let demo: ServedDemo | undefined;
let context: BrowserContext;
let url = "";

beforeAll(async () => {
  profileDir = await mkdtemp(join(tmpdir(), "mirror-tabs-e2e-profile-"));
  demo = await serveDemo("mirror-tabs-e2e-dist-");
  url = demo.url;
  context = await launchPersistentChromium(profileDir, { viewport: { width: 1440, height: 900 } });
});

afterAll(async () => {
  await context?.close();
  await demo?.close();
  await rm(profileDir, { recursive: true, force: true });
});

/** Run a tool in the tab's console; resolves to the text the model would receive. */
async function consoleRun(page: Page, tool: string, input: unknown): Promise<string> {
  await page.click('[data-tab="console"]');
  await page.selectOption("#console-tool", tool);
  await page.fill("#console-input", JSON.stringify(input, null, 2));
  await page.evaluate(() => delete document.querySelector<HTMLElement>("#console-output")!.dataset["outputType"]);
  await page.click("#console-run");
  await page.locator("#console-output[data-output-type]").waitFor();
  return (await page.textContent("#console-output"))!;
}

/** Workspace-relative paths of the tab's tree, sorted. */
async function treePaths(page: Page): Promise<string[]> {
  const paths = await page
    .locator("#tree [data-path]")
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute("data-path")!));
  return paths.sort();
}

/** The lines the tab's viewer shows for `path`. */
function viewerLines(page: Page, path: string): Promise<string[]> {
  return page.locator(`#viewer .code[data-file="${path}"] .tx`).allTextContents();
}

describe("playground on the OPFS mirror in two tabs", () => {
  it("tab B's tree and open file follow what tab A's tools change, without a reload", async () => {
    const a = context.pages()[0] ?? (await context.newPage());
    await a.goto(url);
    await a.waitForSelector("body[data-ready=true]", DEADLINE);
    await a.selectOption("#backend", "mirror");
    await a.waitForSelector("body[data-ready=true][data-backend=mirror]", DEADLINE);

    // The choice is remembered: B opens the mirror on the same root and becomes a reader.
    const b = await context.newPage();
    await b.goto(url);
    await b.waitForSelector("body[data-ready=true][data-backend=mirror]", DEADLINE);
    await b.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const before = await treePaths(b);
    expect(before).toEqual(await treePaths(a));
    expect(before).not.toContain(FILE);

    // A creates a file: B's tree shows it.
    expect(await consoleRun(a, "write", { path: FILE, content: "# Live\n\nwritten in tab A\n" })).toBe(
      `wrote 25 bytes to ${FILE}`,
    );
    await b.waitForSelector(`#tree [data-path="${FILE}"]`, DEADLINE);
    expect(await treePaths(b)).toEqual([...before, FILE].sort());
    expect(await b.textContent("#tree-count")).toBe(await a.textContent("#tree-count"));

    // B opens it; A rewrites it: B's viewer shows the new text.
    await b.click(`#tree [data-path="${FILE}"]`);
    await b.locator(`#viewer .code[data-file="${FILE}"]`).waitFor(DEADLINE);
    expect(await viewerLines(b, FILE)).toEqual(["# Live", "", "written in tab A"]);
    expect(await consoleRun(a, "write", { path: FILE, content: "# Live\n\nrewritten in tab A\n" })).toBe(
      `wrote 27 bytes to ${FILE}`,
    );
    await b.waitForFunction(
      (path) =>
        [...document.querySelectorAll(`#viewer .code[data-file="${path}"] .tx`)]
          .map((line) => line.textContent)
          .join("\n") === "# Live\n\nrewritten in tab A",
      FILE,
      DEADLINE,
    );
    expect(await viewerLines(b, FILE)).toEqual(["# Live", "", "rewritten in tab A"]);

    // A renames it: B's tree has the new name only, and B's viewer says the open file is gone.
    expect(await consoleRun(a, "bash", { command: `mv ${FILE} live/renamed.md` })).toBe("[exit code 0]");
    await b.waitForSelector('#tree [data-path="live/renamed.md"]', DEADLINE);
    expect(await treePaths(b)).toEqual([...before, "live/renamed.md"].sort());
    await b.waitForSelector(`#viewer [data-gone="${FILE}"]`, DEADLINE);
    expect(await b.textContent("#viewer")).toBe(`${FILE} no longer exists.`);

    expect(await b.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await b.close();
  }, 300_000);
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Dialog, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveDemo, type ServedDemo } from "./demo-server.js";
import { launchPersistentChromium } from "../../scripts/chromium.mjs";

let profileDir = "";
let demo: ServedDemo | undefined;
let context: BrowserContext;
let page: Page;

async function ready(backend: string): Promise<void> {
  await page.waitForSelector(`body[data-ready=true][data-backend=${backend}]`, { timeout: 120_000 });
}
async function terminalRun(command: string): Promise<void> {
  await page.click('[data-tab="terminal"]');
  await page.fill("#terminal-input", command);
  await page.press("#terminal-input", "Enter");
  await page.waitForFunction(() => !document.querySelector<HTMLInputElement>("#terminal-input")!.disabled, undefined, {
    timeout: 120_000,
  });
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

describe("probe", () => {
  for (const backend of ["mirror", "memory", "opfs", "idb"]) {
    it(`git on ${backend}`, async () => {
      if (backend === "mirror") await ready("mirror");
      else {
        await page.selectOption("#backend", backend);
        await ready(backend);
      }
      await page.click('[data-tab="terminal"]');
      await page.evaluate(() => document.querySelector("#terminal-output")!.replaceChildren());
      for (const command of [
        "git init",
        "git add -A",
        "git commit -m first",
        "git status",
        "echo more >> README.md",
        "git diff",
        "git commit -am second",
        "git log --oneline",
      ])
        await terminalRun(command);
      console.log(
        backend,
        await page.textContent("#terminal-output"),
        await page.textContent("#status"),
        await page.textContent("#change-count"),
        await page.textContent("#tree-count"),
      );
    }, 300_000);
  }
});

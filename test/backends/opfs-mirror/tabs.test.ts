/**
 * The mirrored OPFS backend in real tabs: pages of one Chromium (a persistent context, so OPFS
 * is on disk), each with its own instance on one root. Tab A writes and tab B reads the new
 * bytes; A's writes go through B's reads; A closes, B takes over and writes, and a new tab C
 * sees every change, byte for byte.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright";
import type { ViteDevServer } from "vite";
import { serveSourcePage } from "../opfs/source-page.js";
import { launchPersistentChromium } from "../../../scripts/chromium.mjs";

type Modules = typeof import("../../../src/backends/opfs-mirror/index.js");
type Mirror = ReturnType<Modules["opfsMirrorFileSystem"]>;
interface TabWindow {
  bft: Modules;
  fs: Mirror;
}

const PAGE = "/__opfs-mirror-tabs__.html";
/** Files tab A writes together right before it is closed. */
const BURST_FILES = 50;

let server: ViteDevServer;
let origin: string;
let userDataDir: string;
let context: BrowserContext;

beforeAll(async () => {
  ({ origin, server } = await serveSourcePage({
    path: PAGE,
    title: "opfs mirror tabs",
    script: 'import * as mirror from "/src/backends/opfs-mirror/index.ts"; window.bft = mirror;',
  }));
  userDataDir = mkdtempSync(join(tmpdir(), "bft-opfs-mirror-tabs-"));
  context = await launchPersistentChromium(userDataDir);
});

afterAll(async () => {
  await context?.close();
  await server?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

/** A new tab with a loaded instance on `/tabs`; resolves to the page and the instance's role. */
async function openTab(): Promise<{ page: Page; role: string }> {
  const page = await context.newPage();
  await page.goto(origin + PAGE);
  await page.waitForFunction(() => "bft" in window);
  const role = await page.evaluate(async () => {
    const tab = window as unknown as TabWindow;
    tab.fs = tab.bft.opfsMirrorFileSystem({ root: "/tabs" });
    await tab.fs.ready();
    return tab.fs.role;
  });
  return { page, role };
}

function write(page: Page, path: string, text: string): Promise<void> {
  return page.evaluate(
    ({ path, text }) => (window as unknown as TabWindow).fs.writeFile(path, new TextEncoder().encode(text)),
    { path, text },
  );
}

/** Every file under `/` with its text, as the tab's instance holds it. */
function files(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async () => {
    const { fs } = window as unknown as TabWindow;
    const out: Record<string, string> = {};
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await fs.readdir(dir)) {
        const path = dir === "/" ? `/${entry.name}` : `${dir}/${entry.name}`;
        if (entry.type === "directory") await walk(path);
        else out[path] = new TextDecoder().decode(await fs.readFile(path));
      }
    };
    await walk("/");
    return out;
  });
}

/** Wait, in the page, until `path` holds `text` (the test's timeout is the deadline). */
function waitForText(page: Page, path: string, text: string): Promise<void> {
  return page.evaluate(
    async ({ path, text }) => {
      const { fs } = window as unknown as TabWindow;
      for (;;) {
        const found = await fs.readFile(path).then(
          (bytes) => new TextDecoder().decode(bytes),
          () => undefined,
        );
        if (found === text) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    { path, text },
  );
}

describe("opfs-mirror in several tabs", () => {
  it("A writes, B reads it; B's write goes through A; A closes, B takes over; a new tab C sees everything", async () => {
    const a = await openTab();
    const b = await openTab();
    expect([a.role, b.role]).toEqual(["writer", "reader"]);

    await write(a.page, "/notes/from-a.txt", "written in tab A\n");
    await waitForText(b.page, "/notes/from-a.txt", "written in tab A\n");
    await write(a.page, "/notes/from-a.txt", "changed in tab A\n");
    await waitForText(b.page, "/notes/from-a.txt", "changed in tab A\n");

    await write(b.page, "/notes/from-b.txt", "written in tab B, by tab A's writer\n");
    expect(await files(a.page)).toEqual(await files(b.page));

    // A burst of writes, each reported written, then the tab goes away at once.
    await a.page.evaluate(async (count) => {
      const { fs } = window as unknown as TabWindow;
      await Promise.all(
        Array.from({ length: count }, (_, index) =>
          fs.writeFile(`/burst/${String(index).padStart(2, "0")}.txt`, new TextEncoder().encode(`burst ${index}\n`)),
        ),
      );
    }, BURST_FILES);
    await a.page.close();

    await b.page.waitForFunction(() => (window as unknown as TabWindow).fs.role === "writer");
    await write(b.page, "/notes/after-handover.txt", "written by tab B as the writer\n");

    const c = await openTab();
    expect(c.role).toBe("reader");
    const expected: Record<string, string> = {
      "/notes/after-handover.txt": "written by tab B as the writer\n",
      "/notes/from-a.txt": "changed in tab A\n",
      "/notes/from-b.txt": "written in tab B, by tab A's writer\n",
    };
    for (let index = 0; index < BURST_FILES; index++)
      expected[`/burst/${String(index).padStart(2, "0")}.txt`] = `burst ${index}\n`;
    expect(await files(c.page)).toEqual(expected);
    expect(await files(b.page)).toEqual(expected);

    // And on: B closes, C takes over, and C's own write lands on disk.
    await b.page.close();
    await c.page.waitForFunction(() => (window as unknown as TabWindow).fs.role === "writer");
    await write(c.page, "/notes/from-c.txt", "tab C\n");
    await c.page.close();
    const d = await openTab();
    expect(d.role).toBe("writer");
    expect(await files(d.page)).toEqual({ ...expected, "/notes/from-c.txt": "tab C\n" });
    await d.page.close();
  }, 120_000);
});

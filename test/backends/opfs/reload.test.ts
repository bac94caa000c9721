/**
 * Persistence across a page reload and a browser restart, and cross-tab locking, in real
 * Chromium driven by Playwright (vitest browser mode cannot reload its own page). A persistent
 * context (a temporary user-data-dir) keeps OPFS and IndexedDB on disk, as a user's browser
 * does. The page is served by a Vite dev server on 127.0.0.1 and imports the sources.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright";
import type { ViteDevServer } from "vite";
import { serveSourcePage } from "./source-page.js";
import { launchPersistentChromium } from "../../../scripts/chromium.mjs";

/** What the page puts on `window.bft`. */
type Modules = typeof import("../../../src/backends/opfs/index.js") &
  typeof import("../../../src/backends/idb/index.js");

const PAGE = "/__opfs-reload__.html";

let server: ViteDevServer;
let origin: string;
let userDataDir: string;

beforeAll(async () => {
  ({ origin, server } = await serveSourcePage({
    path: PAGE,
    title: "opfs reload",
    script:
      'import * as opfs from "/src/backends/opfs/index.ts"; import * as idb from "/src/backends/idb/index.ts"; window.bft = { ...opfs, ...idb };',
  }));
  userDataDir = mkdtempSync(join(tmpdir(), "bft-opfs-reload-"));
});

afterAll(async () => {
  await server?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

function launch(): Promise<BrowserContext> {
  return launchPersistentChromium(userDataDir);
}

async function open(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(origin + PAGE);
  await page.waitForFunction(() => "bft" in window);
  return page;
}

/** Write through all three browser backends (OPFS main thread, OPFS Worker, IndexedDB). */
async function writeAll(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const { opfsFileSystem, idbFileSystem } = (window as unknown as { bft: Modules }).bft;
    const encoder = new TextEncoder();
    const main = opfsFileSystem({ root: "/reload-main" });
    await main.writeFile("/notes/a.md", encoder.encode("main thread"));
    await main.writeFile("/bytes.bin", new Uint8Array([0, 255, 10, 13]));
    const worker = opfsFileSystem({ root: "/reload-worker", worker: true });
    await worker.writeFile("/w.txt", encoder.encode("worker"));
    await worker.close();
    const idb = idbFileSystem({ name: "reload-idb" });
    await idb.writeFile("/i/x.txt", encoder.encode("idb"));
    await idb.symlink("/i/x.txt", "/link");
    await idb.flush();
  });
}

async function readAll(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(async () => {
    const { opfsFileSystem, idbFileSystem } = (window as unknown as { bft: Modules }).bft;
    const decoder = new TextDecoder();
    const main = opfsFileSystem({ root: "/reload-main" });
    const worker = opfsFileSystem({ root: "/reload-worker", worker: true });
    const idb = idbFileSystem({ name: "reload-idb" });
    const result = {
      main: decoder.decode(await main.readFile("/notes/a.md")),
      bytes: [...(await main.readFile("/bytes.bin"))],
      mainList: (await main.readdir("/")).map((entry) => `${entry.type}:${entry.name}`).sort(),
      worker: decoder.decode(await worker.readFile("/w.txt")),
      idb: decoder.decode(await idb.readFile("/link")),
      idbLink: await idb.readlink("/link"),
    };
    await worker.close();
    return result;
  });
}

const EXPECTED = {
  main: "main thread",
  bytes: [0, 255, 10, 13],
  mainList: ["directory:notes", "file:bytes.bin"],
  worker: "worker",
  idb: "idb",
  idbLink: "/i/x.txt",
};

describe("browser storage survives reloads and restarts (persistent Chromium context)", () => {
  it("a reloaded page finds the files, and so does a restarted browser", async () => {
    let context = await launch();
    try {
      const page = await open(context);
      await writeAll(page);
      await page.reload();
      await page.waitForFunction(() => "bft" in window);
      expect(await readAll(page)).toEqual(EXPECTED);
    } finally {
      await context.close();
    }
    context = await launch();
    try {
      expect(await readAll(await open(context))).toEqual(EXPECTED);
    } finally {
      await context.close();
    }
  });

  it("two tabs incrementing one file under webLocks() never lose an update", async () => {
    const context = await launch();
    try {
      const tabs = [await open(context), await open(context)];
      await tabs[0]?.evaluate(async () => {
        const { opfsFileSystem } = (window as unknown as { bft: Modules }).bft;
        await opfsFileSystem({ root: "/reload-locks" }).writeFile("/counter.txt", new TextEncoder().encode("0"));
      });
      const ROUNDS = 25;
      await Promise.all(
        tabs.map((tab) =>
          tab.evaluate(async (rounds) => {
            const { opfsFileSystem, webLocks } = (window as unknown as { bft: Modules }).bft;
            const fs = opfsFileSystem({ root: "/reload-locks" });
            const locks = webLocks();
            for (let round = 0; round < rounds; round++) {
              await locks.run(["/counter.txt"], async () => {
                const value = Number(new TextDecoder().decode(await fs.readFile("/counter.txt")));
                await new Promise((resolve) => setTimeout(resolve, 1));
                await fs.writeFile("/counter.txt", new TextEncoder().encode(String(value + 1)));
              });
            }
          }, ROUNDS),
        ),
      );
      const final = await tabs[1]?.evaluate(async () => {
        const { opfsFileSystem } = (window as unknown as { bft: Modules }).bft;
        return new TextDecoder().decode(await opfsFileSystem({ root: "/reload-locks" }).readFile("/counter.txt"));
      });
      expect(final).toBe(String(2 * ROUNDS));
    } finally {
      await context.close();
    }
  });
});

import { defineConfig } from "vitest/config";
import { playwright } from "@vitest/browser-playwright";
import { BROWSER_ALIASES } from "./scripts/browser-aliases.mjs";
import { PACKAGE_ALIASES } from "./demo/package-aliases.mjs";
import { resolveChromium } from "./scripts/chromium.mjs";
import { accessSync, constants, statfsSync } from "node:fs";
import { availableParallelism } from "node:os";

/**
 * Temporary files go to a RAM file system where the machine has one with room (Linux's
 * /dev/shm), unless TMPDIR is set: the tests make and remove thousands of temporary trees
 * (2,000-deep directory chains for the attack corpus, npm consumer projects, Vite builds, browser
 * profiles), and on this 2-core VM's disk removing one 2,000-deep chain takes seconds where tmpfs
 * takes a tenth of that. What the tests check does not depend on the disk: no test asserts
 * durability against a power loss (the crash tests kill a process, which the page cache survives).
 */
const RAM_TMPDIR = "/dev/shm";
/** The least free space (bytes) the RAM file system must have to be used for temporary files. */
const RAM_TMPDIR_MIN_FREE_BYTES = 4 * 1024 ** 3;
function ramTmpdirUsable(): boolean {
  try {
    accessSync(RAM_TMPDIR, constants.W_OK);
    const stats = statfsSync(RAM_TMPDIR);
    return stats.bavail * stats.bsize >= RAM_TMPDIR_MIN_FREE_BYTES;
  } catch {
    return false;
  }
}
if (process.env.TMPDIR === undefined && ramTmpdirUsable()) process.env.TMPDIR = RAM_TMPDIR;

/** The browser project's Chromium: see scripts/chromium.mjs for the order it is looked for in. */
const browser = await resolveChromium();

/**
 * Test files at once, per project: at least two. The node and the browser project run at the same
 * time (one `sequence.groupOrder`, which Vitest allows only for projects of one `maxWorkers`), so a
 * 2-core machine runs two node files and two browser pages at once: most files wait on child
 * processes (npm, tsc, Vite builds, Chromium for the e2e pages, redis-server), real disks, OPFS,
 * IndexedDB and Workers as much as on the CPU; run one project after the other, the
 * browser project's page start-ups and waits added to the node project's time. Each browser file
 * still gets its own page and browser context (no OPFS, IndexedDB, Web Locks or BroadcastChannel
 * shared between them). Vitest's default (CPUs − 1) ran one file at a time on 2 cores.
 */
const filesAtOnce = Math.min(12, Math.max(2, availableParallelism()));

export default defineConfig({
  test: {
    projects: [
      {
        // Playground modules import the package by name: resolve those names to src/.
        resolve: { alias: PACKAGE_ALIASES },
        test: {
          name: "node",
          environment: "node",
          include: ["test/**/*.test.ts"],
          exclude: ["test/**/*.browser.test.ts", "**/node_modules/**"],
          maxWorkers: filesAtOnce,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // memfs imports node:buffer, node:events, node:path, node:stream, node:url: the same
        // browser modules the package build bundles into dist/backends/memory/index.browser.js.
        resolve: { alias: [...PACKAGE_ALIASES, ...BROWSER_ALIASES] },
        // Every dependency the browser files and their Workers import, bundled before the first
        // file runs: one found later (ai and ai/test, imported by a Worker) makes Vite optimize
        // again and reload every page, failing the files running beside it.
        optimizeDeps: { include: ["memfs", "ai", "ai/test", "just-bash", "picomatch", "diff", "idb-keyval", "zod"] },
        test: {
          name: "browser",
          include: ["test/**/*.browser.test.ts"],
          maxWorkers: filesAtOnce,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            // Failure screenshots would land beside the tests; the failure text is enough here.
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: browser.executablePath, args: browser.args, env: browser.env },
            }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
    ],
  },
});

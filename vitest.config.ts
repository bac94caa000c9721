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
 * Browser test files run at once, each in its own page and browser context (no OPFS, IndexedDB,
 * Web Locks or BroadcastChannel shared between them): Vitest's default, CPUs − 1 (at most 12),
 * but never fewer than 2. Those files wait on OPFS, IndexedDB and Workers as much as on the CPU,
 * so two pages keep even a 2-core machine busy, where the default ran one file at a time. The
 * project runs after the node project (its own `sequence.groupOrder`), not beside it.
 */
const browserFilesAtOnce = Math.min(12, Math.max(2, availableParallelism() - 1));

/**
 * Node test files at once: at least two. Vitest's default (CPUs − 1) ran one file at a time on a
 * 2-core machine, while many node files wait on child processes (npm, tsc, Vite builds, Chromium
 * for the e2e pages, real disks) rather than the CPU.
 */
const nodeFilesAtOnce = Math.max(2, availableParallelism());

/**
 * `TEST_PROJECTS_AT_ONCE=1` runs the browser project beside the node project (one group, so one
 * `maxWorkers`: the node project's) instead of after it. Not the default: it could not be measured
 * on a quiet machine, and its one run (load average 30 from other work) hit time limits in slow cases.
 */
const projectsAtOnce = process.env.TEST_PROJECTS_AT_ONCE === "1";

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
          maxWorkers: nodeFilesAtOnce,
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
          maxWorkers: projectsAtOnce ? nodeFilesAtOnce : browserFilesAtOnce,
          // A project with its own maxWorkers runs in its own group: after the node project's
          // files (Vitest refuses two projects of one group with different maxWorkers).
          sequence: { groupOrder: projectsAtOnce ? 0 : 1 },
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

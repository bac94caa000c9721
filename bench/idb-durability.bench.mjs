// IndexedDB keeps what it reported written (issue 27, item 2): crash rounds (a tool-reported
// write, then SIGKILL of the browser as soon as the call returns) and the per-write cost through
// the write tool, for our IndexedDB backend committed (the default) and relaxed, and the OPFS
// mirror beside them, in one Chromium run. Needs `npm run build` (dist/).
// Knobs: BENCH_IDB_CRASH_ROUNDS (default 10), BENCH_IDB_WRITES (writes per cost round, default 50),
// BENCH_IDB_COST_ROUNDS (default 5).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchPersistentChromium } from "../scripts/chromium.mjs";
import { serveBenchPage } from "./browser/serve.mjs";
import { browserPid, roundContent } from "./crash.mjs";
import { median } from "./lib.mjs";

export const title = "IndexedDB durability: writes kept across a killed browser, and their cost (Chromium)";

const CRASH_ROUNDS = Number(process.env.BENCH_IDB_CRASH_ROUNDS ?? 10);
const WRITES = Number(process.env.BENCH_IDB_WRITES ?? 50);
const COST_ROUNDS = Number(process.env.BENCH_IDB_COST_ROUNDS ?? 5);
const KINDS = ["idb", "idb-relaxed", "mirror"];
const LABEL = {
  idb: "**our IndexedDB backend** (committed, the default)",
  "idb-relaxed": 'our IndexedDB backend, `durability: "relaxed"`',
  mirror: "our OPFS mirror",
};

async function gotoPage(page, pageUrl) {
  await page.goto(pageUrl);
  await page.waitForFunction(() => window.idbBenchReady === true, undefined, { timeout: 120_000 });
}

/** `rounds` crash rounds of `kind` on one user-data-dir; `{ rounds, lost, perRoundMs }`. */
async function crashRounds(pageUrl, kind, rounds) {
  const dir = mkdtempSync(join(tmpdir(), `bft-idb-crash-${kind}-`));
  const lost = new Set();
  const times = [];
  try {
    for (let round = 0; round <= rounds; round++) {
      const at = performance.now();
      const context = await launchPersistentChromium(dir);
      const pid = browserPid(dir);
      const page = context.pages()[0] ?? (await context.newPage());
      await gotoPage(page, pageUrl);
      const earlier = await page.evaluate((options) => window.idbBench.crashRound(options), {
        kind,
        round,
        content: round < rounds ? roundContent(round) : null,
      });
      process.kill(pid, "SIGKILL");
      await context.close().catch(() => undefined);
      for (let index = 0; index < round; index++) {
        const name = String(index).padStart(3, "0");
        if (earlier[name] !== roundContent(index)) lost.add(name);
      }
      if (round < rounds) times.push(performance.now() - at);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rounds, lost: lost.size, perRoundMs: median(times) };
}

export async function run() {
  const served = await serveBenchPage({ module: "/bench/browser/idb-durability-page.js" });
  const userDataDir = mkdtempSync(join(tmpdir(), "bft-bench-idb-"));
  const cost = Object.fromEntries(KINDS.map((kind) => [kind, { sequential: [], concurrent: [] }]));
  const crash = {};
  let browserVersion;
  try {
    const context = await launchPersistentChromium(userDataDir);
    browserVersion = context.browser()?.version();
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("pageerror", (error) => process.stderr.write(`bench page error: ${error.message}\n`));
    try {
      await gotoPage(page, served.pageUrl);
      // Side by side: each round runs every kind, in turn.
      for (let round = 0; round < COST_ROUNDS; round++) {
        for (const kind of KINDS) {
          const value = await page.evaluate((options) => window.idbBench.perWrite(options), {
            kind,
            writes: WRITES,
            round,
          });
          cost[kind].sequential.push(value.sequentialMs);
          cost[kind].concurrent.push(value.concurrentMs);
        }
      }
    } finally {
      await context.close();
    }
    for (const kind of KINDS) {
      crash[kind] = await crashRounds(served.pageUrl, kind, CRASH_ROUNDS);
      process.stderr.write(`bench: idb-durability ${kind} crash ${JSON.stringify(crash[kind])}\n`);
    }
  } finally {
    await served.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
  const ms = (value) => `${value.toFixed(2)} ms`;
  const mirrorSequential = median(cost.mirror.sequential);
  const rows = KINDS.map((kind) => {
    const sequential = median(cost[kind].sequential);
    const concurrent = median(cost[kind].concurrent);
    const ratio = kind === "mirror" ? "1.00×" : `${(sequential / mirrorSequential).toFixed(2)}×`;
    const kept = `${crash[kind].rounds - crash[kind].lost}/${crash[kind].rounds} kept`;
    return `| ${LABEL[kind]} | ${ms(sequential)} (${ratio}) | ${ms(concurrent)} | ${kept} |`;
  });
  return `Chromium ${browserVersion ?? "?"}, persistent profile. **per write**: the write tool writing 4 KiB, ${WRITES} calls one after another (median of each call's time, then median of ${COST_ROUNDS} rounds; ratio against the mirror in the same rounds), then ${WRITES} calls at once (total time / ${WRITES}: concurrent calls share one IndexedDB transaction). **crash**: ${CRASH_ROUNDS} rounds of: start Chromium on one user-data-dir, read back every earlier round's file, write this round's 4 KiB through the write tool, SIGKILL the browser as soon as the call returns; "kept" counts rounds whose file came back byte-identical at every later start.

| backend | per write, one at a time (vs mirror) | per write, ${WRITES} at once | crash: writes kept |
| --- | --- | --- | --- |
${rows.join("\n")}
`;
}

// A real repository in the browser (issue 16, items 5 and 6): a package tree no one here wrote
// (this checkout's node_modules, see TREE below) imported into each storage variant in Chromium
// (persistent context), then, after a reload, read, grepped and weighed; and a tool-reported
// write killed right after it returns, round after round, for the crash rows.
// Variants, one run, same tree: raw OPFS, our OPFS backend (main thread, Worker), our IndexedDB
// backend, the OPFS mirror, the memory backend, ZenFS (WebAccess on OPFS; its IndexedDB backend).
// Needs `npm run build` (dist/). Knobs: BENCH_CAP_MS (a variant's cap per step, default 60000),
// BENCH_CRASH_ROUNDS (mirror, default 100), BENCH_CRASH_OTHER_ROUNDS (other variants, default 10),
// BENCH_REPO_KINDS (comma list, default all).
import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { launchPersistentChromium } from "../scripts/chromium.mjs";
import { serveBenchPage } from "./browser/serve.mjs";
import { browserPid, roundContent } from "./crash.mjs";
import { median } from "./lib.mjs";

export const title = "A real repository in OPFS: import, reload, grep, memory, crash (Chromium)";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const NODE_MODULES = join(REPO, "node_modules");
const CAP_MS = Number(process.env.BENCH_CAP_MS ?? 60_000);
const CRASH_ROUNDS = Number(process.env.BENCH_CRASH_ROUNDS ?? 100);
const CRASH_OTHER_ROUNDS = Number(process.env.BENCH_CRASH_OTHER_ROUNDS ?? 10);
/** Cold starts timed per variant (first read, greppable), the first one with the paired grep rounds; medians reported. */
const COLD_ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 5);
/** Variants whose first cold start took longer than this (to greppable) get no more rounds. */
const COLD_MAX_MS = 20_000;
const ALL_KINDS = ["raw", "main", "worker", "idb", "mirror", "memory", "zenfs-opfs", "zenfs-idb"];
const KINDS = (process.env.BENCH_REPO_KINDS ?? ALL_KINDS.join(",")).split(",").filter(Boolean);
const LABEL = {
  raw: "raw OPFS (no library)",
  main: "our OPFS backend, main thread",
  worker: "our OPFS backend, Worker",
  idb: "our IndexedDB backend",
  mirror: "**our OPFS mirror**",
  memory: "our memory backend",
  "zenfs-opfs": "ZenFS WebAccess on OPFS",
  "zenfs-idb": "ZenFS IndexedDB",
};
/** Chromium flags: a measureUserAgentSpecificMemory answer right away instead of at the next idle GC. */
const ARGS = ["--enable-blink-features=ForceEagerMeasureMemory"];

/**
 * TREE: every file of this checkout's node_modules/ (after `npm ci`) up to 512 KiB, in every
 * package except those that ship native binaries or an engine build (node, sql.js,
 * @sparticuz/chromium, @typescript/typescript-linux-*, @rolldown/binding-*, lightningcss-*),
 * without dot entries at the top (.bin, .vite, .package-lock.json) and without symlinks. Files
 * keep their paths under /repo/.
 */
const EXCLUDED = /^(node|sql\.js|@sparticuz\/.*|@typescript\/typescript-.*|@rolldown\/binding-.*|lightningcss-.*)$/;
const MAX_FILE_BYTES = 512 * 1024;

export function collectTree() {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const rel = relative(NODE_MODULES, path);
      if (dir === NODE_MODULES && name.startsWith(".")) continue;
      const top = rel
        .split("/")
        .slice(0, rel.startsWith("@") ? 2 : 1)
        .join("/");
      if (EXCLUDED.test(top)) continue;
      const stats = lstatSync(path);
      if (stats.isDirectory()) walk(path);
      else if (stats.isFile() && stats.size <= MAX_FILE_BYTES) files.push({ path: `/repo/${rel}`, size: stats.size });
    }
  };
  walk(NODE_MODULES);
  const pack = Buffer.allocUnsafe(files.reduce((sum, file) => sum + file.size, 0));
  let at = 0;
  for (const file of files) {
    const bytes = readFileSync(join(NODE_MODULES, file.path.slice("/repo/".length)));
    bytes.copy(pack, at);
    at += bytes.byteLength;
  }
  const packages = new Set(
    files.map((file) =>
      file.path
        .split("/")
        .slice(2, file.path.startsWith("/repo/@") ? 4 : 3)
        .join("/"),
    ),
  );
  return { files, pack, totalBytes: pack.byteLength, packages: packages.size };
}

const ms = (value) =>
  value === undefined
    ? "–"
    : value >= 10_000
      ? `${(value / 1000).toFixed(1)} s`
      : value >= 100
        ? `${Math.round(value)} ms`
        : `${value.toFixed(1)} ms`;
const mib = (bytes) => (bytes === undefined ? "–" : `${(bytes / 2 ** 20).toFixed(1)} MiB`);

/** `page.evaluate` with a cap: resolves `{ value }` or `{ capped: true }` (the page is then left on a fresh load). */
async function capped(page, pageUrl, fn, arg, capMs = CAP_MS) {
  let timer;
  const cap = new Promise((resolve) => (timer = setTimeout(() => resolve({ capped: true }), capMs)));
  const result = await Promise.race([page.evaluate(fn, arg).then((value) => ({ value })), cap]);
  clearTimeout(timer);
  if (result.capped) await gotoPage(page, pageUrl);
  return result;
}

async function gotoPage(page, pageUrl) {
  await page.goto(pageUrl);
  await page.waitForFunction(() => window.repoBenchReady === true, undefined, { timeout: 120_000 });
}

/** Bytes of the JS heap and backing stores (ArrayBuffers) of the page's main thread, from CDP. */
async function cdpHeap(page) {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send("HeapProfiler.collectGarbage");
    const usage = await session.send("Runtime.getHeapUsage");
    return usage.usedSize + (usage.backingStorageSize ?? 0) + (usage.embedderHeapUsedSize ?? 0);
  } finally {
    await session.detach();
  }
}

async function memoryOf(page) {
  const ua = await page.evaluate(() => window.repoBench.measureMemory());
  return ua === undefined ? { bytes: await cdpHeap(page), how: "cdp" } : { bytes: ua, how: "ua" };
}

/**
 * `rounds` crash rounds of `kind` on one user-data-dir: start Chromium, open the page, read back
 * every earlier round, write this round's file through the write tool, SIGKILL the browser
 * process as soon as the call returns. Returns `{ rounds, lost, perRoundMs, capped }`.
 */
async function crashRounds(pageUrl, kind, rounds) {
  const dir = mkdtempSync(join(tmpdir(), `bft-crash-${kind}-`));
  const lost = new Set();
  const times = [];
  let done = 0;
  const started = performance.now();
  let capped = false;
  try {
    // One start more than rounds: the last one only reads back (no write, no kill needed).
    for (let round = 0; round <= rounds; round++) {
      if (kind !== "mirror" && round < rounds && performance.now() - started > CAP_MS) {
        capped = true;
        break;
      }
      const at = performance.now();
      const context = await launchPersistentChromium(dir, { args: ARGS });
      const pid = browserPid(dir);
      const page = context.pages()[0] ?? (await context.newPage());
      await gotoPage(page, pageUrl);
      const earlier = await page.evaluate((options) => window.repoBench.crashRound(options), {
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
      if (round < rounds) {
        times.push(performance.now() - at);
        done++;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rounds: done, lost: lost.size, perRoundMs: median(times), capped };
}

export async function run() {
  const loadBefore = os.loadavg()[0];
  const tree = collectTree();
  process.stderr.write(
    `bench: opfs-repo tree ${tree.files.length} files, ${tree.totalBytes} bytes, ${tree.packages} packages\n`,
  );
  const manifest = JSON.stringify({ files: tree.files, totalBytes: tree.totalBytes });
  const probe = tree.files.find((file) => file.path === "/repo/typescript/package.json") ?? tree.files[0];
  const served = await serveBenchPage({
    module: "/bench/browser/repo-page.js",
    isolated: true,
    optimizeDeps: ["@zenfs/core", "@zenfs/dom"],
    routes: {
      "/__tree__/manifest.json": (request, response) => {
        response.setHeader("content-type", "application/json");
        response.end(manifest);
      },
      "/__tree__/pack": (request, response) => {
        response.setHeader("content-type", "application/octet-stream");
        response.setHeader("content-length", String(tree.pack.byteLength));
        response.end(tree.pack);
      },
    },
  });
  const userDataDir = mkdtempSync(join(tmpdir(), "bft-bench-repo-"));
  const results = {};
  let browserVersion;
  let memoryHow;
  try {
    const context = await launchPersistentChromium(userDataDir, { args: ARGS });
    browserVersion = context.browser()?.version();
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("pageerror", (error) => process.stderr.write(`bench page error: ${error.message}\n`));
    if (process.env.BENCH_VERBOSE) page.on("console", (message) => process.stderr.write(`page: ${message.text()}\n`));
    try {
      for (const kind of KINDS) {
        const result = (results[kind] = {});
        await gotoPage(page, served.pageUrl);
        let baseline;
        if (kind === "memory") baseline = await memoryOf(page);
        await page.evaluate(() => window.repoBench.loadTree());
        const imported = await capped(
          page,
          served.pageUrl,
          (options) => window.repoBench.importTree(options),
          { kind, deadlineMs: CAP_MS },
          CAP_MS * 3,
        );
        result.import = imported.capped ? { capped: true } : imported.value;
        process.stderr.write(`bench: opfs-repo ${kind} import ${JSON.stringify(result.import)}\n`);
        if (result.import.capped) {
          await page.evaluate((options) => window.repoBench.cleanup(options), { kind }).catch(() => undefined);
          continue;
        }
        if (kind === "memory") await page.evaluate(() => window.repoBench.dropTree());
        else {
          await page.reload();
          await page.waitForFunction(() => window.repoBenchReady === true, undefined, { timeout: 120_000 });
          baseline = await memoryOf(page);
        }
        // The cap covers the first read, the first grep and the 5 paired rounds.
        const reopened = await capped(
          page,
          served.pageUrl,
          (options) => window.repoBench.reopen(options),
          { kind, probe: probe.path, probeSize: probe.size },
          CAP_MS * 4,
        );
        if (reopened.capped) result.reopen = { capped: true };
        else {
          const value = reopened.value;
          // In-page figures (main thread and workers) when measureUserAgentSpecificMemory works, else CDP now.
          let heldBytes;
          if (value.memoryAfter !== undefined && baseline.how === "ua") {
            heldBytes = value.memoryAfter - value.memoryBefore;
            if (kind === "memory") heldBytes = value.memoryAfter - baseline.bytes;
            memoryHow = "ua";
          } else {
            heldBytes = (await memoryOf(page)).bytes - baseline.bytes;
            memoryHow = "cdp";
          }
          result.reopen = {
            ...value,
            heldBytes,
            warmMs: median(value.warm),
            ratio: value.ratios.length > 0 ? median(value.ratios) : undefined,
            firstReads: [value.firstReadMs],
            firstGreps: [value.firstGrepMs],
          };
          // More cold starts of the same stored copy, each after a reload: medians of all of them.
          if (kind !== "memory" && value.firstGrepMs < COLD_MAX_MS) {
            await page.evaluate(() => window.repoBench.closeOpen());
            for (let round = 1; round < COLD_ROUNDS; round++) {
              await page.reload();
              await page.waitForFunction(() => window.repoBenchReady === true, undefined, { timeout: 120_000 });
              const cold = await capped(
                page,
                served.pageUrl,
                (options) => window.repoBench.coldStart(options),
                { kind, probe: probe.path, probeSize: probe.size },
                CAP_MS,
              );
              if (cold.capped) break;
              result.reopen.firstReads.push(cold.value.firstReadMs);
              result.reopen.firstGreps.push(cold.value.firstGrepMs);
            }
            result.reopen.firstReadMs = median(result.reopen.firstReads);
            result.reopen.firstGrepMs = median(result.reopen.firstGreps);
          }
        }
        process.stderr.write(`bench: opfs-repo ${kind} reopen ${JSON.stringify(result.reopen)}\n`);
        await page.evaluate((options) => window.repoBench.cleanup(options), { kind });
      }
    } finally {
      await context.close();
    }
    for (const kind of KINDS) {
      if (kind === "memory") continue;
      const rounds = kind === "mirror" ? CRASH_ROUNDS : CRASH_OTHER_ROUNDS;
      if (rounds <= 0) continue;
      results[kind].crash = await crashRounds(served.pageUrl, kind, rounds);
      process.stderr.write(`bench: opfs-repo ${kind} crash ${JSON.stringify(results[kind].crash)}\n`);
    }
  } finally {
    await served.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
  return report({ tree, results, browserVersion, memoryHow, load: [loadBefore, os.loadavg()[0]] });
}

function report({ tree, results, browserVersion, memoryHow, load }) {
  const rows = KINDS.map((kind) => {
    const r = results[kind];
    const imp =
      r.import.capped === true
        ? r.import.written === undefined
          ? `capped (> ${ms(CAP_MS)})`
          : `capped: ${r.import.written.toLocaleString("en")} files in ${ms(r.import.writeMs)}`
        : ms(r.import.writeMs + r.import.closeMs);
    const ro = r.reopen;
    const cappedCell = `capped (> ${ms(CAP_MS * 4)} for read, grep and paired rounds)`;
    const range = (values) => (values.length > 1 ? ` (${ms(Math.min(...values))}–${ms(Math.max(...values))})` : "");
    const first =
      ro === undefined
        ? "–"
        : ro.capped
          ? cappedCell
          : kind === "memory"
            ? "n/a"
            : `${ms(ro.firstReadMs)}${range(ro.firstReads)}`;
    const greppable =
      ro === undefined
        ? "–"
        : ro.capped
          ? cappedCell
          : kind === "memory"
            ? "n/a"
            : `${ms(ro.firstGrepMs)}${range(ro.firstGreps)}`;
    const warm =
      ro === undefined || ro.capped
        ? "–"
        : `${ms(ro.warmMs)} (${ro.ratio === undefined ? "1.00" : ro.ratio.toFixed(2)}×)`;
    const held =
      ro === undefined || ro.capped ? "–" : `${mib(ro.heldBytes)} (${(ro.heldBytes / tree.totalBytes).toFixed(2)}×)`;
    const crash =
      r.crash === undefined
        ? kind === "memory"
          ? "n/a"
          : "–"
        : `${r.crash.rounds - r.crash.lost}/${r.crash.rounds} kept${r.crash.capped ? " (capped)" : ""}, ${ms(r.crash.perRoundMs)}/round`;
    return `| ${LABEL[kind]} | ${imp} | ${first} | ${greppable} | ${warm} | ${held} | ${crash} |`;
  });
  const m = results.mirror;
  const lines = [];
  if (m !== undefined && !m.import.capped && m.reopen !== undefined && !m.reopen.capped) {
    const verdict = (ok) => (ok ? "met" : "**not met**");
    const importMs = m.import.writeMs + m.import.closeMs;
    const ratio = m.reopen.ratio;
    const heldRatio = m.reopen.heldBytes / tree.totalBytes;
    lines.push(
      `- import ≤ 10 s: ${ms(importMs)}: ${verdict(importMs <= 10_000)}.`,
      `- after a reload, first read ≤ 300 ms: ${ms(m.reopen.firstReadMs)}: ${verdict(m.reopen.firstReadMs <= 300)}; whole tree greppable ≤ 1 s: ${ms(m.reopen.firstGrepMs)}: ${verdict(m.reopen.firstGrepMs <= 1000)}.`,
      `- grep for a literal over the whole tree ≤ 0.5 s and ≤ 1.5× the memory backend: ${ms(m.reopen.warmMs)}, ${ratio === undefined ? "–" : `${ratio.toFixed(2)}×`}: ${verdict(m.reopen.warmMs <= 500 && ratio !== undefined && ratio <= 1.5)}.`,
      `- memory held ≤ 1.5× the tree's bytes: ${mib(m.reopen.heldBytes)}, ${heldRatio.toFixed(2)}×: ${verdict(heldRatio <= 1.5)}.`,
    );
    if (m.crash !== undefined)
      lines.push(
        `- a tool-reported write survives SIGKILL of the browser, 100 times in a row: ${m.crash.rounds - m.crash.lost}/${m.crash.rounds} kept: ${verdict(m.crash.lost === 0 && m.crash.rounds >= 100)}.`,
      );
  }
  return `Chromium ${browserVersion ?? "?"}, headless, persistent context (on disk). The tree: ${tree.files.length.toLocaleString("en")} files, ${tree.totalBytes.toLocaleString("en")} bytes (${mib(tree.totalBytes)}) from ${tree.packages} packages of this checkout's \`node_modules/\` after \`npm ci\` (every package except those shipping native binaries or an engine build: node, sql.js, @sparticuz/chromium, @typescript/typescript-linux-x64, @rolldown/binding-*, lightningcss-*; files ≤ 512 KiB; no symlinks), served to the page as one pack by the bench server.

- **import**: every file written through the variant's API (raw: \`createWritable\` per file), 32 in flight, then the backend closed (so the OPFS Worker's and IndexedDB's deferred writes are on disk too); the pack is already in the page.
- **first read**, **greppable**: after a page reload, from the backend's creation to the first \`readFile\` of \`${probe(tree)}\` (asked at once, without waiting for \`ready()\`), and to the end of the first grep over the whole tree; medians of ${COLD_ROUNDS} cold starts, each after a reload (one for a variant slower than ${ms(COLD_MAX_MS)} to greppable), with the range in brackets.
- **grep**: the grep tool (\`createGrepTool\`, pattern \`createRequire\`, \`ignoreDirectories: []\`, no offload) over the whole tree, median of 5 after the first; raw OPFS: walk the handles, read every file 32 in flight, \`indexOf\`. In brackets: the median of per-round ratios to the grep tool on a memory backend holding the same tree in the same page, the two run back to back in alternating order each round.
- **memory held**: after the first grep (the mirror: and the end of its load), minus the same page before the backend was created (memory backend: before the pack was fetched; the pack is dropped before measuring), from ${memoryHow === "ua" ? "`performance.measureUserAgentSpecificMemory()` (page cross-origin isolated, Chromium flag `ForceEagerMeasureMemory`; main thread and workers)" : "CDP `Runtime.getHeapUsage` (used heap + backing stores + embedder heap, main thread only) after `HeapProfiler.collectGarbage`"}. In brackets: against the tree's bytes.
- **crash**: rounds of: start Chromium on one user-data-dir, open the page, read back every earlier round's file, write this round's 4 KiB through the write tool (raw: \`createWritable\` + \`close\`), SIGKILL the browser process as soon as the call returns. "kept" counts rounds whose file came back byte-identical at every later start (one more start at the end reads the last round back). Mirror ${CRASH_ROUNDS} rounds, the others ${CRASH_OTHER_ROUNDS} (each capped at ${ms(CAP_MS)}).

A variant that cannot finish its import within ${ms(CAP_MS)}, or the reopen (first read, first grep, 5 paired rounds) within ${ms(CAP_MS * 4)}, is recorded as capped (an import: how many files it wrote by then), and its later steps are not run. Load average (1 min) at the start and the end of this bench: ${load[0].toFixed(1)} and ${load[1].toFixed(1)} on ${os.cpus().length} cores.

| variant | import | first read after reload | greppable after reload | grep (vs memory) | memory held (vs tree) | crash: writes kept |
| --- | --: | --: | --: | --: | --: | --- |
${rows.join("\n")}

Targets (the mirror):
${lines.join("\n")}
`;
}

function probe(tree) {
  return (tree.files.find((file) => file.path === "/repo/typescript/package.json") ?? tree.files[0]).path;
}

// Under load (issue 27, item 5): 50 concurrent sessions of tool calls (edit, apply_patch, grep,
// bash; see bench/load-sessions.mjs) on one backend for BENCH_LOAD_SECONDS (default 60): memory
// in Node, then the OPFS mirror in Chromium (bench/browser/load-page.js, persistent context). At
// the end the backend's tree must equal the sessions' models (nothing lost; for the mirror also
// in a fresh instance loaded from the store), and p50/p99 per call are reported per tool.
// Knobs: BENCH_LOAD_SECONDS (a short run for a quick check, e.g. 5), BENCH_LOAD_SESSIONS (50),
// BENCH_LOAD_BACKENDS (comma list of memory,mirror).
import os from "node:os";
import { createFsTools } from "../dist/index.js";
import { memoryFileSystem } from "../dist/backends/memory/index.js";
import { openBenchPage } from "./browser/serve.mjs";
import { lostFiles, runSessions, seedSessions } from "./load-sessions.mjs";

export const title =
  "Under load: 50 concurrent sessions of tool calls on one backend (memory in Node, OPFS mirror in Chromium)";

const SESSIONS = Number(process.env.BENCH_LOAD_SESSIONS ?? 50);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const BACKENDS = (process.env.BENCH_LOAD_BACKENDS ?? "memory,mirror").split(",").filter(Boolean);

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function report(label, result, nothingLost) {
  const rows = Object.entries(result.times).map(([tool, values]) => {
    const sorted = [...values].sort((a, b) => a - b);
    if (sorted.length === 0) return `| ${tool} | 0 | - | - |`;
    return `| ${tool} | ${values.length} | ${quantile(sorted, 0.5).toFixed(2)} ms | ${quantile(sorted, 0.99).toFixed(2)} ms |`;
  });
  const { failures } = result;
  return `**${label}**: ${SESSIONS} sessions at once for ${(result.elapsedMs / 1000).toFixed(1)} s; ${result.calls} calls in all, ${failures.length} failed calls${failures.length > 0 ? ` (first: ${failures[0]})` : ""}.
Nothing lost: ${nothingLost}.

| tool | calls | p50 per call | p99 per call |
| --- | --: | --: | --: |
${rows.join("\n")}
`;
}

async function memory() {
  const fs = memoryFileSystem();
  const tools = createFsTools({ fs, cwd: "/w" });
  const models = await seedSessions(fs, SESSIONS);
  const result = await runSessions(tools, models, SECONDS);
  const lost = await lostFiles(fs, models);
  return report(
    "memory (Node)",
    result,
    lost === 0 ? "yes (every file equals its session's model at the end)" : `no, ${lost} files differ`,
  );
}

async function mirror() {
  const session = await openBenchPage({ module: "/bench/browser/load-page.js", readyFlag: "loadBenchReady" });
  try {
    const loadBefore = os.loadavg()[0].toFixed(1);
    const result = await session.page.evaluate((options) => window.loadBench.run(options), {
      sessions: SESSIONS,
      seconds: SECONDS,
    });
    const loadAfter = os.loadavg()[0].toFixed(1);
    const lost =
      result.lost === 0 && result.lostAfterReload === 0
        ? "yes (every file equals its session's model at the end, in the instance and in a fresh one loaded from the store)"
        : `no, ${result.lost} files differ in the instance, ${result.lostAfterReload} after a reload`;
    return `${report(`OPFS mirror (Chromium ${session.browserVersion}, one page)`, result, lost)}
Machine load (1-minute average) before and after: ${loadBefore}, ${loadAfter}.
`;
  } finally {
    await session.close();
  }
}

export async function run() {
  const parts = [];
  if (BACKENDS.includes("memory")) parts.push(await memory());
  if (BACKENDS.includes("mirror")) parts.push(await mirror());
  return `Each session edits (edit, then apply_patch) its own 4 files of 40 lines, greps them and runs
\`wc -l\` through bash, one call after another; all sessions share one backend and one set of tools.

${parts.join("\n")}`;
}

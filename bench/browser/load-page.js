// In-page side of bench/load.bench.mjs for the OPFS mirror (issue 27, item 5): the same 50
// sessions of tool calls (edit, apply_patch, grep, bash) as the memory run, on one OPFS mirror in
// this page, for a given time; then a fresh mirror on the same store loads the tree, which must
// equal the sessions' models (nothing lost). Timings in milliseconds from performance.now().
import { createFsTools } from "/dist/index.browser.js";
import { opfsMirrorFileSystem } from "/dist/backends/opfs-mirror/index.browser.js";
import { runSessions, seedSessions, lostFiles } from "/bench/load-sessions.mjs";

const ROOT = "bench-load-mirror";

async function wipe(name) {
  const origin = await navigator.storage.getDirectory();
  await origin.removeEntry(name, { recursive: true }).catch((error) => {
    if (error.name !== "NotFoundError") throw error;
  });
}

window.loadBench = {
  /** Run the load; returns `{ times, failures, calls, elapsedMs, lost, lostAfterReload }`. */
  async run({ sessions, seconds }) {
    await wipe(ROOT);
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const tools = createFsTools({ fs, cwd: "/w" });
    const models = await seedSessions(fs, sessions);
    const result = await runSessions(tools, models, seconds);
    const lost = await lostFiles(fs, models);
    await fs.close();
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const lostAfterReload = await lostFiles(again, models);
    await again.close();
    await wipe(ROOT);
    return { ...result, lost, lostAfterReload };
  },
};
window.loadBenchReady = true;

import { openBenchPage } from "../bench/browser/serve.mjs";
const session = await openBenchPage({ module: "/bench/browser/mirror-page.js", readyFlag: "mirrorBenchReady", optimizeDeps: ["@zenfs/core", "@zenfs/dom", "opfs-tools"] });
try {
  console.log(await session.page.evaluate(() => window.mirrorBench.seedTree({ files: 10000 })));
  for (let round = 0; round < 6; round++) {
    const r = await session.page.evaluate(async (round) => {
      const { resolveOpfsRoot } = await import("/dist/backends/opfs/root.js");
      const { openDirectReads } = await import("/dist/backends/opfs-mirror/direct.js");
      const { opfsMirrorFileSystem } = await import("/dist/backends/opfs-mirror/index.browser.js");
      const t = {}; let t0 = performance.now();
      const lock = await navigator.locks.request("probe-x", { ifAvailable: true }, async (l) => l !== null);
      t.lock = performance.now() - t0; t0 = performance.now();
      const dir = await resolveOpfsRoot("/mb-tree-mirror"); t.root = performance.now() - t0; t0 = performance.now();
      const reads = await openDirectReads(dir); t.open = performance.now() - t0; t0 = performance.now();
      const bytes = await reads.readFile(`/d${round}/f${round + 3}.txt`); t.read = performance.now() - t0; t0 = performance.now();
      const fs = opfsMirrorFileSystem({ root: "/mb-tree-mirror" });
      const b2 = await fs.readFile(`/d${round + 10}/f${round + 5}.txt`); t.mirror = performance.now() - t0;
      await fs.close();
      return JSON.stringify(Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v * 10) / 10]))) + ` ${bytes?.byteLength} ${b2.byteLength}`;
    }, round);
    console.log(r);
  }
} finally { await session.page.evaluate(() => window.mirrorBench.cleanup()); await session.close(); }

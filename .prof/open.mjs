import { openBenchPage } from "../bench/browser/serve.mjs";
const session = await openBenchPage({ module: "/bench/browser/mirror-page.js", readyFlag: "mirrorBenchReady", optimizeDeps: ["@zenfs/core", "@zenfs/dom", "opfs-tools"] });
try {
  console.log(await session.page.evaluate(() => window.mirrorBench.seedTree({ files: 10000 })));
  for (let round = 0; round < 8; round++) {
    const r = await session.page.evaluate(async (round) => {
      const { resolveOpfsRoot } = await import("/dist/backends/opfs/root.js");
      const { crc32 } = await import("/dist/backends/opfs-mirror/crc32.js");
      const t = {}; let t0 = performance.now();
      const lap = (k) => { t[k] = Math.round((performance.now() - t0) * 10) / 10; t0 = performance.now(); };
      const dir = await resolveOpfsRoot("/mb-tree-mirror"); lap("root");
      const names = []; for await (const n of dir.keys()) names.push(n); lap("keys");
      const seg = names.find((n) => n.startsWith("segment"));
      const h = await dir.getFileHandle(seg); lap("handle");
      const f = await h.getFile(); lap("getFile");
      const tail = new Uint8Array(await f.slice(Math.max(0, f.size - 1048576)).arrayBuffer()); lap("tail1M");
      const small = new Uint8Array(await f.slice(f.size - 65536).arrayBuffer()); lap("tail64k");
      crc32(tail.subarray(tail.byteLength - 450000)); lap("crc450k");
      const j = await (await dir.getFileHandle(names.find((n) => n.startsWith("journal")))).getFile(); lap("journal");
      const rec = new Uint8Array(await f.slice(123456, 123456 + 4200).arrayBuffer()); lap("record");
      return JSON.stringify(t) + " " + names.join(",") + " " + f.size;
    }, round);
    console.log(r);
  }
} finally { await session.page.evaluate(() => window.mirrorBench.cleanup()); await session.close(); }

import { openBenchPage } from "./browser/serve.mjs";
const which = process.argv[2];
const session = await openBenchPage({ module: "/bench/browser/mirror-page.js", readyFlag: "mirrorBenchReady", optimizeDeps: ["@zenfs/core", "@zenfs/dom", "opfs-tools"] });
try {
  await session.page.evaluate((c) => window.mirrorBench[c]({ kind: "mirror" }), which);
  const cdp = await session.page.context().newCDPSession(session.page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  const t = await session.page.evaluate((c) => window.mirrorBench[c]({ kind: "mirror" }), which);
  const { profile } = await cdp.send("Profiler.stop");
  const self = new Map();
  const dt = profile.timeDeltas; const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
  for (const [id, us] of counts) { const n = byId.get(id); const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + us); }
  console.log("elapsed", Math.round(t));
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((us / 1000).toFixed(1).padStart(8), k);
} finally { await session.close(); }

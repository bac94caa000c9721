// The mirrored OPFS backend across tabs (issue 16, item 2): how long a change written in the
// writer tab takes to be visible in a reader tab, against a raw BroadcastChannel message of the
// same size between the same two tabs, in one run. Two pages of one Chromium (persistent context).
// Needs `npm run build` (dist/). CHANGES (default 100) changes of 4 KiB after WARM_UP.
import { openBenchPage } from "./browser/serve.mjs";

export const title = "OPFS mirror across tabs (Chromium)";

const CHANGES = Number(process.env.BENCH_CHANGES ?? 100);
const WARM_UP = 10;
const ROOT = "/bench-opfs-tabs";
/** The issue's figure: a change is seen in the other tabs within this many milliseconds. */
const TARGET_MS = 100;

function percentile(values, share) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}

const ms = (value) => (value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`);

export async function run() {
  const session = await openBenchPage({ module: "/bench/browser/opfs-tabs-page.js", readyFlag: "opfsTabsBenchReady" });
  const writer = session.page;
  const reader = await writer.context().newPage();
  const samples = { raw: [], write: [], seen: [], forwarded: [] };
  try {
    await writer.evaluate((name) => window.opfsTabsBench.wipe(name), ROOT.slice(1));
    await reader.goto(writer.url());
    await reader.waitForFunction(() => window.opfsTabsBenchReady === true);
    const roles = [
      await writer.evaluate((root) => window.opfsTabsBench.open(root), ROOT),
      await reader.evaluate((root) => window.opfsTabsBench.open(root), ROOT),
    ];
    if (roles.join() !== "writer,reader") throw new Error(`opfs-tabs bench: roles ${roles.join()}`);
    for (let index = 0; index < WARM_UP + CHANGES; index++) {
      const keep = index >= WARM_UP;
      // Raw floor: one 4 KiB message from the writer's tab to the reader's.
      const posted = await writer.evaluate((sequence) => window.opfsTabsBench.postRaw(sequence), index);
      const arrived = await reader.evaluate((sequence) => window.opfsTabsBench.rawArrival(sequence), index);
      // A change in the writer, until the reader's memory holds it.
      const path = `/changes/${index % 10}.txt`;
      const text = `change ${index};`;
      await reader.evaluate(({ path, text }) => window.opfsTabsBench.expect(path, text), { path, text });
      const call = await writer.evaluate(({ path, text }) => window.opfsTabsBench.write(path, text), { path, text });
      const seenAt = await reader.evaluate(() => window.opfsTabsBench.seen());
      // A change in the reader: forwarded to the writer, resolved once durable and applied here.
      const forwarded = await reader.evaluate(({ path, text }) => window.opfsTabsBench.write(path, text), {
        path: `/forwarded/${index % 10}.txt`,
        text,
      });
      if (keep) {
        samples.raw.push(arrived - posted);
        samples.write.push(call.end - call.start);
        samples.seen.push(seenAt - call.start);
        samples.forwarded.push(forwarded.end - forwarded.start);
      }
    }
    if ((await reader.evaluate(() => window.opfsTabsBench.role())) !== "reader") throw new Error("reader took over");
    await reader.evaluate(() => window.opfsTabsBench.close());
    await writer.evaluate(() => window.opfsTabsBench.close());
    await writer.evaluate((name) => window.opfsTabsBench.wipe(name), ROOT.slice(1));
  } finally {
    await session.close();
  }
  const p50 = Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, percentile(values, 0.5)]));
  const p95 = Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, percentile(values, 0.95)]));
  process.stderr.write(`bench: opfs-tabs p50 ${JSON.stringify(p50)} p95 ${JSON.stringify(p95)}\n`);
  const row = (label, key, against) =>
    `| ${label} | ${ms(p50[key])} | ${ms(p95[key])} | ${against === undefined ? "–" : `${(p50[key] / p50[against]).toFixed(1)}× / ${(p95[key] / p95[against]).toFixed(1)}×`} |`;
  return `Chromium ${session.browserVersion}, headless, persistent context; two tabs (pages) of one browser on one root, the first the writer, the second a reader. ${CHANGES} changes of 4 KiB each (overwriting 10 files in turn) after ${WARM_UP} warm-up changes; one change at a time. "Visible" is when the reader's memory returns the new bytes (a probe on the root's BroadcastChannel, created after the instance's own channel, so it hears each batch after the instance applied it, reads the file); times run from the start of the writer's call, so they include its flush.

| measure | p50 | p95 | vs raw BroadcastChannel (p50 / p95) |
| --- | --- | --- | --- |
${row("raw BroadcastChannel message, 4 KiB, writer tab → reader tab", "raw")}
${row("write in the writer tab, call → resolved (durable)", "write", "raw")}
${row("write in the writer tab → visible in the reader tab", "seen", "raw")}
${row("write in the reader tab (forwarded), call → resolved (durable, applied in both)", "forwarded", "raw")}

Target: a change visible in the other tabs within ${TARGET_MS} ms: p95 ${ms(p95.seen)}: ${p95.seen <= TARGET_MS ? "met" : "**not met**"}.
`;
}

// The OPFS mirror where it met a floor or a peer ahead of it (issue 30), in Chromium
// (persistent context), every kind measured in the same run with the order rotating from round
// to round; each ratio is the median of per-round ratios against the floor measured next to it.
// Rows: the first read of one file after a reload of a 10,000-file tree (floor: raw OPFS calls
// on the main thread); one 64 MiB write until durable (floor: a raw sync access handle in a
// Worker writing the same bytes, then flush()); 50 read-modify-write rounds over 20 files (floor:
// raw sync handles in a Worker with a flush() per write; the mirror's sync calls too, no await
// between writes and one flush() at the end, which lets the writes share batches). Peers: our plain OPFS backend (main
// thread, Worker), opfs-tools, ZenFS (WebAccess on OPFS).
// Needs `npm run build` (dist/). Knobs: BENCH_ROUNDS (default 5, after one warm-up),
// BENCH_TREE_FILES (default 10000), BENCH_MIRROR_ROWS (comma list of first-read,large,rmw),
// BENCH_MIRROR_KINDS (comma list: only these kinds beside the floor).
import os from "node:os";
import { openBenchPage } from "./browser/serve.mjs";
import { median } from "./lib.mjs";

export const title = "OPFS mirror against the floors and its peers (Chromium)";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TREE_FILES = Number(process.env.BENCH_TREE_FILES ?? 10_000);
const ROWS = (process.env.BENCH_MIRROR_ROWS ?? "first-read,large,rmw").split(",").filter(Boolean);
/** BENCH_MIRROR_KINDS: only these kinds (the floors are always measured). */
const ONLY = process.env.BENCH_MIRROR_KINDS?.split(",").filter(Boolean);

const SCENARIOS = [
  {
    id: "first-read",
    label: `first read of one file after a reload (${TREE_FILES.toLocaleString("en")}-file tree, 4 KiB each)`,
    call: "firstRead",
    floor: "raw",
    kinds: ["raw", "mirror", "main", "worker", "opfs-tools", "zenfs"],
  },
  {
    id: "large",
    label: "write one 64 MiB file until durable",
    call: "largeWrite",
    floor: "raw-worker-flush",
    kinds: ["raw-worker-flush", "mirror", "worker", "opfs-tools", "zenfs"],
  },
  {
    id: "rmw",
    label: "50 read-modify-write rounds over 20 files (4 KiB)",
    call: "rmw",
    floor: "raw-worker-flush",
    kinds: ["raw-worker-flush", "raw-worker", "mirror", "mirror-sync", "worker", "opfs-tools", "zenfs"],
  },
];

const LABEL = {
  raw: "raw OPFS, main thread",
  "raw-worker-flush": "raw sync handle in a Worker + flush()",
  "raw-worker": "raw sync handles in a Worker, no flush",
  mirror: "**our OPFS mirror**",
  "mirror-sync": "our OPFS mirror, sync calls, one flush() at the end",
  main: "our OPFS backend, main thread",
  worker: "our OPFS backend, Worker",
  "opfs-tools": "opfs-tools",
  zenfs: "ZenFS WebAccess on OPFS",
};

const ms = (value) => (value === undefined ? "–" : value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`);
const load = () => os.loadavg()[0].toFixed(1);

export async function run() {
  const session = await openBenchPage({
    module: "/bench/browser/mirror-page.js",
    readyFlag: "mirrorBenchReady",
    optimizeDeps: ["@zenfs/core", "@zenfs/dom", "opfs-tools"],
  });
  const sections = [];
  try {
    for (const spec of SCENARIOS.filter((scenario) => ROWS.includes(scenario.id))) {
      const loadBefore = load();
      if (spec.id === "first-read") {
        const seeded = await session.page.evaluate((options) => window.mirrorBench.seedTree(options), {
          files: TREE_FILES,
        });
        process.stderr.write(`bench: opfs-mirror seeded ${JSON.stringify(seeded)}\n`);
      }
      if (ONLY !== undefined) spec.kinds = spec.kinds.filter((kind) => kind === spec.floor || ONLY.includes(kind));
      const samples = Object.fromEntries(spec.kinds.map((kind) => [kind, []]));
      for (let round = 0; round <= ROUNDS; round++) {
        const shift = round % spec.kinds.length;
        const order = [...spec.kinds.slice(shift), ...spec.kinds.slice(0, shift)];
        for (const kind of order) {
          const options = { kind, dirIndex: (round * 37 + 11) % 100, fileIndex: (round * 53 + 7) % (TREE_FILES / 100) };
          const elapsed = await session.page.evaluate(({ call, options }) => window.mirrorBench[call](options), {
            call: spec.call,
            options,
          });
          if (round > 0) samples[kind].push(elapsed); // round 0 is the warm-up
        }
        process.stderr.write(
          `bench: opfs-mirror ${spec.id} round ${round} ${JSON.stringify(Object.fromEntries(spec.kinds.map((kind) => [kind, Math.round(samples[kind].at(-1) ?? 0)])))} load ${load()}\n`,
        );
      }
      const rows = spec.kinds.map((kind) => {
        const ratio = median(samples[kind].map((value, index) => value / samples[spec.floor][index]));
        const cell = kind === spec.floor ? "1.00× (floor)" : `${ratio.toFixed(2)}×`;
        return `| ${LABEL[kind]} | ${ms(median(samples[kind]))} | ${cell} |`;
      });
      sections.push(
        `### ${spec.label}\n\nLoad (1-minute average) ${loadBefore} before, ${load()} after; ${os.cpus().length} cores.\n\n| kind | median | against the floor (median of per-round ratios) |\n| --- | --: | --: |\n${rows.join("\n")}\n`,
      );
    }
    await session.page.evaluate(() => window.mirrorBench.cleanup());
  } finally {
    await session.close();
  }
  return `Chromium ${session.browserVersion}, headless, persistent context; medians of ${ROUNDS} rounds after one warm-up; the order of the kinds rotates from round to round.\n\n${sections.join("\n")}`;
}

// The bash shell over our memory backend vs just-bash over its own InMemoryFs, side by side in one
// run (issue 5). The same 5,000 files (50 directories × 100 files, 6 lines each, every 10th file
// with a match) are loaded into both stores.
// - ours: justBashCommandRunner over the gate over memoryFileSystem (what the bash tool runs:
//   fresh shell and adapter per command, every file access checked by the gate);
// - runner, no gate: the same runner over the raw backend (the gate's share is ours ÷ this);
// - adapter: just-bash's Bash over toJustBashFs(memoryFileSystem) (the adapter alone);
// - peer: just-bash's Bash over its InMemoryFs.
// Workloads: a 12-command script (reads, pipes, a write, an append, mkdir, rm) and
// `grep -rn needle .` over the 5,000 files. Medians over rounds after a warm-up; each round times
// the contenders back to back, in an order that rotates every round. Target: ours ≤ 1.5× InMemoryFs.
import { Bash, InMemoryFs } from "just-bash";
import { createGate } from "../dist/index.js";
import { memoryFileSystem } from "../dist/backends/memory/index.js";
import { justBashCommandRunner, toJustBashFs } from "../dist/shell/index.js";

export const title = "Shell: just-bash over our memory backend vs its own InMemoryFs";

const DIRECTORIES = 50;
const FILES_PER_DIRECTORY = 100;
const TIMEOUT_MS = 120_000;

const SCRIPT = [
  "ls d00 | wc -l",
  "cat d01/f001.txt",
  "grep -c needle d02/*.txt | tail -n 2",
  "head -n 2 d03/f010.txt",
  "wc -l d04/f000.txt d04/f001.txt",
  "sort -r d05/f002.txt | head -n 1",
  "sed -n '2p' d06/f003.txt",
  "find d07 -name 'f00*' | sort | head -n 3",
  "echo scratch > tmp.txt",
  "cat d08/f004.txt >> tmp.txt && wc -l < tmp.txt",
  "mkdir -p out/sub && cp tmp.txt out/sub/copy.txt && ls out/sub",
  "rm -r out tmp.txt && ls | wc -l",
].join("\n");

function fileText(directory, file) {
  const lines = [];
  for (let line = 0; line < 6; line++) lines.push(`line ${line} of d${directory} f${file} some words to scan`);
  if (file % 10 === 0) lines[3] = `this line has the needle in d${directory} f${file}`;
  return `${lines.join("\n")}\n`;
}

function files() {
  const out = {};
  for (let directory = 0; directory < DIRECTORIES; directory++) {
    for (let file = 0; file < FILES_PER_DIRECTORY; file++) {
      const d = String(directory).padStart(2, "0");
      const f = String(file).padStart(3, "0");
      out[`/w/d${d}/f${f}.txt`] = fileText(d, f);
    }
  }
  return out;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function compare(contenders, { rounds, warmup }) {
  const times = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  const outputs = {};
  const entries = Object.entries(contenders);
  for (let round = 0; round < warmup + rounds; round++) {
    // Rotate the order every round so no contender always runs right after another's garbage.
    const order = entries.map((_, index) => entries[(index + round) % entries.length]);
    for (const [name, run] of order) {
      const started = performance.now();
      const output = await run();
      const elapsed = performance.now() - started;
      if (round >= warmup) times[name].push(elapsed);
      outputs[name] = output;
    }
  }
  const stdouts = new Set(
    Object.values(outputs).map((output) => `${output.exitCode}\n${output.stdout}\n${output.stderr}`),
  );
  if (stdouts.size !== 1)
    throw new Error(`shell bench: contenders disagree: ${JSON.stringify(outputs, null, 1).slice(0, 2000)}`);
  return Object.fromEntries(Object.entries(times).map(([name, list]) => [name, median(list)]));
}

const ms = (value) => `${value.toFixed(1)} ms`;
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;

export async function run() {
  const initial = files();
  const memory = memoryFileSystem({ files: initial });
  const gate = createGate({ fs: memory, cwd: "/w" });
  const runner = justBashCommandRunner({ fs: gate });
  // A bare backend now gets a gate of the runner's own: to time the runner without any gate, hand
  // it a gate whose checked `fs` is the raw backend.
  const ungatedRunner = justBashCommandRunner({ fs: { ...gate, fs: memory }, cwd: "/w" });
  const peerFs = new InMemoryFs(initial);

  const contenders = (command) => ({
    ours: () => runner.run({ command, cwd: "/w", env: {}, timeoutMs: TIMEOUT_MS }),
    runnerNoGate: () => ungatedRunner.run({ command, cwd: "/w", env: {}, timeoutMs: TIMEOUT_MS }),
    // A fresh adapter per command line, as the runner makes (its stat cache starts cold).
    oursNoGate: () => new Bash({ fs: toJustBashFs(memory), cwd: "/w" }).exec(command, { rawScript: true }),
    peer: () => new Bash({ fs: peerFs, cwd: "/w" }).exec(command, { rawScript: true }),
  });

  const rows = [];
  const scriptTimes = await compare(contenders(SCRIPT), { rounds: 9, warmup: 2 });
  const grepTimes = await compare(contenders("grep -rn needle . | wc -l"), { rounds: 9, warmup: 2 });
  for (const [label, times] of [
    ["12-command script", scriptTimes],
    ["`grep -rn needle .` over 5,000 files", grepTimes],
  ]) {
    rows.push(
      `| ${label} | ${ms(times.ours)} | ${ms(times.runnerNoGate)} | ${ms(times.oursNoGate)} | ${ms(times.peer)} | ` +
        `${ratio(times.ours, times.peer)} | ${ratio(times.runnerNoGate, times.peer)} | ${ratio(times.oursNoGate, times.peer)} |`,
    );
  }
  return [
    "Each figure is the median wall time of one whole command line. **ours** is what the bash tool runs",
    "(`justBashCommandRunner` over the gate over `memoryFileSystem`); **runner, no gate** is the same",
    "runner over the raw backend (so ours ÷ this is the gate's share); **adapter** is just-bash's `Bash`",
    "over `toJustBashFs(memoryFileSystem)`; **InMemoryFs** is just-bash over its own store with the same",
    "5,000 files. Outputs are checked equal across all before timing counts. Target: ours ≤ 1.5× InMemoryFs.",
    "",
    "| workload | ours | runner, no gate | adapter | InMemoryFs | ours ÷ InMemoryFs | runner, no gate ÷ InMemoryFs | adapter ÷ InMemoryFs |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
  ].join("\n");
}

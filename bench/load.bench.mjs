// Under load (issue 27, item 5), first part: 50 concurrent sessions of tool calls (edit,
// apply_patch, grep, bash) on one memory backend for BENCH_LOAD_SECONDS (default 60) in Node.
// Each session works in its own directory and keeps a plain model of its files; at the end the
// backend's tree must equal the models' (nothing lost), and p50/p99 per call are reported per
// tool. Not done here yet: the same load on the OPFS mirror in Chromium.
import { createFsTools } from "../dist/index.js";
import { memoryFileSystem } from "../dist/backends/memory/index.js";

export const title = "Under load: 50 concurrent sessions of tool calls on one backend (memory, Node)";

const SESSIONS = Number(process.env.BENCH_LOAD_SESSIONS ?? 50);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const FILES = 4;
const LINES = 40;

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export async function run() {
  const fs = memoryFileSystem();
  const tools = createFsTools({ fs, cwd: "/w" });
  const times = { edit: [], apply_patch: [], grep: [], bash: [] };
  const failures = [];
  const models = [];
  const encoder = new TextEncoder();
  for (let session = 0; session < SESSIONS; session++) {
    const files = new Map();
    for (let file = 0; file < FILES; file++) {
      const lines = Array.from({ length: LINES }, (_, line) => `s${session} f${file} line ${line} v0`);
      const path = `/w/s${session}/f${file}.txt`;
      await fs.mkdir(`/w/s${session}`, { recursive: true });
      await fs.writeFile(path, encoder.encode(`${lines.join("\n")}\n`));
      files.set(path, lines);
    }
    models.push(files);
  }
  const deadline = performance.now() + SECONDS * 1000;
  const timed = async (tool, call) => {
    const started = performance.now();
    const result = await call();
    times[tool].push(performance.now() - started);
    return result;
  };
  const sessionLoop = async (session) => {
    const files = models[session];
    let step = 0;
    while (performance.now() < deadline) {
      step += 1;
      const file = step % FILES;
      const path = `/w/s${session}/f${file}.txt`;
      const lines = files.get(path);
      const line = (step * 7) % LINES;
      const old = lines[line];
      const next = old.replace(/ v\d+$/, ` v${step}`);
      const kind = step % 4;
      if (kind === 0) {
        const result = await timed("edit", () => tools.edit.execute({ path, oldText: old, newText: next }));
        if (result.ok) lines[line] = next;
        else failures.push(`edit ${path}: ${result.error?.message}`);
      } else if (kind === 1) {
        const patch = `*** Begin Patch\n*** Update File: ${path}\n@@\n-${old}\n+${next}\n*** End Patch`;
        const result = await timed("apply_patch", () => tools.apply_patch.execute({ patch }));
        if (result.ok) lines[line] = next;
        else failures.push(`apply_patch ${path}: ${result.error?.message}`);
      } else if (kind === 2) {
        const result = await timed("grep", () =>
          tools.grep.execute({ pattern: `s${session} f${file} line ${line} `, path: `s${session}` }),
        );
        if (!result.ok || result.count !== 1) failures.push(`grep ${path}: ${result.count}`);
      } else {
        const result = await timed("bash", () => tools.bash.execute({ command: `wc -l s${session}/f${file}.txt` }));
        if (result.exitCode !== 0 || !result.stdout.includes(`${LINES}`))
          failures.push(`bash ${path}: ${result.stdout}`);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: SESSIONS }, (_, session) => sessionLoop(session)));
  const elapsed = (performance.now() - started) / 1000;
  let lost = 0;
  const decoder = new TextDecoder();
  for (const files of models) {
    for (const [path, lines] of files) {
      if (decoder.decode(await fs.readFile(path)) !== `${lines.join("\n")}\n`) lost += 1;
    }
  }
  const rows = Object.entries(times).map(([tool, values]) => {
    const sorted = [...values].sort((a, b) => a - b);
    if (sorted.length === 0) return `| ${tool} | 0 | - | - |`;
    return `| ${tool} | ${values.length} | ${quantile(sorted, 0.5).toFixed(2)} ms | ${quantile(sorted, 0.99).toFixed(2)} ms |`;
  });
  const calls = Object.values(times).reduce((sum, values) => sum + values.length, 0);
  return `${SESSIONS} sessions at once for ${elapsed.toFixed(1)} s on one memory backend (Node): each session edits
(edit, then apply_patch) its own 4 files of 40 lines, greps them and runs \`wc -l\` through bash,
one call after another; ${calls} calls in all, ${failures.length} failed calls${failures.length > 0 ? ` (first: ${failures[0]})` : ""}.
Nothing lost: ${lost === 0 ? "yes" : `no, ${lost} files differ`} (every file equals its session's model at the end).

| tool | calls | p50 per call | p99 per call |
| --- | --: | --: | --: |
${rows.join("\n")}
`;
}

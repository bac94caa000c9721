// apply_patch on the memory backend vs the same changes made with raw backend calls (issue 6, item 4).
// One patch touches 200 files: 80 Update File (two hunks each, in 300-line files), 70 Add File
// (40 lines each, half in new directories) and 50 Delete File. The raw contender makes the same
// changes on its own memory backend: for each update it reads, decodes, replaces the two hunks
// with indexOf/slice, encodes and writes; it writes the added files and removes the deleted ones.
// Each round builds two fresh identical trees (untimed), then times both back to back, the order
// alternating between rounds. Medians over rounds after a warm-up. Target: tool / raw ≤ 2×.
import { createApplyPatchTool, createGate } from "../dist/index.js";
import { createResolutionCache } from "../dist/contract/path.js";
import { memoryFileSystem } from "../dist/backends/memory/index.js";
import { median } from "./lib.mjs";

export const title = "apply_patch: a 200-file patch vs raw writes";

const UPDATES = 80;
const ADDS = 70;
const DELETES = 50;
const LINES_PER_FILE = 300;
const ADDED_LINES = 40;
const ROUNDS = 21;
const WARMUP = 3;
const PAIRS = 3;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const line = (file, n) => `    const value_${file}_${n} = compute(${n}, "file ${file} line ${n}");`;

function makeFiles() {
  const files = {};
  for (let f = 0; f < UPDATES; f++) {
    files[`/w/src/mod${f % 10}/update${f}.ts`] =
      Array.from({ length: LINES_PER_FILE }, (_, n) => line(f, n)).join("\n") + "\n";
  }
  for (let f = 0; f < DELETES; f++)
    files[`/w/old/delete${f}.ts`] = Array.from({ length: 50 }, (_, n) => line(1000 + f, n)).join("\n") + "\n";
  return files;
}

/** The changes as data, so both contenders make exactly the same ones. */
function makeChanges() {
  const updates = [];
  for (let f = 0; f < UPDATES; f++) {
    const path = `src/mod${f % 10}/update${f}.ts`;
    const hunks = [60, 220].map((at) => ({
      before: [line(f, at - 1), line(f, at)],
      after: [line(f, at + 1)],
      old: line(f, at),
      new: `${line(f, at)} // changed`,
    }));
    updates.push({ path, hunks });
  }
  const adds = [];
  for (let f = 0; f < ADDS; f++) {
    const path = f % 2 === 0 ? `src/new${f}/added${f}.ts` : `src/mod${f % 10}/added${f}.ts`;
    adds.push({ path, lines: Array.from({ length: ADDED_LINES }, (_, n) => line(2000 + f, n)) });
  }
  const deletes = Array.from({ length: DELETES }, (_, f) => `old/delete${f}.ts`);
  return { updates, adds, deletes };
}

function makePatch({ updates, adds, deletes }) {
  const out = ["*** Begin Patch"];
  for (const { path, hunks } of updates) {
    out.push(`*** Update File: ${path}`);
    for (const hunk of hunks) {
      out.push("@@");
      for (const context of hunk.before.slice(0, 1)) out.push(` ${context}`);
      out.push(`-${hunk.old}`, `+${hunk.new}`);
      for (const context of hunk.after) out.push(` ${context}`);
    }
  }
  for (const { path, lines } of adds) {
    out.push(`*** Add File: ${path}`);
    for (const text of lines) out.push(`+${text}`);
  }
  for (const path of deletes) out.push(`*** Delete File: ${path}`);
  out.push("*** End Patch");
  return out.join("\n");
}

async function applyRaw(fs, { updates, adds, deletes }) {
  for (const { path, hunks } of updates) {
    let text = decoder.decode(await fs.readFile(`/w/${path}`));
    let from = 0;
    for (const hunk of hunks) {
      const needle = `${hunk.old}\n`;
      const at = text.indexOf(needle, from);
      text = `${text.slice(0, at)}${hunk.new}\n${text.slice(at + needle.length)}`;
      from = at + hunk.new.length + 1;
    }
    await fs.writeFile(`/w/${path}`, encoder.encode(text));
  }
  for (const { path, lines } of adds) await fs.writeFile(`/w/${path}`, encoder.encode(`${lines.join("\n")}\n`));
  for (const path of deletes) await fs.rm(`/w/${path}`);
}

/** A backend wrapper counting calls per method (and failures), to show where the calls go. */
function counted(fs) {
  const counts = { calls: 0, failed: 0 };
  const wrapped = { ...fs };
  for (const key of [
    "readFile",
    "writeFile",
    "stat",
    "lstat",
    "readdir",
    "mkdir",
    "rm",
    "rename",
    "realpath",
    "readlink",
  ]) {
    if (typeof fs[key] !== "function") continue;
    wrapped[key] = async (...args) => {
      counts.calls += 1;
      try {
        return await fs[key](...args);
      } catch (error) {
        counts.failed += 1;
        throw error;
      }
    };
  }
  return { fs: wrapped, counts };
}

export async function run() {
  const files = makeFiles();
  const changes = makeChanges();
  const patch = makePatch(changes);
  const toolTimes = [];
  const rawTimes = [];
  const gateTimes = [];
  const paths = [...changes.updates.map((u) => u.path), ...changes.adds.map((a) => a.path), ...changes.deletes];

  // Check once that both contenders leave identical trees.
  {
    const a = memoryFileSystem({ files });
    const b = memoryFileSystem({ files });
    const result = await createApplyPatchTool({ fs: a, cwd: "/w" }).execute({ patch });
    if (!result.ok) throw new Error(`bench patch failed: ${result.parts[0]?.text}`);
    await applyRaw(b, changes);
    const left = JSON.stringify(a.volume.toJSON());
    const right = JSON.stringify(b.volume.toJSON());
    if (left !== right) throw new Error("bench: the tool and the raw writes produced different trees");
  }

  // Backend calls made by each contender, and by the gate's checks alone.
  const toolCalls = counted(memoryFileSystem({ files }));
  await createApplyPatchTool({ fs: toolCalls.fs, cwd: "/w" }).execute({ patch });
  const rawCalls = counted(memoryFileSystem({ files }));
  await applyRaw(rawCalls.fs, changes);
  const gateCalls = counted(memoryFileSystem({ files }));
  const countingGate = createGate({ fs: gateCalls.fs, cwd: "/w" });
  const countingCache = createResolutionCache();
  await Promise.all(paths.map((path) => countingGate.check(path, "write", { cache: countingCache })));

  // Each round times PAIRS tool runs and PAIRS raw runs, interleaved (tool, raw, raw, tool, ...),
  // each on a fresh tree, and keeps the median of each: a burst of load from other processes
  // then lands in one run of a round, not in one contender's whole figure.
  const roundRatios = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const toolRuns = [];
    const rawRuns = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      const toolFs = memoryFileSystem({ files });
      const rawFs = memoryFileSystem({ files });
      const tool = createApplyPatchTool({ fs: toolFs, cwd: "/w" });
      const timeTool = async () => {
        const started = performance.now();
        const result = await tool.execute({ patch });
        const elapsed = performance.now() - started;
        if (!result.ok) throw new Error(result.parts[0]?.text);
        toolRuns.push(elapsed);
      };
      const timeRaw = async () => {
        const started = performance.now();
        await applyRaw(rawFs, changes);
        rawRuns.push(performance.now() - started);
      };
      if ((round + pair) % 2 === 0) {
        await timeTool();
        await timeRaw();
      } else {
        await timeRaw();
        await timeTool();
      }
    }
    // The part of the tool's time spent in the gate: one write check per path with one
    // resolution cache for the call, as the tool does.
    const gate = createGate({ fs: memoryFileSystem({ files }), cwd: "/w" });
    const gateStarted = performance.now();
    const cache = createResolutionCache();
    await Promise.all(paths.map((path) => gate.check(path, "write", { cache })));
    const gateMs = performance.now() - gateStarted;
    if (round >= WARMUP) {
      toolTimes.push(median(toolRuns));
      rawTimes.push(median(rawRuns));
      roundRatios.push(median(toolRuns) / median(rawRuns));
      gateTimes.push(gateMs);
    }
  }
  const tool = median(toolTimes);
  const raw = median(rawTimes);
  const gateOnly = median(gateTimes);
  const ratios = roundRatios;
  const patchBytes = encoder.encode(patch).length;
  return `
A patch of ${(patchBytes / 1024).toFixed(0)} KiB touching 200 files (${UPDATES} updates with 2 hunks each in ${LINES_PER_FILE}-line files, ${ADDS} adds, ${DELETES} deletes) on the memory backend. The tool parses, checks every path through the gate, computes every new content in memory, then writes (up to 32 calls in flight) with rollback on failure; the raw contender makes the same changes with direct backend calls and string replacement. Each round times ${PAIRS} runs of each contender, interleaved, each on a fresh tree, and keeps each one's median; figures are medians of ${ROUNDS} rounds after ${WARMUP} warm-up rounds.

| contender | median per patch | ratio |
| --- | ---: | ---: |
| raw backend calls (floor) | ${raw.toFixed(2)} ms | 1.00× |
| apply_patch tool | ${tool.toFixed(2)} ms | ${(tool / raw).toFixed(2)}× |
| of which: gate checks of the 200 paths alone | ${gateOnly.toFixed(2)} ms | ${(gateOnly / raw).toFixed(2)}× |

Median of the per-round ratios: ${median(ratios).toFixed(2)}× (target ≤ 2×).

Backend calls per patch (failed calls in parentheses): raw ${rawCalls.counts.calls} (${rawCalls.counts.failed}); apply_patch ${toolCalls.counts.calls} (${toolCalls.counts.failed}), of which the gate's path checks make ${gateCalls.counts.calls} (${gateCalls.counts.failed}) and the tool itself ${toolCalls.counts.calls - gateCalls.counts.calls} (${toolCalls.counts.failed - gateCalls.counts.failed}). The checks share one resolution cache (each directory resolved once, one \`lstat\` per file, none under a missing directory) and tell the tool which paths do not exist, so it looks up nothing itself before writing; it reads the files it updates and the files it deletes (to restore them if a write fails).
`;
}

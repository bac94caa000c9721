// The gate, middleware and the Node backend vs the raw backends, side by side in one run (issue 7).
// - gate: gate.fs.readFile (path check + symlink resolution through the backend) vs raw
//   memoryFileSystem readFile, on a 1 KiB file three directories deep and on a 1 MiB file.
// - middleware: compose(withFilesystemLogging (no-op destination), withQuota) readFile/writeFile
//   vs raw memory.
// - node: nodeFileSystem readFile (realpath, jail check, O_NOFOLLOW open, fstat) vs
//   fs.promises.readFile; writeFile (temp file, fsync, rename) vs fs.promises.writeFile.
// Figures are medians over rounds after a warm-up; each round times the contenders back to back.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compose, createGate, withFilesystemLogging, withQuota } from "../dist/index.js";
import { memoryFileSystem } from "../dist/backends/memory/index.js";
import { nodeFileSystem } from "../dist/backends/node/index.js";
import { compare } from "./lib.mjs";

export const title = "Gate, middleware and Node backend overhead";

const KiB = 1024;
const MiB = 1024 * KiB;

const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;

function row(label, ours, raw) {
  return `| ${label} | ${us(ours)} | ${us(raw)} | ${ratio(ours, raw)} |`;
}

export async function run() {
  const small = new Uint8Array(KiB).fill(97);
  const large = new Uint8Array(MiB).fill(98);
  const rows = [];

  // Gate over memory.
  const memory = memoryFileSystem({ files: { "/w/src/deep/dir/small.txt": small, "/w/large.txt": large } });
  const gate = createGate({ fs: memory, cwd: "/w" });
  let result = await compare(
    {
      gated: () => gate.fs.readFile("src/deep/dir/small.txt"),
      raw: () => memory.readFile("/w/src/deep/dir/small.txt"),
    },
    { rounds: 15, iterations: 2000, warmup: 2 },
  );
  rows.push(row("memory readFile 1 KiB, gated vs raw", result.gated, result.raw));
  result = await compare(
    {
      check: () => gate.check("src/deep/dir/small.txt", "read"),
      raw: () => memory.realpath("/w/src/deep/dir/small.txt"),
    },
    { rounds: 15, iterations: 2000, warmup: 2 },
  );
  rows.push(row("gate.check alone vs the backend realpath it calls", result.check, result.raw));
  result = await compare(
    { gated: () => gate.fs.readFile("large.txt"), raw: () => memory.readFile("/w/large.txt") },
    { rounds: 15, iterations: 200, warmup: 2 },
  );
  rows.push(row("memory readFile 1 MiB, gated vs raw", result.gated, result.raw));
  result = await compare(
    {
      gated: (i) => gate.fs.writeFile(`new/${i % 50}.txt`, small),
      raw: (i) => memory.writeFile(`/w/new/${i % 50}.txt`, small),
    },
    { rounds: 15, iterations: 1000, warmup: 2 },
  );
  rows.push(row("memory writeFile 1 KiB, gated vs raw", result.gated, result.raw));

  // Middleware over memory.
  const stacked = compose(withFilesystemLogging({ destination: () => {} }), withQuota({ maxBytes: 64 * MiB }))(memory);
  result = await compare(
    {
      stacked: () => stacked.readFile("/w/src/deep/dir/small.txt"),
      raw: () => memory.readFile("/w/src/deep/dir/small.txt"),
    },
    { rounds: 15, iterations: 2000, warmup: 2 },
  );
  rows.push(row("memory readFile 1 KiB, logging + quota vs raw", result.stacked, result.raw));
  result = await compare(
    {
      stacked: (i) => stacked.writeFile(`/w/q/${i % 50}.txt`, small),
      raw: (i) => memory.writeFile(`/w/q/${i % 50}.txt`, small),
    },
    { rounds: 15, iterations: 1000, warmup: 2 },
  );
  rows.push(row("memory writeFile 1 KiB, logging + quota vs raw", result.stacked, result.raw));

  // Node backend vs node:fs.
  const dir = await mkdtemp(join(tmpdir(), "bft-bench-"));
  try {
    await writeFile(join(dir, "small.txt"), small);
    await writeFile(join(dir, "large.txt"), large);
    const node = nodeFileSystem({ root: dir });
    result = await compare(
      { ours: () => node.readFile("/small.txt"), raw: () => readFile(join(dir, "small.txt")) },
      { rounds: 15, iterations: 500, warmup: 2 },
    );
    rows.push(row("node readFile 1 KiB, nodeFileSystem vs fs.promises", result.ours, result.raw));
    result = await compare(
      { ours: () => node.readFile("/large.txt"), raw: () => readFile(join(dir, "large.txt")) },
      { rounds: 15, iterations: 50, warmup: 2 },
    );
    rows.push(row("node readFile 1 MiB, nodeFileSystem vs fs.promises", result.ours, result.raw));
    result = await compare(
      {
        ours: (i) => node.writeFile(`/w${i % 20}.txt`, small),
        raw: (i) => writeFile(join(dir, `r${i % 20}.txt`), small),
      },
      { rounds: 5, iterations: 50, warmup: 1 },
    );
    rows.push(row("node writeFile 1 KiB, atomic (temp + fsync + rename) vs fs.promises", result.ours, result.raw));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  return [
    "| Case | Ours | Raw | Ratio |",
    "| --- | --- | --- | --- |",
    ...rows,
    "",
    "The gate resolves every path through the backend (`realpath` of an existing path; the parent",
    "chain for a new one) before the call, so small-file calls pay that lookup; large reads are",
    "dominated by the copy (the 1 MiB figures swing with garbage collection on a shared machine).",
    "The Node write pays an `fsync` for its crash-safety guarantee.",
  ].join("\n");
}

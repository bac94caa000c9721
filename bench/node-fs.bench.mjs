// The node:fs face (issue 28) vs memfs's and ZenFS's `fs`, on the same calls, side by side in one run:
// - ours: createNodeFs(memoryFileSystem()) (our memory backend, itself on memfs, behind the face);
// - memfs: createFsFromVolume(new Volume()), memfs's own node:fs;
// - ZenFS: @zenfs/core's `fs` (its default InMemory mount).
// Calls: promises.readFile and writeFile of 1 KiB, promises.stat, promises.readdir of 100
// entries, readFileSync and statSync. Medians over rounds after a warm-up; the ratio is ours ÷ the
// peer's time in the same round.
import { Volume, createFsFromVolume } from "memfs";
import { fs as zenfs } from "@zenfs/core";
import { memoryFileSystem } from "../dist/backends/memory/index.js";
import { createNodeFs } from "../dist/node-fs/index.js";
import { compare } from "./lib.mjs";

export const title = "node:fs face vs memfs and ZenFS";

const us = (ms) => `${(ms * 1000).toFixed(2)} µs`;
const ratio = (value) => `${value.toFixed(2)}×`;

async function seed(fs) {
  await fs.promises.mkdir("/bench/dir", { recursive: true });
  await fs.promises.writeFile("/bench/a.txt", new Uint8Array(1024).fill(97));
  for (let i = 0; i < 100; i++) await fs.promises.writeFile(`/bench/dir/f${i}.txt`, "x");
}

export async function run() {
  const ours = createNodeFs(memoryFileSystem());
  const memfs = createFsFromVolume(new Volume());
  for (const fs of [ours, memfs, zenfs]) await seed(fs);
  const data = new Uint8Array(1024).fill(98);
  const calls = [
    ["promises.readFile 1 KiB", (fs) => () => fs.promises.readFile("/bench/a.txt"), 1000],
    ["promises.writeFile 1 KiB", (fs) => () => fs.promises.writeFile("/bench/w.txt", data), 1000],
    ["promises.stat", (fs) => () => fs.promises.stat("/bench/a.txt"), 1000],
    ["promises.readdir, 100 entries", (fs) => () => fs.promises.readdir("/bench/dir"), 50],
    ["readFileSync 1 KiB", (fs) => () => fs.readFileSync("/bench/a.txt"), 2000],
    ["statSync", (fs) => () => fs.statSync("/bench/a.txt"), 2000],
  ];
  const rows = [];
  for (const [label, make, iterations] of calls) {
    const result = await compare(
      { ours: make(ours), memfs: make(memfs), zenfs: make(zenfs) },
      { rounds: 7, iterations, warmup: 1 },
    );
    rows.push(
      `| ${label} | ${us(result.ours)} | ${us(result.memfs)} | ${us(result.zenfs)} | ${ratio(result.ratio("ours", "memfs"))} | ${ratio(result.ratio("ours", "zenfs"))} |`,
    );
  }
  return [
    "Time per call (median), and ours ÷ peer measured in the same rounds (below 1× is faster).",
    "",
    "| call | ours | memfs | ZenFS | ours ÷ memfs | ours ÷ ZenFS |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

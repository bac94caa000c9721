// The IndexedDB durability bench's page (bench/idb-durability.bench.mjs): crash rounds (read back
// the earlier rounds' files, write this round's through the write tool) and the per-write cost,
// for our IndexedDB backend (committed, the default; relaxed) and the OPFS mirror beside it.
import { idbFileSystem } from "/dist/backends/idb/index.browser.js";
import { opfsMirrorFileSystem } from "/dist/backends/opfs-mirror/index.browser.js";
import { createWriteTool } from "/dist/tools/write/index.js";

/** A fresh backend of `kind` on its own database or OPFS root `place`. */
async function open(kind, place) {
  if (kind === "mirror") {
    const fs = opfsMirrorFileSystem({ root: `/${place}` });
    await fs.ready;
    return fs;
  }
  const fs = idbFileSystem({ name: place, ...(kind === "idb-relaxed" ? { durability: "relaxed" } : {}) });
  await fs.ready;
  return fs;
}

/** One crash round: read back every earlier round's file, then write this round's (unless `content` is null). */
async function crashRound({ kind, round, content }) {
  const fs = await open(kind, `crash-${kind}`);
  const earlier = {};
  if (round > 0) {
    const names = await fs.readdir("/rounds").catch(() => []);
    const decoder = new TextDecoder();
    for (const { name } of names) earlier[name] = decoder.decode(await fs.readFile(`/rounds/${name}`));
  }
  if (content === null) return earlier;
  const write = createWriteTool({ fs, cwd: "/", allowedRoots: ["/"] });
  const result = await write.execute({ path: `/rounds/${String(round).padStart(3, "0")}`, content });
  if (result.ok !== true) throw new Error(`write failed: ${JSON.stringify(result).slice(0, 300)}`);
  return earlier;
}

/**
 * `writes` writes of 4 KiB through the write tool, one after another, then `writes` more all at
 * once; per-write milliseconds of each (the sequential ones: median of each call's time).
 */
async function perWrite({ kind, writes, round }) {
  const fs = await open(kind, `cost-${kind}-${round}`);
  const write = createWriteTool({ fs, cwd: "/", allowedRoots: ["/"] });
  const content = "x".repeat(4095) + "\n";
  await write.execute({ path: "/w/warm", content });
  const times = [];
  for (let index = 0; index < writes; index++) {
    const started = performance.now();
    const result = await write.execute({ path: `/w/s${index}`, content });
    times.push(performance.now() - started);
    if (!result.ok) throw new Error(`write failed: ${JSON.stringify(result).slice(0, 300)}`);
  }
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: writes }, (_, index) => write.execute({ path: `/w/c${index}`, content })),
  );
  const concurrentMs = (performance.now() - started) / writes;
  if (results.some((result) => !result.ok)) throw new Error("a concurrent write failed");
  times.sort((a, b) => a - b);
  if (typeof fs.close === "function") await fs.close();
  return { sequentialMs: times[Math.floor(times.length / 2)], concurrentMs };
}

window.idbBench = { crashRound, perWrite };
window.idbBenchReady = true;

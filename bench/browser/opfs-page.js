// In-page side of bench/opfs.bench.mjs: every scenario measured in Chromium, raw OPFS calls
// against the built package (dist/), all timings in milliseconds from performance.now().
import { opfsFileSystem } from "/dist/backends/opfs/index.js";
import { memoryFileSystem } from "/dist/backends/memory/index.browser.js";

const FILE_BYTES = 4096;
const payload = (seed) => new Uint8Array(FILE_BYTES).map((_, index) => (index * 31 + seed) & 0xff);

async function originDir(path, create = true) {
  let handle = await navigator.storage.getDirectory();
  for (const part of path.split("/").filter(Boolean)) handle = await handle.getDirectoryHandle(part, { create });
  return handle;
}

async function wipe(name) {
  const origin = await navigator.storage.getDirectory();
  await origin.removeEntry(name, { recursive: true }).catch((error) => {
    if (error.name !== "NotFoundError") throw error;
  });
}

/** Run `count` tasks with at most `limit` in flight. */
async function pool(count, limit, task) {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, count) }, async () => {
    while (next < count) await task(next++);
  });
  await Promise.all(workers);
}

const rawOps = {
  async write(dir, name, data) {
    const handle = await dir.getFileHandle(name, { create: true });
    const writable = await handle.createWritable();
    await writable.write(data);
    await writable.close();
  },
  async read(dir, name) {
    const file = await (await dir.getFileHandle(name)).getFile();
    return new Uint8Array(await file.arrayBuffer());
  },
};

let rawWorker;
function callRawWorker(message) {
  rawWorker ??= new Worker(new URL("./raw-worker.js", import.meta.url), { type: "module" });
  return new Promise((resolve, reject) => {
    rawWorker.onmessage = (event) => resolve(event.data);
    rawWorker.onerror = (event) => reject(new Error(event.message));
    rawWorker.postMessage(message);
  });
}

const backends = {};
function backend(kind) {
  if (kind === "memory") return memoryFileSystem();
  backends[kind] ??= opfsFileSystem({ root: `/bench-${kind}`, worker: kind === "worker" });
  return backends[kind];
}

/** Fill `dirPath` with `count` files through raw calls (not timed). */
async function seed(root, count) {
  await wipe(root);
  const dir = await originDir(`${root}/files`);
  await pool(count, 32, (index) => rawOps.write(dir, `f${index}.txt`, payload(index)));
}

/**
 * One measurement, then the Worker (if used) is closed, so its open handles and their flushes
 * never overlap the next measurement. Returns elapsed milliseconds.
 */
async function measure(options) {
  try {
    return await measureOnce(options);
  } finally {
    if (backends.worker !== undefined) {
      await backends.worker.close();
      delete backends.worker;
    }
  }
}

/**
 * One measurement. `kind`: raw | main | worker | raw-worker | memory. Returns elapsed milliseconds.
 */
async function measureOnce({
  scenario,
  kind,
  count = 1000,
  inFlight = 1,
  rounds = 50,
  files = 20,
  bytes = 64 * 1024 * 1024,
}) {
  const root = kind === "raw" ? "bench-raw" : `bench-${kind}`;
  if (scenario === "write") {
    let fs;
    let dir;
    if (kind === "memory") fs = backend("memory");
    else {
      await wipe(root);
      if (kind === "raw") dir = await originDir(`${root}/files`);
      else {
        fs = backend(kind);
        await fs.mkdir("/files", { recursive: true });
      }
    }
    const data = payload(7);
    const started = performance.now();
    await pool(count, inFlight, (index) =>
      kind === "raw" ? rawOps.write(dir, `f${index}.txt`, data) : fs.writeFile(`/files/f${index}.txt`, data),
    );
    return performance.now() - started;
  }
  if (scenario === "read") {
    let fs;
    let dir;
    if (kind === "memory") {
      fs = backend("memory");
      for (let index = 0; index < count; index++) await fs.writeFile(`/files/f${index}.txt`, payload(index));
    } else {
      await seed(root, count);
      if (kind === "raw") dir = await originDir(`${root}/files`);
      else fs = backend(kind);
    }
    let total = 0;
    const started = performance.now();
    await pool(count, inFlight, async (index) => {
      const data = kind === "raw" ? await rawOps.read(dir, `f${index}.txt`) : await fs.readFile(`/files/f${index}.txt`);
      total += data.byteLength;
    });
    const elapsed = performance.now() - started;
    if (total !== count * FILE_BYTES) throw new Error(`read ${total} bytes, expected ${count * FILE_BYTES}`);
    return elapsed;
  }
  if (scenario === "rmw") {
    // `rounds` rounds, each reading, changing and writing back each of `files` files, one after another.
    if (kind === "raw-worker") {
      await seed("bench-raw-worker", files);
      const { elapsedMs } = await callRawWorker({ op: "rmw", root: "bench-raw-worker/files", files, rounds });
      return elapsedMs;
    }
    let fs;
    let dir;
    if (kind === "memory") {
      fs = backend("memory");
      for (let index = 0; index < files; index++) await fs.writeFile(`/files/f${index}.txt`, payload(index));
    } else {
      await seed(root, files);
      if (kind === "raw") dir = await originDir(`${root}/files`);
      else fs = backend(kind);
    }
    const started = performance.now();
    for (let round = 0; round < rounds; round++) {
      for (let index = 0; index < files; index++) {
        const name = `f${index}.txt`;
        const data = kind === "raw" ? await rawOps.read(dir, name) : await fs.readFile(`/files/${name}`);
        data[round % data.length] ^= 1;
        if (kind === "raw") await rawOps.write(dir, name, data);
        else await fs.writeFile(`/files/${name}`, data);
      }
    }
    return performance.now() - started;
  }
  if (scenario === "large") {
    // Read one file of `bytes` bytes (written once, not timed).
    const big = new Uint8Array(bytes).map((_, index) => index & 0xff);
    if (kind === "raw-worker") {
      await wipe("bench-raw-worker");
      await rawOps.write(await originDir("bench-raw-worker"), "big.bin", big);
      const { elapsedMs } = await callRawWorker({ op: "read", root: "bench-raw-worker", name: "big.bin" });
      return elapsedMs;
    }
    let fs;
    let dir;
    if (kind === "memory") {
      fs = backend("memory");
      await fs.writeFile("/big.bin", big);
    } else {
      await wipe(root);
      await rawOps.write(await originDir(root), "big.bin", big);
      if (kind === "raw") dir = await originDir(root);
      else fs = backend(kind);
    }
    const started = performance.now();
    const data = kind === "raw" ? await rawOps.read(dir, "big.bin") : await fs.readFile("/big.bin");
    const elapsed = performance.now() - started;
    if (data.byteLength !== bytes) throw new Error(`read ${data.byteLength} bytes`);
    return elapsed;
  }
  if (scenario === "grep" || scenario === "glob") {
    // A tool's bulk work over `count` files, with the tool's own bounded concurrency.
    const text = (index) => new TextEncoder().encode(`line ${index}\nneedle ${index}\n`);
    let fs;
    if (kind === "memory") {
      fs = backend("memory");
      for (let index = 0; index < count; index++) await fs.writeFile(`/files/f${index}.txt`, text(index));
    } else {
      await wipe(root);
      const dir = await originDir(`${root}/files`);
      await pool(count, 32, (index) => rawOps.write(dir, `f${index}.txt`, text(index)));
      if (kind !== "raw") fs = backend(kind);
    }
    if (kind === "raw") {
      // The floor: list the directory, and for grep read every file, 32 in flight.
      const dir = await originDir(`${root}/files`);
      const started = performance.now();
      const names = [];
      for await (const [name, handle] of dir.entries()) if (handle.kind === "file") names.push(name);
      if (scenario === "grep") await pool(names.length, 32, (index) => rawOps.read(dir, names[index]));
      return performance.now() - started;
    }
    const options = { fs, cwd: "/", allowedRoots: ["/"] };
    const tool =
      scenario === "grep"
        ? (await import("/dist/tools/grep/index.js")).createGrepTool({ ...options, maxMatches: 10 })
        : (await import("/dist/tools/glob/index.js")).createGlobTool(options);
    const input = scenario === "grep" ? { pattern: "needle 99\\b", path: "/files" } : { pattern: "files/*.txt" };
    const started = performance.now();
    const result = await tool.execute(input);
    const elapsed = performance.now() - started;
    if (result.ok !== true)
      throw new Error(`${scenario} failed: ${JSON.stringify(result.error ?? result).slice(0, 400)}`);
    return elapsed;
  }
  throw new Error(`unknown scenario ${scenario}`);
}

/**
 * Writes or reads of `count` 4 KiB files by every kind in `kinds`, interleaved in chunks of
 * `chunk` files (the order of kinds rotating from chunk to chunk), so raw and ours meet the same
 * moments of a shared machine. Returns total milliseconds per kind.
 */
async function measureInterleaved({ scenario, kinds, count = 1000, inFlight = 1, chunk = 50 }) {
  const targets = {};
  for (const kind of kinds) {
    const root = kind === "raw" ? "bench-raw" : `bench-${kind}`;
    if (kind === "memory") {
      const fs = backend("memory");
      if (scenario === "read")
        for (let index = 0; index < count; index++) await fs.writeFile(`/files/f${index}.txt`, payload(index));
      targets[kind] = { fs };
    } else if (kind === "raw") {
      if (scenario === "read") await seed(root, count);
      else await wipe(root);
      targets[kind] = { dir: await originDir(`${root}/files`) };
    } else {
      if (scenario === "read") await seed(root, count);
      else await wipe(root);
      const fs = backend(kind);
      await fs.mkdir("/files", { recursive: true });
      targets[kind] = { fs };
    }
  }
  const totals = Object.fromEntries(kinds.map((kind) => [kind, 0]));
  const data = payload(7);
  try {
    for (let start = 0, round = 0; start < count; start += chunk, round++) {
      const size = Math.min(chunk, count - start);
      const order = kinds.map((_, index) => kinds[(index + round) % kinds.length]);
      for (const kind of order) {
        const { fs, dir } = targets[kind];
        const started = performance.now();
        await pool(size, inFlight, async (offset) => {
          const name = `f${start + offset}.txt`;
          if (scenario === "write") {
            if (dir) await rawOps.write(dir, name, data);
            else await fs.writeFile(`/files/${name}`, data);
          } else {
            const bytes = dir ? await rawOps.read(dir, name) : await fs.readFile(`/files/${name}`);
            if (bytes.byteLength !== FILE_BYTES) throw new Error(`read ${bytes.byteLength} bytes`);
          }
        });
        totals[kind] += performance.now() - started;
      }
    }
  } finally {
    if (backends.worker !== undefined) {
      await backends.worker.close();
      delete backends.worker;
    }
  }
  return totals;
}

window.opfsBench = {
  measure,
  measureInterleaved,
  async cleanup() {
    for (const fs of Object.values(backends)) await fs.close?.();
    for (const name of ["bench-raw", "bench-main", "bench-worker", "bench-raw-worker"]) await wipe(name);
  },
};
window.opfsBenchReady = true;

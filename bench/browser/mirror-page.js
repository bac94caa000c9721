// In-page side of bench/opfs-mirror.bench.mjs: the rows where the OPFS mirror met a floor or a
// peer ahead of it (issue 30), each kind measured once per call, all timings in milliseconds from
// performance.now(). Kinds: raw (main-thread OPFS calls), raw-worker (sync access handles in a
// Worker, no flush), raw-worker-flush (the same, flush() after each write: the durable floor),
// main / worker (our plain OPFS backend), mirror (our OPFS mirror), opfs-tools, zenfs (ZenFS
// WebAccess on OPFS).
import { configure, fs as zenfs, umount } from "@zenfs/core";
import { WebAccess } from "@zenfs/dom";
import { file as otFile, write as otWrite } from "opfs-tools";
import { opfsFileSystem } from "/dist/backends/opfs/index.js";
import { opfsMirrorFileSystem } from "/dist/backends/opfs-mirror/index.browser.js";

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
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

async function rawWrite(dir, name, data) {
  const handle = await dir.getFileHandle(name, { create: true });
  const writable = await handle.createWritable();
  await writable.write(data);
  await writable.close();
}

async function rawRead(dir, name) {
  return new Uint8Array(await (await (await dir.getFileHandle(name)).getFile()).arrayBuffer());
}

let rawWorker;
function callRawWorker(message, transfer = []) {
  rawWorker ??= new Worker(new URL("./raw-worker.js", import.meta.url), { type: "module" });
  return new Promise((resolve, reject) => {
    rawWorker.onmessage = (event) => resolve(event.data);
    rawWorker.onerror = (event) => reject(new Error(event.message));
    rawWorker.postMessage(message, transfer);
  });
}

/** ZenFS WebAccess mounted at /z on the OPFS directory `place`; returns its promises API and an unmount. */
async function mountZen(place, create = true) {
  const handle = await originDir(place, create);
  await configure({ mounts: { "/z": { backend: WebAccess, handle } } });
  return {
    p: zenfs.promises,
    close() {
      try {
        umount("/z");
      } catch {
        // not mounted
      }
    },
  };
}

/** Our plain OPFS backend or the mirror on `root`, as `{ fs, close }`. */
function ours(kind, root) {
  const fs =
    kind === "mirror" || kind === "mirror-sync"
      ? opfsMirrorFileSystem({ root: `/${root}` })
      : opfsFileSystem({ root: `/${root}`, worker: kind === "worker" });
  return { fs, close: () => fs.close() };
}

/**
 * 50 read-modify-write rounds over 20 files of 4 KiB, one call after another. Each kind on its
 * own directory, seeded first (not timed). Returns elapsed milliseconds.
 */
async function rmw({ kind, rounds = 50, files = 20 }) {
  const root = `mb-rmw-${kind}`;
  await wipe(root);
  const dir = await originDir(`${root}/files`);
  await pool(files, 8, (index) => rawWrite(dir, `f${index}.txt`, payload(index)));
  if (kind === "raw-worker" || kind === "raw-worker-flush") {
    const op = kind === "raw-worker" ? "rmw" : "rmw-flush";
    return (await callRawWorker({ op, root: `${root}/files`, files, rounds })).elapsedMs;
  }
  let readFile;
  let writeFile;
  let close = async () => {};
  if (kind === "raw") {
    readFile = (name) => rawRead(dir, name);
    writeFile = (name, data) => rawWrite(dir, name, data);
  } else if (kind === "opfs-tools") {
    readFile = async (name) => new Uint8Array(await otFile(`/${root}/files/${name}`).arrayBuffer());
    writeFile = (name, data) => otWrite(`/${root}/files/${name}`, data);
  } else if (kind === "zenfs") {
    const zen = await mountZen(root);
    readFile = (name) => zen.p.readFile(`/z/files/${name}`);
    writeFile = (name, data) => zen.p.writeFile(`/z/files/${name}`, data);
    close = async () => zen.close();
  } else {
    const opened = ours(kind, root);
    // The mirror keeps its own format: seeded through it (and loaded) before the clock starts.
    if (kind === "mirror" || kind === "mirror-sync")
      for (let index = 0; index < files; index++) await opened.fs.writeFile(`/files/f${index}.txt`, payload(index));
    await opened.fs.readFile("/files/f0.txt");
    if (kind === "mirror-sync") {
      // The sync calls (node-fs's *Sync API runs on them): no await between rounds, so the writes
      // share batches; the clock stops once flush() says every one is durable.
      try {
        const started = performance.now();
        for (let round = 0; round < rounds; round++) {
          for (let index = 0; index < files; index++) {
            const name = `/files/f${index}.txt`;
            const data = opened.fs.sync.readFile(name);
            data[round % data.length] ^= 1;
            opened.fs.sync.writeFile(name, data);
          }
        }
        await opened.fs.flush();
        return performance.now() - started;
      } finally {
        await opened.close();
      }
    }
    readFile = (name) => opened.fs.readFile(`/files/${name}`);
    writeFile = (name, data) => opened.fs.writeFile(`/files/${name}`, data);
    close = opened.close;
  }
  try {
    const started = performance.now();
    for (let round = 0; round < rounds; round++) {
      for (let index = 0; index < files; index++) {
        const name = `f${index}.txt`;
        const data = await readFile(name);
        data[round % data.length] ^= 1;
        await writeFile(name, data);
      }
    }
    return performance.now() - started;
  } finally {
    await close();
  }
}

/**
 * Write one file of `bytes` bytes (64 MiB) until it is durable: for the floor, the bytes are
 * transferred to a Worker that writes them through a sync access handle and flushes. Each kind
 * gets a fresh buffer (made before the clock starts). Returns elapsed milliseconds.
 */
async function largeWrite({ kind, bytes = 64 * 1024 * 1024 }) {
  const root = `mb-large-${kind}`;
  await wipe(root);
  await originDir(root);
  const data = new Uint8Array(bytes);
  for (let index = 0; index < bytes; index += 4) data[index] = index & 0xff;
  if (kind === "raw-worker-flush") {
    const started = performance.now();
    await callRawWorker({ op: "write-flush", root, name: "big.bin", bytes: data }, [data.buffer]);
    return performance.now() - started;
  }
  if (kind === "opfs-tools") {
    const started = performance.now();
    await otWrite(`/${root}/big.bin`, data);
    return performance.now() - started;
  }
  if (kind === "zenfs") {
    const zen = await mountZen(root);
    try {
      const started = performance.now();
      await zen.p.writeFile("/z/big.bin", data);
      return performance.now() - started;
    } finally {
      zen.close();
    }
  }
  const opened = ours(kind, root);
  try {
    if (kind === "mirror") await opened.fs.ready();
    else await opened.fs.stat("/");
    const started = performance.now();
    await opened.fs.writeFile("/big.bin", data);
    return performance.now() - started;
  } finally {
    await opened.close();
    await wipe(root);
  }
}

const TREE_DIRS = 100;
const treePath = (dirIndex, fileIndex) => `/d${dirIndex}/f${fileIndex}.txt`;

/**
 * Seed the tree for {@link firstRead}: `files` files of 4 KiB in 100 directories, once through
 * raw calls (read by raw, main, worker, opfs-tools and ZenFS) and once through the mirror (then
 * closed, as a tab is at its end). Returns `{ files, bytes }`.
 */
async function seedTree({ files = 10_000 }) {
  await wipe("mb-tree-raw");
  await wipe("mb-tree-mirror");
  const root = await originDir("mb-tree-raw");
  const dirs = [];
  for (let index = 0; index < TREE_DIRS; index++)
    dirs.push(await root.getDirectoryHandle(`d${index}`, { create: true }));
  const perDir = Math.ceil(files / TREE_DIRS);
  await pool(files, 32, (index) =>
    rawWrite(dirs[index % TREE_DIRS], `f${Math.floor(index / TREE_DIRS)}.txt`, payload(index)),
  );
  const mirror = opfsMirrorFileSystem({ root: "/mb-tree-mirror" });
  await pool(files, 32, (index) =>
    mirror.writeFile(treePath(index % TREE_DIRS, Math.floor(index / TREE_DIRS)), payload(index)),
  );
  await mirror.close();
  return { files, perDir, bytes: files * FILE_BYTES };
}

/**
 * The first read of one file after a reload: the clock starts before the backend is created
 * (the mirror starts its Worker and its load; raw OPFS walks the handles from the origin root)
 * and stops when the bytes are in hand. Returns elapsed milliseconds.
 */
async function firstRead({ kind, dirIndex, fileIndex }) {
  const path = treePath(dirIndex, fileIndex);
  let close = async () => {};
  let data;
  const started = performance.now();
  try {
    if (kind === "raw") {
      const dir = await originDir(`mb-tree-raw/d${dirIndex}`, false);
      data = await rawRead(dir, `f${fileIndex}.txt`);
    } else if (kind === "opfs-tools") {
      data = new Uint8Array(await otFile(`/mb-tree-raw${path}`, "r").arrayBuffer());
    } else if (kind === "zenfs") {
      const zen = await mountZen("mb-tree-raw", false);
      close = async () => zen.close();
      data = await zen.p.readFile(`/z${path}`);
    } else {
      const opened = ours(kind, kind === "mirror" ? "mb-tree-mirror" : "mb-tree-raw");
      close = opened.close;
      data = await opened.fs.readFile(path);
    }
    return performance.now() - started;
  } finally {
    await close();
    if (data?.byteLength !== FILE_BYTES) throw new Error(`${kind} read ${data?.byteLength} bytes of ${path}`);
  }
}

window.mirrorBench = {
  rmw,
  largeWrite,
  seedTree,
  firstRead,
  async cleanup() {
    const origin = await navigator.storage.getDirectory();
    for await (const name of origin.keys()) if (name.startsWith("mb-")) await wipe(name);
  },
};
window.mirrorBenchReady = true;

// In-page side of bench/opfs-repo.bench.mjs: a real package tree (served by the bench as one
// manifest and one pack of bytes) imported into each storage variant, then reopened after a
// reload, read, grepped and weighed. All timings in milliseconds from performance.now().
import { configure, fs as zenfs, umount } from "@zenfs/core";
import { IndexedDB as ZenIndexedDB, WebAccess } from "@zenfs/dom";
import { FsError } from "/dist/contract/errors.js";
import { idbFileSystem } from "/dist/backends/idb/index.browser.js";
import { memoryFileSystem } from "/dist/backends/memory/index.browser.js";
import { opfsFileSystem } from "/dist/backends/opfs/index.js";
import { opfsMirrorFileSystem } from "/dist/backends/opfs-mirror/index.browser.js";
import { createGrepTool } from "/dist/tools/grep/index.js";
import { createWriteTool } from "/dist/tools/write/index.js";

/** Where each variant keeps the tree: an OPFS directory, an IndexedDB database. */
const PLACE = {
  raw: "repo-raw",
  main: "repo-main",
  worker: "repo-worker",
  idb: "repo-idb",
  mirror: "repo-mirror",
  "zenfs-opfs": "repo-zenfs-opfs",
  "zenfs-idb": "repo-zenfs-idb",
};

let tree; // { files: [{ path, size }], bytes: Uint8Array, totalBytes }

/** Fetch the manifest and the pack (not timed as import). Returns `{ files, totalBytes, fetchMs }`. */
async function loadTree() {
  const started = performance.now();
  const manifest = await (await fetch("/__tree__/manifest.json")).json();
  const bytes = new Uint8Array(await (await fetch("/__tree__/pack")).arrayBuffer());
  if (bytes.byteLength !== manifest.totalBytes) throw new Error(`pack has ${bytes.byteLength} bytes`);
  tree = { files: manifest.files, bytes, totalBytes: manifest.totalBytes };
  return { files: manifest.files.length, totalBytes: manifest.totalBytes, fetchMs: performance.now() - started };
}

function dropTree() {
  tree = undefined;
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

async function wipeOpfs(name) {
  const origin = await navigator.storage.getDirectory();
  await origin.removeEntry(name, { recursive: true }).catch((error) => {
    if (error.name !== "NotFoundError") throw error;
  });
}

function deleteDatabase(name) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    request.onblocked = () => resolve();
  });
}

/** Raw OPFS directory handles by path, created on demand (one lookup per directory). */
function rawDirs(rootHandle, create) {
  const cache = new Map([["", Promise.resolve(rootHandle)]]);
  const dirOf = (path) => {
    let found = cache.get(path);
    if (found === undefined) {
      const cut = path.lastIndexOf("/");
      found = dirOf(cut <= 0 ? "" : path.slice(0, cut)).then((parent) =>
        parent.getDirectoryHandle(path.slice(cut + 1), { create }),
      );
      cache.set(path, found);
    }
    return found;
  };
  return dirOf;
}

/** ZenFS's promises API as our FileSystem contract (so the same grep and write tools run on it). */
function zenfsAdapter(prefix) {
  const p = zenfs.promises;
  const wrap =
    (syscall, call) =>
    async (path, ...rest) => {
      try {
        return await call(prefix + path, ...rest);
      } catch (error) {
        if (typeof error?.code === "string") throw new FsError(error.code, { syscall, path });
        throw error;
      }
    };
  const toStat = (stats) => ({
    type: stats.isDirectory() ? "directory" : stats.isSymbolicLink() ? "symlink" : stats.isFile() ? "file" : "other",
    size: Number(stats.size),
    mtimeMs: Number(stats.mtimeMs),
  });
  return {
    name: "zenfs",
    capabilities: {},
    readFile: wrap("open", async (path) => {
      const data = await p.readFile(path);
      return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    }),
    writeFile: wrap("open", async (path, data) => {
      const cut = path.lastIndexOf("/");
      if (cut > 0) await p.mkdir(path.slice(0, cut), { recursive: true });
      await p.writeFile(path, data);
    }),
    stat: wrap("stat", async (path) => toStat(await p.stat(path))),
    lstat: wrap("lstat", async (path) => toStat(await p.lstat(path))),
    readdir: wrap("scandir", async (path) =>
      (await p.readdir(path, { withFileTypes: true })).map((entry) => ({
        name: String(entry.name),
        type: entry.isDirectory() ? "directory" : entry.isSymbolicLink() ? "symlink" : "file",
      })),
    ),
    mkdir: wrap("mkdir", (path, options) => p.mkdir(path, options).then(() => undefined)),
    rm: wrap("rm", (path, options) => p.rm(path, options)),
    rename: wrap("rename", (path, to) => p.rename(path, prefix + to)),
    realpath: wrap("realpath", async (path) => {
      const real = await p.realpath(path);
      return real.slice(prefix.length) || "/";
    }),
  };
}

/**
 * Open `kind` on its durable place (after a reload: reads whatever is stored). Returns
 * `{ fs, close }`; `fs` is undefined for raw OPFS (it has `dir` instead).
 */
async function openVariant(kind, { fresh = false, waitForLoad = true } = {}) {
  const place = PLACE[kind];
  if (fresh) {
    if (kind === "idb") await deleteDatabase(place);
    else if (kind === "zenfs-idb") await deleteDatabase(place);
    else if (kind !== "memory") await wipeOpfs(place);
  }
  switch (kind) {
    case "memory": {
      const fs = memoryFileSystem();
      return { fs, close: async () => {} };
    }
    case "raw": {
      const origin = await navigator.storage.getDirectory();
      const dir = await origin.getDirectoryHandle(place, { create: true });
      return { dir, close: async () => {} };
    }
    case "main":
    case "worker": {
      const fs = opfsFileSystem({ root: `/${place}`, worker: kind === "worker" });
      return { fs, close: () => fs.close() };
    }
    case "idb": {
      const fs = idbFileSystem({ name: place });
      await fs.ready;
      return { fs, close: () => fs.close() };
    }
    case "mirror": {
      const fs = opfsMirrorFileSystem({ root: `/${place}` });
      // After a reload the first read is asked at once: the mirror answers it before its load ends.
      if (waitForLoad) await fs.ready();
      return { fs, close: () => fs.close() };
    }
    case "zenfs-opfs":
    case "zenfs-idb": {
      const mount = kind === "zenfs-opfs" ? "/zopfs" : "/zidb";
      const config =
        kind === "zenfs-opfs"
          ? {
              backend: WebAccess,
              handle: await (await navigator.storage.getDirectory()).getDirectoryHandle(place, { create: true }),
            }
          : { backend: ZenIndexedDB, storeName: place };
      await configure({ mounts: { [mount]: config } });
      return {
        fs: zenfsAdapter(mount),
        close: async () => {
          try {
            umount(mount);
          } catch {
            // not mounted
          }
        },
      };
    }
  }
  throw new Error(`unknown kind ${kind}`);
}

let open; // the variant opened in this page: { kind, fs, dir, close }

/**
 * Import the whole tree into `kind` (its place wiped first): every file written, 32 in flight,
 * then the backend closed, so the data is on disk. Returns `{ writeMs, closeMs }`.
 */
async function importTree({ kind, deadlineMs }) {
  const handle = await openVariant(kind, { fresh: true });
  const { files, bytes } = tree;
  const offsets = [];
  for (let index = 0, at = 0; index < files.length; index++) {
    offsets.push(at);
    at += files[index].size;
  }
  const slice = (index) => bytes.subarray(offsets[index], offsets[index] + files[index].size);
  const started = performance.now();
  let written = 0;
  let capped = false;
  const dirOf = handle.dir === undefined ? undefined : rawDirs(handle.dir, true);
  await pool(files.length, 32, async (index) => {
    if (capped) return;
    if (performance.now() - started > deadlineMs) {
      capped = true;
      return;
    }
    const path = files[index].path;
    if (dirOf !== undefined) {
      const cut = path.lastIndexOf("/");
      const dir = await dirOf(path.slice(1, cut));
      const writable = await (await dir.getFileHandle(path.slice(cut + 1), { create: true })).createWritable();
      await writable.write(slice(index));
      await writable.close();
    } else {
      await handle.fs.writeFile(path, slice(index));
    }
    written++;
  });
  const writeMs = performance.now() - started;
  const closing = performance.now();
  if (kind === "memory") open = { kind, ...handle };
  else await handle.close();
  return { writeMs, closeMs: performance.now() - closing, written, capped };
}

const GREP_PATTERN = "createRequire";

/** The raw floor of a grep: walk the directory handles, read every file (32 in flight), search the text. */
async function rawGrep(dir, literal) {
  const files = [];
  const walk = async (handle) => {
    const subdirs = [];
    for await (const child of handle.values()) {
      if (child.kind === "file") files.push(child);
      else subdirs.push(child);
    }
    await Promise.all(subdirs.map(walk));
  };
  await walk(dir);
  const decoder = new TextDecoder();
  let matches = 0;
  await pool(files.length, 32, async (index) => {
    const text = decoder.decode(await (await files[index].getFile()).arrayBuffer());
    for (let at = text.indexOf(literal); at !== -1; at = text.indexOf(literal, at + 1)) matches++;
  });
  return { files: files.length, matches };
}

async function grepOnce(handle) {
  if (handle.dir !== undefined) return rawGrep(handle.dir, GREP_PATTERN);
  const tool = createGrepTool({
    fs: handle.fs,
    cwd: "/",
    allowedRoots: ["/"],
    ignoreDirectories: [],
    offload: false,
    maxMatches: 20,
  });
  const result = await tool.execute({ pattern: GREP_PATTERN, path: "/repo" });
  if (result.ok !== true) throw new Error(`grep failed: ${JSON.stringify(result).slice(0, 400)}`);
  return { matches: result.count, text: result.parts.map((part) => part.text ?? "").join("") };
}

/** Bytes held by this page and its workers (measureUserAgentSpecificMemory, after a GC), or undefined. */
async function measureMemory() {
  if (!crossOriginIsolated || typeof performance.measureUserAgentSpecificMemory !== "function") return undefined;
  const result = await performance.measureUserAgentSpecificMemory();
  return result.bytes;
}

/** A memory backend holding the tree (fetched again), the floor each variant's grep is paired with. */
async function memoryCopy() {
  await loadTree();
  const fs = memoryFileSystem();
  let at = 0;
  for (const file of tree.files) {
    await fs.writeFile(file.path, tree.bytes.subarray(at, at + file.size));
    at += file.size;
  }
  dropTree();
  return { fs };
}

/** Read `probe` through the variant (raw OPFS: its handles); throws unless it has `probeSize` bytes. */
async function readProbe(handle, kind, probe, probeSize) {
  let data;
  if (handle.dir !== undefined) {
    const cut = probe.lastIndexOf("/");
    const dir = await rawDirs(handle.dir, false)(probe.slice(1, cut));
    data = new Uint8Array(await (await (await dir.getFileHandle(probe.slice(cut + 1))).getFile()).arrayBuffer());
  } else data = await handle.fs.readFile(probe);
  if (data.byteLength !== probeSize) throw new Error(`${kind}: read ${data.byteLength} bytes of ${probe}`);
}

/**
 * After a reload: open `kind` on what the import stored, time the first read of `probe` and the
 * first grep over the whole tree (both from the backend's creation), and measure memory (before
 * the backend exists, and after the first grep). Then `warmRounds` rounds of one grep by the
 * variant and one by a memory backend holding the same tree, in alternating order; `ratios` are
 * the per-round variant ÷ memory. Returns milliseconds and bytes.
 */
async function reopen({ kind, probe, probeSize, warmRounds = 5 }) {
  const before = await measureMemory();
  const started = performance.now();
  const handle = kind === "memory" ? open : await openVariant(kind, { waitForLoad: false });
  await readProbe(handle, kind, probe, probeSize);
  const firstReadMs = performance.now() - started;
  const first = await grepOnce(handle);
  const firstGrepMs = performance.now() - started;
  // Memory held by the loaded backend: the mirror's grep can end before its load does.
  if (kind === "mirror") await handle.fs.ready();
  const after = await measureMemory();
  let floor = kind === "memory" ? undefined : await memoryCopy();
  const warm = [];
  const floorWarm = [];
  const ratios = [];
  let last;
  for (let round = 0; round < warmRounds; round++) {
    let own;
    let theirs;
    const timed = async (target) => {
      const at = performance.now();
      const result = await grepOnce(target);
      return { result, ms: performance.now() - at };
    };
    if (floor !== undefined && round % 2 === 1) theirs = await timed(floor);
    own = await timed(handle);
    if (floor !== undefined && round % 2 === 0) theirs = await timed(floor);
    last = own.result;
    warm.push(own.ms);
    if (theirs !== undefined) {
      if (theirs.result.matches !== first.matches && handle.dir === undefined)
        throw new Error(`${kind}: ${first.matches} matches, memory ${theirs.result.matches}`);
      floorWarm.push(theirs.ms);
      ratios.push(own.ms / theirs.ms);
    }
  }
  floor = undefined;
  open = { kind, ...handle };
  return {
    firstReadMs: kind === "memory" ? undefined : firstReadMs,
    firstGrepMs: kind === "memory" ? undefined : firstGrepMs,
    warm,
    floorWarm,
    ratios,
    sameResult: JSON.stringify(first) === JSON.stringify(last),
    matches: first.matches,
    files: first.files,
    memoryBefore: before,
    memoryAfter: after,
  };
}

/**
 * One more cold start after a reload (the variant's stored copy as the import left it): the
 * first read of `probe` and the first grep, both from the backend's creation; then it is closed.
 */
async function coldStart({ kind, probe, probeSize }) {
  const started = performance.now();
  const handle = await openVariant(kind, { waitForLoad: false });
  await readProbe(handle, kind, probe, probeSize);
  const firstReadMs = performance.now() - started;
  await grepOnce(handle);
  const firstGrepMs = performance.now() - started;
  await handle.close();
  return { firstReadMs, firstGrepMs };
}

/** Close the variant open in this page, keeping its stored copy. */
async function closeOpen() {
  await open?.close();
  open = undefined;
}

/** Close the variant open in this page and remove its stored copy. */
async function cleanup({ kind }) {
  await open?.close();
  open = undefined;
  if (kind === "idb" || kind === "zenfs-idb") await deleteDatabase(PLACE[kind]);
  else if (kind !== "memory") await wipeOpfs(PLACE[kind]);
}

/**
 * One crash round: open `kind` on `/crash-<kind>`, read back every earlier round's file, then
 * write this round's through the write tool (raw: createWritable + close). Returns the earlier
 * contents by name; the bench kills the browser as soon as this resolves.
 */
async function crashRound({ kind, round, content }) {
  const place = `crash-${kind}`;
  let handle;
  if (kind === "raw") {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(place, { create: true });
    handle = { dir: await dir.getDirectoryHandle("rounds", { create: true }) };
  } else if (kind === "mirror") handle = { fs: opfsMirrorFileSystem({ root: `/${place}` }) };
  else if (kind === "main" || kind === "worker")
    handle = { fs: opfsFileSystem({ root: `/${place}`, worker: kind === "worker" }) };
  else if (kind === "idb") {
    const fs = idbFileSystem({ name: place });
    await fs.ready;
    handle = { fs };
  } else {
    PLACE[kind] = place;
    handle = await openVariant(kind);
  }
  const earlier = {};
  if (handle.dir !== undefined) {
    for await (const file of handle.dir.values()) earlier[file.name] = await (await file.getFile()).text();
  } else if (round > 0) {
    const names = await handle.fs.readdir("/rounds").catch(() => []);
    const decoder = new TextDecoder();
    for (const { name } of names) earlier[name] = decoder.decode(await handle.fs.readFile(`/rounds/${name}`));
  }
  const name = String(round).padStart(3, "0");
  if (content === null) return earlier;
  if (handle.dir !== undefined) {
    const writable = await (await handle.dir.getFileHandle(name, { create: true })).createWritable();
    await writable.write(content);
    await writable.close();
  } else {
    const write = createWriteTool({ fs: handle.fs, cwd: "/", allowedRoots: ["/"] });
    const result = await write.execute({ path: `/rounds/${name}`, content });
    if (result.ok !== true) throw new Error(`write failed: ${JSON.stringify(result).slice(0, 300)}`);
  }
  return earlier;
}

window.repoBench = { loadTree, dropTree, importTree, reopen, coldStart, closeOpen, cleanup, crashRound, measureMemory };
window.repoBenchReady = true;

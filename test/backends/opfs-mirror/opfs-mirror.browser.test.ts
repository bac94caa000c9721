/**
 * The mirrored OPFS backend in real Chromium: the conformance suite on a wiped root, then what
 * the mirror adds: the tree comes back from disk, a torn tail is dropped, compaction, quota,
 * watch (a reload event, changes once durable, none for a change taken back).
 */
import { describe, expect, it } from "vitest";
import { testFileSystem } from "better-fs-tools/conformance";
import { FsError } from "../../../src/contract/errors.js";
import type { FileSystem, WatchEvent } from "../../../src/contract/types.js";
import { createGrepTool } from "../../../src/tools/grep/index.js";
import { resultText } from "../../../src/tools/kit/result.js";
import {
  CLOSE_COMPACT_MIN_BYTES,
  OPFS_MIRROR_RELOAD_EVENT,
  opfsMirrorFileSystem,
  type OpfsMirrorFileSystem,
} from "../../../src/backends/opfs-mirror/index.js";
import { OP_MKDIR, OP_RENAME, OP_SEAL, OP_WRITE, encodeRecord } from "../../../src/backends/opfs-mirror/journal.js";
import { rejection } from "../../contract/rejection.js";
import { wipe } from "../opfs/wipe.js";

const ROOT = "test-opfs-mirror";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function fresh(): Promise<OpfsMirrorFileSystem> {
  await wipe(ROOT);
  return opfsMirrorFileSystem({ root: `/${ROOT}` });
}

/** The names in the mirror's directory, sorted. */
async function filesOnDisk(name: string): Promise<string[]> {
  const directory = await (await navigator.storage.getDirectory()).getDirectoryHandle(name);
  const names: string[] = [];
  for await (const entry of directory.keys()) names.push(entry);
  return names.sort();
}

async function appendToFile(name: string, file: string, bytes: Uint8Array): Promise<void> {
  const directory = await (await navigator.storage.getDirectory()).getDirectoryHandle(name);
  const handle = await directory.getFileHandle(file);
  const size = (await handle.getFile()).size;
  const writable = await handle.createWritable({ keepExistingData: true });
  await writable.write({ type: "write", position: size, data: bytes as Uint8Array<ArrayBuffer> });
  await writable.close();
}

/** Every file and directory under `/` with its content, for comparing two trees. */
async function tree(fs: OpfsMirrorFileSystem, path = "/"): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(path)) {
    const child = path === "/" ? `/${entry.name}` : `${path}/${entry.name}`;
    if (entry.type === "directory") {
      out[child + "/"] = "";
      Object.assign(out, await tree(fs, child));
    } else out[child] = decoder.decode(await fs.readFile(child));
  }
  return out;
}

testFileSystem({
  name: "opfs-mirror",
  create: () => fresh(),
  destroy: async (fs) => (fs as OpfsMirrorFileSystem).close(),
});

describe("opfs-mirror specifics", () => {
  it("declares capabilities.watch and is named opfs-mirror", async () => {
    const fs = await fresh();
    expect({ name: fs.name, capabilities: fs.capabilities, root: fs.root }).toEqual({
      name: "opfs-mirror",
      capabilities: { watch: true },
      root: "/test-opfs-mirror",
    });
    await fs.close();
  });

  it("a new instance on the same root loads the same tree, mtimes included", async () => {
    const fs = await fresh();
    await fs.writeFile("/a/b/c.txt", encoder.encode("one"));
    await fs.writeFile("/a/d.txt", encoder.encode("two"));
    await fs.mkdir("/empty/dir", { recursive: true });
    await fs.rename("/a/d.txt", "/a/b/e.txt");
    await fs.writeFile("/gone/x.txt", encoder.encode("x"));
    await fs.rm("/gone", { recursive: true });
    const mtimeMs = (await fs.stat("/a/b/c.txt")).mtimeMs;
    await fs.close();
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    expect(await tree(again)).toEqual({
      "/a/": "",
      "/a/b/": "",
      "/a/b/c.txt": "one",
      "/a/b/e.txt": "two",
      "/empty/": "",
      "/empty/dir/": "",
    });
    expect((await again.stat("/a/b/c.txt")).mtimeMs).toBe(mtimeMs);
    expect(await filesOnDisk(ROOT)).toEqual(["journal-0.log"]);
    await again.close();
  });

  it("drops a torn tail record (cut short, or a bad checksum) and keeps appending after the last whole one", async () => {
    const fs = await fresh();
    await fs.writeFile("/kept.txt", encoder.encode("kept"));
    await fs.close();
    const torn = encodeRecord({ op: OP_WRITE, path: "/torn.txt", mtimeMs: 1, data: encoder.encode("torn") });
    await appendToFile(ROOT, "journal-0.log", torn.subarray(0, torn.byteLength - 3));
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    expect(await tree(again)).toEqual({ "/kept.txt": "kept" });
    await again.writeFile("/after.txt", encoder.encode("after"));
    await again.close();

    const flipped = encodeRecord({ op: OP_RENAME, path: "/kept.txt", dest: "/moved.txt" });
    flipped[flipped.byteLength - 1] = flipped[flipped.byteLength - 1]! ^ 0xff;
    await appendToFile(ROOT, "journal-0.log", flipped);
    const third = opfsMirrorFileSystem({ root: `/${ROOT}` });
    expect(await tree(third)).toEqual({ "/after.txt": "after", "/kept.txt": "kept" });
    await third.close();
  });

  it("compacts the journal into a sealed segment and loads from it", async () => {
    await wipe(ROOT);
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}`, compactMinBytes: 1000 });
    for (let round = 0; round < 20; round++)
      await fs.writeFile("/same.txt", encoder.encode(`round ${round} `.repeat(10)));
    await fs.writeFile("/other/file.txt", encoder.encode("other"));
    await fs.close();
    const names = await filesOnDisk(ROOT);
    expect(names.length).toBe(2);
    expect(names.filter((name) => name.startsWith("segment-")).length).toBe(1);
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    expect(await tree(again)).toEqual({
      "/other/": "",
      "/other/file.txt": "other",
      "/same.txt": "round 19 ".repeat(10),
    });
    await again.close();
  });

  it("an indexed segment comes back in chunks: more than one chunk, and a file larger than a chunk, whole", async () => {
    await wipe(ROOT);
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}`, compactMinBytes: 1 });
    const big = new Uint8Array(9 * 1024 * 1024).map((_, index) => (index * 7) & 0xff);
    const files: Array<[string, Uint8Array]> = [["/big.bin", big]];
    for (let index = 0; index < 60; index++) {
      files.push([`/d${index % 7}/f${index}.txt`, new Uint8Array(100_000).fill(index)]);
    }
    for (const [path, data] of files) await fs.writeFile(path, data);
    await fs.close();
    expect((await filesOnDisk(ROOT)).filter((name) => name.startsWith("segment-")).length).toBe(1);
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const back = await Promise.all(files.map(async ([path]) => [path, await again.readFile(path)] as const));
    const same = back.every(([path, data], index) => {
      const expected = files[index]![1];
      return (
        path === files[index]![0] &&
        data.byteLength === expected.byteLength &&
        data.every((byte, at) => byte === expected[at])
      );
    });
    expect({ same, top: (await again.readdir("/")).length }).toEqual({ same: true, top: 8 });
    await again.close();
  });

  it("reads at creation are answered before the load ends, with what the loaded tree holds", async () => {
    await wipe(ROOT);
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}`, compactMinBytes: 1 });
    // Three chunks of segment: an answer read from the segment comes between two of them.
    for (let index = 0; index < 20; index++) await fs.writeFile(`/bulk/${index}.bin`, new Uint8Array(1024 * 1024));
    await fs.writeFile("/src/kept.txt", encoder.encode("from the segment"));
    await fs.writeFile("/src/changed.txt", encoder.encode("old"));
    await fs.close();
    // Changes after the compaction stay in the journal (too small to compact on close).
    const between = opfsMirrorFileSystem({ root: `/${ROOT}` });
    await between.writeFile("/src/changed.txt", encoder.encode("rewritten in the journal"));
    await between.rename("/src/kept.txt", "/src/moved.txt");
    await between.close();
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const when = <T>(answer: Promise<T>) => answer.then((value) => ({ value, role: again.role }));
    const answers = await Promise.all([
      when(again.readFile("/src/changed.txt").then((bytes) => decoder.decode(bytes))),
      when(again.stat("/src/changed.txt").then((stat) => [stat.type, stat.size])),
      when(again.readFile("/bulk/0.bin").then((bytes) => bytes.byteLength)),
      when(again.realpath("/src/changed.txt")),
      when(again.readdir("/bulk").then((entries) => [entries.length, entries[0]!.name, entries[0]!.type])),
      when(again.stat("/bulk").then((stat) => [stat.type, stat.mode])),
      when(again.realpath("/bulk")),
      when(again.readFile("/src/moved.txt").then((bytes) => decoder.decode(bytes))),
      // a directory the journal changed below: its listing comes from the loaded tree
      when(again.readdir("/src").then((entries) => entries.map((entry) => entry.name))),
      when(
        again.readFile("/src/kept.txt").then(
          () => "present",
          (error: FsError) => error.code,
        ),
      ),
    ]);
    expect(answers).toEqual([
      { value: "rewritten in the journal", role: "loading" },
      { value: ["file", 24], role: "loading" },
      { value: 1024 * 1024, role: "loading" },
      { value: "/src/changed.txt", role: "loading" },
      { value: [20, "0.bin", "file"], role: "loading" },
      { value: ["directory", 0o777], role: "loading" },
      { value: "/bulk", role: "loading" },
      // under a directory the journal renamed into, and a path it renamed away: after the load
      { value: "from the segment", role: "writer" },
      { value: ["changed.txt", "moved.txt"], role: "writer" },
      { value: "ENOENT", role: "writer" },
    ]);
    await again.close();
  });

  it("a grep asked at creation searches the tree as it streams in, and finds what a grep of the loaded tree finds", async () => {
    await wipe(ROOT);
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}`, compactMinBytes: 1 });
    // Four chunks of segment; a match in the first files, in the middle, and in the last.
    const filler = "x".repeat(1023) + "\n";
    for (let index = 0; index < 30; index++) {
      const line = index % 14 === 0 ? `needle ${index}\n` : "";
      await fs.writeFile(`/p${String(index).padStart(2, "0")}/lib/f.txt`, encoder.encode(line + filler.repeat(1024)));
    }
    await fs.close();
    const search = async (target: FileSystem) => {
      const grep = createGrepTool({ fs: target, cwd: "/", allowedRoots: ["/"], offload: false });
      const result = await grep.execute({ pattern: "needle \\d+", path: "/" });
      return { text: resultText(result), count: result.count };
    };
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const early = await search(again);
    await again.ready();
    const loaded = await search(again);
    expect(early).toEqual(loaded);
    expect(early.count).toBe(3);
    await again.close();
  });

  it("a read asked after a change that waits for the load sees the change; readFileView calls use once", async () => {
    await wipe(ROOT);
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}`, compactMinBytes: 1 });
    await fs.writeFile("/a.txt", encoder.encode("before"));
    await fs.writeFile("/b.txt", encoder.encode("b"));
    await fs.close();
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    let uses = 0;
    const thrown = new Error("use failed");
    const viewed = again
      .readFileView("/b.txt", () => {
        uses += 1;
        throw thrown;
      })
      .then(
        () => "resolved",
        (error: unknown) => (error === thrown ? "use's error" : String(error)),
      );
    const written = again.writeFile("/a.txt", encoder.encode("after"));
    const read = again.readFile("/a.txt").then((bytes) => decoder.decode(bytes));
    await written;
    expect({ read: await read, viewed: await viewed, uses }).toEqual({ read: "after", viewed: "use's error", uses: 1 });
    await again.close();
  });

  it("close() compacts a journal of at least CLOSE_COMPACT_MIN_BYTES and a quarter of the segment", async () => {
    await wipe(ROOT);
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}` });
    await fs.writeFile("/small.txt", encoder.encode("small"));
    await fs.close();
    expect(await filesOnDisk(ROOT)).toEqual(["journal-0.log"]);
    const more = opfsMirrorFileSystem({ root: `/${ROOT}` });
    await more.writeFile("/large.bin", new Uint8Array(CLOSE_COMPACT_MIN_BYTES));
    await more.close();
    expect(await filesOnDisk(ROOT)).toEqual(["journal-1.log", "segment-1.seg"]);
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    expect([(await again.stat("/large.bin")).size, decoder.decode(await again.readFile("/small.txt"))]).toEqual([
      CLOSE_COMPACT_MIN_BYTES,
      "small",
    ]);
    await again.close();
  });

  it("a sealed segment without an index (written by an earlier version) is read whole", async () => {
    await wipe(ROOT);
    const directory = await (await navigator.storage.getDirectory()).getDirectoryHandle(ROOT, { create: true });
    const records = [
      encodeRecord({ op: OP_MKDIR, path: "/d" }),
      encodeRecord({ op: OP_WRITE, path: "/d/a.txt", mtimeMs: 5, data: encoder.encode("v1") }),
      encodeRecord({ op: OP_SEAL, count: 2 }),
    ];
    const writable = await (await directory.getFileHandle("segment-3.seg", { create: true })).createWritable();
    for (const record of records) await writable.write(record as Uint8Array<ArrayBuffer>);
    await writable.close();
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    expect(await tree(again)).toEqual({ "/d/": "", "/d/a.txt": "v1" });
    await again.writeFile("/d/b.txt", encoder.encode("after"));
    await again.close();
    const third = opfsMirrorFileSystem({ root: `/${ROOT}` });
    expect(await tree(third)).toEqual({ "/d/": "", "/d/a.txt": "v1", "/d/b.txt": "after" });
    await third.close();
  });

  it("close() right after the first call lets the root go: the next instance is the writer", async () => {
    await wipe(ROOT);
    const seed = opfsMirrorFileSystem({ root: `/${ROOT}` });
    await seed.writeFile("/seed.txt", encoder.encode("seed"));
    await seed.close();
    const outcomes: string[] = [];
    for (const start of [
      (fs: OpfsMirrorFileSystem) => fs.watch("/", () => undefined),
      (fs: OpfsMirrorFileSystem) => fs.readFile("/seed.txt").catch(() => undefined),
      (fs: OpfsMirrorFileSystem) => fs.ready().catch(() => undefined),
    ]) {
      const first = opfsMirrorFileSystem({ root: `/${ROOT}` });
      start(first);
      await first.close();
      const next = opfsMirrorFileSystem({ root: `/${ROOT}` });
      outcomes.push(`${decoder.decode(await next.readFile("/seed.txt"))} ${next.role} ${first.role}`);
      await next.close();
    }
    expect(outcomes).toEqual(["seed writer closed", "seed writer closed", "seed writer closed"]);
    const held = await navigator.locks.query();
    expect([...(held.held ?? []), ...(held.pending ?? [])].filter((lock) => lock.name?.includes(ROOT))).toEqual([]);
  });

  it("an unsealed newer segment (a crash mid-compaction) is ignored and removed", async () => {
    const fs = await fresh();
    await fs.writeFile("/a.txt", encoder.encode("a"));
    await fs.close();
    const directory = await (await navigator.storage.getDirectory()).getDirectoryHandle(ROOT);
    const segment = await directory.getFileHandle("segment-1.seg", { create: true });
    const writable = await segment.createWritable();
    await writable.write(
      encodeRecord({ op: OP_WRITE, path: "/b.txt", mtimeMs: 1, data: encoder.encode("b") }) as Uint8Array<ArrayBuffer>,
    );
    await writable.close();
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    expect(await tree(again)).toEqual({ "/a.txt": "a" });
    expect(await filesOnDisk(ROOT)).toEqual(["journal-0.log"]);
    await again.close();
  });

  it("a write over quota rejects with ENOSPC; memory and disk keep the same tree", async () => {
    await wipe("test-opfs-mirror-quota");
    const worker = new Worker(new URL("./quota-fixture.ts", import.meta.url), { type: "module" });
    const fs = opfsMirrorFileSystem({ root: "/test-opfs-mirror-quota", worker });
    await fs.writeFile("/a.txt", encoder.encode("old content"));
    const grown = await rejection(fs.writeFile("/a.txt", new Uint8Array(8192)));
    expect(grown.message).toBe(
      "ENOSPC: no space left on device, open '/a.txt' (the journal could not grow by 8223 bytes)",
    );
    const created = await rejection(fs.writeFile("/new/dir/b.txt", new Uint8Array(5000)));
    expect(created.code).toBe("ENOSPC");
    const removed = fs.rm("/a.txt");
    await removed;
    const restored = await rejection(fs.writeFile("/a.txt", new Uint8Array(6000)));
    expect(restored.code).toBe("ENOSPC");
    expect(await tree(fs)).toEqual({});
    await fs.writeFile("/small.txt", encoder.encode("fits"));
    const inMemory = await tree(fs);
    await fs.close();
    worker.terminate();
    const again = opfsMirrorFileSystem({ root: "/test-opfs-mirror-quota" });
    expect(await tree(again)).toEqual(inMemory);
    expect(inMemory).toEqual({ "/small.txt": "fits" });
    await again.close();
  });

  it("watch: a listener that comes before the load hears one reload, then each durable change under its path; none for one taken back", async () => {
    await wipe("test-opfs-mirror-watch");
    const seed = opfsMirrorFileSystem({ root: "/test-opfs-mirror-watch" });
    await seed.writeFile("/w/kept.txt", encoder.encode("kept"));
    await seed.close();
    const worker = new Worker(new URL("./quota-fixture.ts", import.meta.url), { type: "module" });
    const fs = opfsMirrorFileSystem({ root: "/test-opfs-mirror-watch", worker });
    const heard: WatchEvent[] = [];
    const everything: WatchEvent[] = [];
    // Before any call: watch starts the load, whose end is the reload event.
    const stop = fs.watch("/w", (event) => heard.push(event));
    fs.watch("/", (event) => everything.push(event));
    await fs.ready();
    expect(heard).toEqual([OPFS_MIRROR_RELOAD_EVENT]);
    expect(OPFS_MIRROR_RELOAD_EVENT).toEqual({ type: "rename", path: "/" });

    const written = fs.writeFile("/w/a.txt", encoder.encode("a"));
    expect(heard.length).toBe(1); // applied in memory, not yet durable: nothing reported
    await written;
    await fs.writeFile("/w-sibling/x.txt", encoder.encode("not under /w"));
    await fs.mkdir("/w/d/e", { recursive: true });
    await fs.rename("/w/a.txt", "/w/d/b.txt");
    const refused = await rejection(fs.writeFile("/w/d/big.bin", new Uint8Array(8192)));
    expect(refused.code).toBe("ENOSPC");
    await fs.rm("/w/d", { recursive: true });
    expect(heard).toEqual([
      OPFS_MIRROR_RELOAD_EVENT,
      { type: "write", path: "/w/a.txt" },
      { type: "mkdir", path: "/w/d/e" },
      { type: "rename", path: "/w/a.txt" },
      { type: "rename", path: "/w/d/b.txt" },
      { type: "remove", path: "/w/d" },
    ]);

    // Removing the watched directory itself is reported to it; after stop() nothing is.
    await fs.rm("/w", { recursive: true });
    stop();
    stop();
    await fs.writeFile("/w/after-stop.txt", encoder.encode("unheard"));
    expect(heard.slice(6)).toEqual([{ type: "remove", path: "/w" }]);
    expect(everything).toEqual([
      OPFS_MIRROR_RELOAD_EVENT,
      { type: "write", path: "/w/a.txt" },
      { type: "write", path: "/w-sibling/x.txt" },
      { type: "mkdir", path: "/w/d/e" },
      { type: "rename", path: "/w/a.txt" },
      { type: "rename", path: "/w/d/b.txt" },
      { type: "remove", path: "/w/d" },
      { type: "remove", path: "/w" },
      { type: "write", path: "/w/after-stop.txt" },
    ]);
    await fs.close();
    worker.terminate();
  });

  it("rejects with EIO after close", async () => {
    const fs = await fresh();
    await fs.close();
    const error = await rejection(fs.readFile("/a.txt"));
    expect(error.message).toBe("EIO: i/o error, opfs '/test-opfs-mirror' (the file system was closed)");
  });
});

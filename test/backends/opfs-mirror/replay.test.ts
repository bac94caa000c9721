/**
 * Replay of records into the working set: the fast path (plain paths straight into memfs nodes,
 * a segment's bytes shared without a copy) leaves the same tree, modes and times as replaying
 * through the volume's own calls, and a shared file is still its own.
 */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { OP_MKDIR, OP_RENAME, OP_RM, OP_WRITE, type JournalOp } from "../../../src/backends/opfs-mirror/journal.js";
import { replayRecords, writeFileNode } from "../../../src/backends/opfs-mirror/replay.js";

const encoder = new TextEncoder();

/** Every path with its type, mode, mtime and bytes, sorted. */
function dump(volume: ReturnType<typeof memoryFileSystem>["volume"]) {
  const out: Array<[string, string, number, number, number[] | null]> = [];
  const visit = (dir: string) => {
    for (const name of (volume.readdirSync(dir) as string[]).map(String).sort()) {
      const path = dir === "/" ? `/${name}` : `${dir}/${name}`;
      const stats = volume.lstatSync(path)!;
      const isDir = stats.isDirectory();
      out.push([
        path,
        isDir ? "dir" : "file",
        Number(stats.mode),
        isDir ? 0 : Number(stats.mtimeMs),
        isDir ? null : [...(volume.readFileSync(path) as Uint8Array)],
      ]);
      if (isDir) visit(path);
    }
  };
  visit("/");
  return out;
}

/** One buffer holding every record's data back to back (as a decoded segment does). */
function segmentLike(files: Array<[string, string, number]>): JournalOp[] {
  const bytes = encoder.encode(files.map(([, text]) => text).join(""));
  let at = 0;
  return files.map(([path, text, mtimeMs]) => {
    const length = encoder.encode(text).byteLength;
    const data = bytes.subarray(at, at + length);
    at += length;
    return { op: OP_WRITE, path, mtimeMs, data };
  });
}

const JOURNAL: JournalOp[] = [
  { op: OP_MKDIR, path: "/src/deep/er" },
  ...segmentLike([
    ["/src/a.ts", "export const a = 1;\n", 1_000],
    ["/src/deep/b.ts", "b", 2_000],
    ["/top.txt", "top", 3_000],
  ]),
  { op: OP_WRITE, path: "/src/a.ts", mtimeMs: 4_000, data: encoder.encode("rewritten") },
  { op: OP_WRITE, path: "/new/parent/c.txt", mtimeMs: 5_000, data: encoder.encode("parents made") },
  { op: OP_WRITE, path: "/odd//path/./d.txt", mtimeMs: 6_000, data: encoder.encode("general way") },
  { op: OP_RENAME, path: "/src/deep", dest: "/moved" },
  { op: OP_WRITE, path: "/moved/b.ts", mtimeMs: 7_000, data: encoder.encode("after rename") },
  { op: OP_WRITE, path: "/src/deep/b.ts", mtimeMs: 8_000, data: encoder.encode("old parent again") },
  { op: OP_WRITE, path: "/top.txt/x", mtimeMs: 9_000, data: encoder.encode("parent is a file: skipped") },
  { op: OP_WRITE, path: "/moved", mtimeMs: 9_500, data: encoder.encode("a directory: skipped") },
  { op: OP_RM, path: "/new" },
  { op: OP_WRITE, path: "/new/again.txt", mtimeMs: 10_000, data: encoder.encode("after rm") },
];

/** The same records through the volume's own calls (the behaviour replay had before the fast path). */
function replayByVolume(records: JournalOp[]) {
  const { volume } = memoryFileSystem();
  for (const record of records) {
    try {
      if (record.op === OP_WRITE) {
        const parent = record.path.slice(0, record.path.lastIndexOf("/")) || "/";
        if (!volume.existsSync(parent)) volume.mkdirSync(parent, { recursive: true });
        volume.writeFileSync(record.path, record.data);
        volume.utimesSync(record.path, record.mtimeMs / 1000, record.mtimeMs / 1000);
      } else if (record.op === OP_MKDIR) volume.mkdirSync(record.path, { recursive: true });
      else if (record.op === OP_RM) volume.rmSync(record.path, { recursive: true, force: true });
      else if (record.op === OP_RENAME) volume.renameSync(record.path, record.dest);
    } catch {
      // skipped, as replay skips it
    }
  }
  return dump(volume);
}

describe("opfs-mirror replay", () => {
  it("leaves the same tree, modes, mtimes and bytes as the volume's own calls", () => {
    const expected = replayByVolume(JOURNAL);
    for (const shareBuffer of [false, true]) {
      const { volume } = memoryFileSystem();
      replayRecords(volume, JOURNAL, { shareBuffer });
      expect(dump(volume)).toEqual(expected);
    }
    expect(expected.map(([path]) => path)).toEqual([
      "/moved",
      "/moved/b.ts",
      "/moved/er",
      "/new",
      "/new/again.txt",
      "/odd",
      "/odd/path",
      "/odd/path/d.txt",
      "/src",
      "/src/a.ts",
      "/src/deep",
      "/src/deep/b.ts",
      "/top.txt",
    ]);
  });

  it("shareBuffer: files view the segment's bytes, and writing one changes no other", async () => {
    const records = segmentLike([
      ["/a.txt", "aaaa", 1],
      ["/b.txt", "bbbb", 2],
      ["/c.txt", "cccc", 3],
    ]);
    const fs = memoryFileSystem();
    replayRecords(fs.volume, records, { shareBuffer: true });
    const shared = (records[1] as Extract<JournalOp, { op: typeof OP_WRITE }>).data.buffer;
    // A write inside the file's bytes, one that grows it, a truncation, a rewrite:
    const fd = fs.volume.openSync("/b.txt", "r+");
    fs.volume.writeSync(fd, encoder.encode("XY"), 0, 2, 1);
    fs.volume.closeSync(fd);
    fs.volume.appendFileSync("/a.txt", "-grown");
    fs.volume.truncateSync("/c.txt", 1);
    const text = async (path: string) => new TextDecoder().decode(await fs.readFile(path));
    expect([await text("/a.txt"), await text("/b.txt"), await text("/c.txt")]).toEqual(["aaaa-grown", "bXYb", "c"]);
    expect(new TextDecoder().decode(new Uint8Array(shared))).toBe("aaaabXYbcccc");
    await fs.writeFile("/c.txt", encoder.encode("new"));
    expect([await text("/a.txt"), await text("/b.txt"), await text("/c.txt")]).toEqual(["aaaa-grown", "bXYb", "new"]);
  });

  it("superseded: release moves files out of a journal buffer that mostly holds replaced records", async () => {
    const records = segmentLike([
      ["/a.txt", "a-first-version-long", 1],
      ["/b.txt", "bb", 2],
      ["/a.txt", "a2", 3],
    ]);
    const source = (records[0] as Extract<JournalOp, { op: typeof OP_WRITE }>).data.buffer;
    const fs = memoryFileSystem();
    replayRecords(fs.volume, records, { shareBuffer: true, superseded: "release" });
    const storage = (path: string) => fs.volume._core.getResolvedLink(path)!.getNode().buf;
    const text = async (path: string) => new TextDecoder().decode(await fs.readFile(path));
    // 4 bytes live of 24 given: both files now share one buffer of exactly 4 bytes.
    expect({
      a: await text("/a.txt"),
      b: await text("/b.txt"),
      moved: storage("/a.txt").buffer !== source,
      together: storage("/a.txt").buffer === storage("/b.txt").buffer,
      size: storage("/a.txt").buffer.byteLength,
    }).toEqual({ a: "a2", b: "bb", moved: true, together: true, size: 4 });
  });

  it("superseded: release keeps files in the buffer when they still hold nearly all of it", async () => {
    const records = segmentLike([
      ["/a.txt", "aaaaaaaaaa", 1],
      ["/b.txt", "bbbbbbbbbb", 2],
    ]);
    const source = (records[0] as Extract<JournalOp, { op: typeof OP_WRITE }>).data.buffer;
    const fs = memoryFileSystem();
    replayRecords(fs.volume, records, { shareBuffer: true, superseded: "release" });
    const storage = (path: string) => fs.volume._core.getResolvedLink(path)!.getNode().buf;
    expect([storage("/a.txt").buffer === source, storage("/b.txt").buffer === source]).toEqual([true, true]);
  });

  it("without shareBuffer the bytes are copied: the decoded buffer can be reused", async () => {
    const records = segmentLike([["/a.txt", "abc", 1]]);
    const fs = memoryFileSystem();
    replayRecords(fs.volume, records);
    (records[0] as Extract<JournalOp, { op: typeof OP_WRITE }>).data.fill(0);
    expect(new TextDecoder().decode(await fs.readFile("/a.txt"))).toBe("abc");
  });

  it("writeFileNode leaves what the memory backend's writeFile leaves, and its undo puts the old file back", async () => {
    const byBackend = memoryFileSystem();
    const direct = memoryFileSystem();
    for (const fs of [byBackend, direct]) {
      await fs.mkdir("/d", { recursive: true });
      await fs.writeFile("/d/old.txt", encoder.encode("old bytes"));
    }
    const before = dump(direct.volume);
    await byBackend.writeFile("/d/old.txt", encoder.encode("new"));
    await byBackend.writeFile("/d/made.txt", encoder.encode("made"));
    const data = encoder.encode("new");
    const rewritten = writeFileNode(direct.volume, "/d/old.txt", data)!;
    const made = writeFileNode(direct.volume, "/d/made.txt", encoder.encode("made"))!;
    data[0] = 0; // the caller's bytes are copied
    // mtimes differ by when each ran: compare everything else, then the mtimes reported.
    const withoutTimes = (rows: ReturnType<typeof dump>) =>
      rows.map(([path, kind, mode, , bytes]) => [path, kind, mode, bytes]);
    expect(withoutTimes(dump(direct.volume))).toEqual(withoutTimes(dump(byBackend.volume)));
    expect(rewritten.mtimeMs).toBe(Number(direct.volume.statSync("/d/old.txt").mtimeMs));
    expect([...rewritten.bytes]).toEqual([...encoder.encode("new")]);
    made.undo();
    rewritten.undo();
    expect(dump(direct.volume)).toEqual(before);
  });

  it("writeFileNode leaves anything but a plain path with a parent directory to the general way, untouched", async () => {
    const fs = memoryFileSystem();
    await fs.mkdir("/dir/sub", { recursive: true });
    await fs.writeFile("/file.txt", encoder.encode("f"));
    const before = dump(fs.volume);
    for (const path of [
      "/missing/a.txt",
      "/dir/sub",
      "/file.txt/x",
      "/dir//a.txt",
      "/dir/./a.txt",
      "/dir/a.txt/",
      "/dir/a\0b",
    ])
      expect([path, writeFileNode(fs.volume, path, encoder.encode("x"))]).toEqual([path, undefined]);
    expect(writeFileNode(fs.volume, "/dir/a.txt", "text" as unknown as Uint8Array)).toBe(undefined);
    expect(dump(fs.volume)).toEqual(before);
  });
});

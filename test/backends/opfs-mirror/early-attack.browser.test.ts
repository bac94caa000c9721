/**
 * Attacks on the mirror's early reads (answers before the load ends): every answer asked at
 * creation must equal the answer the loaded tree gives (a directory's mtime aside).
 */
import { describe, expect, it } from "vitest";
import { FsError } from "../../../src/contract/errors.js";
import { opfsMirrorFileSystem, type OpfsMirrorFileSystem } from "../../../src/backends/opfs-mirror/index.js";
import { wipe } from "../opfs/wipe.js";

const ROOT = "test-opfs-mirror-early-attack";
const encoder = new TextEncoder();
const text = (value: string) => encoder.encode(value);

type Answer = { ok: unknown } | { code: string };
type Ops = (fs: OpfsMirrorFileSystem) => Promise<void>;

/** One answer of each read of `path`: its value (a directory's mtime dropped) or its error code. */
let answeredEarly = 0;
function ask(fs: OpfsMirrorFileSystem, path: string): Promise<Record<string, Answer>> {
  const settle = async (call: () => Promise<unknown>): Promise<Answer> => {
    try {
      const value = await call();
      if (fs.role === "loading") answeredEarly += 1;
      if (value instanceof Uint8Array) return { ok: Array.from(value).join(",") };
      if (value !== null && typeof value === "object" && "type" in value && "mtimeMs" in value) {
        const stat = value as { type: string; mtimeMs: number };
        return { ok: stat.type === "directory" ? { ...stat, mtimeMs: "dir" } : stat };
      }
      return { ok: value };
    } catch (error) {
      return { code: FsError.isInstance(error) ? error.code : `not an FsError: ${String(error)}` };
    }
  };
  const calls: Record<string, () => Promise<unknown>> = {
    readFile: () => fs.readFile(path),
    readFileView: () => fs.readFileView(path, (bytes) => Array.from(bytes).join(",")),
    stat: () => fs.stat(path),
    lstat: () => fs.lstat(path),
    realpath: () => fs.realpath(path),
    readdir: () => fs.readdir(path),
  };
  return Promise.all(Object.entries(calls).map(async ([name, call]) => [name, await settle(call)] as const)).then(
    Object.fromEntries,
  );
}

/**
 * The segment from `segment` (compacted at close), the journal from `journal` (too small to
 * compact), then a third instance asked about every path at once, and again once loaded.
 */
async function earlyAndLoaded(segment: Ops, journal: Ops, paths: readonly string[], bulk = 3) {
  await wipe(ROOT);
  const first = opfsMirrorFileSystem({ root: `/${ROOT}`, compactMinBytes: 1 });
  await segment(first);
  // A few chunks of segment after everything else (sorted last), so the load takes a while.
  for (let index = 0; index < bulk; index++) await first.writeFile(`/~bulk/${index}.bin`, new Uint8Array(8 << 20));
  await first.close();
  const second = opfsMirrorFileSystem({ root: `/${ROOT}` });
  await journal(second);
  await second.close();
  const third = opfsMirrorFileSystem({ root: `/${ROOT}` });
  answeredEarly = 0;
  const early = await Promise.all(paths.map(async (path) => [path, await ask(third, path)] as const));
  // How many answers came before the load ended (not asserted: it depends on timing).
  const beforeLoad = answeredEarly;
  await third.ready();
  const loaded = await Promise.all(paths.map(async (path) => [path, await ask(third, path)] as const));
  await third.close();
  return { early, loaded, beforeLoad };
}

const PATHS_OF_A_TREE = [
  "/",
  "",
  "/src",
  "/src/",
  "/src//a.txt",
  "/src/./a.txt",
  "/x/../src/a.txt",
  "/src/a.txt",
  "/src/a.txt/",
  "/src/a.txt/b",
  "/src/empty.txt",
  "/src/missing.txt",
  "/empty",
  "/empty/",
  "/empty/deeper",
  "relative.txt",
  "/~bulk",
  "/~bulk/0.bin/",
];

describe("opfs-mirror early reads under attack", () => {
  it("a segment only: every read of every spelling equals the loaded answer", async () => {
    const { early, loaded } = await earlyAndLoaded(
      async (fs) => {
        await fs.writeFile("/src/a.txt", text("alpha"));
        await fs.writeFile("/src/empty.txt", new Uint8Array(0));
        await fs.mkdir("/empty/deeper", { recursive: true });
      },
      async () => undefined,
      PATHS_OF_A_TREE,
    );
    expect(early).toEqual(loaded);
  });

  it("unicode and odd names: listings sorted as the loaded tree sorts them", async () => {
    const names = [
      "Z",
      "a",
      "é",
      "e\u0301",
      "😀",
      "\uFFFD",
      "ß",
      "-",
      " space",
      "a b",
      "\\back",
      "...",
      ".hidden",
      "ｚ",
    ];
    const { early, loaded } = await earlyAndLoaded(
      async (fs) => {
        for (const name of names) await fs.writeFile(`/u/${name}`, text(name));
        for (const name of names) await fs.mkdir(`/d/${name}`, { recursive: true });
      },
      async () => undefined,
      ["/u", "/d", ...names.map((name) => `/u/${name}`), ...names.map((name) => `/d/${name}`)],
    );
    expect(early).toEqual(loaded);
  });

  it("journal records of every kind, with odd spellings, over a segment", async () => {
    const { early, loaded } = await earlyAndLoaded(
      async (fs) => {
        await fs.writeFile("/src/a.txt", text("alpha"));
        await fs.writeFile("/src/b.txt", text("beta"));
        await fs.writeFile("/src/sub/c.txt", text("gamma"));
        await fs.writeFile("/dir/in/x.txt", text("x"));
        await fs.writeFile("/dir/in/y.txt", text("y"));
        await fs.writeFile("/keep/k.txt", text("k"));
        await fs.writeFile("/gone/g.txt", text("g"));
        await fs.writeFile("/over.txt", text("over"));
        await fs.mkdir("/emptydir", { recursive: true });
      },
      async (fs) => {
        await fs.writeFile("/src//b.txt", text("beta 2"));
        await fs.writeFile("/src/sub/../new.txt", text("new"));
        await fs.mkdir("/made/", { recursive: true });
        await fs.mkdir("/keep", { recursive: true });
        await fs.rm("/gone/", { recursive: true });
        await fs.rename("/dir/in", "/dir/out");
        await fs.writeFile("/dir/out/z.txt", text("z"));
        await fs.writeFile("/dir/in/x.txt", text("x again"));
        await fs.rename("/over.txt", "/src/a.txt");
        await fs.writeFile("/gone/g.txt", text("g back"));
        await fs.rm("/src/./sub/c.txt");
        await fs.writeFile("/src/sub/c.txt", text("gamma 2"));
        await fs.rename("/keep/k.txt", "/keep/k.txt");
        await fs.writeFile("/emptydir/f", new Uint8Array(0));
        await fs.rm("/emptydir/f");
      },
      [
        "/",
        "/src",
        "/src/a.txt",
        "/src/b.txt",
        "/src/new.txt",
        "/src/sub",
        "/src/sub/c.txt",
        "/dir",
        "/dir/in",
        "/dir/in/x.txt",
        "/dir/in/y.txt",
        "/dir/out",
        "/dir/out/x.txt",
        "/dir/out/y.txt",
        "/dir/out/z.txt",
        "/keep",
        "/keep/k.txt",
        "/gone",
        "/gone/g.txt",
        "/over.txt",
        "/made",
        "/emptydir",
        "/emptydir/f",
      ],
    );
    expect(early).toEqual(loaded);
  });

  it("a segment with no files (an empty tree compacted) loads, early and late (was: every later cold start failed with EIO)", async () => {
    await wipe(ROOT);
    const first = opfsMirrorFileSystem({ root: `/${ROOT}`, compactMinBytes: 1 });
    // One batch: the compaction after it writes an empty tree.
    await Promise.all([first.writeFile("/big.bin", new Uint8Array(2 << 20)), first.rm("/big.bin")]);
    await first.close();
    const names: string[] = [];
    const directory = await (await navigator.storage.getDirectory()).getDirectoryHandle(ROOT);
    for await (const name of directory.keys()) names.push(name);
    expect(names.sort()).toEqual(["journal-1.log", "segment-1.seg"]);
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const early = await Promise.all([again.readdir("/"), again.stat("/").then((stat) => stat.type)]);
    await again.ready();
    expect({ early, loaded: await again.readdir("/"), role: again.role }).toEqual({
      early: [[], "directory"],
      loaded: [],
      role: "writer",
    });
    await again.writeFile("/after.txt", text("after"));
    await again.close();
    const third = opfsMirrorFileSystem({ root: `/${ROOT}` });
    expect(new TextDecoder().decode(await third.readFile("/after.txt"))).toBe("after");
    await third.close();
  });

  it("files larger than a chunk, far past the chunks come, and empty files", async () => {
    const big = new Uint8Array(20 << 20).map((_, index) => (index * 13) & 0xff);
    await wipe(ROOT);
    const first = opfsMirrorFileSystem({ root: `/${ROOT}`, compactMinBytes: 1 });
    await first.writeFile("/a/big.bin", big);
    for (let index = 0; index < 6; index++)
      await first.writeFile(`/b/${index}.bin`, new Uint8Array(4 << 20).fill(index));
    await first.writeFile("/c/empty.bin", new Uint8Array(0));
    await first.writeFile("/c/last.bin", big.subarray(5, 9_000_005));
    await first.mkdir("/c/empty-dir", { recursive: true });
    await first.close();
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const digest = (bytes: Uint8Array) => {
      let sum = 0;
      for (let index = 0; index < bytes.byteLength; index++) sum = (sum * 31 + bytes[index]!) >>> 0;
      return [bytes.byteLength, sum];
    };
    const read = (fs: OpfsMirrorFileSystem) =>
      Promise.all([
        fs.readFile("/c/last.bin").then(digest),
        fs.readFileView("/a/big.bin", digest),
        fs.readFile("/c/empty.bin").then(digest),
        fs.readFileView("/c/empty.bin", digest),
        fs.readdir("/c"),
        fs.readdir("/c/empty-dir"),
        fs.readFile("/b/5.bin").then(digest),
      ]);
    const early = await read(again);
    const role = again.role;
    await again.ready();
    expect({ early, role }).toEqual({ early: await read(again), role: "loading" });
    await again.close();
  });
});

/**
 * The mirror's early reads against the life of an instance: mutations, close() and a Worker
 * failure during the load, two instances on one root, names a reload must keep.
 */
import { describe, expect, it } from "vitest";
import { FsError } from "../../../src/contract/errors.js";
import { opfsMirrorFileSystem, type OpfsMirrorFileSystem } from "../../../src/backends/opfs-mirror/index.js";
import { wipe } from "../opfs/wipe.js";

const ROOT = "test-opfs-mirror-early-lifecycle";
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const text = (value: string) => encoder.encode(value);

/** A value, or the code of the FsError it rejected with. */
function settle<T>(call: Promise<T>): Promise<T | string> {
  return call.then(
    (value) => value,
    (error: unknown) => (FsError.isInstance(error) ? error.code : `not an FsError: ${String(error)}`),
  );
}

/** A segment (three chunks of bulk after /src) and a journal (a rewrite, a rename). */
async function prepare(): Promise<void> {
  await wipe(ROOT);
  const first = opfsMirrorFileSystem({ root: `/${ROOT}`, compactMinBytes: 1 });
  await first.writeFile("/src/a.txt", text("alpha"));
  await first.writeFile("/src/b.txt", text("beta"));
  for (let index = 0; index < 3; index++) await first.writeFile(`/~bulk/${index}.bin`, new Uint8Array(8 << 20));
  await first.writeFile("/~z/last.txt", text("last"));
  await first.close();
  const second = opfsMirrorFileSystem({ root: `/${ROOT}` });
  await second.writeFile("/src/b.txt", text("beta 2"));
  await second.close();
}

const readText = (fs: OpfsMirrorFileSystem, path: string) =>
  settle(fs.readFile(path).then((bytes) => decoder.decode(bytes)));
const names = (fs: OpfsMirrorFileSystem, path: string) =>
  settle(fs.readdir(path).then((entries) => entries.map((entry) => `${entry.name}:${entry.type}`)));

describe("opfs-mirror early reads and the instance's life", () => {
  it("mutations asked during the load: every read asked after one sees it", async () => {
    await prepare();
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const changes = [
      fs.writeFile("/src/a.txt", text("alpha 2")),
      fs.rm("/~z", { recursive: true }),
      fs.rename("/src/b.txt", "/src/c.txt"),
      fs.mkdir("/new", { recursive: true }),
    ];
    const after = await Promise.all([
      readText(fs, "/src/a.txt"),
      names(fs, "/"),
      names(fs, "/src"),
      readText(fs, "/~z/last.txt"),
      settle(fs.stat("/src/b.txt")),
      settle(fs.readFileView("/src/c.txt", (bytes) => decoder.decode(bytes))),
      settle(fs.realpath("/new")),
    ]);
    await Promise.all(changes);
    expect({ after }).toEqual({
      after: [
        "alpha 2",
        ["new:directory", "src:directory", "~bulk:directory"],
        ["a.txt:file", "c.txt:file"],
        "ENOENT",
        "ENOENT",
        "beta 2",
        "/new",
      ],
    });
    await fs.close();
  });

  it("close() during the load: reads asked before it settle, a write asked before it is durable, reads after it fail with EIO", async () => {
    await prepare();
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}` });
    // Once one early answer has come, the instance holds the root's lock: the load is under way.
    expect([await readText(fs, "/src/a.txt"), fs.role]).toEqual(["alpha", "loading"]);
    const reads = Promise.all([readText(fs, "/src/a.txt"), readText(fs, "/~z/last.txt"), names(fs, "/~bulk")]);
    const written = settle(fs.writeFile("/late.txt", text("late")));
    const closed = fs.close();
    const afterClose = readText(fs, "/src/a.txt");
    await closed;
    expect({
      reads: await reads,
      written: await written,
      afterClose: await afterClose,
      later: await settle(fs.stat("/src/a.txt")),
    }).toEqual({
      reads: ["alpha", "last", ["0.bin:file", "1.bin:file", "2.bin:file"]],
      written: undefined,
      // asked after close() was called, before it resolved: answered (from the early reads)
      afterClose: "alpha",
      later: "EIO",
    });
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    expect(await readText(again, "/late.txt")).toBe("late");
    await again.close();
  });

  it("a Worker failing during the load: calls asked before and after reject with EIO or answer as the tree is; none hangs", async () => {
    await prepare();
    const worker = new Worker(new URL("./dying-worker.ts", import.meta.url), { type: "module" });
    // The failure reaches the mirror's own listener; kept from the page's uncaught errors.
    worker.addEventListener("error", (event) => event.preventDefault());
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}`, worker });
    const first = await readText(fs, "/src/a.txt");
    const roleAtFirst = fs.role;
    const pending = Promise.all([readText(fs, "/~z/last.txt"), names(fs, "/src"), settle(fs.ready())]);
    worker.postMessage("die");
    const results = await pending;
    const after = await Promise.all([
      readText(fs, "/src/a.txt"),
      settle(fs.stat("/src")),
      settle(fs.writeFile("/x", text("x"))),
    ]);
    // The failed session's access handles are let go (its session was told to close): the
    // root can be removed with the Worker still running.
    let wiped = "held";
    for (let attempt = 0; attempt < 30 && wiped === "held"; attempt++) {
      wiped = await wipe(ROOT).then(
        () => "wiped",
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 100));
          return "held";
        },
      );
    }
    worker.terminate();
    expect(wiped).toBe("wiped");
    expect({
      first,
      roleAtFirst,
      results: results.map((result) => (result === "EIO" ? "EIO" : "answered")),
      after,
    }).toEqual({
      first: "alpha",
      roleAtFirst: "loading",
      results: expect.arrayContaining(["EIO"]) as unknown as string[],
      after: ["EIO", "EIO", "EIO"],
    });
  });

  it("readFileView whose use throws (a chunk's file, a journal record's, one far ahead; an Error or undefined): use runs once, its error is thrown", async () => {
    await prepare();
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const run = (path: string, thrown: unknown) => {
      let uses = 0;
      return fs
        .readFileView(path, () => {
          uses += 1;
          throw thrown;
        })
        .then(
          () => ({ uses, outcome: "resolved" }),
          (error: unknown) => ({ uses, outcome: error === thrown ? "use's error" : String(error) }),
        );
    };
    const ask = () =>
      Promise.all([
        run("/src/a.txt", new Error("a")),
        run("/src/b.txt", new Error("b")),
        run("/~z/last.txt", new Error("z")),
        run("/src/a.txt", undefined),
        run("/~z/last.txt", undefined),
      ]);
    const early = await ask();
    await fs.ready();
    const loaded = await ask();
    const expected = Array.from({ length: 5 }, () => ({ uses: 1, outcome: "use's error" }));
    expect({ early, loaded }).toEqual({ early: expected, loaded: expected });
    await fs.close();
  });

  it("two instances opened at once on one root answer the same", async () => {
    await prepare();
    const one = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const two = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const ask = (fs: OpfsMirrorFileSystem) =>
      Promise.all([
        readText(fs, "/src/a.txt"),
        readText(fs, "/src/b.txt"),
        names(fs, "/"),
        names(fs, "/~bulk"),
        readText(fs, "/~z/last.txt"),
      ]);
    const [a, b] = await Promise.all([ask(one), ask(two)]);
    expect({ a, b, roles: [one.role, two.role].sort() }).toEqual({
      a: [
        "alpha",
        "beta 2",
        ["src:directory", "~bulk:directory", "~z:directory"],
        ["0.bin:file", "1.bin:file", "2.bin:file"],
        "last",
      ],
      b: a,
      roles: ["reader", "writer"],
    });
    await two.close();
    await one.close();
  });

  it("a name with a lone surrogate is refused (EINVAL), since a reload would bring it back as U+FFFD", async () => {
    await wipe(ROOT);
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const name = "half\uD83D.txt";
    await fs.writeFile("/whole.txt", text("x"));
    const refused = await Promise.all([
      settle(fs.writeFile(`/${name}`, text("x"))),
      settle(fs.mkdir(`/${name}`, { recursive: true })),
      settle(fs.rename("/whole.txt", `/${name}`)),
      // a surrogate pair is a whole character: kept
      settle(fs.writeFile("/\uD83D\uDE00.txt", text("smile"))),
    ]);
    const before = await names(fs, "/");
    await fs.close();
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    expect({ refused, before, after: await names(again, "/") }).toEqual({
      refused: ["EINVAL", "EINVAL", "EINVAL", undefined],
      before: ["whole.txt:file", "\uD83D\uDE00.txt:file"],
      after: ["whole.txt:file", "\uD83D\uDE00.txt:file"],
    });
    await again.close();
  });

  it("a Worker terminated with a write in flight: it rejects with EIO, nothing waits forever, and a fresh instance loads the file as before or after", async () => {
    await wipe(ROOT);
    const worker = new Worker(new URL("../../../src/backends/opfs-mirror/mirror-worker.ts", import.meta.url), {
      type: "module",
    });
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}`, worker });
    await fs.writeFile("/a.txt", text("one"));
    worker.terminate();
    // Asked at once, before the page can know: before the fix (no `error` event on terminate)
    // the write waited forever.
    const write = settle(fs.writeFile("/a.txt", text("two")));
    const results = [await write, await settle(fs.stat("/a.txt"))];
    await fs.close();
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const loaded = await readText(again, "/a.txt");
    await again.close();
    expect({ results, kept: loaded === "one" || loaded === "two" }).toEqual({ results: ["EIO", "EIO"], kept: true });
  });
});

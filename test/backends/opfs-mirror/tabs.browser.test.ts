/**
 * Several instances of the mirrored OPFS backend on one root, in one page of real Chromium (Web
 * Locks and BroadcastChannel behave between instances of one page as between tabs): one writer,
 * readers that see each change, forwarded mutations with the writer's errors, handover, and
 * watch across instances.
 * Two real tabs, and a tab closed, are in ./tabs.test.ts.
 */
import { describe, expect, it } from "vitest";
import { testFileSystem } from "better-fs-tools/conformance";
import { FsError } from "../../../src/contract/errors.js";
import type { WatchEvent } from "../../../src/contract/types.js";
import {
  OPFS_MIRROR_RELOAD_EVENT,
  opfsMirrorFileSystem,
  type OpfsMirrorFileSystem,
} from "../../../src/backends/opfs-mirror/index.js";
import { createFsTools } from "../../../src/shell/defaults.js";
import { wipe } from "../opfs/wipe.js";

const ROOT = "test-opfs-mirror-tabs";
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** How long a reader may take to show a change before the test fails (a deadline, not a measurement). */
const POLL = { timeout: 10_000 };

/** A loaded instance on `root` (the first one on a root becomes the writer, later ones readers). */
async function open(root = ROOT, options: { worker?: Worker; compactMinBytes?: number } = {}) {
  const fs = opfsMirrorFileSystem({ root: `/${root}`, ...options });
  await fs.ready();
  return fs;
}

/** Every file and directory under `/` with its content and mtime, for comparing two trees. */
async function tree(fs: OpfsMirrorFileSystem, path = "/"): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(path)) {
    const child = path === "/" ? `/${entry.name}` : `${path}/${entry.name}`;
    if (entry.type === "directory") {
      out[child + "/"] = "";
      Object.assign(out, await tree(fs, child));
    } else out[child] = `${decoder.decode(await fs.readFile(child))} @${(await fs.stat(child)).mtimeMs}`;
  }
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

const fields = (error: Error) => ({
  isFsError: FsError.isInstance(error),
  code: (error as FsError).code,
  syscall: (error as FsError).syscall,
  path: (error as FsError).path,
  dest: (error as FsError).dest,
  message: error.message,
});

// The whole contract on a reader: every mutation goes to the writer and back.
const writers = new WeakMap<object, OpfsMirrorFileSystem>();
testFileSystem({
  name: "opfs-mirror reader (mutations forwarded to the writer)",
  create: async () => {
    await wipe(ROOT);
    const writer = await open();
    const reader = await open();
    writers.set(reader, writer);
    return reader;
  },
  destroy: async (fs) => {
    await (fs as OpfsMirrorFileSystem).close();
    await writers.get(fs)?.close();
  },
});

describe("opfs-mirror across tabs", () => {
  it("the first instance on a root is the writer, the next ones readers holding the same tree", async () => {
    await wipe(ROOT);
    const writer = await open();
    await writer.writeFile("/a/b.txt", encoder.encode("before"));
    const reader = await open();
    expect([writer.role, reader.role]).toEqual(["writer", "reader"]);
    expect(await tree(reader)).toEqual(await tree(writer));
    expect(decoder.decode(await reader.readFile("/a/b.txt"))).toBe("before");
    await reader.close();
    await writer.close();
    expect([writer.role, reader.role]).toEqual(["closed", "closed"]);
  });

  it("a reader sees each change of the writer: writes, mkdir, rename, rm, mtimes included", async () => {
    await wipe(ROOT);
    const writer = await open();
    const reader = await open();
    await writer.writeFile("/src/one.ts", encoder.encode("export const one = 1;\n"));
    await expect.poll(() => tree(reader), POLL).toEqual(await tree(writer));
    await writer.mkdir("/empty/deep", { recursive: true });
    await writer.writeFile("/src/two.ts", encoder.encode("two"));
    await writer.rename("/src/two.ts", "/src/2.ts");
    await writer.writeFile("/gone/x", encoder.encode("x"));
    await writer.rm("/gone", { recursive: true });
    const expected = await tree(writer);
    expect(Object.keys(expected)).toEqual(["/empty/", "/empty/deep/", "/src/", "/src/2.ts", "/src/one.ts"]);
    await expect.poll(() => tree(reader), POLL).toEqual(expected);
    await reader.close();
    await writer.close();
  });

  it("a reader's write is durable and visible in both when its call resolves", async () => {
    await wipe(ROOT);
    const writer = await open();
    const reader = await open();
    await reader.writeFile("/from-reader.txt", encoder.encode("forwarded"));
    expect(decoder.decode(await reader.readFile("/from-reader.txt"))).toBe("forwarded");
    expect(decoder.decode(await writer.readFile("/from-reader.txt"))).toBe("forwarded");
    await reader.mkdir("/d");
    await reader.rename("/from-reader.txt", "/d/moved.txt");
    expect(await tree(reader)).toEqual(await tree(writer));
    expect(Object.keys(await tree(reader))).toEqual(["/d/", "/d/moved.txt"]);
    expect(reader.role).toBe("reader");
    await reader.close();
    await writer.close();
    const again = await open();
    expect(decoder.decode(await again.readFile("/d/moved.txt"))).toBe("forwarded");
    await again.close();
  });

  it("a forwarded call fails with the writer's error, fields and message alike, and changes nothing", async () => {
    await wipe(ROOT);
    const writer = await open();
    await writer.writeFile("/file.txt", encoder.encode("x"));
    await writer.mkdir("/dir");
    const reader = await open();
    const calls: Array<(fs: OpfsMirrorFileSystem) => Promise<unknown>> = [
      (fs) => fs.rm("/missing"),
      (fs) => fs.writeFile("/file.txt/below", encoder.encode("y")),
      (fs) => fs.writeFile("/dir", encoder.encode("y")),
      (fs) => fs.rename("/missing", "/elsewhere"),
      (fs) => fs.mkdir("/file.txt"),
    ];
    for (const call of calls) {
      const fromReader = fields(await rejection(call(reader)));
      expect(fromReader).toEqual(fields(await rejection(call(writer))));
      expect(fromReader.isFsError).toBe(true);
    }
    expect(fields(await rejection(reader.rename("/missing", "/elsewhere")))).toEqual({
      isFsError: true,
      code: "ENOENT",
      syscall: "rename",
      path: "/missing",
      dest: "/elsewhere",
      message: "ENOENT: no such file or directory, rename '/missing' -> '/elsewhere'",
    });
    expect(Object.keys(await tree(reader))).toEqual(["/dir/", "/file.txt"]);
    await reader.close();
    await writer.close();
  });

  it("a reader's write over quota rejects with the writer's ENOSPC; both keep the same tree", async () => {
    await wipe("test-opfs-mirror-tabs-quota");
    const worker = new Worker(new URL("./quota-fixture.ts", import.meta.url), { type: "module" });
    const writer = await open("test-opfs-mirror-tabs-quota", { worker });
    await writer.writeFile("/a.txt", encoder.encode("old content"));
    const reader = await open("test-opfs-mirror-tabs-quota");
    const refused = await rejection(reader.writeFile("/a.txt", new Uint8Array(8192)));
    expect(fields(refused)).toEqual({
      isFsError: true,
      code: "ENOSPC",
      syscall: "open",
      path: "/a.txt",
      dest: undefined,
      message: "ENOSPC: no space left on device, open '/a.txt' (the journal could not grow by 8223 bytes)",
    });
    expect(decoder.decode(await reader.readFile("/a.txt"))).toBe("old content");
    expect(await tree(reader)).toEqual(await tree(writer));
    await reader.close();
    await writer.close();
    worker.terminate();
  });

  it("watch in a reader hears exactly the writer's changes under its path, its own forwarded ones, none refused for quota", async () => {
    const root = "test-opfs-mirror-tabs-watch";
    await wipe(root);
    const worker = new Worker(new URL("./quota-fixture.ts", import.meta.url), { type: "module" });
    const writer = await open(root, { worker });
    const reader = await open(root);
    const heard: Record<"writer" | "reader" | "readerRoot", WatchEvent[]> = { writer: [], reader: [], readerRoot: [] };
    writer.watch("/w", (event) => heard.writer.push(event));
    const stop = reader.watch("/w", (event) => heard.reader.push(event));
    reader.watch("/", (event) => heard.readerRoot.push(event));

    await writer.mkdir("/w");
    await writer.writeFile("/w/a.txt", encoder.encode("a"));
    await writer.writeFile("/outside.txt", encoder.encode("not under /w"));
    await writer.mkdir("/w/sub/deep", { recursive: true });
    await writer.rename("/w/a.txt", "/w/sub/b.txt");
    expect((await rejection(writer.writeFile("/w/big.bin", new Uint8Array(8192)))).message).toBe(
      "ENOSPC: no space left on device, open '/w/big.bin' (the journal could not grow by 8227 bytes)",
    );
    expect((await rejection(reader.writeFile("/w/big.bin", new Uint8Array(8192)))).message).toBe(
      "ENOSPC: no space left on device, open '/w/big.bin' (the journal could not grow by 8227 bytes)",
    );
    await reader.writeFile("/w/from-reader.txt", encoder.encode("forwarded"));
    await writer.rm("/w/sub", { recursive: true });
    await writer.writeFile("/w/last.txt", encoder.encode("last"));
    const expected: WatchEvent[] = [
      { type: "mkdir", path: "/w" },
      { type: "write", path: "/w/a.txt" },
      { type: "mkdir", path: "/w/sub/deep" },
      { type: "rename", path: "/w/a.txt" },
      { type: "rename", path: "/w/sub/b.txt" },
      { type: "write", path: "/w/from-reader.txt" },
      { type: "remove", path: "/w/sub" },
      { type: "write", path: "/w/last.txt" },
    ];
    // The writer reports a change before its call resolves; a reader when the batch reaches it.
    expect(heard.writer).toEqual(expected);
    await expect.poll(() => heard.reader.at(-1), POLL).toEqual({ type: "write", path: "/w/last.txt" });
    expect(heard.reader).toEqual(expected);
    expect(heard.readerRoot).toEqual([
      ...expected.slice(0, 2),
      { type: "write", path: "/outside.txt" },
      ...expected.slice(2),
    ]);

    // After stop(), this listener hears nothing; the reader's other listener still does.
    stop();
    await writer.writeFile("/w/after-stop.txt", encoder.encode("unheard"));
    await expect.poll(() => heard.readerRoot.at(-1), POLL).toEqual({ type: "write", path: "/w/after-stop.txt" });
    expect(heard.reader).toEqual(expected);
    await reader.close();
    await writer.close();
    worker.terminate();
  });

  it("watch before the load hears one reload event, in the writer and in a reader", async () => {
    await wipe(ROOT);
    const seed = await open();
    await seed.writeFile("/kept.txt", encoder.encode("kept"));
    await seed.close();
    const writer = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const reader = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const heard: Record<"writer" | "reader", WatchEvent[]> = { writer: [], reader: [] };
    writer.watch("/kept.txt", (event) => heard.writer.push(event));
    await writer.ready();
    reader.watch("/elsewhere", (event) => heard.reader.push(event));
    await reader.ready();
    expect([writer.role, reader.role]).toEqual(["writer", "reader"]);
    expect(heard).toEqual({ writer: [OPFS_MIRROR_RELOAD_EVENT], reader: [OPFS_MIRROR_RELOAD_EVENT] });
    expect(decoder.decode(await reader.readFile("/kept.txt"))).toBe("kept");
    await reader.close();
    await writer.close();
  });

  it("a reader that joins after a compaction loads the segment and the journal, then follows", async () => {
    await wipe(ROOT);
    const writer = await open(ROOT, { compactMinBytes: 1000 });
    for (let round = 0; round < 20; round++)
      await writer.writeFile("/same.txt", encoder.encode(`${round} `.repeat(40)));
    await writer.writeFile("/after.txt", encoder.encode("after the compaction"));
    const reader = await open();
    expect(await tree(reader)).toEqual(await tree(writer));
    for (let round = 20; round < 40; round++)
      await writer.writeFile("/same.txt", encoder.encode(`${round} `.repeat(40)));
    await expect.poll(() => tree(reader), POLL).toEqual(await tree(writer));
    expect(decoder.decode(await reader.readFile("/same.txt"))).toBe("39 ".repeat(40));
    await reader.close();
    await writer.close();
  });

  it("edits from two tabs at once lose none: the tools take the root's Web Locks and a reader catches up under them", async () => {
    await wipe(ROOT);
    const writer = await open();
    const slots = Array.from({ length: 20 }, (_, index) => `slot ${index}: empty`);
    await writer.writeFile("/slots.txt", encoder.encode(slots.join("\n") + "\n"));
    const reader = await open();
    expect(writer.locks).toBeDefined();
    const tabs = [createFsTools({ fs: writer }), createFsTools({ fs: reader })];
    const results = await Promise.all(
      slots.map((slot, index) =>
        tabs[index % 2]!.edit.execute({
          path: "/slots.txt",
          oldText: slot,
          newText: `slot ${index}: tab ${index % 2}`,
        }),
      ),
    );
    expect(results.map((result) => result.ok)).toEqual(slots.map(() => true));
    const expected = slots.map((_, index) => `slot ${index}: tab ${index % 2}`).join("\n") + "\n";
    expect(decoder.decode(await writer.readFile("/slots.txt"))).toBe(expected);
    await expect.poll(async () => decoder.decode(await reader.readFile("/slots.txt")), POLL).toBe(expected);
    await reader.close();
    await writer.close();
  });

  it("when the writer closes, the reader takes over: its unanswered call runs, nothing is lost", async () => {
    await wipe(ROOT);
    const writer = await open();
    await writer.writeFile("/kept.txt", encoder.encode("kept"));
    const reader = await open();
    // The writer stops serving calls as close() starts, so this one is left to the next writer.
    const forwarded = reader.writeFile("/during-handover.txt", encoder.encode("not lost"));
    await writer.close();
    await forwarded;
    expect(reader.role).toBe("writer");
    expect(Object.keys(await tree(reader))).toEqual(["/during-handover.txt", "/kept.txt"]);
    await reader.writeFile("/by-new-writer.txt", encoder.encode("new writer"));
    const late = await open();
    expect(late.role).toBe("reader");
    expect(await tree(late)).toEqual(await tree(reader));
    await late.close();
    await reader.close();
    const cold = await open();
    expect(Object.keys(await tree(cold))).toEqual(["/by-new-writer.txt", "/during-handover.txt", "/kept.txt"]);
    expect(decoder.decode(await cold.readFile("/during-handover.txt"))).toBe("not lost");
    await cold.close();
  });

  it("with two readers, the first in line takes over and the other sends its call again to it", async () => {
    await wipe(ROOT);
    const writer = await open();
    const first = await open();
    const second = await open();
    const forwarded = second.writeFile("/from-second.txt", encoder.encode("second"));
    await writer.close();
    await forwarded;
    expect([first.role, second.role]).toEqual(["writer", "reader"]);
    expect(decoder.decode(await first.readFile("/from-second.txt"))).toBe("second");
    expect(decoder.decode(await second.readFile("/from-second.txt"))).toBe("second");
    await first.writeFile("/from-first.txt", encoder.encode("first"));
    await expect.poll(() => tree(second), POLL).toEqual(await tree(first));
    await second.close();
    await first.close();
  });

  it("when the writer's Worker fails, its calls reject with EIO and a reader takes over with the tree", async () => {
    await wipe(ROOT);
    const worker = new Worker(new URL("../../../src/backends/opfs-mirror/mirror-worker.ts", import.meta.url), {
      type: "module",
    });
    const writer = await open(ROOT, { worker });
    await writer.writeFile("/before.txt", encoder.encode("before the failure"));
    const reader = await open();
    worker.terminate();
    worker.dispatchEvent(new ErrorEvent("error", { message: "out of memory" }));
    const error = await rejection(writer.writeFile("/x", encoder.encode("x")));
    expect(error.message).toBe(
      "EIO: i/o error, opfs '/test-opfs-mirror-tabs' (the OPFS mirror worker failed: out of memory)",
    );
    await expect.poll(() => reader.role, POLL).toBe("writer");
    await reader.writeFile("/after.txt", encoder.encode("after"));
    expect(Object.keys(await tree(reader))).toEqual(["/after.txt", "/before.txt"]);
    await reader.close();
    await writer.close();
  });
});

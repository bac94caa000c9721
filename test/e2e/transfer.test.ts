/**
 * The playground's zip and folder transfers (demo/src/workspace/transfer.ts) on a memory
 * workspace behind the gate: round trip, progress in files and bytes, unsafe names, cancel.
 */
import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  exportZip,
  importEntries,
  inputFolderEntries,
  safeRelativePath,
  TRANSFER_CONCURRENCY,
  zipEntries,
  type TransferProgress,
} from "../../demo/src/workspace/transfer.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { createGate } from "../../src/index.js";

const ROOT = "/workspace";
const decode = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

describe("transfer", () => {
  it("exports every file under the root with paths relative to it, reporting files and bytes", async () => {
    const fs = memoryFileSystem({
      files: { "/workspace/a.txt": "alpha\n", "/workspace/src/b.ts": "export {};\n", "/outside.txt": "no" },
    });
    const progress: TransferProgress[] = [];
    const zip = await exportZip(fs, ROOT, { onProgress: (step) => progress.push(step) });
    const files = unzipSync(zip);
    expect(Object.keys(files)).toEqual(["a.txt", "src/b.ts"]);
    expect(decode(files["src/b.ts"])).toBe("export {};\n");
    expect(progress).toEqual([
      { filesDone: 0, filesTotal: 2, bytesDone: 0, bytesTotal: 17 },
      { filesDone: 1, filesTotal: 2, bytesDone: 6, bytesTotal: 17 },
      { filesDone: 2, filesTotal: 2, bytesDone: 17, bytesTotal: 17 },
    ]);
  });

  it("export stops when cancelled, with an AbortError", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 100; index += 1) files[`/workspace/f${index}.txt`] = "x";
    const controller = new AbortController();
    const seen: number[] = [];
    const run = exportZip(memoryFileSystem({ files }), ROOT, {
      signal: controller.signal,
      onProgress: (step) => {
        seen.push(step.filesDone);
        if (step.filesDone === 1) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: "AbortError", message: "The transfer was cancelled" });
    // The group of reads in flight is added, then the export stops before the next group.
    expect(seen).toEqual([0, ...Array.from({ length: TRANSFER_CONCURRENCY }, (_, index) => index + 1)]);
  });

  it("imports a zip through the gate, keeping binary bytes and skipping unsafe names", async () => {
    const fs = memoryFileSystem();
    const gate = createGate({ fs, cwd: ROOT, allowedRoots: [ROOT] });
    const binary = new Uint8Array(256).map((_, index) => index);
    const zip = zipSync({
      "docs/readme.md": strToU8("# r\n"),
      "bin/all.bin": binary,
      "../escape.txt": strToU8("x"),
      "/abs.txt": strToU8("y"),
      "dir/": new Uint8Array(0),
    });
    const progress: TransferProgress[] = [];
    const summary = await importEntries(gate.fs, ROOT, zipEntries(zip), { onProgress: (step) => progress.push(step) });
    expect(summary).toEqual({ files: 2, bytes: 262, skipped: ["../escape.txt: unsafe name", "/abs.txt: unsafe name"] });
    expect(decode(await fs.readFile("/workspace/docs/readme.md"))).toBe("# r\n");
    expect(await fs.readFile("/workspace/bin/all.bin")).toEqual(binary);
    await expect(fs.stat("/escape.txt")).rejects.toThrow("ENOENT");
    expect(progress.at(-1)).toEqual({ filesDone: 4, filesTotal: 4, bytesDone: 262, bytesTotal: 262 });
  });

  it("when cancelled, starts no new file, lets the writes in flight finish, and rejects with an AbortError", async () => {
    const fs = memoryFileSystem();
    const files: Record<string, Uint8Array> = {};
    for (let index = 0; index < 200; index += 1) files[`f${String(index).padStart(3, "0")}.txt`] = strToU8("x");
    const controller = new AbortController();
    const started: string[] = [];
    const startedAfterAbort: string[] = [];
    const entries = zipEntries(zipSync(files)).map((entry) => ({
      ...entry,
      read: () => {
        (controller.signal.aborted ? startedAfterAbort : started).push(entry.path);
        return entry.read();
      },
    }));
    const run = importEntries(fs, ROOT, entries, {
      signal: controller.signal,
      onProgress: (step) => {
        if (step.filesDone === 5) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: "AbortError", message: "The transfer was cancelled" });
    expect(startedAfterAbort).toEqual([]);
    expect((await fs.readdir(ROOT)).map((entry) => entry.name).sort()).toEqual(started.sort());
    expect(started.length).toBeGreaterThanOrEqual(5);
    expect(started.length).toBeLessThanOrEqual(5 + TRANSFER_CONCURRENCY);
  });

  it("folder entries drop the chosen folder's name, .git and node_modules", async () => {
    const file = (path: string, text: string) =>
      Object.assign(new File([text], path.split("/").pop()!), { webkitRelativePath: path }) as File;
    const entries = inputFolderEntries([
      file("site/index.html", "<p>\n"),
      file("site/.git/HEAD", "ref\n"),
      file("site/node_modules/x/i.js", "1\n"),
      file("site/css/a.css", "a{}\n"),
    ]);
    expect(entries.map((entry) => [entry.path, entry.size])).toEqual([
      ["index.html", 4],
      ["css/a.css", 4],
    ]);
    expect(decode(await entries[1]!.read())).toBe("a{}\n");
  });

  it("safeRelativePath refuses absolute paths, .., backslashes and NUL, and normalises the rest", () => {
    expect(
      ["a/b.txt", "./a//b.txt", "../a", "/a", "a\\b", "a\0b", "a/../../b", ".", "report..final.md"].map(
        safeRelativePath,
      ),
    ).toEqual([
      "a/b.txt",
      "a/b.txt",
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      "report..final.md",
    ]);
  });
});

import { describe, expect, test } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import type { FileSystem } from "../../src/contract/types.js";
import { walkFiles } from "../../src/contract/walk.js";

function tree(): FileSystem {
  const files: Record<string, string> = {};
  for (let d = 0; d < 4; d++) for (let f = 0; f < 5; f++) files[`/r/d${d}/sub/f${f}.txt`] = "x";
  files["/r/.git/HEAD"] = "ref";
  files["/r/top.txt"] = "t";
  return memoryFileSystem({ files });
}

describe("walkFiles", () => {
  test("visits every entry once, skips ignored directories, keeps at most `concurrency` calls in flight", async () => {
    const fs = tree();
    const seen: string[] = [];
    let inFlight = 0;
    let most = 0;
    await walkFiles({
      fs,
      root: "/r",
      concurrency: 3,
      ignoreDirectories: [".git"],
      onEntry: async (path, relative) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        seen.push(`${path} ${relative}`);
        inFlight--;
      },
    });
    expect(seen.length).toBe(21);
    expect(seen.sort()[0]).toBe("/r/d0/sub/f0.txt d0/sub/f0.txt");
    expect(seen).toContain("/r/top.txt top.txt");
    expect(most).toBe(3);
  });

  test("the first error rejects the walk; an abort stops it", async () => {
    const fs = tree();
    await expect(walkFiles({ fs, root: "/missing", concurrency: 4, onEntry: () => undefined })).rejects.toMatchObject({
      code: "ENOENT",
    });
    await expect(
      walkFiles({
        fs,
        root: "/r",
        concurrency: 2,
        onEntry: (path) => {
          if (path.endsWith("f3.txt")) throw new Error("boom");
        },
      }),
    ).rejects.toThrow("boom");
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(
      walkFiles({ fs, root: "/r", concurrency: 2, signal: controller.signal, onEntry: () => undefined }),
    ).rejects.toThrow("stop");
  });

  test("include sees every entry (directories too) with its absolute path; false leaves it out and does not enter it", async () => {
    const fs = tree();
    const asked: string[] = [];
    const seen: string[] = [];
    await walkFiles({
      fs,
      root: "/r",
      concurrency: 2,
      ignoreDirectories: [".git"],
      include: (path, entry) => {
        asked.push(`${path} ${entry.type}`);
        return path !== "/r/d1" && path !== "/r/d2/sub/f0.txt";
      },
      onEntry: (_path, relative) => {
        seen.push(relative);
      },
    });
    // Ignored directories are not asked about; d1 is not entered; f0 of d2 is left out.
    expect(asked.filter((line) => !line.includes("/sub/f")).sort()).toEqual([
      "/r/d0 directory",
      "/r/d0/sub directory",
      "/r/d1 directory",
      "/r/d2 directory",
      "/r/d2/sub directory",
      "/r/d3 directory",
      "/r/d3/sub directory",
      "/r/top.txt file",
    ]);
    expect(seen.length).toBe(1 + 3 * 5 - 1);
    expect(seen.filter((relative) => relative.startsWith("d1/") || relative === "d2/sub/f0.txt")).toEqual([]);
  });
});

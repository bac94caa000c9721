import { describe, expect, it } from "vitest";
import {
  compareCodeUnits,
  baseName,
  checkPathInput,
  createResolutionCache,
  isWithin,
  lookupRealPath,
  MAX_NAME_BYTES,
  MAX_PATH_BYTES,
  parentPath,
  relativeTo,
  resolvePath,
  resolveRealPath,
} from "../../src/contract/path.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import type { FileSystem } from "../../src/contract/types.js";

describe("checkPathInput", () => {
  it.each([
    ["", { code: "EINVAL", reason: "the path is empty" }],
    ["   ", { code: "EINVAL", reason: "the path is empty" }],
    ["a\0b", { code: "EINVAL", reason: "NUL bytes are not allowed in paths" }],
    ["a\\b", { code: "EINVAL", reason: "backslashes are not allowed (use / to separate directories)" }],
    ["..\\..\\etc", { code: "EINVAL", reason: "backslashes are not allowed (use / to separate directories)" }],
    ["a".repeat(256), { code: "ENAMETOOLONG", reason: "a name in the path is 256 bytes long; the limit is 255 bytes" }],
    [`${"a/".repeat(2048)}b`, { code: "ENAMETOOLONG", reason: "the path is 4097 bytes long; the limit is 4096 bytes" }],
  ])("refuses %j", (input, expected) => {
    expect(checkPathInput(input)).toEqual(expected);
  });

  it("takes a backslash as a name byte with backslashNames, refusing the rest as before", () => {
    expect(checkPathInput("a\\b", { backslashNames: true })).toBeUndefined();
    expect(checkPathInput("..\\..\\etc\\passwd", { backslashNames: true })).toBeUndefined();
    expect(checkPathInput("a\\b\0", { backslashNames: true })).toEqual({
      code: "EINVAL",
      reason: "NUL bytes are not allowed in paths",
    });
    expect(checkPathInput("a\\b", { backslashNames: false })).toEqual({
      code: "EINVAL",
      reason: "backslashes are not allowed (use / to separate directories)",
    });
  });

  it("refuses a non-string with its type", () => {
    expect(checkPathInput(42)).toEqual({ code: "EINVAL", reason: "a path must be a string, got number" });
    expect(checkPathInput(null)).toEqual({ code: "EINVAL", reason: "a path must be a string, got null" });
  });

  it.each([
    "a.txt",
    "report..final.md",
    "data ",
    '"data"',
    "%2e%2e/x",
    "．．/x",
    "/abs/ok",
    "a".repeat(MAX_NAME_BYTES),
  ])("accepts %j", (input) => {
    expect(checkPathInput(input)).toBe(undefined);
  });

  it("counts bytes, not characters (a 3-byte character)", () => {
    expect(checkPathInput("é".repeat(127))).toBe(undefined); // 254 bytes
    expect(checkPathInput("€".repeat(86))).toEqual({
      code: "ENAMETOOLONG",
      reason: "a name in the path is 258 bytes long; the limit is 255 bytes",
    });
    expect(MAX_PATH_BYTES).toBe(4096);
  });
});

describe("resolvePath", () => {
  it.each([
    ["/w", "a.txt", "/w/a.txt"],
    ["/w", "./src/../a.txt", "/w/a.txt"],
    ["/w", "../../etc/passwd", "/etc/passwd"],
    ["/w", "../w-evil/x", "/w-evil/x"],
    ["/w", "/etc/hosts", "/etc/hosts"],
    ["/w", "a//b///c/", "/w/a/b/c"],
    ["/w", "..", "/"],
    ["/", "../../..", "/"],
    ["/w", ".", "/w"],
    ["/w", "report..final.md", "/w/report..final.md"],
    ["/w", "...", "/w/..."],
    ["/w", "%2e%2e/x", "/w/%2e%2e/x"],
    ["/w", "．．/x", "/w/．．/x"],
    ["/w", "data ", "/w/data "],
  ])("resolvePath(%j, %j) is %j", (cwd, path, expected) => {
    expect(resolvePath(cwd, path)).toBe(expected);
  });
});

describe("isWithin, relativeTo, parentPath, baseName", () => {
  it("compares name by name", () => {
    expect([
      isWithin("/w", "/w"),
      isWithin("/w", "/w/a"),
      isWithin("/w", "/w-evil"),
      isWithin("/w", "/w-evil/a"),
      isWithin("/w", "/"),
      isWithin("/", "/x"),
      isWithin("/w/a", "/w/ab"),
    ]).toEqual([true, true, false, false, false, true, false]);
  });

  it("relativeTo", () => {
    expect([
      relativeTo("/w", "/w/src/a.ts"),
      relativeTo("/w", "/w"),
      relativeTo("/w", "/etc/hosts"),
      relativeTo("/", "/a/b"),
    ]).toEqual(["src/a.ts", ".", undefined, "a/b"]);
  });

  it("parentPath and baseName", () => {
    expect([parentPath("/a/b"), parentPath("/a"), parentPath("/"), baseName("/a/b"), baseName("/")]).toEqual([
      "/a",
      "/",
      "/",
      "b",
      "",
    ]);
  });
});

describe("resolveRealPath", () => {
  async function fixture() {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a", "/etc/hosts": "h", "/w/real/inner.txt": "i" } });
    const symlink = fs.symlink!.bind(fs);
    await symlink("/etc", "/w/link");
    await symlink("/etc/hosts", "/w/leaf");
    await symlink("/etc/not-yet", "/w/dangling");
    await symlink("../etc", "/w/relative");
    await symlink("real", "/w/alias");
    await symlink("/w/loop-b", "/w/loop-a");
    await symlink("/w/loop-a", "/w/loop-b");
    await symlink("/w/missing-dir", "/w/dangling-dir");
    return fs;
  }

  it.each([
    ["/w/a.txt", "/w/a.txt"],
    ["/w/new/file.txt", "/w/new/file.txt"],
    ["/w/link/hosts", "/etc/hosts"],
    ["/w/link/new.txt", "/etc/new.txt"],
    ["/w/leaf", "/etc/hosts"],
    ["/w/dangling", "/etc/not-yet"],
    ["/w/relative/hosts", "/etc/hosts"],
    ["/w/alias/inner.txt", "/w/real/inner.txt"],
    ["/w/dangling-dir/x.txt", "/w/missing-dir/x.txt"],
    ["/w/a.txt/below", "/w/a.txt/below"],
    ["/", "/"],
  ])("follows %j to %j", async (path, expected) => {
    expect(await resolveRealPath(await fixture(), path)).toBe(expected);
  });

  it("keeps the last name with followLeaf: false, resolving the parent", async () => {
    const fs = await fixture();
    expect(await resolveRealPath(fs, "/w/leaf", { followLeaf: false })).toBe("/w/leaf");
    expect(await resolveRealPath(fs, "/w/link/hosts", { followLeaf: false })).toBe("/etc/hosts");
  });

  it("stops a symlink loop with ELOOP", async () => {
    const fs = await fixture();
    await expect(resolveRealPath(fs, "/w/loop-a")).rejects.toMatchObject({ code: "ELOOP" });
    await expect(resolveRealPath(fs, "/w/loop-a/x")).rejects.toMatchObject({ code: "ELOOP" });
  });
});

describe("checkPathInput byte counting", () => {
  it("counts a surrogate pair as 4 bytes and a lone surrogate as 3, as TextEncoder does", () => {
    const emoji = "😀"; // 4 bytes
    expect(checkPathInput(emoji.repeat(63))).toBe(undefined); // 252 bytes
    expect(checkPathInput(emoji.repeat(64))).toEqual({
      code: "ENAMETOOLONG",
      reason: "a name in the path is 256 bytes long; the limit is 255 bytes",
    });
    expect(new TextEncoder().encode("\ud800".repeat(86)).length).toBe(258);
    expect(checkPathInput("\ud800".repeat(86))).toEqual({
      code: "ENAMETOOLONG",
      reason: "a name in the path is 258 bytes long; the limit is 255 bytes",
    });
  });
});

import fc from "fast-check";

describe("resolvePath properties (fast-check)", () => {
  const name = fc.constantFrom("..", ".", "", "a", "b", "w", "w-evil", "%2e%2e", "data ", "．．", "...");
  const relative = fc.array(name, { maxLength: 12 }).map((names) => names.join("/"));

  it("always gives an absolute path with no '.', '..', empty or trailing names", () => {
    fc.assert(
      fc.property(relative, fc.boolean(), (path, absolute) => {
        const out = resolvePath("/w", absolute ? `/${path}` : path);
        expect(out.startsWith("/")).toBe(true);
        if (out !== "/")
          expect(
            out
              .slice(1)
              .split("/")
              .every((part) => part !== "" && part !== "." && part !== ".."),
          ).toBe(true);
      }),
    );
  });

  it("is idempotent and agrees with a reference stack resolver", () => {
    fc.assert(
      fc.property(relative, (path) => {
        const out = resolvePath("/w", path);
        expect(resolvePath("/", out)).toBe(out);
        const stack = path.startsWith("/") ? [] : ["w"];
        for (const part of path.split("/")) {
          if (part === "" || part === ".") continue;
          if (part === "..") stack.pop();
          else stack.push(part);
        }
        expect(out).toBe(`/${stack.join("/")}`);
      }),
    );
  });

  it("isWithin never admits a sibling that merely shares a prefix", () => {
    fc.assert(
      fc.property(fc.constantFrom("/w", "/w/a", "/"), relative, (root, path) => {
        const out = resolvePath("/w", path);
        const within = isWithin(root, out);
        const reference =
          root === "/" || out === root || out.split("/").slice(0, root.split("/").length).join("/") === root;
        expect(within).toBe(reference);
      }),
    );
  });
});

describe("lookupRealPath with a resolution cache", () => {
  async function fixture() {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a", "/etc/hosts": "h", "/w/real/inner.txt": "i" } });
    const symlink = fs.symlink!.bind(fs);
    await symlink("/etc", "/w/link");
    await symlink("/etc/hosts", "/w/leaf");
    await symlink("/etc/not-yet", "/w/dangling");
    await symlink("../etc", "/w/relative");
    await symlink("real", "/w/alias");
    await symlink("/w/missing-dir", "/w/dangling-dir");
    await symlink("self/x", "/w/self");
    return fs;
  }

  /** The backend calls made, as `method path` (failures marked `!`). */
  function counting(fs: FileSystem): { fs: FileSystem; calls: string[] } {
    const calls: string[] = [];
    const wrapped: FileSystem = { ...fs };
    for (const method of ["realpath", "lstat", "readlink", "stat", "readdir"] as const) {
      const original = (fs[method] as (path: string) => Promise<unknown>).bind(fs);
      (wrapped as unknown as Record<string, (path: string) => Promise<unknown>>)[method] = async (path: string) => {
        try {
          const value = await original(path);
          calls.push(`${method} ${path}`);
          return value;
        } catch (error) {
          calls.push(`${method} ${path} !`);
          throw error;
        }
      };
    }
    return { fs: wrapped, calls };
  }

  it("gives the uncached result, and whether the path exists", async () => {
    const fs = await fixture();
    const cache = createResolutionCache();
    const paths = [
      "/w/a.txt",
      "/w/new/file.txt",
      "/w/link/hosts",
      "/w/link/new.txt",
      "/w/leaf",
      "/w/dangling",
      "/w/relative/hosts",
      "/w/alias/inner.txt",
      "/w/dangling-dir/x.txt",
      "/w/a.txt/below",
      "/",
    ];
    const cached = await Promise.all(paths.map((path) => lookupRealPath(fs, path, { cache })));
    expect(cached).toStrictEqual([
      { path: "/w/a.txt", exists: true },
      { path: "/w/new/file.txt", exists: false },
      { path: "/etc/hosts", exists: true },
      { path: "/etc/new.txt", exists: false },
      { path: "/etc/hosts", exists: true },
      { path: "/etc/not-yet", exists: false },
      { path: "/etc/hosts", exists: true },
      { path: "/w/real/inner.txt", exists: true },
      { path: "/w/missing-dir/x.txt", exists: false },
      { path: "/w/a.txt/below", exists: false },
      { path: "/", exists: true },
    ]);
    for (const [index, path] of paths.entries()) expect(cached[index]?.path).toBe(await resolveRealPath(fs, path));
    expect(await lookupRealPath(fs, "/w/leaf", { followLeaf: false, cache })).toStrictEqual({
      path: "/w/leaf",
      exists: true,
    });
    expect(await lookupRealPath(fs, "/w/gone", { followLeaf: false, cache })).toStrictEqual({
      path: "/w/gone",
      exists: false,
    });
    expect([cache.exists("/w"), cache.exists("/w/new"), cache.exists("/etc"), cache.exists("/nowhere")]).toStrictEqual([
      true,
      false,
      true,
      undefined,
    ]);
  });

  it("without a cache, exists is known except for followLeaf: false", async () => {
    const fs = await fixture();
    expect(await lookupRealPath(fs, "/w/a.txt")).toStrictEqual({ path: "/w/a.txt", exists: true });
    expect(await lookupRealPath(fs, "/w/new.txt")).toStrictEqual({ path: "/w/new.txt", exists: false });
    expect(await lookupRealPath(fs, "/w/a.txt", { followLeaf: false })).toStrictEqual({
      path: "/w/a.txt",
      exists: undefined,
    });
  });

  it("resolves each directory once; names under a missing directory cost no call", async () => {
    const { fs, calls } = counting(memoryFileSystem({ files: { "/w/src/a.ts": "a", "/w/src/b.ts": "b" } }));
    const cache = createResolutionCache();
    const paths = ["/w/src/a.ts", "/w/src/b.ts", "/w/src/c.ts", "/w/new/x.ts", "/w/new/y.ts"];
    const found = await Promise.all(paths.map((path) => lookupRealPath(fs, path, { cache })));
    expect(found.map((item) => item.exists)).toStrictEqual([true, true, false, false, false]);
    expect(calls.sort()).toStrictEqual(
      [
        "realpath /w/src",
        "realpath /w/new !",
        "realpath /w",
        "lstat /w/new !",
        "lstat /w/src/a.ts",
        "lstat /w/src/b.ts",
        "lstat /w/src/c.ts !",
      ].sort(),
    );
  });

  it("is tied to the first backend it is used with", async () => {
    const first = counting(memoryFileSystem({ files: { "/w/a.txt": "a" } }));
    const second = counting(memoryFileSystem({ files: { "/w/b.txt": "b" } }));
    const cache = createResolutionCache();
    expect(await lookupRealPath(first.fs, "/w/a.txt", { cache })).toStrictEqual({ path: "/w/a.txt", exists: true });
    expect(await lookupRealPath(second.fs, "/w/a.txt", { cache })).toStrictEqual({ path: "/w/a.txt", exists: false });
    expect(second.calls).toStrictEqual(["realpath /w/a.txt !", "realpath /w", "lstat /w/a.txt !"]);
  });

  it("a dangling link that points under itself ends (no wait on its own resolution)", async () => {
    const fs = await fixture();
    const cache = createResolutionCache();
    const outcome = await lookupRealPath(fs, "/w/self/y.txt", { cache }).then(
      (found) => found.path,
      (error: { code?: string }) => error.code,
    );
    expect(outcome).toBe(
      await resolveRealPath(fs, "/w/self/y.txt").then(
        (path) => path,
        (error: { code?: string }) => error.code,
      ),
    );
  });

  it("agrees with the uncached resolution for random trees of symlinks and paths (fast-check)", async () => {
    const name = fc.constantFrom("..", "a", "b", "l1", "l2", "x.txt", "new");
    const target = fc.constantFrom(
      "/",
      "/w",
      "/w/a",
      "/etc",
      "..",
      "../..",
      "a",
      "b/..",
      "/w/l1",
      "/w/l2",
      "/w/a/l1",
      "new/deeper",
      "x.txt",
      "l1",
    );
    const path = fc.array(name, { minLength: 1, maxLength: 5 }).map((names) => resolvePath("/w", names.join("/")));
    await fc.assert(
      fc.asyncProperty(
        target,
        target,
        fc.array(path, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (first, second, paths, followLeaf) => {
          const fs = memoryFileSystem({ files: { "/w/a/x.txt": "x", "/w/b/x.txt": "y", "/etc/x.txt": "h" } });
          await fs.symlink(first, "/w/l1");
          await fs.symlink(second, "/w/a/l2");
          const outcome = (promise: Promise<{ path: string; exists: boolean | undefined } | string>) =>
            promise.then(
              (found) => found,
              (error: { code?: string }) => `error ${error.code}`,
            );
          const cache = createResolutionCache();
          const cached = await Promise.all(
            paths.map((item) => outcome(lookupRealPath(fs, item, { followLeaf, cache }))),
          );
          for (const [index, item] of paths.entries()) {
            const plain = await outcome(lookupRealPath(fs, item, { followLeaf }));
            const got = cached[index];
            if (typeof plain === "string" || typeof got === "string") {
              expect(got).toBe(plain);
              continue;
            }
            expect(got?.path).toBe(plain.path);
            const exists = await fs.lstat(plain.path).then(
              (stat) =>
                followLeaf && stat.type === "symlink"
                  ? fs.stat(plain.path).then(
                      () => true,
                      () => false,
                    )
                  : true,
              () => false,
            );
            expect(got?.exists).toBe(exists);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("compareCodeUnits", () => {
  it("orders by UTF-16 code units, whatever the locale: upper case before lower, é after z", () => {
    expect(["b", "a", "B", "é", "z", "a/b", "a-b"].sort(compareCodeUnits)).toEqual([
      "B",
      "a",
      "a-b",
      "a/b",
      "b",
      "z",
      "é",
    ]);
    expect(compareCodeUnits("x", "x")).toBe(0);
  });
});

/** The stored-paths index of the IndexedDB backend: what a save deletes below a changed directory. */
import { describe, expect, it } from "vitest";
import { storedPaths } from "../../../src/backends/idb/stored.js";

describe("storedPaths", () => {
  it("lists the stored paths below a directory, and nothing that only shares its prefix", () => {
    const stored = storedPaths();
    for (const path of ["/a", "/a/b", "/a/b/c.txt", "/a/d", "/ab", "/ab/x", "/z"]) {
      stored.set(path, path.endsWith(".txt") || path === "/ab/x" ? "file" : "directory");
    }
    expect(stored.under("/a").sort()).toEqual(["/a/b", "/a/b/c.txt", "/a/d"]);
    expect(stored.under("/").sort()).toEqual(["/a", "/a/b", "/a/b/c.txt", "/a/d", "/ab", "/ab/x", "/z"]);
    expect(stored.under("/z")).toEqual([]);
    expect(stored.under("/missing")).toEqual([]);
    expect([stored.get("/a/b/c.txt"), stored.get("/a/b"), stored.get("/q")]).toEqual(["file", "directory", undefined]);
  });

  it("finds a stored path whose parents are not stored, and forgets deleted paths", () => {
    const stored = storedPaths();
    stored.set("/p/q/r.txt", "file");
    expect([stored.has("/p"), stored.has("/p/q"), stored.has("/p/q/r.txt")]).toEqual([false, false, true]);
    expect(stored.under("/p")).toEqual(["/p/q/r.txt"]);
    stored.set("/p", "directory");
    stored.delete("/p/q/r.txt");
    expect([stored.has("/p/q/r.txt"), stored.under("/p"), stored.under("/")]).toEqual([false, [], ["/p"]]);
    stored.delete("/p");
    stored.delete("/never");
    expect(stored.under("/")).toEqual([]);
    stored.set("/p/q", "symlink");
    expect([stored.get("/p/q"), stored.under("/")]).toEqual(["symlink", ["/p/q"]]);
  });
});

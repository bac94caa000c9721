import { describe, expect, it } from "vitest";
import { OptionError } from "../../../src/contract/options.js";
import { memoryStore } from "../../../src/tools/kit/state.js";

describe("memoryStore", () => {
  it("keeps records by path until deleted, one map per store", async () => {
    const store = memoryStore();
    const other = memoryStore({});
    await store.set("/w/a.txt", { digest: "d1", atMs: 5 });
    expect(await store.get("/w/a.txt")).toEqual({ digest: "d1", atMs: 5 });
    expect(await other.get("/w/a.txt")).toBeUndefined();
    await store.delete("/w/a.txt");
    expect(await store.get("/w/a.txt")).toBeUndefined();
  });

  it("takes no options: any key is a TypeError at creation", () => {
    let thrown: unknown;
    try {
      memoryStore({ maxEntries: 100 } as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect(OptionError.isInstance(thrown) && [thrown.factory, thrown.option, thrown.message]).toEqual([
      "memoryStore",
      "maxEntries",
      'memoryStore got an unknown option "maxEntries". Known options: none',
    ]);
    expect(() => memoryStore("persist" as never)).toThrow(new TypeError("memoryStore needs an options object"));
  });
});

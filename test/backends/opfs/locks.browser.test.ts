/**
 * webLocks(): the tools' `Locks` over the Web Locks API, in Chromium. Cross-tab behaviour is
 * tested with two real tabs in opfs-reload.test.ts; here, names, order and exclusion.
 */
import { describe, expect, it } from "vitest";
import { webLocks } from "../../../src/backends/opfs/index.js";

async function heldNames(): Promise<string[]> {
  const { held = [] } = await navigator.locks.query();
  return held.map((lock) => lock.name ?? "").sort();
}

describe("webLocks", () => {
  it("holds one exclusive Web Lock per key, prefixed, while fn runs, and returns its value", async () => {
    const locks = webLocks();
    const seen = await locks.run(["/b.txt", "/a.txt", "/a.txt"], async () => heldNames());
    expect(seen).toEqual(["better-fs-tools:/a.txt", "better-fs-tools:/b.txt"]);
    expect(await heldNames()).toEqual([]);
  });

  it("uses the prefix option", async () => {
    const seen = await webLocks({ prefix: "ws1:" }).run(["/a"], async () => heldNames());
    expect(seen).toEqual(["ws1:/a"]);
  });

  it("two holders of one key run one after the other; other keys do not wait", async () => {
    const one = webLocks();
    const two = webLocks();
    const events: string[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const first = one.run(["/same"], async () => {
      events.push("first start");
      await firstHeld;
      events.push("first end");
    });
    const second = two.run(["/same"], async () => {
      events.push("second start");
    });
    await two.run(["/other"], async () => {
      events.push("other");
    });
    releaseFirst();
    await Promise.all([first, second]);
    expect(events).toEqual(["first start", "other", "first end", "second start"]);
  });

  it("releases the locks when fn rejects", async () => {
    const locks = webLocks();
    await expect(locks.run(["/a"], async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await heldNames()).toEqual([]);
  });

  it("rejects unknown options with TypeError naming the option", () => {
    expect(() => webLocks({ prefx: "x" } as never)).toThrow(
      new TypeError('webLocks got an unknown option "prefx". Known options: prefix, manager'),
    );
  });
});

describe("opfsFileSystem locks", () => {
  it("carries Web Locks named after its root, and tools over it use them by default", async () => {
    const { opfsFileSystem } = await import("../../../src/backends/opfs/index.js");
    const { locksFor } = await import("../../../src/tools/kit/context.js");
    const { compose, withFilesystemLogging } = await import("../../../src/gate/middleware.js");
    const fs = opfsFileSystem({ root: "locks-default" });
    expect(locksFor(fs)).toBe(fs.locks);
    expect(await fs.locks?.run(["/a.txt"], async () => heldNames())).toEqual([
      "better-fs-tools:opfs/locks-default:/a.txt",
    ]);
    const logged = compose(withFilesystemLogging({ destination: () => {} }))(fs);
    expect(locksFor(logged)).toBe(fs.locks);
    const other = opfsFileSystem({ root: "locks-default" });
    expect(await other.locks?.run(["/a.txt"], async () => heldNames())).toEqual([
      "better-fs-tools:opfs/locks-default:/a.txt",
    ]);
  });
});

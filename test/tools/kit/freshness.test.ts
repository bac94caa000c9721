import { describe, expect, test } from "vitest";
import { createGate } from "../../../src/gate/gate.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import type { ToolContext } from "../../../src/tools/kit/context.js";
import { checkFresh, recordSeen, SEEN_CACHE_MIN_BYTES } from "../../../src/tools/kit/freshness.js";
import { memoryStore } from "../../../src/tools/kit/state.js";
import { sha256Digest, type Digest } from "../../../src/contract/digest.js";
import { memoryLocks } from "../../../src/contract/locks.js";

function context(digest: Digest) {
  const fs = memoryFileSystem();
  return {
    gate: createGate({ fs, cwd: "/" }),
    state: memoryStore(),
    locks: memoryLocks(),
    digest,
    clock: () => 7,
    call: {},
  } satisfies ToolContext;
}

describe("freshness", () => {
  test("not read, fresh, stale", async () => {
    const ctx = context(sha256Digest());
    const bytes = new TextEncoder().encode("v1");
    expect((await checkFresh(ctx, "/a", "a", bytes, "edit"))?.code).toBe("ENOTREAD");
    await recordSeen(ctx, "/a", bytes);
    expect(await checkFresh(ctx, "/a", "a", new TextEncoder().encode("v1"), "edit")).toBeUndefined();
    expect(await checkFresh(ctx, "/a", "a", new TextEncoder().encode("v2"), "edit")).toEqual({
      code: "ESTALE",
      path: "/a",
      message: "a has changed since it was last read. Read the file again, then retry.",
    });
  });

  test("a large content seen before is not hashed again; a changed one is", async () => {
    let hashed = 0;
    const sha = sha256Digest();
    const ctx = context(async (data) => {
      hashed++;
      return sha(data);
    });
    const big = new Uint8Array(SEEN_CACHE_MIN_BYTES).fill(65);
    await recordSeen(ctx, "/big", big);
    expect(hashed).toBe(1);
    expect(await checkFresh(ctx, "/big", "big", big.slice(), "edit")).toBeUndefined();
    expect(hashed).toBe(1);
    const changed = big.slice();
    changed[SEEN_CACHE_MIN_BYTES - 1] = 66;
    expect((await checkFresh(ctx, "/big", "big", changed, "edit"))?.code).toBe("ESTALE");
    expect(hashed).toBe(2);
    // A digest given by the caller is recorded as is.
    await recordSeen(ctx, "/big", changed, "given");
    expect((await ctx.state.get("/big"))?.digest).toBe("given");
    expect(hashed).toBe(2);
  });
});

describe("descriptions mention read-before-write only when the tool checks it", () => {
  test("write and edit say a file must be read first exactly when given a state store", async () => {
    const { createWriteTool, WRITE_DESCRIPTION } = await import("../../../src/tools/write/index.js");
    const { createEditTool, EDIT_DESCRIPTION } = await import("../../../src/tools/edit/index.js");
    const fs = memoryFileSystem();
    expect(createWriteTool({ fs }).description).toBe(WRITE_DESCRIPTION);
    expect(createEditTool({ fs, state: false }).description).toBe(EDIT_DESCRIPTION);
    expect(WRITE_DESCRIPTION).not.toContain("read first");
    expect(EDIT_DESCRIPTION).not.toContain("read first");
    expect(createWriteTool({ fs, state: memoryStore() }).description).toBe(
      `${WRITE_DESCRIPTION} An existing file must be read first in this session.`,
    );
    expect(createEditTool({ fs, state: () => memoryStore() }).description).toBe(
      `${EDIT_DESCRIPTION} The file must be read first in this session.`,
    );
  });
});

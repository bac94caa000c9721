import { describe, expect, test } from "vitest";
import { createGate } from "../../../src/gate/gate.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { isToolOutputPath, offloadOutput } from "../../../src/tools/kit/offload.js";
import { testOffloading } from "./suite.js";

testOffloading(async () => memoryFileSystem());

describe("offloadOutput", () => {
  const clock = () => 1700000000000;

  test("small output comes back as it is, nothing written", async () => {
    const fs = memoryFileSystem({ files: { "/w/.keep": "" } });
    const out = await offloadOutput({ gate: createGate({ fs, cwd: "/w" }), clock }, "short", { thresholdBytes: 100 });
    expect(out).toEqual({ text: "short", bytes: 5 });
    expect((await fs.readdir("/w")).map((e) => e.name)).toEqual([".keep"]);
  });

  test("large output: preview cut at a line end, the file, and how to read it", async () => {
    const fs = memoryFileSystem({ files: { "/w/.keep": "" } });
    const text = Array.from({ length: 10 }, (_, i) => `line-${i}`).join("\n");
    const out = await offloadOutput({ gate: createGate({ fs, cwd: "/w" }), clock }, text, {
      thresholdBytes: 20,
      previewBytes: 16,
      id: "run 1",
    });
    expect(out).toEqual({
      text: "line-0\nline-1\n[Output is 69 bytes, 10 lines; showed the first 2 lines. The full output is saved in tool-outputs/run_1.txt: read that file in ranges (from line 3, 500 lines at a time), or search it.]",
      path: "/w/tool-outputs/run_1.txt",
      bytes: 69,
    });
    expect(new TextDecoder().decode(await fs.readFile("/w/tool-outputs/run_1.txt"))).toBe(text);
  });

  test("the id defaults to the tool call id, else the clock", async () => {
    const fs = memoryFileSystem({ files: { "/w/.keep": "" } });
    const gate = createGate({ fs, cwd: "/w" });
    const a = await offloadOutput({ gate, clock, call: { toolCallId: "toolu_01" } }, "x\n".repeat(20), {
      thresholdBytes: 10,
    });
    expect(a.path).toBe("/w/tool-outputs/toolu_01.txt");
    const b = await offloadOutput({ gate, clock }, "x\n".repeat(20), { thresholdBytes: 10 });
    expect(b.path).toMatch(/^\/w\/tool-outputs\/1700000000000-[a-z0-9]+\.txt$/);
  });

  test("when the file cannot be written the preview says so", async () => {
    const fs = memoryFileSystem({ files: { "/w/tool-outputs": "a file in the way" } });
    const out = await offloadOutput({ gate: createGate({ fs, cwd: "/w" }), clock }, "ab\n".repeat(10), {
      thresholdBytes: 10,
      previewBytes: 6,
      id: "x",
    });
    expect(out.path).toBeUndefined();
    expect(out.text).toMatch(
      /^ab\nab\n\[Output is 30 bytes, 10 lines; showed the first 2 lines\. The rest could not be saved to tool-outputs\/x\.txt \(.+\); narrow the request to see more\.\]$/,
    );
  });

  test("isToolOutputPath", () => {
    expect(isToolOutputPath({ cwd: "/w" }, "/w/tool-outputs/a.txt")).toBe(true);
    expect(isToolOutputPath({ cwd: "/w" }, "/w/tool-outputs")).toBe(false);
    expect(isToolOutputPath({ cwd: "/w" }, "/w/tool-outputs-evil/a.txt")).toBe(false);
    expect(isToolOutputPath({ cwd: "/" }, "/tool-outputs/a.txt")).toBe(true);
  });
});

describe("offload cap", () => {
  test("an output over 10 MiB is saved up to the cap, with a marker", async () => {
    const { MAX_OFFLOAD_FILE_BYTES } = await import("../../../src/tools/kit/offload.js");
    const fs = memoryFileSystem({ files: { "/w/.keep": "" } });
    const line = `${"x".repeat(1023)}\n`;
    const text = line.repeat(11 * 1024);
    const out = await offloadOutput({ gate: createGate({ fs, cwd: "/w" }), clock: () => 0 }, text, { id: "big" });
    expect(MAX_OFFLOAD_FILE_BYTES).toBe(10_485_760);
    expect(out.text.slice(out.text.lastIndexOf("\n[") + 1)).toBe(
      "[Output is 11.0 MiB (11,534,336 bytes), 11,264 lines; showed the first 8 lines. Its first 10.0 MiB (10,485,760 bytes) at most are saved in tool-outputs/big.txt: read that file in ranges (from line 9, 500 lines at a time), or search it.]",
    );
    const saved = new TextDecoder().decode(await fs.readFile("/w/tool-outputs/big.txt"));
    expect(saved.length).toBeLessThanOrEqual(10_485_760);
    expect(saved.slice(saved.lastIndexOf("\n[") + 1)).toBe(
      "[Saved output cut at 10.0 MiB (10,484,735 bytes): 1.0 MiB (1,049,601 bytes) more were not saved (cap: 10.0 MiB (10,485,760 bytes)).]\n",
    );
  });
});

describe("input bounds", () => {
  test("an integer too large to be exact is named as such", async () => {
    const { createReadTool } = await import("../../../src/tools/read/index.js");
    const read = createReadTool({ fs: memoryFileSystem({ files: { "/w/a.txt": "a\n" } }), cwd: "/w" });
    expect((await read.execute({ path: "a.txt", limit: 1e20 })).error).toEqual({
      code: "EINPUT",
      message: "read input limit must be a safe integer ≤ 9007199254740991, got 100000000000000000000",
    });
  });
});

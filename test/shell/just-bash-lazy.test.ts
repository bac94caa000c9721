// In its own file: vitest gives each test file a fresh module graph, so nothing has loaded just-bash yet.
import { expect, it } from "vitest";
import { createGate } from "../../src/gate/gate.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { loadedJustBash } from "../../src/shell/just-bash-module.js";
import { justBashCommandRunner } from "../../src/shell/just-bash-runner.js";
import { createBashTool } from "../../src/shell/defaults.js";

it("just-bash is loaded on the first command, not when the tool or the runner is created", async () => {
  const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
  const runner = justBashCommandRunner({ fs: createGate({ fs, cwd: "/w" }) });
  const tool = createBashTool({ fs, cwd: "/w" });
  expect(loadedJustBash()).toBeUndefined();
  expect((await runner.run({ command: "cat a.txt", cwd: "/w", env: {}, timeoutMs: 5_000 })).stdout).toBe("a\n");
  expect(typeof loadedJustBash()?.Bash).toBe("function");
  expect((await tool.execute({ command: "cat a.txt" })).stdout).toBe("a\n");
});

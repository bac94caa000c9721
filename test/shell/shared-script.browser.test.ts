/**
 * The shared shell script in real Chromium: just-bash's browser build over OPFS and over the
 * memory backend, through the gate, with the same output as in Node.
 */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { opfsFileSystem, type OpfsFileSystem } from "../../src/backends/opfs/index.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { resultText } from "../../src/tools/kit/result.js";
import { binaryFixture, runSharedScript, SHARED_SCRIPT_OUTPUT } from "./shared-script.js";
import { wipe } from "../backends/opfs/wipe.js";

const ROOT = "/test-shell-shared";

describe("the shared script in Chromium", () => {
  it("opfs", async () => {
    await wipe(ROOT.slice(1));
    const fs: OpfsFileSystem = opfsFileSystem({ root: ROOT });
    try {
      const run = await runSharedScript(fs);
      expect(run.output).toEqual({ stdout: SHARED_SCRIPT_OUTPUT, stderr: "", exitCode: 0, timedOut: false });
      expect(run.names).toEqual(["copy.bin", "data.bin", "docs", "err.txt", "y.txt"]);
      expect(Array.from(run.copy)).toEqual(Array.from(binaryFixture()));
      expect(run.moved).toBe("beta two\ngamma three\n");
    } finally {
      await fs.close();
      await wipe(ROOT.slice(1));
    }
  });

  it("memory", async () => {
    const run = await runSharedScript(memoryFileSystem());
    expect(run.output).toEqual({ stdout: SHARED_SCRIPT_OUTPUT, stderr: "", exitCode: 0, timedOut: false });
    expect(Array.from(run.copy)).toEqual(Array.from(binaryFixture()));
  });
});

describe("the bash tool over OPFS in Chromium", () => {
  it("sees what the write tool wrote, and the read tool sees what echo > wrote", async () => {
    const root = "/test-shell-tools";
    await wipe(root.slice(1));
    const fs: OpfsFileSystem = opfsFileSystem({ root });
    try {
      const tools = createFsTools({ fs, cwd: "/" });
      await tools.write.execute({ path: "notes/todo.md", content: "- ship it\n" });
      const cat = await tools.bash.execute({ command: "cat notes/todo.md && echo 'from bash' > notes/out.txt" });
      expect(resultText(cat)).toBe("- ship it\n[exit code 0]");
      expect(resultText(await tools.read.execute({ path: "notes/out.txt" }))).toBe("1|from bash");
    } finally {
      await fs.close();
      await wipe(root.slice(1));
    }
  });
});

import { describe, expect, it } from "vitest";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { justBashCommandRunner } from "../../src/shell/index.js";
import { toSandboxSession } from "../../src/sandbox/index.js";
import { createGate } from "../../src/gate/gate.js";

const text = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes));

function session(files: Record<string, string> = {}) {
  const fs = memoryFileSystem({ files: { "/secret/key": "hunter2\n", ...files } });
  const gate = createGate({ fs, cwd: "/w" });
  return { fs, session: toSandboxSession({ fs: gate, runner: justBashCommandRunner({ fs: gate }) }) };
}

describe("toSandboxSession", () => {
  it("reads: null when absent, bytes, text and 1-based inclusive line ranges", async () => {
    const { session: s } = session({ "/w/a.txt": "one\ntwo\nthree\nfour\n" });
    expect(await s.readBinaryFile({ path: "missing.txt" })).toBeNull();
    expect(await s.readTextFile({ path: "missing.txt" })).toBeNull();
    expect(await s.readFile({ path: "missing.txt" })).toBeNull();
    expect(text(await s.readBinaryFile({ path: "a.txt" }))).toBe("one\ntwo\nthree\nfour\n");
    expect(await s.readTextFile({ path: "/w/a.txt", startLine: 2, endLine: 3 })).toBe("two\nthree\n");
    expect(await s.readTextFile({ path: "a.txt", startLine: 4 })).toBe("four\n");
    expect(await s.readTextFile({ path: "a.txt", endLine: 1 })).toBe("one\n");
    expect(await s.readTextFile({ path: "a.txt", startLine: 9 })).toBe("");
    const stream = await s.readFile({ path: "a.txt" });
    expect(await new Response(stream).text()).toBe("one\ntwo\nthree\nfour\n");
  });

  it("writes create parents, and a directory is rejected", async () => {
    const { fs, session: s } = session({ "/w/dir/x.txt": "x" });
    await s.writeTextFile({ path: "deep/new/a.txt", content: "hé" });
    await s.writeBinaryFile({ path: "b.bin", content: new Uint8Array([0, 255]) });
    await s.writeFile({ path: "c.txt", content: new Response("streamed").body! });
    expect(text(await fs.readFile("/w/deep/new/a.txt"))).toBe("hé");
    expect([...(await fs.readFile("/w/b.bin"))]).toEqual([0, 255]);
    expect(text(await fs.readFile("/w/c.txt"))).toBe("streamed");
    await expect(s.writeTextFile({ path: "dir", content: "y" })).rejects.toThrow(
      "EISDIR: illegal operation on a directory, open '/w/dir'",
    );
    await expect(s.writeTextFile({ path: "a.txt", content: "y", encoding: "latin1" })).rejects.toThrow(
      "ENOTSUP: operation not supported, writeTextFile (encoding latin1: only utf-8 is supported)",
    );
  });

  it("stat follows symlinks; listDirectory does not; deleteFile", async () => {
    const { fs, session: s } = session({ "/w/real.txt": "12345", "/w/d/x": "" });
    await fs.symlink?.("/w/real.txt", "/w/link.txt");
    expect(await s.stat({ path: "link.txt" })).toEqual({ type: "file", size: 5 });
    expect(await s.stat({ path: "d" })).toMatchObject({ type: "directory" });
    expect(await s.stat({ path: "nope" })).toBeNull();
    const entries = (await s.listDirectory({ path: "." }))?.map((e) => `${e.name}:${e.type}`).sort();
    expect(entries).toEqual(["d:directory", "link.txt:symlink", "real.txt:file"]);
    expect(await s.listDirectory({ path: "nope" })).toBeNull();
    await expect(s.listDirectory({ path: "real.txt" })).rejects.toThrow("ENOTDIR");
    expect(await s.deleteFile({ path: "link.txt" })).toBe(true);
    expect(text(await fs.readFile("/w/real.txt"))).toBe("12345");
    expect(await s.deleteFile({ path: "link.txt" })).toBe(false);
    await expect(s.deleteFile({ path: "d" })).rejects.toThrow(
      "EISDIR: illegal operation on a directory, unlink '/w/d'",
    );
  });

  it("run and spawn with workingDirectory, env, stdin and abort", async () => {
    const { session: s } = session({ "/w/sub/f.txt": "F\n" });
    expect(await s.run({ command: "cat f.txt && echo $X", workingDirectory: "sub", env: { X: "x" } })).toEqual({
      exitCode: 0,
      stdout: "F\nx\n",
      stderr: "",
    });
    expect(await s.run({ command: "exit 3" })).toEqual({ exitCode: 3, stdout: "", stderr: "" });
    const process = await s.spawn({ command: "tr a-z A-Z", stdin: true });
    const writer = process.stdin.getWriter();
    await writer.write(new TextEncoder().encode("shout"));
    await writer.close();
    expect(await new Response(process.stdout).text()).toBe("SHOUT");
    expect(await process.wait()).toEqual({ exitCode: 0 });
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(s.run({ command: "echo hi", abortSignal: controller.signal })).rejects.toThrow("stop");
  });

  it("serves AI SDK tools through experimental_sandbox", async () => {
    const { session: s } = session({ "/w/a.txt": "from the sandbox\n" });
    let seen: unknown;
    const shell = tool({
      inputSchema: z.object({ command: z.string() }),
      execute: async ({ command }, { experimental_sandbox }) => experimental_sandbox!.run({ command }),
    });
    const model = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        const last = prompt.at(-1);
        if (last?.role === "tool") {
          seen = last.content[0];
          return {
            content: [{ type: "text", text: "done" }],
            finishReason: { unified: "stop", raw: "stop" },
            usage: usage(),
            warnings: [],
          };
        }
        return {
          content: [
            { type: "tool-call", toolCallId: "c1", toolName: "shell", input: JSON.stringify({ command: "cat a.txt" }) },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: usage(),
          warnings: [],
        };
      },
    });
    const result = await generateText({
      model,
      tools: { shell },
      experimental_sandbox: s,
      prompt: "go",
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe("done");
    expect(seen).toMatchObject({
      type: "tool-result",
      output: { type: "json", value: { exitCode: 0, stdout: "from the sandbox\n", stderr: "" } },
    });
  });

  it("keeps every file call inside the gate: the one passed, or one confined to cwd", async () => {
    const { session: gated } = session();
    await expect(gated.readTextFile({ path: "/secret/key" })).rejects.toMatchObject({ code: "EACCES" });
    const run = await gated.run({ command: "cat /secret/key" });
    expect(run.stdout).toBe("");
    expect(run.exitCode).toBe(1);
    const fs = memoryFileSystem({ files: { "/secret/key": "hunter2\n", "/w/a.txt": "a" } });
    const confined = toSandboxSession({
      fs,
      runner: justBashCommandRunner({ fs: createGate({ fs, cwd: "/w" }) }),
      cwd: "/w",
    });
    await expect(confined.readBinaryFile({ path: "../secret/key" })).rejects.toMatchObject({ code: "EACCES" });
    await expect(confined.writeTextFile({ path: "/secret/key", content: "x" })).rejects.toMatchObject({
      code: "EACCES",
    });
    expect(await confined.readTextFile({ path: "a.txt" })).toBe("a");
    expect(new TextDecoder().decode(await fs.readFile("/secret/key"))).toBe("hunter2\n");
  });

  it("takes its cwd from the runner when none is given: commands and relative paths start there", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a", "/other/b.txt": "b" } });
    const s = toSandboxSession({ fs, runner: justBashCommandRunner({ fs, cwd: "/w" }) });
    expect(await s.run({ command: "pwd && cat a.txt" })).toEqual({ exitCode: 0, stdout: "/w\na", stderr: "" });
    expect(await s.readTextFile({ path: "a.txt" })).toBe("a");
    // The session's own gate is confined to that cwd.
    await expect(s.readTextFile({ path: "/other/b.txt" })).rejects.toMatchObject({ code: "EACCES" });
    // A given cwd wins over the runner's.
    const given = toSandboxSession({ fs, runner: justBashCommandRunner({ fs, cwd: "/w" }), cwd: "/other" });
    expect(await given.readTextFile({ path: "b.txt" })).toBe("b");
  });

  it("throws TypeError for bad options", () => {
    const fs = memoryFileSystem();
    const runner = justBashCommandRunner({ fs });
    expect(() => toSandboxSession({ fs, runner, root: "/" } as never)).toThrow(
      new TypeError(
        'toSandboxSession got an unknown option "root". Known options: fs, runner, cwd, description, env, timeoutMs',
      ),
    );
    expect(() => toSandboxSession({ fs, runner, cwd: "w" })).toThrow(
      new TypeError('toSandboxSession cwd must be an absolute path, got "w"'),
    );
    expect(() => toSandboxSession({ fs } as never)).toThrow(
      new TypeError("toSandboxSession needs a runner option (a CommandRunner)"),
    );
  });
});

function usage() {
  return {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
}

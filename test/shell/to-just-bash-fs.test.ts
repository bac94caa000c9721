import {
  mkdtemp,
  readdir as readdirHost,
  readFile as readHost,
  mkdir as mkdirHost,
  rm as rmHost,
  symlink as symlinkHost,
  writeFile as writeHost,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bash } from "just-bash";
import { afterEach, describe, expect, it } from "vitest";
import { nodeFileSystem } from "../../src/backends/node/index.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { resultText } from "../../src/tools/kit/result.js";
import { createGate } from "../../src/gate/gate.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import type { FileSystem } from "../../src/contract/types.js";
import { FsError } from "../../src/contract/errors.js";
import { toJustBashFs } from "../../src/shell/to-just-bash-fs.js";

/** A backend that counts calls by method. */
function counting(fs: FileSystem): { fs: FileSystem; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const wrapped = new Proxy(fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls[String(key)] = (calls[String(key)] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { fs: wrapped, calls };
}

describe("toJustBashFs", () => {
  it("resolvePath normalises lexically", () => {
    const adapter = toJustBashFs(memoryFileSystem());
    expect(adapter.resolvePath("/w", "a/../b/./c")).toBe("/w/b/c");
    expect(adapter.resolvePath("/w/x", "/abs//y/")).toBe("/abs/y");
    expect(adapter.resolvePath("/w", "../../..")).toBe("/");
    expect(adapter.resolvePath("/w", "./././a/b")).toBe("/w/a/b");
    expect(adapter.resolvePath("/", "a")).toBe("/a");
    expect(adapter.resolvePath("/w", "./")).toBe("/w");
    expect(adapter.resolvePath("/w", ".")).toBe("/w");
    expect(adapter.resolvePath("/w", "a/")).toBe("/w/a");
    expect(adapter.resolvePath("", "a")).toBe("/a");
  });

  it("writes are binary-safe: byte strings and Uint8Arrays reach the backend byte for byte", async () => {
    const fs = memoryFileSystem();
    const adapter = toJustBashFs(fs);
    await adapter.writeFile("/b1.bin", "\u0000\u00ff\u0080A", "binary");
    await adapter.writeFile("/b2.bin", new Uint8Array([1, 2, 254]));
    await adapter.writeFile("/t.txt", "é");
    await adapter.appendFile("/t.txt", "\u00ff", "latin1");
    expect(Array.from(await fs.readFile("/b1.bin"))).toEqual([0, 255, 128, 65]);
    expect(Array.from(await fs.readFile("/b2.bin"))).toEqual([1, 2, 254]);
    expect(Array.from(await fs.readFile("/t.txt"))).toEqual([0xc3, 0xa9, 0xff]);
    expect(await adapter.readFile("/b1.bin", "hex")).toBe("00ff8041");
    expect(await adapter.readFile("/b1.bin", { encoding: "base64" })).toBe("AP+AQQ==");
    expect(String(await adapter.readFileBytes?.("/b1.bin"))).toBe("\u0000\u00ff\u0080A");
    expect(await adapter.readFile("/t.txt")).toBe("é\ufffd");
  });

  it("errors keep Node's messages, which just-bash turns into shell messages", async () => {
    const adapter = toJustBashFs(memoryFileSystem({ files: { "/w/a.txt": "a" } }));
    await expect(adapter.readFile("/w/missing.txt")).rejects.toThrow(
      "ENOENT: no such file or directory, open '/w/missing.txt'",
    );
    await expect(adapter.link("/w/a.txt", "/w/b.txt")).rejects.toThrow(
      "ENOTSUP: operation not supported, link '/w/a.txt' -> '/w/b.txt' (hard links are not supported; use cp or ln -s)",
    );
    const out = await new Bash({ fs: adapter, cwd: "/w" }).exec("cat missing.txt; mkdir a.txt");
    expect(out.stderr).toBe(
      "cat: missing.txt: No such file or directory\nmkdir: cannot create directory 'a.txt': File exists\n",
    );
  });

  it("goes through the gate: paths outside the roots are refused", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a", "/secret.txt": "s" } });
    const adapter = toJustBashFs(createGate({ fs, cwd: "/w" }));
    expect(await adapter.readFile("/w/a.txt")).toBe("a");
    await expect(adapter.readFile("/secret.txt")).rejects.toThrow("EACCES: permission denied, open '/secret.txt'");
    await expect(adapter.writeFile("/new.txt", "x")).rejects.toThrow("EACCES: permission denied");
    expect(await adapter.exists("/secret.txt")).toBe(true);
    expect(await adapter.exists("/usr/bin/ls")).toBe(false);
    expect((await fs.readdir("/")).map((entry) => entry.name).sort()).toEqual(["secret.txt", "w"]);
  });

  it("serves /dev virtually: /dev/null swallows writes without asking the gate", async () => {
    const asked: string[] = [];
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const gate = createGate({
      fs,
      cwd: "/w",
      permissions: { approve: (request) => (asked.push(`${request.tool} ${request.path}`), false) },
    });
    const out = await new Bash({ fs: toJustBashFs(gate), cwd: "/w" }).exec(
      "ls nothing 2>/dev/null; cat a.txt > /dev/null; echo x >> /dev/null; cat /dev/null; [ -e /dev/null ] && echo ok; ls /dev; rm /dev/null",
    );
    expect({ stdout: out.stdout, stderr: out.stderr }).toEqual({
      stdout: "ok\nnull\nstderr\nstdin\nstdout\nzero\n",
      stderr: "rm: cannot remove '/dev/null': EPERM: operation not permitted, rm '/dev/null' (/dev is virtual)\n",
    });
    expect(asked).toEqual([]);
    expect((await fs.readdir("/")).map((entry) => entry.name)).toEqual(["w"]);
  });

  it("stat gives the canonical path as identity, so mv/cp tell the same file through a symlink", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n", "/w/b.txt": "b\n" } });
    await fs.symlink!("/w/a.txt", "/w/link");
    const adapter = toJustBashFs(createGate({ fs, cwd: "/w" }));
    expect([
      (await adapter.stat("/w/link")).identity,
      (await adapter.stat("/w/./a.txt")).identity,
      (await adapter.lstat("/w/link")).identity,
    ]).toEqual(["path:/w/a.txt", "path:/w/a.txt", undefined]);
    const out = await new Bash({ fs: adapter, cwd: "/w" }).exec("cp a.txt link; echo $?; cp b.txt a.txt; cat link");
    expect({ stdout: out.stdout, stderr: out.stderr }).toEqual({
      stdout: "1\nb\n",
      stderr: "cp: 'a.txt' and '/w/link' are the same file\n",
    });
  });

  it("/dev/zero reads as 1 MiB of zero bytes", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const out = await new Bash({ fs: toJustBashFs(createGate({ fs, cwd: "/w" })), cwd: "/w" }).exec(
      "head -c 10 /dev/zero | wc -c; head -c 3 /dev/zero | od -An -b; wc -c < /dev/zero",
    );
    expect({ stdout: out.stdout, stderr: out.stderr }).toEqual({ stdout: "10\n 000 000 000\n1048576\n", stderr: "" });
  });

  it("answers command lookups in /usr/bin and /bin as absent before the gate: approve is never asked", async () => {
    const asked: string[] = [];
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    const gate = createGate({
      fs,
      cwd: "/w",
      permissions: { approve: (request) => (asked.push(`${request.tool} ${request.path}`), false) },
    });
    // gate.fs (a FileSystem, not the Gate): the adapter cannot see the gate's roots.
    const out = await new Bash({ fs: toJustBashFs(gate.fs), cwd: "/w", env: { PATH: "/usr/bin:/bin" } }).exec(
      "ls; cat a.txt | wc -l; [ -e /usr/bin/ls ] || echo absent",
    );
    expect({ stdout: out.stdout, stderr: out.stderr, exitCode: out.exitCode }).toEqual({
      stdout: "a.txt\n1\nabsent\n",
      stderr: "",
      exitCode: 0,
    });
    expect(asked).toEqual([]);
  });

  it("caches stats briefly, and its own writes clear the cache", async () => {
    const { fs, calls } = counting(memoryFileSystem({ files: { "/w/a.txt": "a" } }));
    const adapter = toJustBashFs(fs, { statCacheMs: 60_000 });
    await adapter.stat("/w/a.txt");
    await adapter.stat("/w/a.txt");
    expect(await adapter.exists("/w/b.txt")).toBe(false);
    expect(await adapter.exists("/w/b.txt")).toBe(false);
    expect(calls.stat).toBe(2);
    await adapter.writeFile("/w/b.txt", "bb");
    expect(await adapter.exists("/w/b.txt")).toBe(true);
    expect((await adapter.stat("/w/a.txt")).size).toBe(1);
    expect(calls.stat).toBe(4);
    await adapter.rm("/w/b.txt");
    expect(await adapter.exists("/w/b.txt")).toBe(false);
    expect(calls.stat).toBe(5);
  });

  it("statCacheMs 0 turns the cache off", async () => {
    const { fs, calls } = counting(memoryFileSystem({ files: { "/w/a.txt": "a" } }));
    const adapter = toJustBashFs(fs, { statCacheMs: 0 });
    await adapter.stat("/w/a.txt");
    await adapter.stat("/w/a.txt");
    expect(calls.stat).toBe(2);
  });

  it("keeps chmod and utimes itself; directories report size 0", async () => {
    const adapter = toJustBashFs(memoryFileSystem({ files: { "/w/run.sh": "echo hi\n", "/w/d/x": "x" } }));
    const out = await new Bash({ fs: adapter, cwd: "/w" }).exec(
      "chmod 755 run.sh && stat -c %a run.sh && touch -d '2020-01-02 03:04:05' run.sh && ls -l run.sh | awk '{print $6, $7, $8}'",
    );
    expect(out.stdout).toBe("755\nJan 2 2020\n");
    expect((await adapter.stat("/w/d")).size).toBe(0);
  });

  it("copies trees and symlinks with cp -r, moves with mv", async () => {
    const fs = memoryFileSystem({ files: { "/w/src/a.txt": "a", "/w/src/sub/b.txt": "b" } });
    await fs.symlink("a.txt", "/w/src/link");
    const out = await new Bash({ fs: toJustBashFs(fs), cwd: "/w" }).exec(
      "cp -r src dst && mv dst/sub moved && find . | sort && readlink dst/link",
    );
    expect(out.stdout).toBe(
      ".\n./dst\n./dst/a.txt\n./dst/link\n./moved\n./moved/b.txt\n./src\n./src/a.txt\n./src/link\n./src/sub\n./src/sub/b.txt\na.txt\n",
    );
  });

  it("runs backend calls as trusted code under just-bash's defense layer", async () => {
    const memory = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    // A backend whose reads touch a global the defense layer blocks inside scripts (as memfs reads process.cwd).
    const fs: FileSystem = {
      ...memory,
      name: memory.name,
      capabilities: memory.capabilities,
      readFile: async (path) => {
        void Function("return 1");
        return memory.readFile(path);
      },
    };
    expect((await new Bash({ fs: toJustBashFs(fs), cwd: "/w" }).exec("cat a.txt")).stdout).toBe("a\n");
    const untrusted = await new Bash({ fs: toJustBashFs(fs, { trusted: (work) => work() }), cwd: "/w" }).exec(
      "cat a.txt",
    );
    // Without the trusted runner the defense layer blocks the backend's code.
    expect({ stdout: untrusted.stdout, stderr: untrusted.stderr.split("\n")[0] }).toEqual({
      stdout: "",
      stderr: "bash: security violation: globalThis.Function is blocked during script execution",
    });
  });

  it("throws TypeError for bad options", () => {
    const fs = memoryFileSystem();
    expect(() => toJustBashFs(fs, { statCacheMs: Number.NaN })).toThrow(
      new TypeError("toJustBashFs statCacheMs must be a number of milliseconds ≥ 0, got NaN"),
    );
    expect(() => toJustBashFs(fs, { cache: 1 } as never)).toThrow(
      new TypeError(
        'toJustBashFs got an unknown option "cache". Known options: statCacheMs, trusted, onRefusal, onRead, commandDirs',
      ),
    );
  });
});

describe("toJustBashFs when just-bash's defense layer blocks a backend call it ran as trusted", () => {
  /**
   * A backend that fails as memfs does when a foreign just-bash copy blocks its `process.cwd()`:
   * an `EIO` whose cause is the defense layer's violation (the calls still run as trusted by this
   * package's copy, which a second copy does not honour).
   */
  function blockedOnRead(): FileSystem {
    const memory = memoryFileSystem({ files: { "/w/a.txt": "a\n" } });
    return {
      ...memory,
      name: memory.name,
      capabilities: memory.capabilities,
      readFile: async (path) => {
        const violation = new Error(
          "process.cwd is blocked during script execution. This is a defense-in-depth measure and indicates a bug in just-bash.",
        );
        violation.name = "SecurityViolationError";
        throw new FsError("EIO", { syscall: "open", path, detail: violation.message, cause: violation });
      },
    };
  }

  it("says the Bash may come from another copy of just-bash and names the trusted option", async () => {
    const adapter = toJustBashFs(blockedOnRead());
    let thrown: unknown;
    await adapter.readFile("/w/a.txt").catch((error: unknown) => (thrown = error));
    expect(FsError.isInstance(thrown) && [thrown.code, thrown.syscall, thrown.path, thrown.message]).toEqual([
      "EIO",
      "open",
      "/w/a.txt",
      "EIO: i/o error, open '/w/a.txt' (just-bash's defense layer blocked it (process.cwd is blocked during script execution): the Bash instance comes from another copy of just-bash than the one better-fs-tools loaded (two copies installed, as npm link or a file: dependency can give), so the bridge cannot mark its backend calls as trusted; install one copy (npm dedupe), or pass toJustBashFs(gate, { trusted: (work) => DefenseInDepthBox.runTrustedAsync(work) }) with the DefenseInDepthBox of the just-bash your Bash comes from)",
    ]);
  });

  it("with a trusted option, says that runner did not mark the call", async () => {
    const adapter = toJustBashFs(blockedOnRead(), { trusted: (work) => work() });
    await expect(adapter.readFile("/w/a.txt")).rejects.toThrow(
      "EIO: i/o error, open '/w/a.txt' (just-bash's defense layer blocked it (process.cwd is blocked during script execution): the trusted option of toJustBashFs did not run the backend call as trusted code of the just-bash that runs the script)",
    );
  });
});

describe("toJustBashFs: rm and mv of a symlink act on the link, never its target", () => {
  const temporary: string[] = [];
  afterEach(async () => {
    for (const dir of temporary.splice(0)) await rmHost(dir, { recursive: true, force: true });
  });

  async function memoryCase() {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "one\n", "/secret/key": "hunter2\n" } });
    await fs.symlink("/secret/key", "/w/evil");
    await fs.symlink("/secret/key", "/w/evil2");
    await fs.symlink("/nowhere", "/w/dangle");
    await fs.symlink("/w/missing", "/w/dangle-in");
    return {
      tools: createFsTools({ fs, cwd: "/w", state: false }),
      names: async () => (await fs.readdir("/w")).map((entry) => entry.name).sort(),
      secret: async () => new TextDecoder().decode(await fs.readFile("/secret/key")),
    };
  }

  async function nodeCase() {
    // Rooted at a temporary folder (not under /dev, which the shell serves itself): the workspace
    // is /w, the secret lies outside it at /secret.
    const base = await mkdtemp(join(tmpdir(), "bft-link-"));
    temporary.push(base);
    const fs = nodeFileSystem({ root: base, cwd: "/w", allowedRoots: ["/w"] });
    await mkdirHost(join(base, "w"));
    await mkdirHost(join(base, "secret"));
    await writeHost(join(base, "w", "a.txt"), "one\n");
    await writeHost(join(base, "secret", "key"), "hunter2\n");
    await fs.symlink!("/secret/key", "/w/evil");
    await fs.symlink!("/secret/key", "/w/evil2");
    await fs.symlink!("/nowhere", "/w/dangle");
    await fs.symlink!("/w/missing", "/w/dangle-in");
    return {
      tools: createFsTools({ fs, cwd: "/w", state: false }),
      names: async () => (await readdirHost(join(base, "w"))).sort(),
      secret: async () => readHost(join(base, "secret", "key"), "utf8"),
      outside: join(base, "secret"),
    };
  }

  it.each([
    ["memory", memoryCase],
    ["node", nodeCase],
  ])(
    "%s: rm, rm -f and mv of links outside or dangling remove or rename the link; the target stays",
    async (_, make) => {
      const { tools, names, secret } = await make();
      const run = async (command: string) => resultText(await tools.bash.execute({ command }));
      expect({
        rm: await run("rm evil"),
        rmForce: await run("rm -f dangle"),
        rmInside: await run("rm dangle-in"),
        mv: await run("mv evil2 moved"),
        readThrough: await run("cat moved"),
        names: await names(),
        secret: await secret(),
      }).toEqual({
        rm: "[exit code 0]",
        rmForce: "[exit code 0]",
        rmInside: "[exit code 0]",
        mv: "[exit code 0]",
        // Reading through the moved link is still refused (memory: the gate; node: allowedRoots).
        readThrough: expect.stringContaining("bash: refused: EACCES: permission denied, open '/w/moved' ("),
        names: ["a.txt", "moved"],
        secret: "hunter2\n",
      });
    },
  );

  it("node: the outside directory is untouched (no file removed, none added)", async () => {
    const { tools, outside } = await nodeCase();
    await tools.bash.execute({ command: "rm evil; rm -f dangle; mv evil2 x; rm x" });
    expect((await readdirHost(outside)).sort()).toEqual(["key"]);
  });
});

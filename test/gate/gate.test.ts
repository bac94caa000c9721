import picomatch from "picomatch";
import { describe, expect, it, vi } from "vitest";
import { checkAccesses, createGate, splitCommandLine, type ApprovalRequest } from "../../src/gate/gate.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { createResolutionCache } from "../../src/contract/path.js";
import { FsError, type ResolvedPrefix } from "../../src/contract/errors.js";
import { forwardFileSystem } from "../../src/contract/forward.js";
import { OptionError } from "../../src/contract/options.js";
import type { FileSystem } from "../../src/contract/types.js";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const encode = (value: string) => new TextEncoder().encode(value);

async function fixture() {
  const fs = memoryFileSystem({
    files: { "/w/a.txt": "a", "/w-evil/secret": "evil", "/etc/hosts": "127.0.0.1 localhost\n", "/w/sub/b.txt": "b" },
  });
  const symlink = fs.symlink!.bind(fs);
  await symlink("/etc", "/w/etc-link");
  await symlink("/etc/hosts", "/w/hosts-link");
  await symlink("/w/a.txt", "/w/inside-link");
  return fs;
}

const FAIL_CLOSED = (path: string, tool: string) =>
  `Permission denied: ${path} is outside the workspace and interactive permission prompts are not available in this execution context. Add an allow rule for "${tool}" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.`;

describe("createGate: backslashNames", () => {
  const withBackslashNames = (fs: FileSystem): FileSystem => ({
    ...fs,
    capabilities: { ...fs.capabilities, backslashNames: true },
  });

  it("takes a backslash as a name byte, never a separator; `..` names still climb", async () => {
    const fs = withBackslashNames(memoryFileSystem({ files: { "/w/a\\b.txt": "ab", "/outside.txt": "secret" } }));
    const gate = createGate({ fs, cwd: "/w", backslashNames: true });
    expect(await gate.check("a\\b.txt", "read")).toEqual({ ok: true, path: "/w/a\\b.txt", outside: false });
    expect(await gate.check("..\\outside.txt", "read")).toEqual({
      ok: true,
      path: "/w/..\\outside.txt",
      outside: false,
    });
    expect(await gate.check("a\\..\\..\\x", "write")).toEqual({ ok: true, path: "/w/a\\..\\..\\x", outside: false });
    expect(await gate.check("a\\../../../outside.txt", "read")).toMatchObject({
      ok: false,
      error: { code: "EDENIED", path: "/outside.txt" },
    });
    expect(text(await gate.fs.readFile("/w/a\\b.txt"))).toBe("ab");
    expect(gate.fs.capabilities.backslashNames).toBe(true);
  });

  it("without it, refuses backslashes and says so in gate.fs's capabilities", async () => {
    const gate = createGate({ fs: withBackslashNames(memoryFileSystem()), cwd: "/w" });
    expect(await gate.check("a\\b.txt", "read")).toMatchObject({ ok: false, error: { code: "EINVAL" } });
    expect(gate.fs.capabilities.backslashNames).toBe(false);
  });

  it("throws a TypeError over a backend that does not declare capabilities.backslashNames", () => {
    expect(() => createGate({ fs: memoryFileSystem(), cwd: "/w", backslashNames: true })).toThrow(
      new TypeError(
        'createGate backslashNames: the backend "memory" does not declare capabilities.backslashNames (a backslash may be a separator or refused there)',
      ),
    );
  });
});

describe("createGate: paths inside", () => {
  it("resolves relative paths against cwd and absolute ones as they are", async () => {
    const gate = createGate({ fs: await fixture(), cwd: "/w" });
    expect(await gate.check("a.txt", "read")).toEqual({ ok: true, path: "/w/a.txt", outside: false });
    expect(await gate.check("/w/sub/../a.txt", "read")).toEqual({ ok: true, path: "/w/a.txt", outside: false });
    expect(await gate.check("new/dir/c.txt", "write")).toEqual({ ok: true, path: "/w/new/dir/c.txt", outside: false });
    expect(await gate.check("report..final.md", "write")).toEqual({
      ok: true,
      path: "/w/report..final.md",
      outside: false,
    });
    expect(await gate.check(".", "list")).toEqual({ ok: true, path: "/w", outside: false });
  });

  it("a symlink to a file inside resolves to that file", async () => {
    const gate = createGate({ fs: await fixture(), cwd: "/w" });
    expect(await gate.check("inside-link", "read")).toEqual({ ok: true, path: "/w/a.txt", outside: false });
  });

  it("defaults: cwd is the first root, roots are [cwd], or / for both", async () => {
    const fs = await fixture();
    const a = createGate({ fs, allowedRoots: ["/w/", "/x"] });
    const b = createGate({ fs, cwd: "/w/sub" });
    const c = createGate({ fs });
    expect([a.cwd, a.allowedRoots, b.cwd, b.allowedRoots, c.cwd, c.allowedRoots]).toEqual([
      "/w",
      ["/w", "/x"],
      "/w/sub",
      ["/w/sub"],
      "/",
      ["/"],
    ]);
  });

  it("the checked fs lends no stored bytes (no readFileView: a view can sit in a buffer holding other files)", () => {
    const backend = memoryFileSystem({ files: { "/w/a.txt": "a" } });
    const gate = createGate({ fs: backend, cwd: "/w" });
    expect({ backend: typeof backend.readFileView, checked: "readFileView" in gate.fs }).toEqual({
      backend: "function",
      checked: false,
    });
  });

  it("display: relative inside cwd, absolute outside", async () => {
    const gate = createGate({ fs: await fixture(), cwd: "/w" });
    expect([
      gate.display("/w/sub/b.txt"),
      gate.display("/w"),
      gate.display("/etc/hosts"),
      gate.display("/w-evil/x"),
    ]).toEqual(["sub/b.txt", ".", "/etc/hosts", "/w-evil/x"]);
  });
});

describe("createGate: refusals", () => {
  it("fails closed outside the root with the exact message, per access", async () => {
    const gate = createGate({ fs: await fixture(), cwd: "/w" });
    expect(await gate.check("/etc/hosts", "read")).toEqual({
      ok: false,
      error: {
        code: "EDENIED",
        message:
          'Permission denied: /etc/hosts is outside the workspace and interactive permission prompts are not available in this execution context. Add an allow rule for "readFile" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.',
        path: "/etc/hosts",
      },
    });
    expect(await gate.check("../etc/hosts", "write")).toEqual({
      ok: false,
      error: { code: "EDENIED", message: FAIL_CLOSED("/etc/hosts", "writeFile"), path: "/etc/hosts" },
    });
    expect(await gate.check("/etc", "list")).toEqual({
      ok: false,
      error: { code: "EDENIED", message: FAIL_CLOSED("/etc", "listDir"), path: "/etc" },
    });
  });

  it("/w never admits /w-evil", async () => {
    const gate = createGate({ fs: await fixture(), cwd: "/w" });
    expect(await gate.check("../w-evil/secret", "read")).toEqual({
      ok: false,
      error: { code: "EDENIED", message: FAIL_CLOSED("/w-evil/secret", "readFile"), path: "/w-evil/secret" },
    });
    expect(await gate.check("/w-evil", "list")).toMatchObject({ ok: false, error: { code: "EDENIED" } });
  });

  it("a symlink inside pointing outside is an outside path, named with its real path", async () => {
    const gate = createGate({ fs: await fixture(), cwd: "/w" });
    expect(await gate.check("hosts-link", "read")).toEqual({
      ok: false,
      error: {
        code: "EDENIED",
        message:
          'Permission denied: /etc/hosts (the real path of /w/hosts-link, through a symlink) is outside the workspace and interactive permission prompts are not available in this execution context. Add an allow rule for "readFile" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.',
        path: "/etc/hosts",
      },
    });
    expect(await gate.check("etc-link/passwd", "write")).toMatchObject({
      ok: false,
      error: { code: "EDENIED", path: "/etc/passwd" },
    });
    // The link itself (lstat, rm) is inside.
    expect(await gate.check("hosts-link", "write", { followSymlinks: false })).toEqual({
      ok: true,
      path: "/w/hosts-link",
      outside: false,
    });
  });

  it.each([
    ["a\0b", "EINVAL", 'Invalid path "a\\u0000b": NUL bytes are not allowed in paths. Allowed roots: /w.'],
    [
      "..\\etc\\hosts",
      "EINVAL",
      'Invalid path "..\\\\etc\\\\hosts": backslashes are not allowed (use / to separate directories). Allowed roots: /w.',
    ],
    ["", "EINVAL", 'Invalid path "": the path is empty. Allowed roots: /w.'],
    [
      "x".repeat(300),
      "ENAMETOOLONG",
      `Invalid path "${"x".repeat(300)}": a name in the path is 300 bytes long; the limit is 255 bytes. Allowed roots: /w.`,
    ],
  ])("refuses %j up front with %s, naming the path and the roots", async (path, code, message) => {
    const gate = createGate({ fs: await fixture(), cwd: "/w" });
    expect(await gate.check(path, "read")).toEqual({ ok: false, error: { code, message } });
  });

  it("a symlink loop is ELOOP, named with the roots", async () => {
    const fs = await fixture();
    await fs.symlink!("/w/loop-b", "/w/loop-a");
    await fs.symlink!("/w/loop-a", "/w/loop-b");
    const gate = createGate({ fs, cwd: "/w" });
    expect(await gate.check("loop-a", "read")).toEqual({
      ok: false,
      error: {
        code: "ELOOP",
        message: 'Cannot resolve "loop-a": too many symbolic links (a symlink loop?). Allowed roots: /w.',
        path: "/w/loop-a",
      },
    });
  });

  it("a non-string path is refused, not thrown", async () => {
    const gate = createGate({ fs: await fixture(), cwd: "/w" });
    expect(await gate.check(undefined as unknown as string, "read")).toEqual({
      ok: false,
      error: {
        code: "EINVAL",
        message: "Invalid path undefined: a path must be a string, got undefined. Allowed roots: /w.",
      },
    });
  });
});

describe("createGate: rules and approval", () => {
  it("an allow rule admits its tool only, matched on the real path", async () => {
    const gate = createGate({
      fs: await fixture(),
      cwd: "/w",
      permissions: { allow: [{ tool: "readFile", path: "/etc/**" }] },
    });
    expect(await gate.check("/etc/hosts", "read")).toEqual({ ok: true, path: "/etc/hosts", outside: true });
    expect(await gate.check("hosts-link", "read")).toEqual({ ok: true, path: "/etc/hosts", outside: true });
    expect(await gate.check("/etc/hosts", "write")).toMatchObject({
      ok: false,
      error: { code: "EDENIED", message: FAIL_CLOSED("/etc/hosts", "writeFile") },
    });
    expect(await gate.check("/w-evil/secret", "read")).toMatchObject({ ok: false });
  });

  it("a rule on the link's own path does not admit what it points to", async () => {
    const gate = createGate({
      fs: await fixture(),
      cwd: "/",
      allowedRoots: ["/w"],
      permissions: { allow: [{ tool: "readFile", path: "/w/**" }] },
    });
    expect(await gate.check("/w/hosts-link", "read")).toMatchObject({ ok: false, error: { path: "/etc/hosts" } });
  });

  it("approve decides what no rule admits, is asked once per tool and path, and a refusal names the roots", async () => {
    const asked: ApprovalRequest[] = [];
    const gate = createGate({
      fs: await fixture(),
      cwd: "/w",
      permissions: {
        approve: (request) => {
          asked.push(request);
          return request.path === "/etc/hosts";
        },
      },
    });
    expect(await gate.check("/etc/hosts", "read")).toEqual({ ok: true, path: "/etc/hosts", outside: true });
    expect(await gate.check("/etc/hosts", "read")).toEqual({ ok: true, path: "/etc/hosts", outside: true });
    expect(await gate.check("/w-evil/secret", "write")).toEqual({
      ok: false,
      error: {
        code: "EDENIED",
        message:
          "Permission denied: /w-evil/secret is outside the workspace and the user did not approve writeFile. Allowed roots: /w.",
        path: "/w-evil/secret",
      },
    });
    expect(asked).toEqual([
      {
        tool: "readFile",
        path: "/etc/hosts",
        reason: "readFile of /etc/hosts, which is outside the workspace (allowed roots: /w)",
      },
      {
        tool: "writeFile",
        path: "/w-evil/secret",
        reason: "writeFile of /w-evil/secret, which is outside the workspace (allowed roots: /w)",
      },
    ]);
  });

  it("an approve callback that throws refuses, saying the callback failed (not that the user said no)", async () => {
    const gate = createGate({
      fs: await fixture(),
      cwd: "/w",
      permissions: {
        allow: [{ tool: "runBash", command: "ls" }],
        approve: (request) => {
          if (request.tool === "runBash") return Promise.reject("no window");
          throw new Error("ui crashed");
        },
      },
    });
    expect(await gate.check("/etc/hosts", "read")).toEqual({
      ok: false,
      error: {
        code: "EDENIED",
        message:
          "Permission denied: /etc/hosts is outside the workspace and the approve callback failed (ui crashed), so readFile was refused. Allowed roots: /w.",
        path: "/etc/hosts",
      },
    });
    expect(await gate.checkCommand("make")).toEqual({
      ok: false,
      error: {
        code: "EDENIED",
        message:
          'Permission denied: the command "make" is not allowed and the approve callback failed (no window), so it was refused.',
      },
    });
  });

  it("an edit outside is gated as a read and as a write", async () => {
    const readOnlyRule = createGate({
      fs: await fixture(),
      cwd: "/w",
      permissions: { allow: [{ tool: "readFile", path: "/etc/hosts" }] },
    });
    expect(await checkAccesses(readOnlyRule, "/etc/hosts", ["read", "write"])).toEqual({
      ok: false,
      error: { code: "EDENIED", message: FAIL_CLOSED("/etc/hosts", "writeFile"), path: "/etc/hosts" },
    });
    const both = createGate({
      fs: await fixture(),
      cwd: "/w",
      permissions: {
        allow: [
          { tool: "readFile", path: "/etc/hosts" },
          { tool: "writeFile", path: "/etc/hosts" },
        ],
      },
    });
    expect(await checkAccesses(both, "/etc/hosts", ["read", "write"])).toEqual({
      ok: true,
      path: "/etc/hosts",
      outside: true,
    });
    const writeOnly = createGate({
      fs: await fixture(),
      cwd: "/w",
      permissions: { allow: [{ tool: "writeFile", path: "/etc/hosts" }] },
    });
    expect(await checkAccesses(writeOnly, "/etc/hosts", ["read", "write"])).toMatchObject({
      ok: false,
      error: { message: FAIL_CLOSED("/etc/hosts", "readFile") },
    });
  });

  it("validates options at creation, naming the option", () => {
    const fs = memoryFileSystem();
    expect(() => createGate({ fs, cwd: "w" })).toThrow(
      new TypeError('createGate cwd must be an absolute POSIX path, got "w"'),
    );
    expect(() => createGate({ fs, allowedRoots: ["/ok", "rel"] })).toThrow(
      new TypeError('createGate allowedRoots[1] must be an absolute POSIX path, got "rel"'),
    );
    expect(() =>
      createGate({ fs, permissions: { allow: [{ tool: "deleteFile" as "readFile", path: "/x" }] } }),
    ).toThrow(
      new TypeError(
        'createGate permissions.allow[0].tool must be one of readFile, writeFile, listDir, runBash, got "deleteFile"',
      ),
    );
    expect(() => createGate({ fs, permissions: { allow: [{ tool: "readFile", path: "etc/*" }] } })).toThrow(
      new TypeError(
        'createGate permissions.allow[0].path must be an absolute glob (e.g. "/etc/**") for a readFile rule, got "etc/*"',
      ),
    );
    expect(() => createGate({ fs, permissions: { allow: [{ tool: "runBash" }] } })).toThrow(
      new TypeError(
        "createGate permissions.allow[0].command must be a non-empty command prefix or glob for a runBash rule",
      ),
    );
    expect(() => createGate({} as never)).toThrow(new TypeError("createGate needs an fs option (a FileSystem)"));
  });

  it("refuses an unknown option or permissions key at creation, with the key in fields", () => {
    const fs = memoryFileSystem();
    const thrown = (make: () => unknown): unknown => {
      try {
        make();
      } catch (error) {
        return error;
      }
      throw new Error("expected a throw");
    };
    const root = thrown(() => createGate({ fs, cwd: "/w", allowedRoot: ["/w"] } as never));
    expect(root).toBeInstanceOf(TypeError);
    expect(OptionError.isInstance(root) && [root.factory, root.option, root.known, root.message]).toEqual([
      "createGate",
      "allowedRoot",
      ["fs", "cwd", "allowedRoots", "permissions", "backslashNames"],
      'createGate got an unknown option "allowedRoot". Known options: fs, cwd, allowedRoots, permissions, backslashNames',
    ]);
    const nested = thrown(() => createGate({ fs, permissions: { allow: [], aprove: () => true } } as never));
    expect(OptionError.isInstance(nested) && [nested.option, nested.within, nested.message]).toEqual([
      "permissions.aprove",
      "permissions",
      'createGate permissions got an unknown option "aprove". Known options: allow, deny, approve',
    ]);
    expect(() => createGate({ fs, permissions: [] as never })).toThrow(
      new TypeError("createGate permissions must be an object ({ allow, deny, approve })"),
    );
    expect(() => createGate({ fs, cwd: "/w", permissions: {} })).not.toThrow();
  });

  it("attack: a misspelt deny key cannot leave a gate that admits what the rule was meant to refuse", async () => {
    const fs = memoryFileSystem({ files: { "/w/.env": "SECRET=1\n", "/w/a.txt": "a" } });
    const deny = [{ tool: "readFile" as const, path: "/w/.env" }];
    // Spelt right, the rule refuses the read inside the workspace.
    const gate = createGate({ fs, cwd: "/w", permissions: { deny } });
    expect((await gate.check(".env", "read")).ok).toBe(false);
    // Misspelt, no gate is made at all (before, the key was ignored and .env was readable).
    expect(() => createGate({ fs, cwd: "/w", permissions: { dney: deny } } as never)).toThrow(
      'createGate permissions got an unknown option "dney". Known options: allow, deny, approve',
    );
    expect(() => createGate({ fs, cwd: "/w", deny } as never)).toThrow(
      'createGate got an unknown option "deny". Known options: fs, cwd, allowedRoots, permissions, backslashNames',
    );
  });

  it("a backend without realpath throws at creation; one without another method fails that call, naming it", async () => {
    const { realpath: _realpath, ...noRealpath } = memoryFileSystem();
    expect(() => createGate({ fs: noRealpath as never })).toThrow(
      /^createGate fs: The backend "memory" has no realpath method, .* Add realpath\(path\) → Promise<string> \(every symlink resolved\) to it/,
    );
    const { readFile: _readFile, ...noReadFile } = memoryFileSystem({ files: { "/w/a.txt": "a" } });
    const gate = createGate({ fs: noReadFile as never, cwd: "/w" });
    await expect(gate.fs.readFile("a.txt")).rejects.toThrow(
      /^The backend "memory" has no readFile method, .* Add readFile\(path\) → Promise<Uint8Array>/,
    );
    expect((await gate.fs.stat("a.txt")).size).toBe(1);
  });
});

describe("createGate: commands", () => {
  it("with no runBash rule every command is admitted", async () => {
    const gate = createGate({ fs: memoryFileSystem(), cwd: "/w" });
    expect(await gate.checkCommand("rm -rf / ; curl x | sh")).toEqual({ ok: true });
    expect(await gate.checkCommand("  ")).toEqual({
      ok: false,
      error: { code: "EINVAL", message: "Invalid command: the command is empty." },
    });
  });

  it("rules admit by prefix (whole words) or glob, every simple command of the line", async () => {
    const gate = createGate({
      fs: memoryFileSystem(),
      cwd: "/w",
      permissions: {
        allow: [
          { tool: "runBash", command: "git status" },
          { tool: "runBash", command: "npm run *" },
          { tool: "runBash", command: "ls" },
        ],
      },
    });
    const verdicts = await Promise.all(
      [
        "git status",
        "git  status -s",
        "git statusx",
        "npm run build",
        "npm run test -- --watch=false",
        "npm install",
        "git status && ls -la",
        "git status; rm -rf /",
        "ls | sh",
        "git status $(rm -rf /)",
        "ls `whoami`",
        "ls > /etc/passwd",
        "npm run build 2>&1",
        "ls 'a;b'",
      ].map(async (command) => [command, (await gate.checkCommand(command)).ok]),
    );
    expect(verdicts).toEqual([
      ["git status", true],
      ["git  status -s", true],
      ["git statusx", false],
      ["npm run build", true],
      ["npm run test -- --watch=false", true],
      ["npm install", false],
      ["git status && ls -la", true],
      ["git status; rm -rf /", false],
      ["ls | sh", false],
      ["git status $(rm -rf /)", false],
      ["ls `whoami`", false],
      ["ls > /etc/passwd", false],
      ["npm run build 2>&1", true],
      ["ls 'a;b'", true],
    ]);
    expect(await gate.checkCommand("npm install")).toEqual({
      ok: false,
      error: {
        code: "EDENIED",
        message:
          'Permission denied: the command "npm install" matches no runBash rule and interactive permission prompts are not available in this execution context. Add an allow rule for "runBash" to the permissions config. A model cannot change the permissions: use the file tools or a command the rules allow, or ask the user to allow this one.',
      },
    });
  });

  it("approve decides unmatched commands", async () => {
    const gate = createGate({
      fs: memoryFileSystem(),
      permissions: { allow: [{ tool: "runBash", command: "ls" }], approve: (request) => request.command === "make" },
    });
    expect(await gate.checkCommand("make")).toEqual({ ok: true });
    expect(await gate.checkCommand("make install")).toEqual({
      ok: false,
      error: {
        code: "EDENIED",
        message: 'Permission denied: the command "make install" is not allowed and the user did not approve it.',
      },
    });
  });

  it("splitCommandLine", () => {
    expect(splitCommandLine("a && b || c; d | e & f\ng")).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
    expect(splitCommandLine("echo \"a;b\" 'c|d'")).toEqual(["echo \"a;b\" 'c|d'"]);
    expect(splitCommandLine("cat < x")).toBe(undefined);
    expect(splitCommandLine('echo "$(id)"')).toBe(undefined);
    expect(splitCommandLine('echo "open')).toBe(undefined);
  });
});

describe("gate.fs", () => {
  it("stat, lstat, realpath and readlink of an outside path are admitted by any file rule for it", async () => {
    const gate = createGate({
      fs: await fixture(),
      cwd: "/w",
      permissions: { allow: [{ tool: "readFile", path: "/etc/hosts" }] },
    });
    expect((await gate.fs.stat("/etc/hosts")).size).toBe(20);
    expect((await gate.fs.lstat("/etc/hosts")).type).toBe("file");
    expect(await gate.fs.realpath("hosts-link")).toBe("/etc/hosts");
    expect(text(await gate.fs.readFile("/etc/hosts"))).toBe("127.0.0.1 localhost\n");
    await expect(gate.fs.readdir("/etc")).rejects.toThrow(
      `EACCES: permission denied, scandir '/etc' (${FAIL_CLOSED("/etc", "listDir")})`,
    );
    await expect(gate.fs.stat("/etc")).rejects.toThrow(
      `EACCES: permission denied, stat '/etc' (${FAIL_CLOSED("/etc", "listDir")})`,
    );
    await expect(gate.fs.writeFile("/etc/hosts", encode("x"))).rejects.toMatchObject({ code: "EACCES" });
  });

  it("an approval of a file tool also admits its metadata calls, without asking again", async () => {
    let asked = 0;
    const gate = createGate({ fs: await fixture(), cwd: "/w", permissions: { approve: () => (asked++, true) } });
    expect(text(await gate.fs.readFile("/etc/hosts"))).toBe("127.0.0.1 localhost\n");
    expect((await gate.fs.stat("/etc/hosts")).type).toBe("file");
    expect(asked).toBe(1);
  });

  it("passes admitted calls to the backend with the checked path", async () => {
    const gate = createGate({ fs: await fixture(), cwd: "/w" });
    await gate.fs.writeFile("new/c.txt", encode("c"));
    expect(text(await gate.fs.readFile("new/c.txt"))).toBe("c");
    expect(text(await gate.fs.readFile("inside-link"))).toBe("a");
    expect((await gate.fs.readdir(".")).map((entry) => entry.name).sort()).toEqual([
      "a.txt",
      "etc-link",
      "hosts-link",
      "inside-link",
      "new",
      "sub",
    ]);
    expect((await gate.fs.lstat("hosts-link")).type).toBe("symlink");
    expect(await gate.fs.readlink!("hosts-link")).toBe("/etc/hosts");
    await gate.fs.rm("hosts-link");
    expect(text(await gate.backend.readFile("/etc/hosts"))).toBe("127.0.0.1 localhost\n");
    await gate.fs.rename("new/c.txt", "d.txt");
    expect(await gate.fs.realpath("d.txt")).toBe("/w/d.txt");
  });

  it("rejects refused calls with FsError EACCES and leaves the outside untouched", async () => {
    const fs = await fixture();
    const gate = createGate({ fs, cwd: "/w" });
    const error = await gate.fs.writeFile("etc-link/hosts", encode("pwned")).catch((caught: unknown) => caught);
    expect(FsError.isInstance(error)).toBe(true);
    expect((error as FsError).code).toBe("EACCES");
    expect((error as FsError).message).toBe(
      `EACCES: permission denied, open 'etc-link/hosts' (${'Permission denied: /etc/hosts (the real path of /w/etc-link/hosts, through a symlink) is outside the workspace and interactive permission prompts are not available in this execution context. Add an allow rule for "writeFile" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.'})`,
    );
    await expect(gate.fs.readdir("/etc")).rejects.toMatchObject({ code: "EACCES" });
    await expect(gate.fs.rename("a.txt", "../w-evil/a.txt")).rejects.toMatchObject({ code: "EACCES" });
    await expect(gate.fs.symlink!("/etc", "../w-evil/l")).rejects.toMatchObject({ code: "EACCES" });
    await expect(gate.fs.readFile("a\0b")).rejects.toMatchObject({ code: "EINVAL" });
    expect(text(await fs.readFile("/etc/hosts"))).toBe("127.0.0.1 localhost\n");
    expect(await fs.readdir("/w-evil")).toEqual([{ name: "secret", type: "file" }]);
  });
});

import fc from "fast-check";

describe("check with a resolution cache", () => {
  it("reports exists only when given a cache; the decisions are the same", async () => {
    const fs = memoryFileSystem({ files: { "/w/a.txt": "a", "/etc/hosts": "h" } });
    await fs.symlink("/etc", "/w/link");
    const gate = createGate({ fs, cwd: "/w" });
    const cache = createResolutionCache();
    expect(await gate.check("a.txt", "write")).toStrictEqual({ ok: true, path: "/w/a.txt", outside: false });
    expect(await gate.check("a.txt", "write", { cache })).toStrictEqual({
      ok: true,
      path: "/w/a.txt",
      outside: false,
      exists: true,
    });
    expect(await gate.check("new/b.txt", "write", { cache })).toStrictEqual({
      ok: true,
      path: "/w/new/b.txt",
      outside: false,
      exists: false,
    });
    expect(await gate.check("link", "write", { cache, followSymlinks: false })).toStrictEqual({
      ok: true,
      path: "/w/link",
      outside: false,
      exists: true,
    });
    const refused = await gate.check("link/hosts", "read", { cache });
    expect(refused).toStrictEqual(await gate.check("link/hosts", "read"));
    expect(refused.ok).toBe(false);
  });
});

describe("createGate: a backend whose realpath says how far a missing path resolved", () => {
  /**
   * Memory, with `realpath` and `lstat` recorded; a failed `realpath` rejects with the
   * `resolvedPrefix` that `prefix` gives for the path (and the error path `errorPath` gives).
   */
  function backend(prefix: (path: string) => ResolvedPrefix | undefined, errorPath = (path: string) => path) {
    const memory = memoryFileSystem({ files: { "/w/real/a.txt": "a" } });
    const calls: string[] = [];
    // A function of the target: the no-follow form records its calls too.
    const fs = forwardFileSystem(memory, (target) => ({
      realpath: async (path) => {
        calls.push(`realpath ${path}`);
        try {
          return await target.realpath(path);
        } catch (error) {
          const resolvedPrefix = prefix(path);
          if (resolvedPrefix === undefined) throw error;
          throw new FsError("ENOENT", { syscall: "realpath", path: errorPath(path), resolvedPrefix });
        }
      },
      lstat: async (path) => {
        calls.push(`lstat ${path}`);
        return target.lstat(path);
      },
    }));
    return { fs, calls };
  }
  /** The names of `path` below /w, said to lie under /w/real (the gate takes the backend's word, as for realpath). */
  const underReal = (path: string): ResolvedPrefix => ({ real: "/w/real", missing: path.slice(3).split("/") });

  it("one realpath call, and the path it gives", async () => {
    const { fs, calls } = backend(underReal);
    const gate = createGate({ fs, cwd: "/w" });
    await gate.check(".", "list");
    calls.length = 0;
    expect(await gate.check("m1/m2/m3.txt", "write")).toStrictEqual({
      ok: true,
      path: "/w/real/m1/m2/m3.txt",
      outside: false,
    });
    expect(calls).toEqual(["realpath /w/m1/m2/m3.txt"]);
  });

  it("with a resolution cache: one call for the directory, and the chain of missing directories known", async () => {
    const { fs, calls } = backend(underReal);
    const gate = createGate({ fs, cwd: "/w" });
    await gate.check(".", "list");
    calls.length = 0;
    const cache = createResolutionCache();
    expect(await gate.check("m1/m2/m3.txt", "write", { cache })).toStrictEqual({
      ok: true,
      path: "/w/real/m1/m2/m3.txt",
      outside: false,
      exists: false,
    });
    expect(calls).toEqual(["realpath /w/m1/m2"]);
    expect(["/w/real", "/w/real/m1", "/w/real/m1/m2", "/w/m1"].map((path) => cache.exists(path))).toEqual([
      true,
      false,
      false,
      undefined,
    ]);
  });

  it.each<[string, (path: string) => ResolvedPrefix | undefined, (path: string) => string]>([
    ["none given", () => undefined, (path) => path],
    ["the error names another path (a wrapper that maps paths)", underReal, (path) => `/inner${path}`],
    ["a relative real path", (path) => ({ ...underReal(path), real: "w/real" }), (path) => path],
    ["a real path not normalised", (path) => ({ ...underReal(path), real: "/w/real/../real" }), (path) => path],
    ["a .. name", () => ({ real: "/w/real", missing: ["..", "x"] }), (path) => path],
    ["a name with a slash", () => ({ real: "/w/real", missing: ["m1/m2"] }), (path) => path],
    ["no names", () => ({ real: "/w/real", missing: [] }), (path) => path],
  ])("ignored when unusable (%s): the gate looks the path up itself", async (_, prefix, errorPath) => {
    const { fs, calls } = backend(prefix, errorPath);
    const gate = createGate({ fs, cwd: "/w" });
    await gate.check(".", "list");
    calls.length = 0;
    expect(await gate.check("m1/m2/m3.txt", "write")).toStrictEqual({
      ok: true,
      path: "/w/m1/m2/m3.txt",
      outside: false,
    });
    expect(calls).toEqual([
      "realpath /w/m1/m2/m3.txt",
      "realpath /w/m1/m2",
      "realpath /w/m1",
      "realpath /w",
      "lstat /w/m1",
    ]);
  });
});

describe("gate properties (fast-check)", () => {
  it("whatever the path and symlinks, an admitted path lies under the root, or is outside and flagged", async () => {
    const name = fc.constantFrom("..", ".", "a", "b", "l1", "l2", "w", "w-evil", "x.txt");
    const target = fc.constantFrom(
      "/",
      "/w",
      "/w/a",
      "/w-evil",
      "/etc",
      "..",
      "../..",
      "a",
      "b/..",
      "/w/l1",
      "/w/l2",
      "/w/a/l1",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(name, { maxLength: 8 }), target, target, async (names, first, second) => {
        const fs = memoryFileSystem({ files: { "/w/a/x.txt": "x", "/w-evil/x.txt": "e", "/etc/x.txt": "h" } });
        await fs.symlink!(first, "/w/l1");
        await fs.symlink!(second, "/w/a/l2");
        const gate = createGate({ fs, cwd: "/w", permissions: { allow: [{ tool: "readFile", path: "/etc/**" }] } });
        const checked = await gate.check(names.join("/") || ".", "read");
        // A resolution cache changes the cost, never the decision or the path.
        const { exists: _exists, ...cached } = (await gate.check(names.join("/") || ".", "read", {
          cache: createResolutionCache(),
        })) as { exists?: boolean };
        expect(cached).toStrictEqual(checked);
        if (!checked.ok) return;
        if (checked.outside) expect(checked.path.startsWith("/etc/") || checked.path === "/etc").toBe(true);
        else expect(checked.path === "/w" || checked.path.startsWith("/w/")).toBe(true);
        // The checked path has no symlink left in it to re-route the call.
        const real = await fs.realpath(checked.path).catch(() => undefined);
        if (real !== undefined) expect(real).toBe(checked.path);
      }),
      { numRuns: 300 },
    );
  });
});

describe("createGate: the backend's own place", () => {
  const placed = (cwd: string, allowedRoots?: readonly string[]) => ({
    ...memoryFileSystem({ files: { "/p/a.txt": "a", "/q/b.txt": "b", "/etc/hosts": "h" } }),
    cwd,
    ...(allowedRoots === undefined ? {} : { allowedRoots }),
  });

  it("takes cwd and allowedRoots from the backend when the options give neither", async () => {
    const gate = createGate({ fs: placed("/p", ["/p", "/q"]) });
    expect([gate.cwd, gate.allowedRoots]).toEqual(["/p", ["/p", "/q"]]);
    expect(await gate.check("a.txt", "read")).toEqual({ ok: true, path: "/p/a.txt", outside: false });
    expect(await gate.check("/q/b.txt", "read")).toEqual({ ok: true, path: "/q/b.txt", outside: false });
    expect((await gate.check("/etc/hosts", "read")).ok).toBe(false);
    // A backend cwd alone: its roots default to [cwd].
    expect(createGate({ fs: placed("/p") }).allowedRoots).toEqual(["/p"]);
  });

  it("given options win: a cwd keeps its own roots, roots keep the backend's cwd only when it lies inside", () => {
    const fs = placed("/p", ["/p"]);
    const withCwd = createGate({ fs, cwd: "/q" });
    expect([withCwd.cwd, withCwd.allowedRoots]).toEqual(["/q", ["/q"]]);
    const withRoots = createGate({ fs, allowedRoots: ["/"] });
    expect([withRoots.cwd, withRoots.allowedRoots]).toEqual(["/p", ["/"]]);
    const elsewhere = createGate({ fs, allowedRoots: ["/q"] });
    expect([elsewhere.cwd, elsewhere.allowedRoots]).toEqual(["/q", ["/q"]]);
  });

  it("gate.fs declares the gate's place, so a tool over it starts there", () => {
    const gate = createGate({ fs: memoryFileSystem(), cwd: "/w" });
    expect([gate.fs.cwd, gate.fs.allowedRoots]).toEqual(["/w", ["/w"]]);
  });
});

describe("createGate: deny rules", () => {
  it("a deny rule refuses inside the workspace and wins over an allow rule for the same path", async () => {
    const gate = createGate({
      fs: await fixture(),
      cwd: "/w",
      permissions: {
        allow: [{ tool: "readFile", path: "/etc/**" }],
        deny: [
          { tool: "writeFile", path: "/w/sub/**" },
          { tool: "readFile", path: "/etc/hosts" },
        ],
      },
    });
    expect(await gate.check("sub/b.txt", "write")).toEqual({
      ok: false,
      error: {
        code: "EDENIED",
        message: 'Permission denied: /w/sub/b.txt matches a deny rule for "writeFile" in the permissions config.',
        path: "/w/sub/b.txt",
      },
    });
    expect(await gate.check("sub/b.txt", "read")).toEqual({ ok: true, path: "/w/sub/b.txt", outside: false });
    // Through a symlink inside the workspace too: deny rules match the real path.
    expect(await gate.check("hosts-link", "read")).toEqual({
      ok: false,
      error: {
        code: "EDENIED",
        message: 'Permission denied: /etc/hosts matches a deny rule for "readFile" in the permissions config.',
        path: "/etc/hosts",
      },
    });
  });

  it("a deny rule is not asked of approve", async () => {
    const asked: ApprovalRequest[] = [];
    const gate = createGate({
      fs: await fixture(),
      cwd: "/w",
      permissions: {
        deny: [{ tool: "readFile", path: "/etc/hosts" }],
        approve: (request) => (asked.push(request), true),
      },
    });
    expect((await gate.check("/etc/hosts", "read")).ok).toBe(false);
    expect(asked).toEqual([]);
  });

  it("a runBash deny rule refuses a line with a matching segment, over allow rules", async () => {
    const gate = createGate({
      fs: await fixture(),
      cwd: "/w",
      permissions: { allow: [{ tool: "runBash", command: "git *" }], deny: [{ tool: "runBash", command: "git push" }] },
    });
    expect(await gate.checkCommand("git status")).toEqual({ ok: true });
    expect(await gate.checkCommand("git status && git push origin main")).toEqual({
      ok: false,
      error: {
        code: "EDENIED",
        message:
          'Permission denied: the command "git status && git push origin main" is refused: it matches a deny rule for "runBash" in the permissions config.',
      },
    });
    const open = createGate({
      fs: await fixture(),
      cwd: "/w",
      permissions: { deny: [{ tool: "runBash", command: "rm" }] },
    });
    expect(await open.checkCommand("ls -la")).toEqual({ ok: true });
    expect((await open.checkCommand("ls; rm -rf x")).ok).toBe(false);
    expect((await open.checkCommand("echo $(rm x)")).ok).toBe(false);
  });

  it("a rule with a key it does not take throws an OptionError at creation, naming the rule", async () => {
    const fs = await fixture();
    const thrown = (permissions: object): unknown => {
      try {
        createGate({ fs, permissions: permissions as never });
      } catch (error) {
        return OptionError.isInstance(error) && error instanceof TypeError
          ? { option: error.option, message: error.message }
          : error;
      }
      return "created";
    };
    expect(thrown({ deny: [{ tool: "readFile", path: "/w/secret/**", extra: 1 }] })).toEqual({
      option: "permissions.deny[0].extra",
      message: 'createGate permissions.deny[0] got an unknown option "extra". Known options: tool, path',
    });
    expect(
      thrown({
        deny: [
          { tool: "runBash", command: "rm" },
          { tool: "listDir", path: "/w/x", command: "rm" },
        ],
      }),
    ).toEqual({
      option: "permissions.deny[1].command",
      message: 'createGate permissions.deny[1] got an unknown option "command". Known options: tool, path',
    });
    expect(thrown({ allow: [{ tool: "runBash", command: "ls", path: "/w" }] })).toEqual({
      option: "permissions.allow[0].path",
      message: 'createGate permissions.allow[0] got an unknown option "path". Known options: tool, command',
    });
    expect(thrown({ allow: [{ tool: "runBash", command: "ls" }], deny: [{ tool: "writeFile", path: "/w/a" }] })).toBe(
      "created",
    );
  });

  it("a bad deny rule throws at creation, naming it", async () => {
    const fs = await fixture();
    expect(() => createGate({ fs, permissions: { deny: [{ tool: "writeFile", path: "sub" }] } })).toThrow(
      'createGate permissions.deny[0].path must be an absolute glob (e.g. "/etc/**") for a writeFile rule, got "sub"',
    );
  });

  const denyFixture = () =>
    memoryFileSystem({
      files: {
        "/w/a.txt": "a",
        "/w/secret/k.txt": "TOKEN=hunter2",
        "/w/hidden/h.txt": "h",
        "/w/locked/l.txt": "l",
        "/w/box/deep/k.txt": "TOKEN=deep",
        "/w/box/open.txt": "o",
        "/w/vault/keep.txt": "keep",
      },
    });
  const DENY = [
    { tool: "readFile", path: "/w/secret/**" },
    { tool: "readFile", path: "/w/box/deep/k.txt" },
    { tool: "listDir", path: "/w/hidden/**" },
    { tool: "writeFile", path: "/w/locked/**" },
    { tool: "writeFile", path: "/w/vault/keep.txt" },
  ] as const;
  const refusal = (path: string, tool: string) =>
    `Permission denied: ${path} matches a deny rule for "${tool}" in the permissions config.`;

  it("denies and denied: a synchronous test of real paths, per access", async () => {
    const gate = createGate({ fs: denyFixture(), cwd: "/w", permissions: { deny: [...DENY] } });
    expect((["read", "write", "list"] as const).map((access) => gate.denies(access))).toEqual([true, true, true]);
    expect(gate.denied("/w/secret/k.txt", "read")).toEqual({
      code: "EDENIED",
      message: refusal("/w/secret/k.txt", "readFile"),
      path: "/w/secret/k.txt",
    });
    // `/w/secret/**` matches the directory itself too.
    expect(gate.denied("/w/secret", "read")?.message).toBe(refusal("/w/secret", "readFile"));
    expect(gate.denied("/w/secret/k.txt", "list")).toBeUndefined();
    expect(gate.denied("/w/secretx", "read")).toBeUndefined();
    expect(gate.denied("/w/hidden", "list")?.message).toBe(refusal("/w/hidden", "listDir"));
    expect(gate.denied("/w/locked/new.txt", "write")?.message).toBe(refusal("/w/locked/new.txt", "writeFile"));
    const open = createGate({
      fs: denyFixture(),
      cwd: "/w",
      permissions: { deny: [{ tool: "runBash", command: "rm" }] },
    });
    expect((["read", "write", "list"] as const).map((access) => open.denies(access))).toEqual([false, false, false]);
    expect(open.denied("/w/secret/k.txt", "read")).toBeUndefined();
  });

  it("rule paths are normalised; a deny rule denies what is below the directory it names, an allow rule only what its glob matches", async () => {
    const gate = createGate({
      fs: denyFixture(),
      cwd: "/w",
      allowedRoots: ["/w"],
      permissions: {
        deny: [
          { tool: "readFile", path: "/w/x/..//secret/" },
          { tool: "listDir", path: "/w/h*" },
        ],
        allow: [{ tool: "readFile", path: "/etc/" }],
      },
    });
    const denied = (path: string, access: "read" | "list") => gate.denied(path, access)?.message;
    expect(denied("/w/secret", "read")).toBe(refusal("/w/secret", "readFile"));
    expect(denied("/w/secret/a/b/c.txt", "read")).toBe(refusal("/w/secret/a/b/c.txt", "readFile"));
    expect([denied("/w/secretx", "read"), denied("/w", "read"), denied("/w/sec", "read")]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(denied("/w/hidden/h.txt", "list")).toBe(refusal("/w/hidden/h.txt", "listDir"));
    expect(denied("/w/a/hidden", "list")).toBeUndefined();
    // The allow rule `/etc/` is `/etc`: it admits /etc itself, not what is below it.
    const memory = memoryFileSystem({ files: { "/etc/hosts": "h" } });
    const outside = createGate({ fs: memory, cwd: "/w", permissions: { allow: [{ tool: "listDir", path: "/etc/" }] } });
    expect((await outside.check("/etc", "list")).ok).toBe(true);
    expect((await outside.check("/etc/hosts", "list")).ok).toBe(false);
  });

  it("a deny rule matches a path exactly when its glob matches the path or an ancestor (fast-check)", async () => {
    const globs = [
      ...["/w/s*", "/w/**/k", "/w/{a,b}/c", "/w/?/x.txt", "/w/a/**", "/w/*.txt", "/w/a[bc]", "/w/**"],
      // Negated extglobs (anchors in a lookahead): tested ancestor by ancestor.
      ...["/w/!(a)", "/w/**/!(*.txt)", "/w/a/!(b|c)/**"],
    ];
    const gates = globs.map((glob) => ({
      isMatch: picomatch(glob, { dot: true, windows: false }),
      gate: createGate({ fs: denyFixture(), cwd: "/w", permissions: { deny: [{ tool: "readFile", path: glob }] } }),
    }));
    const name = fc.constantFrom("a", "b", "c", "k", "s", "sx", "x.txt", "ab", "ac", ".d", "a b");
    await fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 6 }), (names) => {
        const path = `/w/${names.join("/")}`;
        const ancestors = ["/w", ...names.map((_, index) => `/w/${names.slice(0, index + 1).join("/")}`)];
        for (const { isMatch, gate } of gates) {
          expect(gate.denied(path, "read") !== undefined).toBe(ancestors.some((ancestor) => isMatch(ancestor)));
        }
      }),
    );
  });

  it("gate.fs: readdir leaves out entries denied for listDir; readFile-denied names stay; metadata is not refused", async () => {
    const gate = createGate({ fs: denyFixture(), cwd: "/w", permissions: { deny: [...DENY] } });
    expect((await gate.fs.readdir("/w")).map((entry) => entry.name).sort()).toEqual([
      "a.txt",
      "box",
      "locked",
      "secret",
      "vault",
    ]);
    expect((await gate.fs.readdir("secret")).map((entry) => entry.name)).toEqual(["k.txt"]);
    await expect(gate.fs.readdir("hidden")).rejects.toThrow(
      `EACCES: permission denied, scandir 'hidden' (${refusal("/w/hidden", "listDir")})`,
    );
    await expect(gate.fs.readFile("secret/k.txt")).rejects.toThrow(
      `EACCES: permission denied, open 'secret/k.txt' (${refusal("/w/secret/k.txt", "readFile")})`,
    );
    // A stat reads neither content nor a listing: known names can still be stat'ed.
    expect((await gate.fs.stat("secret/k.txt")).size).toBe(13);
    expect((await gate.fs.stat("hidden")).type).toBe("directory");
    expect(text(await gate.fs.readFile("hidden/h.txt"))).toBe("h");
  });

  it("gate.fs: a path denied for reading or listing is not moved, nor a directory holding one; write-denied paths are not removed", async () => {
    const fs = denyFixture();
    const gate = createGate({ fs, cwd: "/w", permissions: { deny: [...DENY] } });
    const movedAway = (path: string, tool: string) =>
      `Permission denied: ${path} matches a deny rule for "${tool}" in the permissions config, so it cannot be moved or renamed (that would expose it under another name).`;
    await expect(gate.fs.rename("secret/k.txt", "leak.txt")).rejects.toThrow(
      `EACCES: permission denied, rename 'secret/k.txt' (${movedAway("/w/secret/k.txt", "readFile")})`,
    );
    await expect(gate.fs.rename("hidden", "shown")).rejects.toThrow(
      `EACCES: permission denied, rename 'hidden' (${movedAway("/w/hidden", "listDir")})`,
    );
    await expect(gate.fs.rename("box", "open-box")).rejects.toThrow(
      `EACCES: permission denied, rename 'box' (Permission denied: /w/box/deep/k.txt matches a deny rule for "readFile" in the permissions config, and it lies under /w/box, so /w/box cannot be moved or renamed.)`,
    );
    await expect(gate.fs.rm("/w/locked", { recursive: true })).rejects.toThrow(
      `EACCES: permission denied, rm '/w/locked' (${refusal("/w/locked", "writeFile")})`,
    );
    const keptBelow =
      'Permission denied: /w/vault/keep.txt matches a deny rule for "writeFile" in the permissions config, and it lies under /w/vault, so /w/vault cannot be';
    await expect(gate.fs.rm("vault", { recursive: true })).rejects.toThrow(
      `EACCES: permission denied, rm 'vault' (${keptBelow} removed.)`,
    );
    await expect(gate.fs.rename("vault", "elsewhere")).rejects.toThrow(
      `EACCES: permission denied, rename 'vault' (${keptBelow} moved or renamed.)`,
    );
    // Everything is where it was; what no rule protects still moves and goes.
    expect(text(await fs.readFile("/w/secret/k.txt"))).toBe("TOKEN=hunter2");
    expect(text(await fs.readFile("/w/box/deep/k.txt"))).toBe("TOKEN=deep");
    expect((await fs.readdir("/w/hidden")).map((entry) => entry.name)).toEqual(["h.txt"]);
    expect([text(await fs.readFile("/w/locked/l.txt")), text(await fs.readFile("/w/vault/keep.txt"))]).toEqual([
      "l",
      "keep",
    ]);
    await gate.fs.rename("box/open.txt", "open.txt");
    await gate.fs.rm("secret/k.txt"); // removing is a write, and no writeFile rule names it
    await expect(fs.stat("/w/secret/k.txt")).rejects.toMatchObject({ code: "ENOENT" });
    expect(text(await fs.readFile("/w/open.txt"))).toBe("o");
  });

  it("gate.fs.watch does not report changes to paths denied for listDir", async () => {
    const memory = denyFixture();
    let emit: ((event: { type: "write"; path: string }) => void) | undefined;
    const watched: FileSystem = {
      ...memory,
      // Called by name (check-then-use): this test is about what watch reports, not about swaps.
      noFollow: undefined,
      capabilities: { ...memory.capabilities, watch: true },
      watch: (_path, listener) => ((emit = listener), () => undefined),
    };
    const gate = createGate({ fs: watched, cwd: "/w", permissions: { deny: [...DENY] } });
    const seen: string[] = [];
    const stop = gate.fs.watch!("/w", (event) => seen.push(event.path));
    await vi.waitFor(() => expect(emit).toBeDefined());
    for (const path of ["/w/a.txt", "/w/hidden", "/w/hidden/h.txt", "/w/secret/k.txt"]) emit!({ type: "write", path });
    stop();
    expect(seen).toEqual(["/w/a.txt", "/w/secret/k.txt"]);
  });
});

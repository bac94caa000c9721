import * as realFs from "node:fs";
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "better-fs-tools/memory";
import { createNodeFs, NodeFsError, type NodeFs } from "better-fs-tools/node-fs";

describe("createNodeFs options", () => {
  it("refuses an unknown option, a relative cwd and something that is not a FileSystem, at creation", () => {
    const fs = memoryFileSystem();
    expect(() => createNodeFs(fs, { cwdd: "/" } as never)).toThrow(TypeError);
    expect(() => createNodeFs(fs, { cwd: "w" })).toThrow('createNodeFs cwd must be an absolute path, got "w"');
    expect(() => createNodeFs({} as never)).toThrow("createNodeFs needs a FileSystem (a backend, or a gate's gate.fs)");
  });

  it("relative paths resolve against cwd, which defaults to the backend's own, else /", async () => {
    const storage = memoryFileSystem({ files: { "/w/a.txt": "a", "/b.txt": "b" } });
    expect(await createNodeFs(storage, { cwd: "/w" }).promises.readFile("a.txt", "utf8")).toBe("a");
    expect(await createNodeFs(storage).promises.readFile("b.txt", "utf8")).toBe("b");
  });

  it("errors are Node's: own fields only where Node sets them", async () => {
    const fs = createNodeFs(memoryFileSystem());
    const error = (await fs.promises.stat("/nope").catch((failure: unknown) => failure)) as NodeFsError;
    expect({ ...error }).toEqual({ code: "ENOENT", errno: -2, syscall: "stat", path: "/nope" });
    expect(error.name).toBe("Error");
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe("ENOENT: no such file or directory, stat '/nope'");
  });

  it("a closed descriptor is EBADF, in every API", async () => {
    const fs = createNodeFs(memoryFileSystem({ files: { "/a": "a" } }));
    const fd = fs.openSync("/a", "r");
    fs.closeSync(fd);
    expect(() => fs.readSync(fd, new Uint8Array(1))).toThrow(
      expect.objectContaining({ code: "EBADF", syscall: "read" }),
    );
    const viaCallback = await new Promise<unknown>((resolve) => fs.fstat(fd, resolve));
    expect(viaCallback).toMatchObject({ code: "EBADF", syscall: "fstat" });
  });
});

describe("file: URLs, as Node's fileURLToPath takes them", () => {
  const urls = [
    "file://host/w/a.txt",
    "file://[::1]/w/a.txt",
    "file:///w/a%2Fb",
    "file:///w/a%2fb",
    "http://x/w/a.txt",
  ];
  type Outcome = { name?: string; code?: unknown; message?: string } | "ok";
  // Each form must refuse: the outcomes below are compared with node:fs's and then spelled out.
  const outcome = (error: unknown): Outcome => {
    const { name, code, message } = error as { name?: string; code?: unknown; message?: string };
    return { name, code, message };
  };
  /** What each API does with `url`: the promise rejects, the sync and callback calls throw at once. */
  async function each(fs: NodeFs, url: URL): Promise<Outcome[]> {
    const promise = await fs.promises.stat(url).then(
      () => "ok" as const,
      (error: unknown) => outcome(error),
    );
    const sync = (() => {
      try {
        fs.statSync(url);
        return "ok" as const;
      } catch (error) {
        return outcome(error);
      }
    })();
    const callback = await (async () => {
      try {
        // Called back (with or without an error) rather than thrown at the call: "called back".
        return await new Promise<Outcome>((resolve) => fs.stat(url, () => resolve({ name: "called back" })));
      } catch (error) {
        return outcome(error);
      }
    })();
    return [promise, sync, callback];
  }

  it("refuses a host, an encoded / and another scheme with Node's TypeError, code and message, in every API", async () => {
    const ours = createNodeFs(memoryFileSystem({ files: { "/w/a.txt": "a" } }));
    for (const url of urls) {
      const expected = await each(realFs as unknown as NodeFs, new URL(url));
      expect(await each(ours, new URL(url))).toEqual(expected);
    }
    expect((await each(ours, new URL(urls[0]!)))[0]).toEqual({
      name: "TypeError",
      code: "ERR_INVALID_FILE_URL_HOST",
      message: `File URL host must be "localhost" or empty on ${process.platform}`,
    });
    expect((await each(ours, new URL(urls[2]!)))[1]).toEqual({
      name: "TypeError",
      code: "ERR_INVALID_FILE_URL_PATH",
      message: "File URL path must not include encoded / characters",
    });
  });

  it("file://localhost/ and file:/// name the same file, as in Node", async () => {
    const ours = createNodeFs(memoryFileSystem({ files: { "/w/a b.txt": "spaced" } }));
    const localhost = new URL("file://localhost/w/a%20b.txt");
    expect(localhost.hostname).toBe("");
    expect([
      await ours.promises.readFile(localhost, "utf8"),
      ours.readFileSync(new URL("file:///w/a%20b.txt"), "utf8"),
    ]).toEqual(["spaced", "spaced"]);
  });
});

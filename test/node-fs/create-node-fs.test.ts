import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "better-fs-tools/memory";
import { createNodeFs, NodeFsError } from "better-fs-tools/node-fs";

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

/**
 * A minimal FileSystem over memfs for the gate tests, independent of `src/fs/memory.ts` (so the
 * gate can be tested before and apart from that backend). Symlinks included.
 */
import { Volume } from "memfs";
import { FsError, type FileSystem, type FsErrorCode, type FileType } from "../../src/fs/types.js";

function wrap(error: unknown, syscall: string, path: string): FsError {
  const code = (error as { code?: string }).code ?? "EIO";
  return new FsError(code as FsErrorCode, { syscall, path, cause: error });
}

type MemfsStats = { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean; size: number | bigint; mtimeMs: number | bigint };

function typeOf(stats: MemfsStats): FileType {
  return stats.isSymbolicLink() ? "symlink" : stats.isDirectory() ? "directory" : stats.isFile() ? "file" : "other";
}

/** A memfs-backed FileSystem holding `files` (path → text), with symlinks. */
export function memfsFixture(files: Record<string, string> = {}, links: Record<string, string> = {}): FileSystem & { volume: InstanceType<typeof Volume> } {
  const volume = new Volume();
  for (const [path, text] of Object.entries(files)) {
    volume.mkdirSync(path.slice(0, path.lastIndexOf("/")) || "/", { recursive: true });
    volume.writeFileSync(path, text);
  }
  for (const [path, target] of Object.entries(links)) {
    volume.mkdirSync(path.slice(0, path.lastIndexOf("/")) || "/", { recursive: true });
    volume.symlinkSync(target, path);
  }
  const p = volume.promises;
  async function call<T>(syscall: string, path: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw wrap(error, syscall, path);
    }
  }
  return {
    volume,
    name: "memfs-fixture",
    capabilities: { symlink: true },
    readFile: (path) => call("open", path, async () => new Uint8Array((await p.readFile(path)) as Uint8Array)),
    writeFile: (path, data) =>
      call("open", path, async () => {
        await p.mkdir(path.slice(0, path.lastIndexOf("/")) || "/", { recursive: true });
        await p.writeFile(path, data);
      }),
    stat: (path) => call("stat", path, async () => { const s = (await p.stat(path)) as MemfsStats; return { type: typeOf(s), size: Number(s.size), mtimeMs: Number(s.mtimeMs) }; }),
    lstat: (path) => call("lstat", path, async () => { const s = (await p.lstat(path)) as MemfsStats; return { type: typeOf(s), size: Number(s.size), mtimeMs: Number(s.mtimeMs) }; }),
    readdir: (path) =>
      call("scandir", path, async () => {
        const entries = (await p.readdir(path, { withFileTypes: true })) as unknown as Array<MemfsStats & { name: string }>;
        return entries.map((entry) => ({ name: String(entry.name), type: typeOf(entry) }));
      }),
    mkdir: (path, options) => call("mkdir", path, async () => { await p.mkdir(path, options); }),
    rm: (path, options) => call("rm", path, async () => { await p.rm(path, options); }),
    rename: (from, to) => call("rename", from, () => p.rename(from, to)),
    realpath: (path) => call("realpath", path, async () => String(await p.realpath(path))),
    symlink: (target, path) => call("symlink", path, () => p.symlink(target, path)),
    readlink: (path) => call("readlink", path, async () => String(await p.readlink(path))),
  };
}

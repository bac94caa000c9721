/**
 * The error table of the conformance suite: one row per failing call, with the exact `code` and
 * the exact start of the message (`ENOENT: no such file or directory, open '/a'`), Node's wording.
 * Every row starts from the fixture below.
 *
 * Fixture: `/file.txt` ("x"), `/dir/inner.txt` ("inner"), `/empty/` (empty directory).
 */
import type { FileSystem, FileSystemCapabilities } from "../contract/types.js";
import type { FsErrorCode } from "../contract/errors.js";

/** One failing call and what it must raise. */
export interface ErrorCase {
  /** The test name (also what a `todo` entry matches). */
  readonly name: string;
  /** The call that must reject. */
  readonly call: (fs: FileSystem) => Promise<unknown>;
  readonly code: FsErrorCode;
  /** The message must start with exactly this text. */
  readonly message: string;
  /** The case runs only when the backend declares this capability. */
  readonly capability?: keyof FileSystemCapabilities;
}

const encoder = new TextEncoder();

/** Writes the fixture every error case starts from. */
export async function writeErrorFixture(fs: FileSystem): Promise<void> {
  await fs.writeFile("/file.txt", encoder.encode("x"));
  await fs.writeFile("/dir/inner.txt", encoder.encode("inner"));
  await fs.mkdir("/empty");
}

function symlinkOf(fs: FileSystem): NonNullable<FileSystem["symlink"]> {
  if (fs.symlink === undefined) throw new Error("backend declares capabilities.symlink but has no symlink()");
  return fs.symlink.bind(fs);
}

function readlinkOf(fs: FileSystem): NonNullable<FileSystem["readlink"]> {
  if (fs.readlink === undefined) throw new Error("backend declares capabilities.symlink but has no readlink()");
  return fs.readlink.bind(fs);
}

/** The table. Names are stable: backends list them in `todo`. */
export const ERROR_CASES: readonly ErrorCase[] = [
  {
    name: "readFile of a missing file",
    call: (fs) => fs.readFile("/missing.txt"),
    code: "ENOENT",
    message: "ENOENT: no such file or directory, open '/missing.txt'",
  },
  {
    name: "readFile in a missing directory",
    call: (fs) => fs.readFile("/no/such/file.txt"),
    code: "ENOENT",
    message: "ENOENT: no such file or directory, open '/no/such/file.txt'",
  },
  {
    name: "readFile of a directory",
    call: (fs) => fs.readFile("/dir"),
    code: "EISDIR",
    message: "EISDIR: illegal operation on a directory, open '/dir'",
  },
  {
    name: "readFile below a file",
    call: (fs) => fs.readFile("/file.txt/x"),
    code: "ENOTDIR",
    message: "ENOTDIR: not a directory, open '/file.txt/x'",
  },
  {
    name: "writeFile over a directory",
    call: (fs) => fs.writeFile("/dir", encoder.encode("y")),
    code: "EISDIR",
    message: "EISDIR: illegal operation on a directory, open '/dir'",
  },
  {
    name: "writeFile below a file",
    call: (fs) => fs.writeFile("/file.txt/x", encoder.encode("y")),
    code: "ENOTDIR",
    message: "ENOTDIR: not a directory, open '/file.txt/x'",
  },
  {
    name: "writeFile two levels below a file",
    call: (fs) => fs.writeFile("/file.txt/a/b.txt", encoder.encode("y")),
    code: "ENOTDIR",
    message: "ENOTDIR: not a directory, open '/file.txt/a/b.txt'",
  },
  {
    name: "stat of a missing path",
    call: (fs) => fs.stat("/missing"),
    code: "ENOENT",
    message: "ENOENT: no such file or directory, stat '/missing'",
  },
  {
    name: "stat below a file",
    call: (fs) => fs.stat("/file.txt/x"),
    code: "ENOTDIR",
    message: "ENOTDIR: not a directory, stat '/file.txt/x'",
  },
  {
    name: "lstat of a missing path",
    call: (fs) => fs.lstat("/missing"),
    code: "ENOENT",
    message: "ENOENT: no such file or directory, lstat '/missing'",
  },
  {
    name: "readdir of a missing directory",
    call: (fs) => fs.readdir("/missing"),
    code: "ENOENT",
    message: "ENOENT: no such file or directory, scandir '/missing'",
  },
  {
    name: "readdir of a file",
    call: (fs) => fs.readdir("/file.txt"),
    code: "ENOTDIR",
    message: "ENOTDIR: not a directory, scandir '/file.txt'",
  },
  {
    name: "mkdir of an existing directory",
    call: (fs) => fs.mkdir("/dir"),
    code: "EEXIST",
    message: "EEXIST: file already exists, mkdir '/dir'",
  },
  {
    name: "mkdir of an existing file",
    call: (fs) => fs.mkdir("/file.txt"),
    code: "EEXIST",
    message: "EEXIST: file already exists, mkdir '/file.txt'",
  },
  {
    name: "mkdir recursive of an existing file",
    call: (fs) => fs.mkdir("/file.txt", { recursive: true }),
    code: "EEXIST",
    message: "EEXIST: file already exists, mkdir '/file.txt'",
  },
  {
    name: "mkdir with a missing parent",
    call: (fs) => fs.mkdir("/no/sub"),
    code: "ENOENT",
    message: "ENOENT: no such file or directory, mkdir '/no/sub'",
  },
  {
    name: "mkdir recursive below a file",
    call: (fs) => fs.mkdir("/file.txt/sub", { recursive: true }),
    code: "ENOTDIR",
    message: "ENOTDIR: not a directory, mkdir '/file.txt/sub'",
  },
  {
    name: "rm of a missing path",
    call: (fs) => fs.rm("/missing"),
    code: "ENOENT",
    message: "ENOENT: no such file or directory, rm '/missing'",
  },
  {
    name: "rm of a non-empty directory without recursive",
    call: (fs) => fs.rm("/dir"),
    code: "ENOTEMPTY",
    message: "ENOTEMPTY: directory not empty, rm '/dir'",
  },
  {
    name: "rm force of a non-empty directory without recursive",
    call: (fs) => fs.rm("/dir", { force: true }),
    code: "ENOTEMPTY",
    message: "ENOTEMPTY: directory not empty, rm '/dir'",
  },
  {
    name: "rename of a missing path",
    call: (fs) => fs.rename("/missing", "/other"),
    code: "ENOENT",
    message: "ENOENT: no such file or directory, rename '/missing' -> '/other'",
  },
  {
    name: "rename of a file over a directory",
    call: (fs) => fs.rename("/file.txt", "/dir"),
    code: "EISDIR",
    message: "EISDIR: illegal operation on a directory, rename '/file.txt' -> '/dir'",
  },
  {
    name: "rename of a directory into itself",
    call: (fs) => fs.rename("/dir", "/dir/sub"),
    code: "EINVAL",
    message: "EINVAL: invalid argument, rename '/dir' -> '/dir/sub'",
  },
  {
    name: "realpath of a missing path",
    call: (fs) => fs.realpath("/missing"),
    code: "ENOENT",
    message: "ENOENT: no such file or directory, realpath '/missing'",
  },
  {
    name: "readlink of a regular file",
    call: (fs) => readlinkOf(fs)("/file.txt"),
    code: "EINVAL",
    message: "EINVAL: invalid argument, readlink '/file.txt'",
    capability: "symlink",
  },
  {
    name: "readlink of a missing path",
    call: (fs) => readlinkOf(fs)("/missing"),
    code: "ENOENT",
    message: "ENOENT: no such file or directory, readlink '/missing'",
    capability: "symlink",
  },
  {
    name: "symlink over an existing path",
    call: (fs) => symlinkOf(fs)("/dir", "/file.txt"),
    code: "EEXIST",
    message: "EEXIST: file already exists, symlink '/dir' -> '/file.txt'",
    capability: "symlink",
  },
];

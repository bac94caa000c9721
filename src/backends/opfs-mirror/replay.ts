/**
 * Replay of journal and segment records into the working set (the memfs volume), the cold start's
 * main cost: a 10,000-file segment is 10,000 WRITE records.
 *
 * A WRITE through `volume.writeFileSync` copies the bytes twice (into a Buffer, then into the
 * file's storage) and keeps them in storage grown by doubling, up to twice the file's size; it
 * also resolves the parent path twice more (exists, utimes). Here a plain path is written
 * straight into its node, resolved through a cache of the batch's directories: the bytes are
 * copied once, into storage of exactly their size, or, for a segment (`shareBuffer`), not at all:
 * the file's storage is its record's bytes in the segment's buffer (memfs reallocates a file's
 * storage when a write grows it, and a write inside it touches only that file's own bytes).
 * Anything else (a path that is not plain, a volume without the expected internals, a name
 * taken by a directory) goes the general way.
 *
 * @module
 */
import type { Volume } from "memfs";
import { OP_MKDIR, OP_RENAME, OP_RM, OP_SEAL, OP_WRITE, type JournalOp } from "./journal.js";

/** The parts of memfs's node and link (`@jsonjoy.com/fs-core`) that the fast path uses. */
interface CoreNode {
  isDirectory(): boolean;
  isFile(): boolean;
  setBuffer(data: Uint8Array): void;
  getSize(): number;
  /** A copy of the used part of the storage (a memfs Buffer). */
  getBuffer(): Uint8Array;
  mtime: Date;
  /** The node's storage (a memfs Buffer). */
  readonly buf: Uint8Array;
  /** Takes `buf` as the storage, without a copy (memfs's own, used by `setString`). */
  _setBuf?(buf: Uint8Array): void;
}
interface CoreLink {
  getNode(): CoreNode;
  /** The entries by name (memfs's `getChild` also stamps the directory's `atime` with a new `Date`). */
  readonly children: Map<string, CoreLink | undefined>;
}
interface Core {
  readonly root: CoreLink;
  getResolvedLink(path: string): CoreLink | null;
  createLink(parent: CoreLink, name: string, isDirectory: boolean, mode: number): CoreLink;
}

function coreOf(volume: Volume): Core | undefined {
  const core = (volume as unknown as { _core?: Partial<Core> })._core;
  return typeof core?.getResolvedLink === "function" && typeof core.createLink === "function"
    ? (core as Core)
    : undefined;
}

/** memfs's Buffer class (the one its nodes hold), for views without a copy; undefined if not found. */
type BufferView = (buffer: ArrayBufferLike, byteOffset: number, length: number) => Uint8Array;
function bufferViewOf(core: Core): BufferView | undefined {
  const root = core.root?.getNode();
  const constructor = (root?.buf as { constructor?: { from?: unknown } } | undefined)?.constructor;
  if (typeof root?._setBuf !== "function" || typeof constructor?.from !== "function") return undefined;
  const from = constructor.from as (buffer: ArrayBufferLike, byteOffset: number, length: number) => unknown;
  const view: BufferView = (buffer, byteOffset, length) =>
    from.call(constructor, buffer, byteOffset, length) as Uint8Array;
  const probe = new Uint8Array(2);
  const viewed = view(probe.buffer, 1, 1);
  return viewed instanceof Uint8Array && viewed.buffer === probe.buffer && viewed.byteOffset === 1 ? view : undefined;
}

/** Options of {@link replayRecords}. */
export interface ReplayOptions {
  /**
   * `true` keeps each file's bytes where they are (a view into the decoded buffer, no copy): for
   * records out of a buffer no one writes to afterwards (a read segment or journal). Else the
   * bytes are copied and the buffer can go.
   */
  readonly shareBuffer?: boolean;
  /**
   * `"release"` (with `shareBuffer`, for a journal, where a file may be written more than once):
   * when the files hold much less than the buffer's bytes, move them out so replaced records'
   * bytes are not kept alive.
   */
  readonly superseded?: "release";
}

/** `/a/b.txt`-style: absolute, no empty, `.` or `..` segment, no trailing slash. */
function isPlain(path: string): boolean {
  return (
    path.length > 1 &&
    path[0] === "/" &&
    !path.endsWith("/") &&
    !path.includes("//") &&
    !path.includes("/./") &&
    !path.includes("/../") &&
    !path.endsWith("/.") &&
    !path.endsWith("/..")
  );
}

/** The general way of one record (what the fast path falls back to). */
function replaySlow(volume: Volume, record: JournalOp): void {
  switch (record.op) {
    case OP_WRITE: {
      const parent = record.path.slice(0, record.path.lastIndexOf("/")) || "/";
      if (!volume.existsSync(parent)) volume.mkdirSync(parent, { recursive: true });
      volume.writeFileSync(record.path, record.data);
      volume.utimesSync(record.path, record.mtimeMs / 1000, record.mtimeMs / 1000);
      return;
    }
    case OP_MKDIR:
      if (!volume.existsSync(record.path)) volume.mkdirSync(record.path, { recursive: true });
      return;
    case OP_RM:
      volume.rmSync(record.path, { recursive: true, force: true });
      return;
    case OP_RENAME: {
      if (record.path === record.dest) return;
      const target = volume.existsSync(record.dest) ? volume.lstatSync(record.dest) : undefined;
      if (target?.isDirectory()) volume.rmdirSync(record.dest);
      volume.renameSync(record.path, record.dest);
      return;
    }
    case OP_SEAL:
      return;
  }
}

/**
 * Apply durable records, in order, to the working set. Only records of calls that succeeded are
 * ever written, so one that no longer applies is skipped.
 *
 * @param volume - the working set.
 * @param records - decoded records.
 * @param options - see {@link ReplayOptions}.
 */
export function replayRecords(volume: Volume, records: Iterable<JournalOp>, options: ReplayOptions = {}): void {
  const core = coreOf(volume);
  const view = options.shareBuffer === true && core !== undefined ? bufferViewOf(core) : undefined;
  // Files whose storage is a view into the records' buffer, and the bytes given to them.
  const viewed = new Set<CoreNode>();
  let viewedBytes = 0;
  let source: ArrayBufferLike | undefined;
  // Directory links by path, valid while no RM or RENAME has run in this batch. A missing one is
  // made as `mkdir -p` would (mode 0o777), one name below its parent; anything else in the way
  // (a file, a link) leaves the record to the general way.
  const directories = new Map<string, CoreLink>();
  const directory = (path: string): CoreLink | undefined => {
    let link = directories.get(path);
    if (link !== undefined) return link;
    if (path === "/") link = core!.root;
    else {
      const cut = path.lastIndexOf("/");
      const parent = directory(cut === 0 ? "/" : path.slice(0, cut));
      if (parent === undefined) return undefined;
      const name = path.slice(cut + 1);
      const child = parent.children.get(name);
      if (child === undefined) link = core!.createLink(parent, name, true, 0o777);
      else if (child.getNode().isDirectory()) link = child;
      else return undefined;
    }
    directories.set(path, link);
    return link;
  };
  for (const record of records) {
    try {
      if (record.op === OP_WRITE && core !== undefined && isPlain(record.path)) {
        const cut = record.path.lastIndexOf("/");
        const parent = directory(cut === 0 ? "/" : record.path.slice(0, cut));
        const name = record.path.slice(cut + 1);
        const existing = parent?.children.get(name);
        if (parent !== undefined && (existing === undefined || existing.getNode().isFile())) {
          const node = (existing ?? core.createLink(parent, name, false, 0o666)).getNode();
          const data = record.data;
          if (view !== undefined && node._setBuf !== undefined) {
            node._setBuf(view(data.buffer, data.byteOffset, data.byteLength));
            viewed.add(node);
            viewedBytes += data.byteLength;
            source ??= data.buffer;
          } else node.setBuffer(data);
          node.mtime = new Date(record.mtimeMs);
          continue;
        }
      }
      if (record.op === OP_RM || record.op === OP_RENAME) directories.clear();
      replaySlow(volume, record);
    } catch {
      // A record that no longer applies cannot come from a call that succeeded; skip it.
    }
  }
  if (options.superseded === "release" && view !== undefined && source !== undefined)
    releaseSuperseded(viewed, viewedBytes, source, view);
}

/**
 * Files keep at least this share of the bytes they were given in the records' buffer, or their
 * bytes move to a buffer of their own (so replaced records are not kept alive): 90 %.
 */
const KEEP_SHARED_SHARE = 0.9;

/**
 * After a replay with `superseded: "release"`: when the files still viewing the records' buffer
 * hold less than {@link KEEP_SHARED_SHARE} of the bytes given to them (a file written twice, a
 * file written then removed), their bytes move into one new buffer of exactly their size (one
 * allocation, one copy each), and the records' buffer can go.
 */
function releaseSuperseded(
  viewed: ReadonlySet<CoreNode>,
  viewedBytes: number,
  source: ArrayBufferLike,
  view: BufferView,
): void {
  // A file written again the general way since holds storage of its own.
  const live = [...viewed].filter((node) => node.buf.buffer === source);
  let kept = 0;
  for (const node of live) kept += node.buf.byteLength;
  if (kept >= viewedBytes * KEEP_SHARED_SHARE) return;
  const packed = new Uint8Array(kept);
  let at = 0;
  for (const node of live) {
    const size = node.buf.byteLength;
    packed.set(node.buf, at);
    node._setBuf!(view(packed.buffer, at, size));
    at += size;
  }
}

/** What {@link writeFileNode} did: the file's new mtime, and how to take the write back. */
export interface NodeWrite {
  readonly mtimeMs: number;
  /** The file's storage after the write, its bytes (memfs never writes into it: a later write gives the node new storage). */
  readonly bytes: Uint8Array;
  /** Put the path back as it was (the old bytes, mtime and mode, or no file). */
  undo(): void;
}

/**
 * A mutation's write of one file straight into its node, as the memory backend's `writeFile`
 * leaves it (mode `0o666` for a new file, the bytes copied once into storage of exactly their
 * size, mtime now), for the plain case: a plain path whose parent directory exists and whose
 * target is a file or nothing. The old bytes are kept by reference for the undo, not copied
 * (memfs gives the node new storage rather than writing into the old). Anything else (a missing
 * parent, a directory in the way, an odd path, a NUL byte, data that is not a Uint8Array)
 * returns undefined, untouched: the caller goes the general way, which also reports the errors.
 *
 * @param volume - the working set.
 * @param path - absolute path.
 * @param data - the file's new bytes (copied).
 * @returns the write's mtime (ms) and its undo, or undefined for anything but the plain case.
 */
export function writeFileNode(volume: Volume, path: string, data: Uint8Array): NodeWrite | undefined {
  const core = coreOf(volume);
  // A NUL byte (EINVAL) or bytes that are not a Uint8Array: the memory backend's call decides.
  if (core === undefined || !isPlain(path) || path.includes("\0") || !(data instanceof Uint8Array)) return undefined;
  let parent = core.root;
  const names = path.split("/");
  for (let index = 1; index < names.length - 1; index++) {
    const child = parent.children.get(names[index]!);
    if (child === undefined || !child.getNode().isDirectory()) return undefined;
    parent = child;
  }
  const name = names[names.length - 1]!;
  const existing = parent.children.get(name);
  if (existing !== undefined) {
    const node = existing.getNode();
    if (!node.isFile() || typeof node._setBuf !== "function") return undefined;
    // Storage of exactly the file's size (the usual case here) is kept as it is; else its used part.
    const before = node.getSize() === node.buf.length ? node.buf : node.getBuffer();
    const mtime = node.mtime;
    node.setBuffer(data);
    return {
      mtimeMs: node.mtime.getTime(),
      bytes: node.buf,
      undo: () => {
        node._setBuf!(before);
        node.mtime = mtime;
      },
    };
  }
  const node = core.createLink(parent, name, false, 0o666).getNode();
  node.setBuffer(data);
  return {
    mtimeMs: node.mtime.getTime(),
    bytes: node.buf,
    undo: () => {
      if (parent.children.get(name) !== undefined) volume.unlinkSync(path);
    },
  };
}

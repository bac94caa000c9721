/**
 * Model-based: random sequences of write, append (read-modify-write), rename of files and of
 * directories, rm and mkdir, run on the store backends and on a plain model (a map of files and
 * a set of directories); after every call the outcome (ok or error code) must match, and at the
 * end the whole tree. On unstorage's memory driver and on a real redis-server.
 */
import * as fc from "fast-check";
import { createStorage } from "unstorage";
import memoryDriver from "unstorage/drivers/memory";
import { afterAll, describe, expect, it } from "vitest";
import { FsError } from "../../../src/contract/errors.js";
import type { FileSystem } from "../../../src/contract/types.js";
import { redisFileSystem } from "../../../src/backends/redis/index.js";
import { unstorageFileSystem } from "../../../src/backends/unstorage/index.js";
import { NO_REDIS_REASON, REDIS_AVAILABLE, startRedisServer, type RedisServer } from "./server.js";

const FILES = ["/w/a.txt", "/w/b.txt", "/w/d/c.txt", "/w/d/e/f.txt", "/w/x/c.txt"] as const;
const DIRS = ["/w/d", "/w/x", "/w/d/e"] as const;

type Op =
  | { readonly op: "write"; readonly path: string; readonly text: string }
  | { readonly op: "append"; readonly path: string; readonly text: string }
  | { readonly op: "rename"; readonly from: string; readonly to: string }
  | { readonly op: "rm"; readonly path: string }
  | { readonly op: "mkdir"; readonly path: string };

const file = fc.constantFrom(...FILES);
const dir = fc.constantFrom(...DIRS);
const text = fc.string({ maxLength: 6 });
const OPS: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("write" as const), path: file, text }),
  fc.record({ op: fc.constant("append" as const), path: file, text }),
  fc.record({ op: fc.constant("rename" as const), from: file, to: file }),
  fc.record({
    op: fc.constant("rename" as const),
    from: fc.constantFrom("/w/d", "/w/x"),
    to: fc.constantFrom("/w/d", "/w/x"),
  }),
  fc.record({ op: fc.constant("rm" as const), path: fc.oneof(file, dir) }),
  fc.record({ op: fc.constant("mkdir" as const), path: dir }),
);

/** The plain model: files by path, and directories (`/w` always there). */
class Model {
  readonly files = new Map<string, string>();
  readonly dirs = new Set<string>(["/w"]);

  private parentOf(path: string): string {
    return path.slice(0, path.lastIndexOf("/"));
  }
  private makeParents(path: string): void {
    for (let parent = this.parentOf(path); parent !== "/w" && parent !== ""; parent = this.parentOf(parent)) {
      this.dirs.add(parent);
    }
  }
  private below(path: string): { files: string[]; dirs: string[] } {
    return {
      files: [...this.files.keys()].filter((each) => each.startsWith(`${path}/`)),
      dirs: [...this.dirs].filter((each) => each.startsWith(`${path}/`)),
    };
  }

  apply(op: Op): string {
    switch (op.op) {
      case "write":
        this.makeParents(op.path);
        this.files.set(op.path, op.text);
        return "ok";
      case "append": {
        const old = this.files.get(op.path);
        if (old === undefined) return "ENOENT";
        this.files.set(op.path, old + op.text);
        return "ok";
      }
      case "rename": {
        if (this.files.has(op.from)) {
          if (!this.dirs.has(this.parentOf(op.to))) return "ENOENT";
          const content = this.files.get(op.from) as string;
          this.files.delete(op.from);
          this.files.set(op.to, content);
          return "ok";
        }
        if (!this.dirs.has(op.from)) return "ENOENT";
        if (op.from === op.to) return "ok";
        const target = this.below(op.to);
        if (target.files.length + target.dirs.length > 0) return "ENOTEMPTY";
        const moved = this.below(op.from);
        this.dirs.delete(op.from);
        this.dirs.add(op.to);
        for (const each of moved.dirs) {
          this.dirs.delete(each);
          this.dirs.add(op.to + each.slice(op.from.length));
        }
        for (const each of moved.files) {
          const content = this.files.get(each) as string;
          this.files.delete(each);
          this.files.set(op.to + each.slice(op.from.length), content);
        }
        return "ok";
      }
      case "rm": {
        if (this.files.delete(op.path)) return "ok";
        if (!this.dirs.has(op.path)) return "ENOENT";
        const inside = this.below(op.path);
        for (const each of inside.files) this.files.delete(each);
        for (const each of inside.dirs) this.dirs.delete(each);
        this.dirs.delete(op.path);
        return "ok";
      }
      case "mkdir":
        this.makeParents(`${op.path}/x`);
        return "ok";
    }
  }

  tree(): Record<string, string> {
    const tree: Record<string, string> = {};
    for (const each of this.dirs) if (each !== "/w") tree[each] = "<dir>";
    for (const [path, content] of this.files) tree[path] = content;
    return tree;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function applyTo(fs: FileSystem, op: Op): Promise<string> {
  try {
    switch (op.op) {
      case "write":
        await fs.writeFile(op.path, encoder.encode(op.text));
        break;
      case "append":
        await fs.writeFile(op.path, encoder.encode(decoder.decode(await fs.readFile(op.path)) + op.text));
        break;
      case "rename":
        await fs.rename(op.from, op.to);
        break;
      case "rm":
        await fs.rm(op.path, { recursive: true });
        break;
      case "mkdir":
        await fs.mkdir(op.path, { recursive: true });
        break;
    }
    return "ok";
  } catch (error) {
    return FsError.isInstance(error) ? error.code : String(error);
  }
}

async function treeOf(fs: FileSystem, dir = "/w", tree: Record<string, string> = {}): Promise<Record<string, string>> {
  for (const entry of await fs.readdir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.type === "directory") {
      tree[path] = "<dir>";
      await treeOf(fs, path, tree);
    } else tree[path] = decoder.decode(await fs.readFile(path));
  }
  return tree;
}

function sorted(tree: Record<string, string>): [string, string][] {
  return Object.entries(tree).sort(([a], [b]) => (a < b ? -1 : 1));
}

async function runSequence(fs: FileSystem, ops: readonly Op[]): Promise<void> {
  await fs.mkdir("/w", { recursive: true });
  const model = new Model();
  const outcomes = [];
  for (const op of ops) outcomes.push({ op, backend: await applyTo(fs, op), model: model.apply(op) });
  expect(outcomes.filter((each) => each.backend !== each.model)).toEqual([]);
  expect(sorted(await treeOf(fs))).toEqual(sorted(model.tree()));
}

const SEQUENCE = fc.array(OPS, { minLength: 1, maxLength: 25 });

describe("sequences of calls match a plain model", () => {
  it("unstorage (memory driver): 200 random sequences", async () => {
    await fc.assert(
      fc.asyncProperty(SEQUENCE, (ops) =>
        runSequence(unstorageFileSystem(createStorage({ driver: memoryDriver() })), ops),
      ),
      { numRuns: 200, seed: 29 },
    );
  });

  // Started by the case (not at collection), so nothing is started where redis-server is missing.
  let server: Promise<RedisServer> | undefined;
  afterAll(async () => (await server)?.stop());
  let next = 0;
  it.skipIf(!REDIS_AVAILABLE)(
    `redis: 40 random sequences on a real redis-server (${NO_REDIS_REASON})`,
    { timeout: 60_000 },
    async () => {
      const { url } = await (server ??= startRedisServer());
      await fc.assert(
        fc.asyncProperty(SEQUENCE, async (ops) => {
          const fs = redisFileSystem({ url, prefix: `sequence-${process.pid}-${++next}` });
          try {
            await runSequence(fs, ops);
          } finally {
            await fs.close();
          }
        }),
        { numRuns: 40, seed: 29 },
      );
    },
  );
});

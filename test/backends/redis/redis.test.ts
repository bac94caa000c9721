/**
 * The Redis backend on a real redis-server (started on a free port by this file, stopped after):
 * the conformance suite, its options, and the Redis locks. The attack corpus runs in
 * test/security/corpus-redis.test.ts, the sequence test in sequence.test.ts.
 */
import { afterAll, describe, expect, it } from "vitest";
import { testFileSystem } from "better-fs-tools/conformance";
import { redisFileSystem, type RedisFileSystem } from "../../../src/backends/redis/index.js";
import { NO_REDIS_REASON, REDIS_AVAILABLE, startRedisServer, type RedisServer } from "./server.js";

const available = REDIS_AVAILABLE;
// Started at collection: the conformance suite makes a probe instance then.
const server: RedisServer | undefined = available ? await startRedisServer() : undefined;
let next = 0;

afterAll(async () => {
  await server?.stop();
});

function fresh(options: { lockTtlMs?: number } = {}): RedisFileSystem {
  if (server === undefined) throw new Error("no redis-server");
  next += 1;
  // A long command timeout: the 20 MiB case is one 27 MB SET (base64), slow on a loaded machine.
  return redisFileSystem({
    url: server.url,
    prefix: `conf-${process.pid}-${next}`,
    commandTimeoutMs: 60_000,
    ...options,
  });
}

if (available) {
  testFileSystem({
    name: "redis",
    create: async () => fresh(),
    destroy: async (fs) => (fs as RedisFileSystem).close(),
  });
} else {
  // The suite needs a running store to be collected (it probes one instance): one case in its place.
  it.skipIf(!available)(`conformance: redis, the whole suite (${NO_REDIS_REASON})`, () => {});
}

describe("redisFileSystem options", () => {
  it.each([
    [{ prefix: "p" }, "redisFileSystem url must be a redis:// or rediss:// URL, got undefined"],
    [{ url: "http://h", prefix: "p" }, 'redisFileSystem url must be a redis:// or rediss:// URL, got "http://h"'],
    [
      { url: "redis://h" },
      "redisFileSystem prefix must be a non-empty string of letters, digits, _ . ~ - (no : or /, which would reach into another prefix's keys), got undefined",
    ],
    [
      { url: "redis://h", prefix: "team-a:w" },
      'redisFileSystem prefix must be a non-empty string of letters, digits, _ . ~ - (no : or /, which would reach into another prefix\'s keys), got "team-a:w"',
    ],
    [
      { url: "redis://h", prefix: "team-a/w" },
      'redisFileSystem prefix must be a non-empty string of letters, digits, _ . ~ - (no : or /, which would reach into another prefix\'s keys), got "team-a/w"',
    ],
    [
      { url: "redis://h", prefix: "p", lockTtlMs: 0 },
      "redisFileSystem lockTtlMs must be a positive whole number of milliseconds, got 0",
    ],
    [
      { url: "redis://h", prefix: "p", ttl: 1 },
      'redisFileSystem got an unknown option "ttl". Known options: url, prefix, cwd, commandTimeoutMs, connectWaitMs, lockTtlMs, lockWaitMs',
    ],
  ])("options %j throw TypeError at creation", (options, message) => {
    expect(() => redisFileSystem(options as never)).toThrow(new TypeError(message));
  });

  it.skipIf(!available)(
    `declares its name, no symlinks, and Redis locks as fs.locks${available ? "" : ` (${NO_REDIS_REASON})`}`,
    async () => {
      const fs = fresh();
      try {
        const order: string[] = [];
        await Promise.all([
          fs.locks.run(["/w/a.txt"], async () => {
            order.push("first in");
            await new Promise((resolve) => setTimeout(resolve, 50));
            order.push("first out");
          }),
          new Promise((resolve) => setTimeout(resolve, 10)).then(() =>
            fs.locks.run(["/w/a.txt"], async () => void order.push("second")),
          ),
        ]);
        expect({ name: fs.name, capabilities: fs.capabilities, order }).toEqual({
          name: "redis",
          capabilities: {},
          order: ["first in", "first out", "second"],
        });
      } finally {
        await fs.close();
      }
    },
  );

  it.skipIf(!available)(`after close, calls fail with EIO${available ? "" : ` (${NO_REDIS_REASON})`}`, async () => {
    const fs = fresh();
    await fs.writeFile("/a.txt", new Uint8Array([1]));
    await fs.close();
    await expect(fs.readFile("/a.txt")).rejects.toThrow(
      "EIO: i/o error, open '/a.txt' (redis store: the Redis connection was closed (redisFileSystem close()))",
    );
  });
});

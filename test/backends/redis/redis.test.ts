/**
 * The Redis backend on a real redis-server (started on a free port by this file, stopped after):
 * the conformance suite, its options, and the Redis locks. The attack corpus runs in
 * test/security/corpus-redis.test.ts, the sequence test in sequence.test.ts.
 */
import { afterAll, describe, expect, it } from "vitest";
import { testFileSystem } from "better-fs-tools/conformance";
import { redisFileSystem, type RedisFileSystem } from "../../../src/backends/redis/index.js";
import { NO_REDIS_REASON, REDIS_SERVER_BINARY, startRedisServer, type RedisServer } from "./server.js";

const available = REDIS_SERVER_BINARY !== undefined;
// Started at collection: the conformance suite makes a probe instance then.
const server: RedisServer | undefined = available ? await startRedisServer() : undefined;
let next = 0;

afterAll(async () => {
  await server?.stop();
});

function fresh(options: { lockTtlMs?: number } = {}): RedisFileSystem {
  if (server === undefined) throw new Error("no redis-server");
  next += 1;
  return redisFileSystem({ url: server.url, prefix: `conf-${process.pid}-${next}`, ...options });
}

if (available) {
  testFileSystem({
    name: "redis",
    create: async () => fresh(),
    destroy: async (fs) => (fs as RedisFileSystem).close(),
  });
} else {
  describe(`conformance: redis (${NO_REDIS_REASON})`, () => {
    it.skip(`the conformance suite (${NO_REDIS_REASON})`, () => {});
  });
}

/**
 * The attack corpus through every target (core and tools) on the Redis backend, on a real
 * redis-server this file starts on a free port and stops after; a fresh key prefix per case.
 */
import { afterAll, describe, it } from "vitest";
import { redisFileSystem, type RedisFileSystem } from "../../src/backends/redis/index.js";
import { NO_REDIS_REASON, REDIS_SERVER_BINARY, startRedisServer } from "../backends/redis/server.js";
import { runStoreCorpus } from "./store-backends.js";

if (REDIS_SERVER_BINARY === undefined) {
  describe(`security corpus on redis (${NO_REDIS_REASON})`, () => {
    it.skip(`every row (${NO_REDIS_REASON})`, () => {});
  });
} else {
  const server = await startRedisServer();
  afterAll(() => server.stop());
  let next = 0;
  runStoreCorpus({
    name: "redis",
    backend: async () => redisFileSystem({ url: server.url, prefix: `corpus-${process.pid}-${++next}` }),
    destroy: async (fs) => (fs as RedisFileSystem).close(),
  });
}

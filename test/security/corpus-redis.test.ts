/**
 * The attack corpus on the Redis backend through the core targets (the gate, the gated
 * FileSystem, the workspace handle: what every tool calls), on a real redis-server this file
 * starts on a free port and stops after; a fresh key prefix per case. The tool targets run on
 * the same backend code over unstorage's memory driver (corpus-unstorage.test.ts): through every
 * tool on Redis the corpus took over 20 minutes (each case makes and resolves its fixture over
 * the network), too long for `npm test`; likewise the 2,000-name rows run through gate.check only.
 */
import { afterAll, it } from "vitest";
import { redisFileSystem, type RedisFileSystem } from "../../src/backends/redis/index.js";
import { NO_REDIS_REASON, REDIS_AVAILABLE, startRedisServer } from "../backends/redis/server.js";
import { runStoreCorpus } from "./store-backends.js";

if (!REDIS_AVAILABLE) {
  // The corpus needs a running store to be collected (it probes one instance): one case in its place.
  it.skipIf(!REDIS_AVAILABLE)(`security corpus on redis, every row (${NO_REDIS_REASON})`, () => {});
} else {
  const server = await startRedisServer();
  afterAll(() => server.stop());
  let next = 0;
  runStoreCorpus(
    {
      name: "redis",
      backend: async () => redisFileSystem({ url: server.url, prefix: `corpus-${process.pid}-${++next}` }),
      destroy: async (fs) => (fs as RedisFileSystem).close(),
      independent: true,
    },
    true,
  );
}

/**
 * `better-fs-tools/redis`: a workspace in Redis ({@link redisFileSystem}) shared by many
 * processes and hosts, and per-path locks in Redis ({@link redisLocks}). Node only; needs the
 * optional peers `unstorage` and `ioredis`.
 *
 * @module
 */
export {
  DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
  DEFAULT_REDIS_CONNECT_WAIT_MS,
  REDIS_FILE_SYSTEM_NAME,
  REDIS_SCAN_COUNT,
  type RedisFileSystem,
  redisFileSystem,
  type RedisFileSystemOptions,
} from "./file-system.js";
export {
  DEFAULT_REDIS_LOCK_TTL_MS,
  DEFAULT_REDIS_LOCK_WAIT_MS,
  REDIS_LOCK_FIRST_RETRY_MS,
  type RedisLockClient,
  redisLocks,
  type RedisLocksOptions,
} from "./locks.js";

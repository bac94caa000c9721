/**
 * {@link redisFileSystem}: a workspace in Redis, shared by every process and host that opens the
 * same `url` and `prefix`: unstorage's redis driver under the unstorage backend, with the tools'
 * per-path locks held in Redis too ({@link redisLocks}).
 *
 * @module
 */
import { createStorage, type Driver } from "unstorage";
import redisDriver from "unstorage/drivers/redis";
import type { Redis, RedisOptions } from "ioredis";
import { assertKnownOptions, optionValueError } from "../../contract/options.js";
import { unstorageFileSystem, type UnstorageFileSystem } from "../unstorage/file-system.js";
import { STORE_PREFIX_CHARACTERS, STORE_PREFIX_PATTERN } from "../unstorage/keys.js";
import { DEFAULT_REDIS_LOCK_TTL_MS, DEFAULT_REDIS_LOCK_WAIT_MS, redisLocks, type RedisLockClient } from "./locks.js";

/** The backend's name, as `FileSystem.name` reports it. */
export const REDIS_FILE_SYSTEM_NAME = "redis";
/** How long one Redis command may take before the call fails with `EIO`, in milliseconds. */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 5_000;
/** How long a call waits for a (re)connection before it fails with `EIO`, in milliseconds. */
export const DEFAULT_REDIS_CONNECT_WAIT_MS = 5_000;
/** Keys Redis looks at per `SCAN` step of a listing. */
export const REDIS_SCAN_COUNT = 1_000;

/** Options of {@link redisFileSystem}. */
export interface RedisFileSystemOptions {
  /** The server: `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  readonly url: string;
  /**
   * The workspace's key prefix: every process that opens the same url and prefix shares one tree.
   * Letters, digits, `_` `.` `~` `-` only, so no two prefixes share a key.
   */
  readonly prefix: string;
  /** The working directory to hand to the tools (absolute). @default "/" */
  readonly cwd?: string;
  /** Most time one command may take, in milliseconds. @default DEFAULT_REDIS_COMMAND_TIMEOUT_MS */
  readonly commandTimeoutMs?: number;
  /** Most time a call waits for the connection (at start, or after Redis went away), in milliseconds. @default DEFAULT_REDIS_CONNECT_WAIT_MS */
  readonly connectWaitMs?: number;
  /** Lifetime of a path lock without renewal, in milliseconds. @default DEFAULT_REDIS_LOCK_TTL_MS */
  readonly lockTtlMs?: number;
  /** How long a call waits for a path lock, in milliseconds, before `EBUSY`. @default DEFAULT_REDIS_LOCK_WAIT_MS */
  readonly lockWaitMs?: number;
}

/** The Redis backend: the unstorage backend on Redis, with Redis locks, the client and `close()`. */
export interface RedisFileSystem extends UnstorageFileSystem {
  /** Per-path locks in Redis (the tools take them by default). */
  readonly locks: NonNullable<UnstorageFileSystem["locks"]>;
  /** The ioredis client (one connection, shared by the files and the locks). */
  readonly client: Redis;
  /** Close the connection; calls after it fail with `EIO`. */
  close(): Promise<void>;
}

const KNOWN_OPTIONS = ["url", "prefix", "cwd", "commandTimeoutMs", "connectWaitMs", "lockTtlMs", "lockWaitMs"];
const WRAPPED_METHODS = ["hasItem", "getItem", "getItems", "setItem", "removeItem", "getKeys", "clear"] as const;

function milliseconds(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    optionValueError(
      "redisFileSystem",
      option,
      `must be a positive whole number of milliseconds, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * A {@link FileSystem} in Redis. One file is one Redis string (`SET`), written whole: no reader
 * and no crash ever sees a mix of two writes. Trees (rename, rm -r) are several commands, copy
 * before delete. Calls never hang: a command fails after `commandTimeoutMs`, a call made while
 * Redis is away fails after `connectWaitMs`, both as `EIO` with ioredis's message; nothing is
 * queued to be replayed after a reconnect (a call that failed stays failed), and the client
 * reconnects by itself, so work goes on when Redis is back.
 *
 * @param options - url, prefix, cwd, timeouts and lock settings.
 * @returns the backend, with `locks` (Redis locks under `${prefix}/locks`), `client` and `close()`.
 *   Every method rejects with `FsError`: the contract's codes, `EIO` when Redis fails or is away.
 * @throws TypeError (an `OptionError`) at creation for a missing url or prefix, an unknown option or a bad value.
 * @example
 * ```ts
 * import { redisFileSystem } from "better-fs-tools/redis";
 * import { createFsTools } from "better-fs-tools";
 *
 * const fs = redisFileSystem({ url: "redis://127.0.0.1:6379", prefix: "team-a" });
 * const tools = createFsTools({ fs, cwd: "/w" }); // locks: fs.locks, held in Redis
 * ```
 */
export function redisFileSystem(options: RedisFileSystemOptions): RedisFileSystem {
  if (typeof options !== "object" || options === null) {
    throw new TypeError('redisFileSystem needs an options object: { url: "redis://host:6379", prefix: "workspace" }');
  }
  assertKnownOptions("redisFileSystem", options, KNOWN_OPTIONS);
  const { url, prefix } = options;
  if (typeof url !== "string" || !/^rediss?:\/\//.test(url)) {
    optionValueError("redisFileSystem", "url", `must be a redis:// or rediss:// URL, got ${JSON.stringify(url)}`);
  }
  if (typeof prefix !== "string" || !STORE_PREFIX_PATTERN.test(prefix)) {
    optionValueError(
      "redisFileSystem",
      "prefix",
      `must be a non-empty string of ${STORE_PREFIX_CHARACTERS} (no : or /, which would reach into another prefix's keys), got ${JSON.stringify(prefix)}`,
    );
  }
  const commandTimeoutMs = milliseconds("commandTimeoutMs", options.commandTimeoutMs, DEFAULT_REDIS_COMMAND_TIMEOUT_MS);
  const connectWaitMs = milliseconds("connectWaitMs", options.connectWaitMs, DEFAULT_REDIS_CONNECT_WAIT_MS);
  const lockTtlMs = milliseconds("lockTtlMs", options.lockTtlMs, DEFAULT_REDIS_LOCK_TTL_MS);
  const lockWaitMs = milliseconds("lockWaitMs", options.lockWaitMs, DEFAULT_REDIS_LOCK_WAIT_MS);

  const clientOptions: RedisOptions = {
    commandTimeout: commandTimeoutMs,
    connectTimeout: connectWaitMs,
    // Fail rather than queue: a command queued while Redis is away could land after the caller
    // was told it failed, over a later write.
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(times * 50, 1_000),
  };
  const driver = redisDriver({ ...clientOptions, url, base: prefix, scanCount: REDIS_SCAN_COUNT, preConnect: true });
  const client = driver.getInstance?.() as Redis;
  // Errors reach callers through their commands; without a listener ioredis would print each one.
  client.on("error", () => {});

  let closed = false;
  let reconnected: Promise<void> | undefined;
  /** Resolve once the client is connected, or reject after connectWaitMs. */
  function ready(): Promise<void> {
    if (closed) return Promise.reject(new Error("the Redis connection was closed (redisFileSystem close())"));
    if (client.status === "ready") return Promise.resolve();
    reconnected ??= new Promise<void>((resolve) => {
      client.once("ready", () => {
        reconnected = undefined;
        resolve();
      });
    });
    const waiting = reconnected;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`not connected to ${url} after ${connectWaitMs} ms (connection ${client.status})`)),
        connectWaitMs,
      );
      void waiting.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  const connected: Driver = { ...driver };
  for (const method of WRAPPED_METHODS) {
    const original = driver[method] as ((...args: unknown[]) => unknown) | undefined;
    if (original === undefined) continue;
    (connected as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      await ready();
      return original.apply(driver, args);
    };
  }
  const lockClient: RedisLockClient = {
    set: async (key, value, px, ttlMs, nx) => (await ready(), client.set(key, value, px, ttlMs, nx)),
    eval: async (script, numKeys, ...keysAndArgs) => (await ready(), client.eval(script, numKeys, ...keysAndArgs)),
  };
  const locks = redisLocks({ client: lockClient, prefix: `${prefix}/locks`, ttlMs: lockTtlMs, waitMs: lockWaitMs });
  const fs = unstorageFileSystem(createStorage({ driver: connected }), {
    name: REDIS_FILE_SYSTEM_NAME,
    locks,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  return Object.assign(fs, {
    locks,
    client,
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await client.quit().catch(() => client.disconnect());
    },
  });
}

/**
 * {@link redisLocks}: the tools' per-path locks held in Redis, so two processes (or hosts) never
 * interleave a read-modify-write of one file. Each lock is `SET key token NX PX ttl`, renewed
 * while held, released by token (a Lua compare-and-delete), and expires by itself when its
 * holder dies.
 *
 * @module
 */
import { FsError } from "../../contract/errors.js";
import type { Locks } from "../../contract/locks.js";
import { assertKnownOptions, optionValueError } from "../../contract/options.js";

/** How long a lock lives unless renewed, in milliseconds: the most a dead holder blocks others. */
export const DEFAULT_REDIS_LOCK_TTL_MS = 10_000;
/** How long `run` waits for a lock another holder keeps, in milliseconds, before it fails with `EBUSY`. */
export const DEFAULT_REDIS_LOCK_WAIT_MS = 60_000;
/** First pause between two attempts to take a held lock, in milliseconds (doubles up to 100 ms, with jitter). */
export const REDIS_LOCK_FIRST_RETRY_MS = 5;
const MAX_RETRY_MS = 100;

const RELEASE_SCRIPT = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;
const RENEW_SCRIPT = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;

/** The two Redis calls the locks make (an ioredis `Redis` has them). */
export interface RedisLockClient {
  /** `SET key value PX ttlMs NX`: `"OK"` when taken, `null` when another holder has it. */
  set(key: string, value: string, px: "PX", ttlMs: number, nx: "NX"): Promise<"OK" | null>;
  /** `EVAL script numKeys ...keysAndArgs`. */
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
}

/** Options of {@link redisLocks}. */
export interface RedisLocksOptions {
  /** An ioredis client (`new Redis(url)`); `redisFileSystem` passes its own. */
  readonly client: RedisLockClient;
  /** Prefix of the lock keys: one per workspace. The key of path `/a` is `${prefix}/a`. */
  readonly prefix: string;
  /** Lifetime of a lock without renewal, in milliseconds; renewed every third of it while held. @default DEFAULT_REDIS_LOCK_TTL_MS */
  readonly ttlMs?: number;
  /** How long to wait for a lock, in milliseconds, before `EBUSY`. @default DEFAULT_REDIS_LOCK_WAIT_MS */
  readonly waitMs?: number;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function positive(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    optionValueError("redisLocks", option, `must be a positive whole number of milliseconds, got ${String(value)}`);
  }
  return value;
}

/**
 * Per-path locks in Redis for the tools' `locks` option (and `FileSystem.locks` of
 * `redisFileSystem`): keys are taken in sorted order, so two holders never deadlock.
 *
 * @param options - client, key prefix, lifetime and wait limit.
 * @returns a {@link Locks}. `run` rejects with {@link FsError} `EBUSY` when a lock stays taken
 *   for `waitMs`, and `EIO` when Redis cannot be reached (before `fn` runs: nothing was done);
 *   otherwise it settles as `fn` does. A lock whose renewal fails (Redis gone) expires after
 *   `ttlMs`; releasing it is best effort for the same reason.
 * @throws TypeError (an `OptionError`) at creation for a missing client or prefix, an unknown option or a bad value.
 * @example
 * ```ts
 * import Redis from "ioredis";
 * import { redisLocks } from "better-fs-tools/redis";
 *
 * const locks = redisLocks({ client: new Redis("redis://127.0.0.1:6379"), prefix: "ws1" });
 * await locks.run(["/w/a.txt"], async () => "edited");
 * ```
 */
export function redisLocks(options: RedisLocksOptions): Locks {
  assertKnownOptions("redisLocks", options, ["client", "prefix", "ttlMs", "waitMs"]);
  const { client, prefix } = options;
  if (typeof client?.set !== "function" || typeof client?.eval !== "function") {
    optionValueError("redisLocks", "client", "must be an ioredis client");
  }
  if (typeof prefix !== "string" || prefix === "")
    optionValueError("redisLocks", "prefix", "must be a non-empty string");
  const ttlMs = positive("ttlMs", options.ttlMs, DEFAULT_REDIS_LOCK_TTL_MS);
  const waitMs = positive("waitMs", options.waitMs, DEFAULT_REDIS_LOCK_WAIT_MS);

  async function redis<T>(path: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      throw new FsError("EIO", {
        syscall: "lock",
        path,
        detail: `Redis: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      });
    }
  }

  async function acquire(path: string, token: string): Promise<void> {
    const key = prefix + path;
    const deadline = Date.now() + waitMs;
    let pauseMs = REDIS_LOCK_FIRST_RETRY_MS;
    for (;;) {
      const taken = await redis(path, () => client.set(key, token, "PX", ttlMs, "NX"));
      if (taken === "OK") return;
      if (Date.now() >= deadline) {
        throw new FsError("EBUSY", {
          syscall: "lock",
          path,
          detail: `another process has held this path's lock for ${waitMs} ms; try again later`,
        });
      }
      await sleep(pauseMs * (0.5 + Math.random()));
      pauseMs = Math.min(pauseMs * 2, MAX_RETRY_MS);
    }
  }

  async function release(path: string, token: string): Promise<void> {
    try {
      await client.eval(RELEASE_SCRIPT, 1, prefix + path, token);
    } catch {
      // Redis unreachable: the lock expires after ttlMs.
    }
  }

  return {
    async run<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> {
      const sorted = [...new Set(keys)].sort();
      const token = crypto.randomUUID();
      const held: string[] = [];
      const renew = setInterval(
        () => {
          for (const path of held) client.eval(RENEW_SCRIPT, 1, prefix + path, token, ttlMs).catch(() => {});
        },
        Math.max(1, Math.floor(ttlMs / 3)),
      );
      renew.unref?.();
      try {
        for (const path of sorted) {
          await acquire(path, token);
          held.push(path);
        }
        return await fn();
      } finally {
        clearInterval(renew);
        await Promise.all(held.map((path) => release(path, token)));
      }
    },
  };
}

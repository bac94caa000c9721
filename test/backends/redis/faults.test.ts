/**
 * Faults: redis-server is killed (SIGKILL) while writers are busy, then restarted. Calls in
 * flight and calls made while it is away fail with an EIO result that names the store's error
 * (none hangs: each settles within the timeouts), no file ever holds a mix of two writes, no
 * file holds less than its last acknowledged write, and work goes on after the restart.
 * (Locks of a dead process: many-processes.test.ts, which has other processes to kill.)
 */
import { afterAll, describe, expect, it } from "vitest";
import { FsError } from "../../../src/contract/errors.js";
import { redisFileSystem } from "../../../src/backends/redis/index.js";
import { createFsTools } from "../../../src/shell/defaults.js";
import { NO_REDIS_REASON, REDIS_AVAILABLE, startRedisServer, type RedisServer } from "./server.js";

const WRITERS = 8;
/** Each write is this many bytes: the version number repeated, so a mix of two writes shows. */
const WRITE_BYTES = 64 * 1024;

function versionBytes(version: number): Uint8Array {
  return new TextEncoder().encode(`${version};`.repeat(Math.ceil(WRITE_BYTES / `${version};`.length)));
}

/** The version a file holds, or "mixed" when it is not one write's bytes. */
function versionOf(bytes: Uint8Array): number | "mixed" {
  const text = new TextDecoder().decode(bytes);
  const version = Number(text.slice(0, text.indexOf(";")));
  return text === new TextDecoder().decode(versionBytes(version)) ? version : "mixed";
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!REDIS_AVAILABLE)(`redis-server killed mid-run, then restarted (${NO_REDIS_REASON})`, () => {
  let server: RedisServer | undefined;
  afterAll(async () => server?.stop());

  it(
    "calls fail with EIO, no file is mixed or behind its last acknowledged write, and work goes on",
    { timeout: 60_000 },
    async () => {
      server = await startRedisServer();
      const running = server;
      const fs = redisFileSystem({
        url: running.url,
        prefix: `faults-${process.pid}`,
        commandTimeoutMs: 1_000,
        connectWaitMs: 1_000,
      });
      const errors: unknown[] = [];
      const acked: number[] = Array.from({ length: WRITERS }, () => -1);
      const tried: number[][] = Array.from({ length: WRITERS }, () => []);
      let stop = false;
      let afterRestart = 0;
      let restarted = false;
      const writers = Array.from({ length: WRITERS }, async (_, writer) => {
        for (let version = 0; !stop; version++) {
          tried[writer]?.push(version);
          try {
            await fs.writeFile(`/w/f${writer}.txt`, versionBytes(version));
            acked[writer] = version;
            if (restarted) afterRestart++;
          } catch (error) {
            errors.push(error);
            await sleep(20);
          }
        }
      });
      await sleep(300);
      await running.kill();
      await sleep(1_500);
      await running.start();
      restarted = true;
      for (let waited = 0; afterRestart < WRITERS * 3 && waited < 20_000; waited += 50) await sleep(50);
      stop = true;
      await Promise.all(writers);

      const contents = await Promise.all(
        Array.from({ length: WRITERS }, async (_, writer) => versionOf(await fs.readFile(`/w/f${writer}.txt`))),
      );
      const tools = createFsTools({ fs, cwd: "/w", state: false });
      const edit = await tools.edit.execute({
        path: "f0.txt",
        oldText: `${contents[0]};`,
        newText: "edited;",
        replaceAll: true,
      });
      await fs.close();

      const failures = errors.map((error) =>
        FsError.isInstance(error)
          ? {
              code: error.code,
              message: /^EIO: i\/o error, open '\/w\/f\d\.txt' \(redis store: .+\)$/.test(error.message),
            }
          : { code: String(error), message: false },
      );
      expect({
        someFailed: errors.length > 0,
        failures: [...new Set(failures.map((failure) => JSON.stringify(failure)))],
        // Each file holds one write whole: its last acknowledged one, or a later one whose reply was lost in the crash.
        contents: contents.map((version, writer) =>
          version === "mixed"
            ? "mixed"
            : version >= (acked[writer] as number) && (tried[writer] as number[]).includes(version),
        ),
        workAfterRestart: afterRestart >= WRITERS * 3,
        editAfterRestart: edit.ok,
      }).toEqual({
        someFailed: true,
        failures: [JSON.stringify({ code: "EIO", message: true })],
        contents: Array.from({ length: WRITERS }, () => true),
        workAfterRestart: true,
        editAfterRestart: true,
      });
    },
  );
});

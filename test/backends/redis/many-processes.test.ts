/**
 * Many processes, nothing lost: 4 Node processes × 10 concurrent sessions edit, patch and grep
 * one Redis workspace (shared files, so processes contend for the same paths through the Redis
 * locks) for a few seconds; the final tree must hold exactly the lines of the acknowledged calls,
 * each once. The 60-second run is the bench (`npm run bench -- redis`).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { FsError } from "../../../src/contract/errors.js";
import { redisFileSystem, redisLocks } from "../../../src/backends/redis/index.js";
import { buildForProcesses, runWorkers } from "./processes.js";
import { NO_REDIS_REASON, REDIS_AVAILABLE, startRedisServer, type RedisServer } from "./server.js";

const PROCESSES = 4;
const SESSIONS = 10;
const FILES = 4;
const DURATION_MS = 3_000;

describe.skipIf(!REDIS_AVAILABLE)(`many processes on one Redis workspace (${NO_REDIS_REASON})`, () => {
  let server: RedisServer | undefined;
  afterAll(async () => server?.stop());

  let built: Promise<string> | undefined;
  let builtDir = "";
  const started = () =>
    (built ??= Promise.all([startRedisServer(), buildForProcesses("redis-many-processes")]).then(([running, dir]) => {
      server = running;
      builtDir = dir;
      return running.url;
    }));

  it(
    "4 processes × 10 sessions editing, patching and grepping shared files lose no edit",
    { timeout: 180_000 },
    async () => {
      const url = await started();
      const prefix = `many-${process.pid}`;
      const fs = redisFileSystem({ url, prefix });
      for (let index = 0; index < FILES; index++) {
        await fs.writeFile(`/w/shared-${index}.txt`, new TextEncoder().encode("START\nEND\n"));
      }
      const reports = await runWorkers({
        built: builtDir,
        url,
        prefix,
        processes: PROCESSES,
        sessions: SESSIONS,
        files: FILES,
        durationMs: DURATION_MS,
      });
      const outcomes = reports.flatMap((report) => report.outcomes);
      const lines = async (index: number) =>
        new TextDecoder()
          .decode(await fs.readFile(`/w/shared-${index}.txt`))
          .split("\n")
          .slice(0, -1);
      const actual = await Promise.all(Array.from({ length: FILES }, (_, index) => lines(index)));
      await fs.close();
      const expected = Array.from({ length: FILES }, (_, index) => [
        "START",
        ...outcomes
          .filter((outcome) => outcome.ok && outcome.file === `shared-${index}.txt`)
          .map((outcome) => outcome.tag)
          .sort(),
        "END",
      ]);
      const sortedMiddle = (file: string[]) => [file[0], ...file.slice(1, -1).sort(), file[file.length - 1]];
      expect({
        failed: outcomes.filter((outcome) => !outcome.ok),
        files: actual.map(sortedMiddle),
        grepMisses: reports.reduce((sum, report) => sum + report.grepMisses, 0),
        everyProcessAcknowledged: reports.map((report) => report.outcomes.some((outcome) => outcome.ok)),
        grepped: reports.reduce((sum, report) => sum + report.grepCalls, 0) > 0,
      }).toEqual({
        failed: [],
        files: expected,
        grepMisses: 0,
        everyProcessAcknowledged: [true, true, true, true],
        grepped: true,
      });
    },
  );

  it(
    "a lock held by a killed process expires after its lifetime; until then it is renewed and others wait",
    { timeout: 180_000 },
    async () => {
      const url = await started();
      const prefix = `dead-${process.pid}`;
      const script = `
      import { Redis } from "ioredis";
      const { redisLocks } = await import(${JSON.stringify(pathToFileURL(join(builtDir, "backends/redis/index.js")).href)});
      const locks = redisLocks({ client: new Redis(${JSON.stringify(url)}), prefix: ${JSON.stringify(prefix)}, ttlMs: 1000 });
      await locks.run(["/w/a.txt"], () => { process.stdout.write("held\\n"); return new Promise(() => {}); });`;
      const holder = spawn(process.execPath, ["--input-type=module", "-e", script], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on("data", (data: Buffer) => data.toString().includes("held") && resolve());
        holder.once("exit", (code) => reject(new Error(`holder exited with ${code}`)));
      });
      const client = new Redis(url);
      try {
        const code = (error: unknown) => (FsError.isInstance(error) ? error.code : String(error));
        // Held past its 1 s lifetime: the holder renews it.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        const whileAlive = await redisLocks({ client, prefix, waitMs: 300 })
          .run(["/w/a.txt"], async () => "taken")
          .catch(code);
        const exited = new Promise((resolve) => holder.once("exit", resolve));
        holder.kill("SIGKILL");
        await exited;
        const afterDeath = await redisLocks({ client, prefix, waitMs: 10_000 })
          .run(["/w/a.txt"], async () => "taken")
          .catch(code);
        expect({ whileAlive, afterDeath }).toEqual({ whileAlive: "EBUSY", afterDeath: "taken" });
      } finally {
        holder.kill("SIGKILL");
        client.disconnect();
      }
    },
  );
});

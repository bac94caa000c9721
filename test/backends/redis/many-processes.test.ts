/**
 * Many processes, nothing lost: 4 Node processes × 10 concurrent sessions edit, patch and grep
 * one Redis workspace (shared files, so processes contend for the same paths through the Redis
 * locks) for a few seconds; the final tree must hold exactly the lines of the acknowledged calls,
 * each once. The 60-second run is the bench (`npm run bench -- redis`).
 */
import { afterAll, describe, expect, it } from "vitest";
import { redisFileSystem } from "../../../src/backends/redis/index.js";
import { buildForProcesses, runWorkers } from "./processes.js";
import { NO_REDIS_REASON, REDIS_SERVER_BINARY, startRedisServer, type RedisServer } from "./server.js";

const PROCESSES = 4;
const SESSIONS = 10;
const FILES = 4;
const DURATION_MS = 3_000;

describe("many processes on one Redis workspace", () => {
  if (REDIS_SERVER_BINARY === undefined) {
    it.skip(`4 processes × 10 sessions lose no edit (${NO_REDIS_REASON})`, () => {});
    return;
  }
  let server: RedisServer | undefined;
  afterAll(async () => server?.stop());

  it("4 processes × 10 sessions editing, patching and grepping shared files lose no edit", { timeout: 180_000 }, async () => {
    const [started] = await Promise.all([startRedisServer(), buildForProcesses()]);
    server = started;
    const prefix = `many-${process.pid}`;
    const fs = redisFileSystem({ url: server.url, prefix });
    for (let index = 0; index < FILES; index++) {
      await fs.writeFile(`/w/shared-${index}.txt`, new TextEncoder().encode("START\nEND\n"));
    }
    const reports = await runWorkers({
      url: server.url,
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
      everyProcessWorked: reports.map((report) => report.outcomes.length > 0 && report.grepCalls > 0),
    }).toEqual({
      failed: [],
      files: expected,
      grepMisses: 0,
      everyProcessWorked: [true, true, true, true],
    });
  });
});

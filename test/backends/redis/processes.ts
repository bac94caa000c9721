/**
 * Running built code in other Node processes: {@link buildForProcesses} compiles src/ with tsc
 * once per test file (under node_modules/.cache, so packages resolve), {@link runWorkers} starts
 * session-worker.mjs processes against a Redis workspace and collects their reports.
 */
import { execFile, execFileSync } from "node:child_process";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { REPOSITORY_ROOT } from "../../package/stage.js";

/** Where the builds go: one folder per test file, so two files building at once never share one. */
const CACHE = join(REPOSITORY_ROOT, "node_modules", ".cache");
const WORKER = join(REPOSITORY_ROOT, "test", "backends", "redis", "session-worker.mjs");

/** Compile src/ to `node_modules/.cache/<name>` (tsc, the project's build config); resolves with that folder. */
export async function buildForProcesses(name: string): Promise<string> {
  const built = join(CACHE, name);
  await rm(built, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [join(REPOSITORY_ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--outDir", built],
    { cwd: REPOSITORY_ROOT, stdio: "pipe" },
  );
  return built;
}

/** One call's outcome as a worker reports it. */
export interface CallOutcome {
  readonly tag: string;
  readonly file: string;
  readonly ok: boolean;
  readonly error?: string;
}

/** A worker's report. */
export interface WorkerReport {
  readonly id: string;
  readonly outcomes: readonly CallOutcome[];
  readonly grepCalls: number;
  readonly grepMisses: number;
}

/** Start `processes` workers of `sessions` sessions each for `durationMs`; resolves with their reports. */
export function runWorkers(options: {
  readonly built: string;
  readonly url: string;
  readonly prefix: string;
  readonly processes: number;
  readonly sessions: number;
  readonly files: number;
  readonly durationMs: number;
}): Promise<WorkerReport[]> {
  return Promise.all(
    Array.from(
      { length: options.processes },
      (_, index) =>
        new Promise<WorkerReport>((resolve, reject) => {
          const config = { ...options, id: `p${index}` };
          execFile(
            process.execPath,
            [WORKER, JSON.stringify(config)],
            { cwd: REPOSITORY_ROOT, maxBuffer: 256 * 1024 * 1024 },
            (error, stdout, stderr) => {
              if (error !== null) reject(new Error(`worker p${index}: ${error.message}\n${stderr}`));
              else resolve(JSON.parse(stdout) as WorkerReport);
            },
          );
        }),
    ),
  );
}

// The Redis backend (issue 29, item 5), side by side in one run on one local redis-server
// (started here on a free port, in memory: no persistence, so the figures are the backend's, not the disk's):
// - per call: the read, write, edit and grep tools on redisFileSystem vs raw ioredis GET/SET of the
//   same bytes (the floor) and vs the same tools on nodeFileSystem (a temp directory);
// - many processes: 4 Node processes × 10 sessions editing and patching 4 shared files and grepping,
//   for REDIS_BENCH_SECONDS (default 60) seconds: acknowledged calls per second, and no edit lost.
import { execFile, execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { createFsTools } from "../dist/index.js";
import { nodeFileSystem } from "../dist/backends/node/index.js";
import { redisFileSystem } from "../dist/backends/redis/index.js";
import { compare } from "./lib.mjs";

export const title = "Redis: per-call cost and many processes";

const here = dirname(fileURLToPath(import.meta.url));
const WORKER = join(here, "..", "test", "backends", "redis", "session-worker.mjs");
const DIST = join(here, "..", "dist");
const SECONDS = Number(process.env.REDIS_BENCH_SECONDS ?? 60);
const encoder = new TextEncoder();

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function ping(port) {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => (socket.destroy(), resolve(data.toString().startsWith("+PONG"))));
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1");
  });
}

async function startServer() {
  const binary = execFileSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).trim();
  const port = await freePort();
  const child = spawn(binary, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  while (!(await ping(port))) await new Promise((resolve) => setTimeout(resolve, 20));
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill("SIGKILL") };
}

function text(lines, seed) {
  return (
    Array.from({ length: lines }, (_, index) => `line ${index} of file ${seed}: alpha beta gamma ${index * seed}`).join(
      "\n",
    ) + "\n"
  );
}

const us = (ms) => `${(ms * 1000).toFixed(0)} µs`;
const times = (value) => `${value.toFixed(2)}×`;

async function perCall(url) {
  const dir = await mkdtemp(join(tmpdir(), "bft-bench-redis-"));
  const redis = redisFileSystem({ url, prefix: "bench-calls", cwd: "/w" });
  const node = nodeFileSystem({ root: dir, cwd: "/w", allowedRoots: ["/"] });
  const raw = new Redis(url);
  const content = text(60, 7); // about 4 KiB
  const bytes = encoder.encode(content);
  for (const fs of [redis, node]) {
    await fs.mkdir("/w/src", { recursive: true });
    await fs.writeFile("/w/a.txt", bytes);
    for (let index = 0; index < 200; index++) {
      await fs.writeFile(`/w/src/d${index % 10}/f${index}.ts`, encoder.encode(text(20, index)));
    }
  }
  await raw.set("raw:a.txt", Buffer.from(bytes));
  const redisTools = createFsTools({ fs: redis, cwd: "/w", state: false });
  const nodeTools = createFsTools({ fs: node, cwd: "/w", state: false });
  const options = { rounds: 7, iterations: 40, warmup: 2 };
  const rows = [];
  const measure = async (name, contenders, floorName) => {
    const result = await compare(contenders, options);
    rows.push(
      `| ${name} | ${us(result.redis)} | ${us(result[floorName])} | ${times(result.ratio("redis", floorName))} | ${us(result.node)} | ${times(result.ratio("redis", "node"))} |`,
    );
  };
  await measure(
    "read (4 KiB file)",
    {
      redis: () => redisTools.read.execute({ path: "a.txt" }),
      raw: () => raw.getBuffer("raw:a.txt"),
      node: () => nodeTools.read.execute({ path: "a.txt" }),
    },
    "raw",
  );
  await measure(
    "write (4 KiB file)",
    {
      redis: (i) => redisTools.write.execute({ path: "b.txt", content: `${i}\n${content}` }),
      raw: (i) => raw.set("raw:b.txt", Buffer.from(encoder.encode(`${i}\n${content}`))),
      node: (i) => nodeTools.write.execute({ path: "b.txt", content: `${i}\n${content}` }),
    },
    "raw",
  );
  let flip = 0;
  const editOf = (tools) => () => {
    const [from, to] = flip++ % 2 === 0 ? ["line 30 of", "LINE 30 of"] : ["LINE 30 of", "line 30 of"];
    return tools.edit.execute({ path: "a.txt", oldText: from, newText: to });
  };
  await measure(
    "edit (4 KiB file)",
    {
      redis: editOf(redisTools),
      raw: async () => {
        const value = await raw.getBuffer("raw:a.txt");
        await raw.set("raw:a.txt", value);
      },
      node: editOf(nodeTools),
    },
    "raw",
  );
  const grepResult = await redisTools.grep.execute({ pattern: "of file 17:", path: "src" });
  await measure(
    "grep (200 files in 10 directories)",
    {
      redis: () => redisTools.grep.execute({ pattern: "of file 17:", path: "src" }),
      raw: async () => {
        const keys = await raw.keys("bench-calls:w:src:*");
        await raw.mgetBuffer(...keys);
      },
      node: () => nodeTools.grep.execute({ pattern: "of file 17:", path: "src" }),
    },
    "raw",
  );
  await redis.close();
  raw.disconnect();
  await rm(dir, { recursive: true, force: true });
  return { rows, grepOk: grepResult.ok };
}

function runWorkers(url, prefix) {
  return Promise.all(
    Array.from(
      { length: 4 },
      (_, index) =>
        new Promise((resolve, reject) => {
          const config = {
            built: DIST,
            url,
            prefix,
            processes: 4,
            sessions: 10,
            files: 4,
            durationMs: SECONDS * 1000,
            id: `p${index}`,
          };
          execFile(
            process.execPath,
            [WORKER, JSON.stringify(config)],
            { maxBuffer: 1024 * 1024 * 1024 },
            (error, stdout, stderr) =>
              error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
          );
        }),
    ),
  );
}

async function manyProcesses(url) {
  const prefix = "bench-many";
  const fs = redisFileSystem({ url, prefix });
  for (let index = 0; index < 4; index++) await fs.writeFile(`/w/shared-${index}.txt`, encoder.encode("START\nEND\n"));
  const started = performance.now();
  const reports = await runWorkers(url, prefix);
  const seconds = (performance.now() - started) / 1000;
  const outcomes = reports.flatMap((report) => report.outcomes);
  const acked = outcomes.filter((outcome) => outcome.ok);
  let lost = 0;
  for (let index = 0; index < 4; index++) {
    const lines = new Set(new TextDecoder().decode(await fs.readFile(`/w/shared-${index}.txt`)).split("\n"));
    lost += acked.filter((outcome) => outcome.file === `shared-${index}.txt` && !lines.has(outcome.tag)).length;
  }
  await fs.close();
  const greps = reports.reduce((sum, report) => sum + report.grepCalls, 0);
  return {
    seconds,
    acked: acked.length,
    failed: outcomes.length - acked.length,
    lost,
    greps,
    grepMisses: reports.reduce((sum, report) => sum + report.grepMisses, 0),
  };
}

export async function run() {
  const server = await startServer();
  try {
    const calls = await perCall(server.url);
    const many = await manyProcesses(server.url);
    return `Per call on one local redis-server (in memory), medians of 7 rounds of 40 calls after 2 warm-up rounds,
each round timing the three side by side. "Raw" is the floor: ioredis \`GET\`/\`SET\` of the same bytes
(for edit, a \`GET\` then a \`SET\`; for grep, \`KEYS\` then one \`MGET\` of the 200 files). "Node" is
the same tool on \`nodeFileSystem\` in a temporary directory.

| call | redis | raw ioredis | redis ÷ raw | node | redis ÷ node |
| --- | --: | --: | --: | --: | --: |
${calls.rows.join("\n")}

The tools on Redis pay for the gate's path resolution (a \`realpath\` is one or two \`GET\`s per
directory met), the per-path lock (a \`SET NX PX\` and a release script per write, edit and patch),
the directory check before a write, and base64 (unstorage's redis driver stores raw values as
base64 strings); grep lists each directory with a \`SCAN\` of the workspace's keys.

Many processes: 4 Node processes × 10 sessions for ${many.seconds.toFixed(0)} s (${SECONDS} s of calls
plus start-up), each session cycling edit, apply_patch and grep over 4 shared files (every edit and
patch of a file takes its Redis lock): **${(many.acked / SECONDS).toFixed(0)} acknowledged edits and
patches per second** in all (${many.acked} acknowledged, ${many.failed} failed, ${many.lost} lost),
plus ${many.greps} greps (${many.grepMisses} that missed their session's last acknowledged line).`;
  } finally {
    server.stop();
  }
}

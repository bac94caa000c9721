/**
 * A real `redis-server` for the tests: started on a free port with its own data directory
 * (append-only file, fsync on every write, so a kill loses nothing acknowledged), stopped by
 * the test. `REDIS_SERVER_BINARY` is `undefined` where Debian's redis-server is not installed:
 * the tests then skip, saying so in their names.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

function findBinary(): string | undefined {
  try {
    return execFileSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The redis-server binary, or `undefined` when it is not installed. */
export const REDIS_SERVER_BINARY = findBinary();
/** Whether redis-server is installed: the tests that need it run under `skipIf(!REDIS_AVAILABLE)`. */
export const REDIS_AVAILABLE = REDIS_SERVER_BINARY !== undefined;
/** Ends the name of every test that needs redis-server, so a skipped one says why. */
export const NO_REDIS_REASON = "skipped when redis-server is missing: apt-get install redis-server";

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("connect", () => {
      socket.write("PING\r\n");
    });
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1");
  });
}

/** A running server: its url, and how to kill, restart and stop it. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** SIGKILL, as a crash: no shutdown save; the append-only file keeps what was acknowledged. */
  kill(): Promise<void>;
  /** Start again on the same port and data directory (after `kill`). */
  start(): Promise<void>;
  /** Stop and delete the data directory. */
  stop(): Promise<void>;
}

/** Start a redis-server on a free port; rejects when it does not answer within 10 s. */
export async function startRedisServer(): Promise<RedisServer> {
  if (REDIS_SERVER_BINARY === undefined)
    throw new Error("redis-server is not installed (apt-get install redis-server)");
  const binary = REDIS_SERVER_BINARY;
  const dir = await mkdtemp(join(tmpdir(), "bft-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  async function start(): Promise<void> {
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", ""];
    args.push("--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no", "--loglevel", "warning");
    const started = spawn(binary, args, { stdio: "ignore" });
    child = started;
    const deadline = Date.now() + 10_000;
    while (!(await accepting(port))) {
      if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}`);
      if (Date.now() > deadline) throw new Error("redis-server did not answer within 10 s");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  async function kill(): Promise<void> {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  }
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    async stop() {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Crash durability of the mirrored OPFS backend in real Chromium: a write whose call resolved
 * survives the browser process being killed (SIGKILL) right after, in a persistent context
 * (a temporary user-data-dir), round after round. Each round starts the browser, checks every
 * earlier round's bytes, writes its own, and is killed as soon as the call returns.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright";
import type { ViteDevServer } from "vite";
import { serveSourcePage } from "../opfs/source-page.js";
import { launchPersistentChromium } from "../../../scripts/chromium.mjs";

type Modules = typeof import("../../../src/backends/opfs-mirror/index.js");

/** Rounds of write-then-kill. */
// 10 rounds in `npm test`; the 100 in a row:
// BFT_CRASH_ROUNDS=100 npx vitest run --project node test/backends/opfs-mirror/crash.test.ts
// A round is a Chromium start (about 0.6 s on an idle machine, 1.5-2 s with the 2 cores shared
// at load 10) and the page's module graph served from our TypeScript sources by Vite (0.7 s; the
// first round 8 s or more while Vite transforms them), then a write and SIGKILL (0.2-0.5 s). The
// bench row (`npm run bench -- opfs-repo`, 100 rounds) loads the built dist/ instead: 0.8 s a round.
const ROUNDS = Number(process.env.BFT_CRASH_ROUNDS ?? 10);
/** Bytes written per round. */
const ROUND_BYTES = 4096;

const PAGE = "/__opfs-mirror-crash__.html";

let server: ViteDevServer;
let origin: string;
let userDataDir: string;

beforeAll(async () => {
  ({ origin, server } = await serveSourcePage({
    path: PAGE,
    title: "opfs mirror crash",
    script: 'import * as mirror from "/src/backends/opfs-mirror/index.ts"; window.bft = mirror;',
  }));
  userDataDir = mkdtempSync(join(tmpdir(), "bft-opfs-mirror-crash-"));
});

afterAll(async () => {
  await server?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

/** The pid of the browser process we launched on `dir` (the one without `--type=`). */
function browserPid(dir: string): number {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
    } catch {
      continue;
    }
    const args = cmdline.split("\0");
    if (args.includes(`--user-data-dir=${dir}`) && !args.some((arg) => arg.startsWith("--type="))) return Number(name);
  }
  throw new Error(`no browser process on ${dir}`);
}

/** The bytes of round `round`: deterministic, different each round. */
function roundBytes(round: number): number[] {
  const bytes: number[] = [];
  let state = round * 2654435761 + 1;
  for (let index = 0; index < ROUND_BYTES; index++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes.push(state >>> 24);
  }
  return bytes;
}

async function open(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(origin + PAGE);
  await page.waitForFunction(() => "bft" in window);
  return page;
}

describe("opfs-mirror: a reported write survives SIGKILL of the browser", () => {
  it(`${ROUNDS} rounds of write, kill, restart: every round's bytes come back identical`, async () => {
    const lost: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const context = await launchPersistentChromium(userDataDir);
      const pid = browserPid(userDataDir);
      const page = await open(context);
      const found = await page.evaluate(
        async ({ round, bytes }) => {
          const { opfsMirrorFileSystem } = (window as unknown as { bft: Modules }).bft;
          const fs = opfsMirrorFileSystem({ root: "/crash" });
          await fs.ready();
          const names = round === 0 ? [] : (await fs.readdir("/rounds")).map((entry) => entry.name);
          const earlier: Record<string, number[]> = {};
          for (const name of names) earlier[name] = [...(await fs.readFile(`/rounds/${name}`))];
          await fs.writeFile(`/rounds/${String(round).padStart(3, "0")}`, Uint8Array.from(bytes));
          return earlier;
        },
        { round, bytes: roundBytes(round) },
      );
      process.kill(pid, "SIGKILL");
      await context.close().catch(() => undefined);
      for (let earlier = 0; earlier < round; earlier++) {
        const name = String(earlier).padStart(3, "0");
        const bytes = found[name];
        if (
          bytes === undefined ||
          bytes.length !== ROUND_BYTES ||
          bytes.some((byte, i) => byte !== roundBytes(earlier)[i])
        )
          lost.push(`round ${round}: ${name}`);
      }
      if (Object.keys(found).length !== round) lost.push(`round ${round}: ${Object.keys(found).length} files`);
    }
    expect(lost).toEqual([]);
  }, 900_000);
});

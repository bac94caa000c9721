/**
 * The playground's first load stays within its budget, and git (isomorphic-git) is not part of
 * it: it loads on the first `git` command.
 */
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, expect, it } from "vitest";
import { build } from "vite";
import { DEMO } from "../e2e/demo-server.js";

/** The most the page's first load (entry script, its module preloads, its style sheet) may weigh, gzipped. */
const FIRST_LOAD_BUDGET_BYTES = 400 * 1024;

const outDir = await mkdtemp(join(tmpdir(), "bft-budget-"));
afterAll(() => rm(outDir, { recursive: true, force: true }));

it("the playground's first load is at most 400 KB gzipped, and isomorphic-git is a chunk of its own outside it", async () => {
  await build({
    root: DEMO,
    configFile: join(DEMO, "vite.config.ts"),
    logLevel: "error",
    build: { outDir, emptyOutDir: true },
  });
  const html = await readFile(join(outDir, "index.html"), "utf8");
  const firstLoad = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="\.\/(assets\/[^"]+)"/g)].map(
    (match) => match[1] as string,
  );
  const sizes = await Promise.all(
    firstLoad.map(async (file) => gzipSync(await readFile(join(outDir, file))).byteLength),
  );
  const total = sizes.reduce((sum, size) => sum + size, 0);
  expect(firstLoad.some((file) => file.endsWith(".js"))).toBe(true);
  expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  // isomorphic-git's code (its `statusMatrix`) is in exactly one chunk, not loaded first.
  const chunks = (await readdir(join(outDir, "assets"))).filter((file) => file.endsWith(".js"));
  const withGit: string[] = [];
  for (const chunk of chunks)
    if ((await readFile(join(outDir, "assets", chunk), "utf8")).includes("statusMatrix"))
      withGit.push(`assets/${chunk}`);
  expect(withGit).toHaveLength(1);
  expect(firstLoad.filter((file) => withGit.includes(file))).toEqual([]);
}, 300_000);

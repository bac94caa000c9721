/**
 * The playground as the e2e tests see it: built by Vite into a temporary directory and served by
 * `vite preview` on 127.0.0.1 (an http page is a secure context, so OPFS works), on a free port.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, preview, type PreviewServer } from "vite";

/** The demo's directory (its `vite.config.ts` is used as is). */
export const DEMO = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "demo");

/** The playground's sample project, as the page loads it. */
export const SAMPLE = join(DEMO, "sample-project");

/** The number of files in {@link SAMPLE} (what the page's tree shows once it is loaded). */
export async function sampleCount(): Promise<number> {
  let count = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) await walk(join(dir, entry.name));
      else count += 1;
    }
  };
  await walk(SAMPLE);
  return count;
}

/** A served build of the playground; `close()` stops the server and removes the build. */
export interface ServedDemo {
  /** The page's address, `http://127.0.0.1:<port>/`. */
  readonly url: string;
  readonly server: PreviewServer;
  close(): Promise<void>;
}

/**
 * Build the playground into a new temporary directory named after `prefix` and serve it.
 *
 * @param prefix - the temporary directory's name prefix (`"playground-e2e-dist-"`).
 * @returns the served build; rejects with Vite's error when the build fails.
 * @example
 * ```ts
 * const demo = await serveDemo("mirror-tabs-e2e-dist-");
 * await page.goto(demo.url);
 * await demo.close();
 * ```
 */
export async function serveDemo(prefix: string): Promise<ServedDemo> {
  const outDir = await mkdtemp(join(tmpdir(), prefix));
  const configFile = join(DEMO, "vite.config.ts");
  await build({ root: DEMO, configFile, logLevel: "error", build: { outDir, emptyOutDir: true } });
  const server = await preview({
    root: DEMO,
    configFile,
    logLevel: "error",
    build: { outDir },
    preview: { host: "127.0.0.1", port: 0, strictPort: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error("vite preview reported no local address");
  return {
    url,
    server,
    async close() {
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

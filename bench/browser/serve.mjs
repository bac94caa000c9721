// Serves the repository (dist/ and bench/browser/) on 127.0.0.1 through a Vite dev server, and
// launches Chromium (scripts/chromium.mjs) with a persistent context (a temporary user-data-dir): default contexts
// keep OPFS in memory, which distorts the figures.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createServer } from "vite";
import { BROWSER_ALIASES } from "../../scripts/browser-aliases.mjs";
import { launchPersistentChromium } from "../../scripts/chromium.mjs";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Start the server and the browser, open `pagePath` (a page under bench/browser/ that loads
 * `module`), and wait for `readyFlag` on window.
 *
 * @returns `{ page, browserVersion, close }`.
 */
export async function openBenchPage({ module, readyFlag }) {
  const pagePath = "/__bench__.html";
  const server = await createServer({
    root: REPO,
    configFile: false,
    logLevel: "silent",
    appType: "custom",
    resolve: { alias: BROWSER_ALIASES },
    server: { host: "127.0.0.1", port: 0, hmr: false, watch: null },
    plugins: [
      {
        name: "bench-page",
        configureServer(dev) {
          dev.middlewares.use((request, response, next) => {
            if (request.url !== pagePath) return next();
            response.setHeader("content-type", "text/html");
            response.end(
              `<!doctype html><meta charset=utf-8><title>bench</title><script type="module" src="${module}"></script>`,
            );
          });
        },
      },
    ],
  });
  await server.listen();
  const { port } = server.httpServer.address();
  const userDataDir = mkdtempSync(join(tmpdir(), "bft-bench-"));
  const context = await launchPersistentChromium(userDataDir);
  const page = await context.newPage();
  page.on("pageerror", (error) => process.stderr.write(`bench page error: ${error.message}\n`));
  await page.goto(`http://127.0.0.1:${port}${pagePath}`);
  await page.waitForFunction((flag) => window[flag] === true, readyFlag, { timeout: 60_000 });
  return {
    page,
    browserVersion: context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent)),
    async close() {
      await context.close();
      await server.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

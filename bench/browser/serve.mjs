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

/** Headers that make the page cross-origin isolated (needed by performance.measureUserAgentSpecificMemory). */
export const ISOLATION_HEADERS = Object.freeze({
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-embedder-policy": "require-corp",
});

/**
 * Start the Vite dev server alone.
 *
 * @param options.module The page's module script (a path under the repository).
 * @param options.pagePath The page's URL path. Default `/__bench__.html`.
 * @param options.routes `{ [urlPath]: (request, response) => void }` served before Vite.
 * @param options.isolated Send {@link ISOLATION_HEADERS} with every response.
 * @param options.optimizeDeps Bare packages the page imports (pre-bundled before the first load).
 * @returns `{ origin, pageUrl, close }`.
 */
export async function serveBenchPage({
  module,
  pagePath = "/__bench__.html",
  routes = {},
  isolated = false,
  optimizeDeps = [],
}) {
  const server = await createServer({
    root: REPO,
    configFile: false,
    logLevel: "silent",
    appType: "custom",
    resolve: { alias: BROWSER_ALIASES },
    optimizeDeps: { include: optimizeDeps },
    server: { host: "127.0.0.1", port: 0, hmr: false, watch: null },
    plugins: [
      {
        name: "bench-page",
        configureServer(dev) {
          dev.middlewares.use((request, response, next) => {
            if (isolated)
              for (const [name, value] of Object.entries(ISOLATION_HEADERS)) response.setHeader(name, value);
            const path = (request.url ?? "").split("?")[0];
            if (routes[path] !== undefined) return routes[path](request, response);
            if (path !== pagePath) return next();
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
  const origin = `http://127.0.0.1:${port}`;
  return { origin, pageUrl: origin + pagePath, close: () => server.close() };
}

/**
 * Start the server and the browser, open `pagePath` (a page under bench/browser/ that loads
 * `module`), and wait for `readyFlag` on window. Other options as {@link serveBenchPage}.
 *
 * @returns `{ page, context, browserVersion, pageUrl, userDataDir, close }`.
 */
export async function openBenchPage({ readyFlag, ...serveOptions }) {
  const served = await serveBenchPage(serveOptions);
  const userDataDir = mkdtempSync(join(tmpdir(), "bft-bench-"));
  const context = await launchPersistentChromium(userDataDir);
  const page = await context.newPage();
  page.on("pageerror", (error) => process.stderr.write(`bench page error: ${error.message}\n`));
  await page.goto(served.pageUrl);
  await page.waitForFunction((flag) => window[flag] === true, readyFlag, { timeout: 60_000 });
  return {
    page,
    context,
    pageUrl: served.pageUrl,
    userDataDir,
    browserVersion: context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent)),
    async close() {
      await context.close();
      await served.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

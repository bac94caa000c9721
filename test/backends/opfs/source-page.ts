/**
 * A Vite dev server over the repository that serves one blank page whose module script imports
 * our sources: the multi-launch browser tests (reload, crash) open it in a persistent context.
 */
import { createServer, type ViteDevServer } from "vite";
import { fileURLToPath } from "node:url";
import { BROWSER_ALIASES } from "../../../scripts/browser-aliases.mjs";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));

/** The served page: its URL path, title and module script (imports from `/src/...`). */
export interface SourcePage {
  readonly path: string;
  readonly title: string;
  readonly script: string;
}

/** Start the server; resolves to the page's origin and a `close`. */
export async function serveSourcePage(page: SourcePage): Promise<{ origin: string; server: ViteDevServer }> {
  const server = await createServer({
    root: REPO,
    configFile: false,
    logLevel: "silent",
    appType: "custom",
    resolve: { alias: BROWSER_ALIASES },
    optimizeDeps: { include: ["memfs"] },
    server: { host: "127.0.0.1", port: 0, strictPort: false, hmr: false, watch: null },
    plugins: [
      {
        name: "blank-page",
        configureServer(dev) {
          dev.middlewares.use((request, response, next) => {
            if (request.url !== page.path) return next();
            response.setHeader("content-type", "text/html");
            response.end(
              `<!doctype html><meta charset=utf-8><title>${page.title}</title><script type="module">${page.script}</script>`,
            );
          });
        },
      },
    ],
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (address === null || address === undefined || typeof address === "string") throw new Error("no server address");
  return { origin: `http://127.0.0.1:${address.port}`, server };
}

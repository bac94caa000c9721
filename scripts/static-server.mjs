// A static file server on 127.0.0.1 for the tests and benches that load a built page in Chromium
// (a secure context, so OPFS works): test/package/consumer-*.test.ts, test/scripts/.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

/** Content types by extension; anything else is application/octet-stream. */
const CONTENT_TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

/**
 * Serves the files under `root` on 127.0.0.1 at a free port: `/` is `index.html`, a missing file
 * is a 404 with an empty body, and `..` cannot leave `root` (the path is normalised first).
 *
 * @param root Absolute directory to serve.
 * @returns `{ url, close }`: `url` ends with `/` (`http://127.0.0.1:PORT/`); `close()` stops
 *   the server and resolves once it has.
 * @example
 * const { url, close } = await serveStatic(join(app, "dist"));
 * try { await page.goto(url); } finally { await close(); }
 */
export function serveStatic(root) {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
    const file = join(root, path === "/" ? "index.html" : path);
    readFile(file).then(
      (body) => {
        response.writeHead(200, { "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream" });
        response.end(body);
      },
      () => {
        response.writeHead(404);
        response.end();
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}/`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

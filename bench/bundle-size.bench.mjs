// Bundle size of each subpath export, as a browser consumer's Vite build would ship it:
// the export's "browser" (else "import") target bundled with everything it imports, minified,
// then gzipped. "Initial" is what loads with the entry; "lazy" is what dynamic imports fetch
// later (just-bash in ./shell). ./node is measured for Node (no browser build).
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "vite";

export const title = "Bundle sizes per subpath export (minified + gzip)";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

export async function run() {
  const rows = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target !== "object" || subpath === "./node") continue;
    const file = target.browser ?? target.import;
    const outDir = mkdtempSync(join(tmpdir(), "bft-size-"));
    try {
      await build({
        configFile: false,
        logLevel: "silent",
        root,
        resolve: { conditions: ["browser", "module", "import", "default"] },
        build: {
          outDir,
          emptyOutDir: true,
          minify: true,
          sourcemap: false,
          reportCompressedSize: false,
          lib: { entry: join(root, file), formats: ["es"], fileName: () => "entry.js" },
          rollupOptions: { treeshake: false },
        },
      });
      let initial = 0;
      let lazy = 0;
      let raw = 0;
      for (const name of readdirSync(outDir, { recursive: true })) {
        const path = join(outDir, String(name));
        if (!statSync(path).isFile() || !path.endsWith(".js")) continue;
        const bytes = readFileSync(path);
        const gz = gzipSync(bytes, { level: 9 }).length;
        if (String(name) === "entry.js") initial += gz;
        else lazy += gz;
        raw += bytes.length;
      }
      rows.push(
        `| \`better-fs-tools${subpath.slice(1)}\` | ${kb(initial)} | ${lazy === 0 ? "—" : kb(lazy)} | ${kb(raw)} |`,
      );
    } catch (error) {
      rows.push(
        `| \`better-fs-tools${subpath.slice(1)}\` | build failed: ${String(error.message).split("\n")[0]} | | |`,
      );
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }
  return `Each export bundled alone (browser condition, everything it imports included, no tree-shaking
of its own exports, so this is the most an app pays for importing it), minified, gzip level 9.
Dependencies loaded by dynamic \`import()\` land in separate chunks, counted under "lazy".

| export | initial (gzip) | lazy chunks (gzip) | total minified |
| --- | ---: | ---: | ---: |
${rows.join("\n")}
`;
}

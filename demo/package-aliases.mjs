// The package's own names (`better-fs-tools`, `better-fs-tools/memory`, ...) → its TypeScript
// sources in src/, read from the exports map in package.json: the playground imports the package
// by name, as a consumer would, and is built from the sources (no package build first). Used by
// demo/vite.config.ts and by vitest (tests that import playground modules).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const repository = new URL("..", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("package.json", repository), "utf8"));
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** The source file behind a built entry: `./dist/backends/memory/index.js` → `<repo>/src/backends/memory/index.ts`. */
function sourceOf(built) {
  if (!/^\.\/dist\/.+\.js$/.test(built)) throw new Error(`package-aliases: unexpected export target ${built}`);
  return fileURLToPath(new URL(built.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"), repository));
}

/** Vite `resolve.alias` entries, one exact match per subpath of the exports map that has an `import` target. */
export const PACKAGE_ALIASES = Object.entries(manifest.exports)
  .filter(([, target]) => typeof target === "object" && typeof target.import === "string")
  .map(([subpath, target]) => ({
    find: new RegExp(`^${escape(manifest.name + subpath.slice(1))}$`),
    replacement: sourceOf(target.import),
  }));

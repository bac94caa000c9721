// Module aliases that make memfs and just-bash (and anything else bundled for the browser) free of `node:*`.
// Used by the package build (scripts/build.mjs, browser bundles) and by vitest's browser project,
// so what the tests run in Chromium is what consumers get.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const shim = (name) => fileURLToPath(new URL(`./browser-shims/${name}.js`, import.meta.url));

/** Vite `resolve.alias` entries: Node built-in (with or without `node:`) → browser module. */
export const BROWSER_ALIASES = [
  { find: /^(node:)?buffer$/, replacement: require.resolve("buffer/") },
  { find: /^(node:)?events$/, replacement: require.resolve("events/") },
  { find: /^(node:)?path$/, replacement: require.resolve("path-browserify") },
  { find: /^(node:)?stream$/, replacement: shim("stream") },
  { find: /^(node:)?url$/, replacement: shim("url") },
  { find: /^(node:)?process$/, replacement: shim("process") },
  // just-bash's browser build: gzip/gunzip on fflate (and a global Buffer once just-bash loads).
  { find: /^(node:)?zlib$/, replacement: shim("zlib") },
];

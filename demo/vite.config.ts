import { defineConfig } from "vite";
import { BROWSER_ALIASES } from "../scripts/browser-aliases.mjs";
import { PACKAGE_ALIASES } from "./package-aliases.mjs";

// The playground is a static, client-side-only app: `vite build demo` writes demo/dist, which any
// file host can serve. memfs needs browser versions of a few Node built-ins: the same aliases the
// package build and the browser tests use (scripts/browser-aliases.mjs), which also give just-bash's
// browser build its node:zlib (on fflate). The playground imports the package by name
// (`better-fs-tools`, `better-fs-tools/opfs`...); those names resolve to the sources in src/
// (demo/package-aliases.mjs), so dev and build need no package build.
export default defineConfig({
  base: "./",
  resolve: {
    alias: [...PACKAGE_ALIASES, ...BROWSER_ALIASES],
  },
  optimizeDeps: { include: ["memfs"] },
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 2048,
    reportCompressedSize: false,
  },
  worker: { format: "es" },
  preview: { host: "127.0.0.1", port: 4173, strictPort: true },
  server: { host: "127.0.0.1" },
});

// npm run build: dist/ for the published package.
//  1. tsc -p tsconfig.build.json: JS + .d.ts for all of src/ (dist/<same path>.js).
//  2. Browser bundles for entries whose libraries import Node built-ins (memfs imports node:buffer,
//     node:events, node:path, node:stream, node:url): the entry's tsc output with those libraries
//     and small browser stand-ins bundled in (scripts/browser-aliases.mjs), written beside it as
//     <entry>.browser.js and exposed through the "browser" export condition. Our own modules
//     stay external (relative imports), so classes like FsError exist once.
//  3. The Workers' entry modules (opfs-worker.js, mirror-worker.js) become one file each, their
//     imports inlined: a Worker started from the package without a bundler loads one script, not
//     a chain of module requests (a Worker is a realm of its own, so nothing is duplicated).
//  4. Checks the exports map: every target is a built file.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { BROWSER_ALIASES } from "./browser-aliases.mjs";
import { BROWSER_BUNDLES } from "./browser-bundles.mjs";
import { writeBrowserVariants } from "./browser-variants.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");

rmSync(dist, { recursive: true, force: true });

const started = performance.now();
let failed = false;
try {
  execFileSync(
    process.execPath,
    [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
} catch {
  // tsc still wrote dist/; go on so every problem shows in one run, then fail.
  console.error("build: tsc reported errors (see above); dist/ is written but the build fails");
  failed = true;
}

for (const bundle of BROWSER_BUNDLES) {
  const entry = join(dist, `${bundle.entry}.js`);
  if (!existsSync(entry)) continue; // entry not written yet
  await build({
    configFile: false,
    logLevel: "warn",
    root,
    resolve: { alias: BROWSER_ALIASES, conditions: ["browser", "module", "import", "default"] },
    build: {
      outDir: dirname(entry),
      emptyOutDir: false,
      copyPublicDir: false,
      minify: false,
      sourcemap: false,
      target: "es2022",
      reportCompressedSize: false,
      lib: { entry, formats: ["es"], fileName: () => `${bundle.entry.split("/").pop()}.browser.js` },
      rollupOptions: {
        // A lazily imported library (just-bash) becomes a chunk beside the entry; the .browser.js
        // suffix keeps it out of the browser-variant scan of our own modules.
        output: { chunkFileNames: `${bundle.entry.split("/").pop()}-[name]-[hash].browser.js` },
        external: (id, importer) => {
          if (importer === undefined) return false;
          const fromOurs = !relative(dist, importer).startsWith("..") && !importer.includes("node_modules");
          if (!fromOurs) return false;
          if (id.startsWith(".")) return true; // our own modules: shared with the Node build
          const bundled = (name) => id === name || id.startsWith(`${name}/`) || id.includes(`/node_modules/${name}/`);
          return !bundle.bundle.some(bundled);
        },
      },
    },
  });
}

/** The Workers' entry modules, bundled into one file each (step 3). */
const WORKER_ENTRIES = ["backends/opfs/opfs-worker", "backends/opfs-mirror/mirror-worker"];
for (const worker of WORKER_ENTRIES) {
  const entry = join(dist, `${worker}.js`);
  if (!existsSync(entry)) continue;
  const out = mkdtempSync(join(tmpdir(), "bft-worker-"));
  try {
    await build({
      configFile: false,
      logLevel: "warn",
      root,
      build: {
        outDir: out,
        emptyOutDir: false,
        copyPublicDir: false,
        minify: false,
        sourcemap: false,
        target: "es2022",
        reportCompressedSize: false,
        lib: { entry, formats: ["es"], fileName: () => "worker.js" },
      },
    });
    copyFileSync(join(out, "worker.js"), entry);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// Modules that import a bundled module get browser variants too (e.g. ./idb over ./memory).
const replaced = BROWSER_BUNDLES.map((bundle) => join(dist, `${bundle.entry}.js`)).filter((file) => existsSync(file));
const browserForms = await writeBrowserVariants(dist, replaced);

// The exports map must point at built files only, with a browser condition wherever one exists.
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const missing = [];
for (const [subpath, target] of Object.entries(pkg.exports)) {
  if (typeof target !== "object" || typeof target.import !== "string") continue;
  const module = target.import.replace(/^\.\/dist\//, "");
  const expected = `./dist/${module.replace(/\.js$/, ".browser.js")}`;
  if (browserForms.includes(module) && target.browser !== expected) {
    missing.push(`${subpath} needs "browser": "${expected}" before "import" (it reaches a browser-bundled module)`);
  }
}
for (const [subpath, target] of Object.entries(pkg.exports)) {
  const targets = typeof target === "string" ? [target] : Object.values(target);
  for (const file of targets) if (!existsSync(join(root, file))) missing.push(`${subpath} → ${file}`);
}
if (missing.length > 0) {
  console.error(`build: exports map problems:\n  ${missing.join("\n  ")}`);
  process.exit(1);
}
if (failed) process.exit(1);
console.error(`build: dist/ written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

/**
 * The packed package in a fresh Vite app with no configuration at all (no aliases, no polyfills,
 * no optional peers installed): it builds, and the built page runs a memory filesystem write and
 * read round trip in headless Chromium (and loads ./idb, which is built over ./memory), then bash
 * commands in just-bash (loaded lazily from its own chunk, with gzip on the bundled zlib shim).
 */
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "vite";
import { launchChromium } from "../../scripts/chromium.mjs";
import { serveStatic } from "../../scripts/static-server.mjs";
import { buildAndPack, createConsumer, type PackedPackage } from "./stage.js";

const PAGE_TIMEOUT_MS = 30_000;

const INDEX_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>consumer</title></head>
<body><script type="module" src="/main.js"></script></body></html>
`;

const MAIN_JS = `import { memoryFileSystem } from "better-fs-tools/memory";
import { FsError, createBashTool, createGrepTool, resultText } from "better-fs-tools";
import { justBashCommandRunner } from "better-fs-tools/shell";
import * as idb from "better-fs-tools/idb";

async function main() {
  const fs = memoryFileSystem({ files: { "/w/hello.txt": "héllo", "/w/logo.bin": new Uint8Array([0, 128, 255]) } });
  await fs.writeFile("/w/deep/new.txt", new TextEncoder().encode("written in the browser"));
  let missing = "";
  try {
    await fs.readFile("/w/missing.txt");
  } catch (error) {
    missing = (FsError.isInstance(error) ? "FsError " : "other ") + error.message;
  }
  const globals = { process: typeof globalThis.process, Buffer: typeof globalThis.Buffer };
  // bash: the root entry's tool (default just-bash runner), and a runner from ./shell.
  const bash = createBashTool({ fs, cwd: "/w" });
  const shell = await bash.execute({ command: "echo hi > a.txt && cat a.txt" });
  // grep: a pattern the JavaScript engine could backtrack on runs on re2js, loaded from its own chunk.
  const grep = createGrepTool({ fs, cwd: "/w" });
  const linear = resultText(await grep.execute({ pattern: "(\\\\w+\\\\s?)+$", glob: "*.txt" }));
  const runner = justBashCommandRunner({ fs, cwd: "/w" });
  const gzip = await runner.run({ command: "gzip -k a.txt && zcat a.txt.gz && gunzip -c a.txt.gz | wc -c", cwd: "/w", env: {}, timeoutMs: 10000 });
  return {
    shell: { stdout: shell.stdout, stderr: shell.stderr, exitCode: shell.exitCode, file: new TextDecoder().decode(await fs.readFile("/w/a.txt")) },
    gzip: { stdout: gzip.stdout, stderr: gzip.stderr, exitCode: gzip.exitCode },
    linear,
    hello: new TextDecoder().decode(await fs.readFile("/w/hello.txt")),
    logo: Array.from(await fs.readFile("/w/logo.bin")),
    written: new TextDecoder().decode(await fs.readFile("/w/deep/new.txt")),
    entries: (await fs.readdir("/w")).map((entry) => entry.name + ":" + entry.type).sort(),
    missing,
    globals,
    idbExports: Object.keys(idb).length > 0,
  };
}

main().then(
  (result) => { window.__result = result; document.title = "done"; },
  (error) => { window.__result = { error: String(error && error.stack || error) }; document.title = "done"; },
);
`;

describe("a Vite app using the packed package with no configuration", () => {
  let packed: PackedPackage;
  let consumer: string;
  let warnings: string[] = [];

  beforeAll(async () => {
    packed = await buildAndPack();
    consumer = await createConsumer(packed, "consumer-vite");
    await writeFile(join(consumer, "index.html"), INDEX_HTML);
    await writeFile(join(consumer, "main.js"), MAIN_JS);
    await build({
      root: consumer,
      configFile: false,
      logLevel: "silent",
      customLogger: {
        info: () => {},
        warn: (message) => warnings.push(message),
        warnOnce: (message) => warnings.push(message),
        error: (message) => warnings.push(message),
        clearScreen: () => {},
        hasErrorLogged: () => false,
        hasWarned: false,
      },
      build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
    });
  }, 300_000);

  afterAll(async () => {
    await packed?.cleanup();
  });

  it("installs without the optional peers (memfs, ai, idb-keyval, just-bash)", async () => {
    const installed = await readdir(join(consumer, "node_modules"));
    expect(["memfs", "ai", "idb-keyval", "just-bash"].filter((name) => installed.includes(name))).toEqual([]);
  });

  it("builds without Node built-in warnings and ships no node: import", async () => {
    expect(warnings.filter((warning) => /externalized for browser|node:|Buffer|process/.test(warning))).toEqual([]);
    const assets = join(consumer, "dist", "assets");
    const scripts = (await readdir(assets)).filter((name) => name.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const code = await readFile(join(assets, name), "utf8");
      expect({
        name,
        nodeImports: code.match(/["']node:[a-z_/]+["']/g) ?? [],
        external: code.includes("__vite-browser-external"),
      }).toEqual({
        name,
        nodeImports: [],
        external: false,
      });
    }
  });

  it("bundles one copy of the core modules (the browser build of ./memory shares FsError with .)", async () => {
    const assets = join(consumer, "dist", "assets");
    let copies = 0;
    for (const name of (await readdir(assets)).filter((file) => file.endsWith(".js"))) {
      copies += (await readFile(join(assets, name), "utf8")).split("better-fs-tools.error.FsError").length - 1;
    }
    expect(copies).toBe(1);
  });

  it("keeps just-bash in a chunk of its own, loaded on the first command (not in the entry chunk)", async () => {
    const assets = join(consumer, "dist", "assets");
    const html = await readFile(join(consumer, "dist", "index.html"), "utf8");
    const entry = /assets\/([^"]+\.js)/.exec(html)?.[1];
    const holders: string[] = [];
    for (const name of (await readdir(assets)).filter((file) => file.endsWith(".js"))) {
      if ((await readFile(join(assets, name), "utf8")).includes("exceeded its execution deadline")) holders.push(name);
    }
    expect({ holders: holders.length, inEntry: holders.includes(entry ?? "") }).toEqual({ holders: 1, inEntry: false });
  });

  // just-bash bundles its own re2js (1.x) inside its chunk; ours is the other one.
  it("keeps re2js (grep's linear-time engine) in a chunk of its own, not in the entry chunk", async () => {
    const assets = join(consumer, "dist", "assets");
    const html = await readFile(join(consumer, "dist", "index.html"), "utf8");
    const entry = /assets\/([^"]+\.js)/.exec(html)?.[1];
    const holders: string[] = [];
    for (const name of (await readdir(assets)).filter((file) => file.endsWith(".js"))) {
      const code = await readFile(join(assets, name), "utf8");
      if (code.includes("error parsing regexp") && !code.includes("exceeded its execution deadline"))
        holders.push(name);
    }
    expect({ holders: holders.length, inEntry: holders.includes(entry ?? "") }).toEqual({ holders: 1, inEntry: false });
  });

  it("runs a memory filesystem round trip, grep on the linear-time engine and bash commands in headless Chromium", async () => {
    const { url, close } = await serveStatic(join(consumer, "dist"));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      await page.goto(url);
      await page.waitForFunction(() => document.title === "done", undefined, { timeout: PAGE_TIMEOUT_MS });
      const result = await page.evaluate(() => (window as unknown as { __result: unknown }).__result);
      expect({ result, pageErrors }).toEqual({
        result: {
          shell: { stdout: "hi\n", stderr: "", exitCode: 0, file: "hi\n" },
          gzip: { stdout: "hi\n3\n", stderr: "", exitCode: 0 },
          linear: "a.txt:1:hi\ndeep/new.txt:1:written in the browser\nhello.txt:1:héllo",
          hello: "héllo",
          logo: [0, 128, 255],
          written: "written in the browser",
          entries: ["a.txt.gz:file", "a.txt:file", "deep:directory", "hello.txt:file", "logo.bin:file"],
          missing: "FsError ENOENT: no such file or directory, open '/w/missing.txt'",
          globals: { process: "undefined", Buffer: "undefined" },
          idbExports: true,
        },
        pageErrors: [],
      });
    } finally {
      await browser.close();
      await close();
    }
  });
});

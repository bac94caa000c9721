/**
 * The published package, checked from the tarball `npm pack` makes (one pack for this file):
 * its contents, publint, every subpath export imported by a fresh Node ESM consumer and
 * type-checked by `tsc` in a fresh TypeScript consumer, the browser module graph free of `node:`,
 * and optional peers reached only from their own subpaths. The list of subpaths is read from
 * package.json, so new entries are checked as they are added.
 */
import { builtinModules } from "node:module";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  REPOSITORY_ROOT,
  buildAndPack,
  codeSubpaths,
  command,
  createConsumer,
  exportTarget,
  readPackageJson,
  specifier,
  type PackageJson,
  type PackedPackage,
} from "./stage.js";
import { packageOf, walkModuleGraph } from "./module-graph.js";
import { BROWSER_BUNDLES } from "../../scripts/browser-bundles.mjs";

/** Which subpaths may reach each optional peer (design.md: peers only under their own subpath). */
const PEER_SUBPATHS: Readonly<Record<string, readonly string[]>> = {
  // ./idb persists a memory filesystem (in browsers it gets memfs through memory.browser.js).
  // ./opfs-mirror holds its working set in a memory filesystem.
  memfs: ["./memory", "./idb", "./opfs-mirror"],
  "idb-keyval": ["./idb"],
  "just-bash": ["./shell"],
  ai: ["./ai-sdk", "./sandbox", "./agent"],
  vitest: ["./conformance"],
  "@modelcontextprotocol/sdk": ["./mcp"],
  zod: ["./mcp"],
  unstorage: ["./unstorage", "./redis"],
  ioredis: ["./redis"],
};

/** The subpath whose graph may import Node built-ins (design.md: only the Node backend). */
const NODE_ONLY_SUBPATHS = ["./node"];

/** Worker scripts are entries for `new Worker(...)`, not modules to import in Node. */
function isWorkerScript(subpath: string): boolean {
  return subpath.endsWith("-worker");
}

const packageJson: PackageJson = await readPackageJson();
const subpaths = codeSubpaths(packageJson);
const builtins = new Set(builtinModules);
const BUNDLED_LIBRARIES = new Set(BROWSER_BUNDLES.flatMap((bundle) => bundle.bundle));

function isNodeBuiltin(name: string): boolean {
  return name.startsWith("node:") || builtins.has(name);
}

let packed: PackedPackage;
let consumer: string;
let installed: string;

beforeAll(async () => {
  packed = await buildAndPack();
  const peers = Object.keys(packed.packageJson.peerDependencies ?? {}).map(
    (name) => `${name}@${packed.packageJson.devDependencies?.[name] ?? packed.packageJson.peerDependencies?.[name]}`,
  );
  consumer = await createConsumer(packed, "consumer-node", peers);
  installed = join(consumer, "node_modules", packed.packageJson.name);
}, 300_000);

afterAll(async () => {
  await packed?.cleanup();
});

describe("tarball", () => {
  it("holds package.json, README, LICENSE, docs/*.md and dist/ only: no test, demo or bench files", () => {
    const unexpected = packed.files.filter(
      (path) =>
        !/^(package\.json|README\.md|LICENSE(\.md)?|docs\/[a-z-]+\.md|dist\/.+\.(js|d\.ts))$/.test(path) ||
        /(^|\/)(test|tests|__tests__|demo|bench)(\/|$)|\.(test|bench)\.|\.browser\.test\./.test(path),
    );
    expect(unexpected).toEqual([]);
    expect(packed.files).toContain("package.json");
  });

  it("holds every file the exports map points at", () => {
    const targets = Object.values(packed.packageJson.exports).flatMap((target) =>
      typeof target === "string" ? [target] : Object.values(target),
    );
    expect(targets.map((target) => target.slice(2)).filter((path) => !packed.files.includes(path))).toEqual([]);
  });

  it("passes publint (warnings count as errors)", async () => {
    const { publint } = await import("publint");
    const { formatMessage } = await import("publint/utils");
    const tarball = await readFile(packed.tarball);
    const result = await publint({
      strict: true,
      level: "warning",
      pack: {
        tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) as ArrayBuffer,
      },
    });
    expect(
      result.messages.map((message) => `${message.type}: ${formatMessage(message, result.pkg) ?? message.code}`),
    ).toEqual([]);
  });
});

describe("a fresh Node ESM consumer", () => {
  for (const subpath of subpaths) {
    const worker = isWorkerScript(subpath);
    const title = worker
      ? `import ${subpath} (skipped: a Worker script, loaded with new Worker, not imported in Node)`
      : `import ${subpath} resolves and has named exports`;
    it.skipIf(worker)(title, async () => {
      const script = `const module = await import(${JSON.stringify(specifier(packageJson, subpath))});\nconsole.log(JSON.stringify(Object.keys(module)));\n`;
      await writeFile(join(consumer, "import-one.mjs"), script);
      const keys = JSON.parse(await command(process.execPath, ["import-one.mjs"], consumer)) as string[];
      expect(keys.length).toBeGreaterThan(0);
    });
  }

  it("runs a memory filesystem round trip through better-fs-tools/memory", async () => {
    await writeFile(
      join(consumer, "round-trip.mjs"),
      `import { memoryFileSystem } from "better-fs-tools/memory";
import { FsError } from "better-fs-tools";
const fs = memoryFileSystem({ files: { "w/a.txt": "héllo" }, cwd: "/" });
await fs.writeFile("/w/b/c.bin", new Uint8Array([1, 2, 255]));
let missing;
try { await fs.stat("/nope"); } catch (error) { missing = FsError.isInstance(error) && error.message; }
console.log(JSON.stringify({
  a: new TextDecoder().decode(await fs.readFile("/w/a.txt")),
  c: Array.from(await fs.readFile("/w/b/c.bin")),
  missing,
}));
`,
    );
    expect(JSON.parse(await command(process.execPath, ["round-trip.mjs"], consumer))).toEqual({
      a: "héllo",
      c: [1, 2, 255],
      missing: "ENOENT: no such file or directory, stat '/nope'",
    });
  });
});

describe("a fresh TypeScript consumer", () => {
  const tsc = join(REPOSITORY_ROOT, "node_modules", "typescript", "bin", "tsc");
  const source = () =>
    [
      ...subpaths.map(
        (subpath, index) => `import * as entry${index} from ${JSON.stringify(specifier(packageJson, subpath))};`,
      ),
      `import { memoryFileSystem, type MemoryFileSystemOptions } from "better-fs-tools/memory";`,
      `import { FsError, type FileSystem } from "better-fs-tools";`,
      `const options: MemoryFileSystemOptions = { files: { "/a.txt": "a", "/b.bin": new Uint8Array([1]) } };`,
      `const fs: FileSystem = memoryFileSystem(options);`,
      `export const checks = [fs.name, FsError.isInstance(null), ${subpaths.map((_, index) => `entry${index}`).join(", ")}] as const;`,
      "",
    ].join("\n");

  it.each([
    ["NodeNext", { module: "NodeNext", moduleResolution: "NodeNext" }],
    [
      "Bundler with the browser condition",
      { module: "ESNext", moduleResolution: "Bundler", customConditions: ["browser"] },
    ],
  ])("tsc --noEmit over every subpath import passes (%s resolution)", async (name, resolution) => {
    const slug = name.split(" ")[0]?.toLowerCase() ?? "check";
    await writeFile(join(consumer, `check-${slug}.ts`), source());
    await writeFile(
      join(consumer, `tsconfig.${slug}.json`),
      JSON.stringify({
        compilerOptions: {
          ...resolution,
          target: "ES2023",
          lib: ["ES2023", "DOM", "DOM.Iterable"],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          verbatimModuleSyntax: true,
        },
        files: [`check-${slug}.ts`],
      }),
    );
    const output = await command(process.execPath, [tsc, "-p", `tsconfig.${slug}.json`], consumer).catch(
      (error: Error) => error.message,
    );
    expect(output).toBe("");
  });
});

describe("module graphs of the built entries", () => {
  for (const subpath of subpaths) {
    const nodeOnly = NODE_ONLY_SUBPATHS.includes(subpath);
    const title = nodeOnly
      ? `${subpath} browser graph (skipped: the Node backend entry may use node:)`
      : `${subpath} browser graph imports nothing from node:`;
    it.skipIf(nodeOnly)(title, async () => {
      const target = exportTarget(packageJson, subpath, "browser") ?? exportTarget(packageJson, subpath, "import");
      expect(target).toBeDefined();
      const graph = await walkModuleGraph(installed, [join(installed, target ?? "")]);
      // Neither node: modules nor a library the build bundles for browsers (it would bring node:).
      expect(
        graph.bare.filter((edge) => isNodeBuiltin(edge.specifier) || BUNDLED_LIBRARIES.has(packageOf(edge.specifier))),
      ).toEqual([]);
    });
  }

  it("optional peers are imported statically only from their own subpaths (a lazy import() is allowed)", async () => {
    const violations: string[] = [];
    for (const subpath of subpaths) {
      for (const condition of ["browser", "import"]) {
        const target = exportTarget(packageJson, subpath, condition);
        if (target === undefined) continue;
        const graph = await walkModuleGraph(installed, [join(installed, target)]);
        for (const edge of graph.bare) {
          const name = packageOf(edge.specifier);
          const allowed = PEER_SUBPATHS[name];
          if (allowed !== undefined && !edge.dynamic && !allowed.includes(subpath)) {
            violations.push(`${subpath} (${condition}) reaches ${name} via ${edge.from}`);
          }
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it("every package the built code imports is a dependency or a peer", async () => {
    const declared = new Set([
      packageJson.name,
      ...Object.keys(packed.packageJson.dependencies ?? {}),
      ...Object.keys(packed.packageJson.peerDependencies ?? {}),
    ]);
    const undeclared = new Set<string>();
    for (const subpath of subpaths) {
      for (const condition of ["browser", "import"]) {
        const target = exportTarget(packageJson, subpath, condition);
        if (target === undefined) continue;
        const graph = await walkModuleGraph(installed, [join(installed, target)]);
        for (const edge of graph.bare) {
          const name = packageOf(edge.specifier);
          if (!isNodeBuiltin(name) && !declared.has(name)) undeclared.add(`${name} (from ${edge.from})`);
        }
      }
    }
    expect([...undeclared].sort()).toEqual([]);
  });

  it("optional peers are declared optional and installed here as devDependencies", () => {
    const peers = Object.keys(packageJson.peerDependencies ?? {}).sort();
    expect(peers).toEqual(Object.keys(PEER_SUBPATHS).sort());
    const meta =
      (packageJson as { peerDependenciesMeta?: Record<string, { optional?: boolean }> }).peerDependenciesMeta ?? {};
    expect(peers.filter((name) => meta[name]?.optional !== true)).toEqual([]);
    expect(peers.filter((name) => packageJson.devDependencies?.[name] === undefined)).toEqual([]);
    expect(peers.filter((name) => packageJson.dependencies?.[name] !== undefined)).toEqual([]);
  });
});

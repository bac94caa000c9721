/**
 * The exports map against the source tree (no build needed): every export points at the built
 * form of an existing `src/` entry, conditions are in a working order (`default` last), and
 * every entry file that design.md names has its subpath.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BROWSER_BUNDLES } from "../../scripts/browser-bundles.mjs";
import { REPOSITORY_ROOT, codeSubpaths, readPackageJson } from "./stage.js";

/** The entry files design.md lays out, and the subpath each one is published as. */
const DESIGN_ENTRIES: Readonly<Record<string, string>> = {
  ".": "src/index.ts",
  "./memory": "src/backends/memory/index.ts",
  "./opfs": "src/backends/opfs/index.ts",
  "./idb": "src/backends/idb/index.ts",
  "./unstorage": "src/backends/unstorage/index.ts",
  "./redis": "src/backends/redis/index.ts",
  "./node": "src/backends/node/index.ts",
  "./shell": "src/shell/index.ts",
  "./ai-sdk": "src/ai-sdk/index.ts",
  "./sandbox": "src/sandbox/index.ts",
  "./agent": "src/agent/index.ts",
  "./conformance": "src/conformance/index.ts",
};

const packageJson = await readPackageJson();

/** `./dist/fs/memory.browser.js` → `src/fs/memory.ts`; `./dist/x.d.ts` → `src/x.ts`. */
function sourceOf(target: string): string | undefined {
  const match = /^\.\/dist\/(.+?)(\.browser)?\.(js|d\.ts)$/.exec(target);
  return match === null ? undefined : `src/${match[1]}.ts`;
}

describe("exports map", () => {
  it("has the package fields a published ESM package needs", () => {
    const fields = packageJson as unknown as Record<string, unknown>;
    expect({
      type: fields.type,
      sideEffects: fields.sideEffects,
      files: fields.files,
      build: (fields.scripts as Record<string, string>).build,
    }).toEqual({
      type: "module",
      sideEffects: false,
      files: ["dist", "docs"],
      build: "node scripts/build.mjs",
    });
    expect(packageJson.exports["./package.json"]).toBe("./package.json");
  });

  for (const subpath of codeSubpaths(packageJson)) {
    it(`${subpath}: types first, then browser (if any), import, and default last (same file as import), every target built from an existing src/ entry`, () => {
      const target = packageJson.exports[subpath] as Record<string, string>;
      expect(typeof target).toBe("object");
      const conditions = Object.keys(target);
      const expected =
        target.browser === undefined ? ["types", "import", "default"] : ["types", "browser", "import", "default"];
      expect(conditions).toEqual(expected);
      // `default` serves resolvers that set neither `import` nor `browser` (older tools, some test runners).
      expect(target.default).toBe(target.import);
      const targets = Object.values(target as Record<string, string>);
      const sources = targets.map(sourceOf);
      expect(sources.filter((source) => source === undefined || !existsSync(join(REPOSITORY_ROOT, source)))).toEqual(
        [],
      );
      // All conditions of one subpath are forms of the same source file.
      expect(new Set(sources).size).toBe(1);
    });
  }

  it("every browser-bundled entry has its browser condition; any browser condition is the .browser.js form of import", () => {
    for (const bundle of BROWSER_BUNDLES) {
      // The bundled module is the subpath's entry (./memory), or a module under it (the just-bash
      // loader under ./shell), reached through the entry's browser variant.
      const target = packageJson.exports[bundle.subpath] as Record<string, string>;
      expect(target.browser).toBe(target.import!.replace(/\.js$/, ".browser.js"));
    }
    const wrong = codeSubpaths(packageJson)
      .map((subpath) => [subpath, packageJson.exports[subpath] as Record<string, string>] as const)
      .filter(
        ([, target]) =>
          target.browser !== undefined && target.browser !== target.import?.replace(/\.js$/, ".browser.js"),
      )
      .map(([subpath]) => subpath);
    expect(wrong).toEqual([]);
  });

  it("every entry file that exists has its subpath", () => {
    const missing = Object.entries(DESIGN_ENTRIES)
      .filter(([, file]) => existsSync(join(REPOSITORY_ROOT, file)))
      .filter(([subpath, file]) => {
        const target = packageJson.exports[subpath];
        return typeof target !== "object" || sourceOf(target.import ?? "") !== file;
      })
      .map(([subpath, file]) => `${subpath} → ${file}`);
    expect(missing).toEqual([]);
  });

  it("the type-check configs (tests, demo) map every subpath to the source its export is built from", () => {
    for (const [config, prefix] of [
      ["tsconfig.check.json", "./"],
      ["demo/tsconfig.json", "../"],
    ] as const) {
      const paths = (
        JSON.parse(readFileSync(join(REPOSITORY_ROOT, config), "utf8")) as {
          compilerOptions: { paths: Record<string, string[]> };
        }
      ).compilerOptions.paths;
      const expected = Object.fromEntries(
        codeSubpaths(packageJson).map((subpath) => {
          const target = packageJson.exports[subpath] as Record<string, string>;
          return [`better-fs-tools${subpath.slice(1)}`, [`${prefix}${sourceOf(target.import ?? "")}`]];
        }),
      );
      expect({ config, paths }).toEqual({ config, paths: expected });
    }
  });
});

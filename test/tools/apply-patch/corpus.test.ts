// The Codex scenario corpus on the memory backend (README: ../shared/conformance/apply-patch/).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { CORPUS_SIZE, expectedTree, FAILING_SCENARIOS, groupScenarios, runScenario, treeOf } from "./corpus-cases.js";

const CORPUS = resolve(import.meta.dirname, "../../../../shared/conformance/apply-patch/scenarios");

function readTree(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const walk = (current: string): void => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path).split("\\").join("/"), new Uint8Array(readFileSync(path)));
    }
  };
  walk(dir);
  return files;
}

const present = existsSync(CORPUS);
const scenarios = present ? groupScenarios(readTree(CORPUS)) : [];

describe.skipIf(!present)(`apply_patch corpus on memory (skipped when ${CORPUS} is absent)`, () => {
  test(`has ${CORPUS_SIZE} scenarios`, () => {
    expect(scenarios.length).toBe(CORPUS_SIZE);
  });

  for (const scenario of scenarios) {
    const failing = FAILING_SCENARIOS.has(scenario.name.slice(0, 3));
    test(`${scenario.name} ${failing ? "is refused and changes nothing" : "applies"}`, async () => {
      const fs = memoryFileSystem();
      const { result, tree } = await runScenario(fs, "/ws", scenario);
      expect(result.ok).toBe(!failing);
      expect(tree).toEqual(treeOf(expectedTree(scenario)));
    });
  }
});

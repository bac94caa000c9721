// The Codex scenario corpus on OPFS in real Chromium (README: ../shared/conformance/apply-patch/).
// The scenario files are listed and loaded at transform time by Vite's import.meta.glob (`?raw`).
import { describe, expect, test } from "vitest";
import { opfsFileSystem } from "../../../src/backends/opfs/index.js";
import { CORPUS_SIZE, expectedTree, FAILING_SCENARIOS, groupScenarios, runScenario, treeOf } from "./corpus-cases.js";
import { wipe } from "../../backends/opfs/wipe.js";

const PREFIX = "../../../../shared/conformance/apply-patch/scenarios/";
const raw = import.meta.glob<string>("../../../../shared/conformance/apply-patch/scenarios/**/*", {
  query: "?raw",
  import: "default",
  eager: true,
});

const encoder = new TextEncoder();
const files = new Map(Object.entries(raw).map(([path, text]) => [path.slice(PREFIX.length), encoder.encode(text)]));

const present = files.size > 0;
const scenarios = present ? groupScenarios(files) : [];

describe.skipIf(!present)(
  "apply_patch corpus on OPFS (skipped when ../shared/conformance/apply-patch is absent)",
  () => {
    test(`has ${CORPUS_SIZE} scenarios`, () => {
      expect(scenarios.length).toBe(CORPUS_SIZE);
    });

    for (const worker of [false, true]) {
      describe(`chromium, ${worker ? "worker" : "main thread"}`, () => {
        for (const scenario of scenarios) {
          const failing = FAILING_SCENARIOS.has(scenario.name.slice(0, 3));
          test(`${scenario.name} ${failing ? "is refused and changes nothing" : "applies"}`, async () => {
            const rootName = `test-apply-patch-${worker ? "w" : "m"}-${scenario.name}`;
            await wipe(rootName);
            const fs = opfsFileSystem({ root: `/${rootName}`, worker });
            try {
              const { result, tree } = await runScenario(fs, "/ws", scenario);
              expect(result.ok).toBe(!failing);
              expect(tree).toEqual(treeOf(expectedTree(scenario)));
            } finally {
              await fs.close();
              await wipe(rootName);
            }
          });
        }
      });
    }
  },
);

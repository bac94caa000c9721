/**
 * The Codex apply_patch scenario corpus (`../shared/conformance/apply-patch/`), judged as its
 * README says, on any backend. Shared by the node (memory) and browser (OPFS) test files; the
 * callers load the scenario files their own way.
 */
import type { FileSystem } from "../../../src/contract/types.js";
import { createApplyPatchTool } from "../../../src/tools/apply-patch/index.js";
import type { MutationResult } from "../../../src/tools/kit/result.js";

/** One scenario: `patch.txt`, and the `input/` and `expected/` trees as relative path → bytes. */
export interface CorpusScenario {
  readonly name: string;
  readonly patch: string;
  readonly input: ReadonlyMap<string, Uint8Array>;
  readonly expected: ReadonlyMap<string, Uint8Array>;
}

/** Scenarios whose patch must be refused (README item 4); 015 included, judged atomically. */
export const FAILING_SCENARIOS: ReadonlySet<string> = new Set(["005", "006", "007", "008", "009", "012", "013", "015"]);

/** The corpus has 23 scenarios. */
export const CORPUS_SIZE = 23;

/**
 * 015: the reference keeps `created.txt` from the hunk before the failing one; better-fs-tools
 * applies a patch atomically, so the expected tree is the input tree (empty). See the README.
 */
export function expectedTree(scenario: CorpusScenario): ReadonlyMap<string, Uint8Array> {
  return scenario.name.startsWith("015") ? scenario.input : scenario.expected;
}

/** `{ relative path → "dir" | text }` of a tree under `root`, sorted, for exact comparison. */
export async function snapshotTree(fs: FileSystem, root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const decoder = new TextDecoder("utf-8", { fatal: true });
  async function walk(dir: string, prefix: string): Promise<void> {
    const entries = (await fs.readdir(dir)).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`;
      const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.type === "directory") {
        out[`${rel}/`] = "dir";
        await walk(path, rel);
      } else {
        out[rel] = decoder.decode(await fs.readFile(path));
      }
    }
  }
  await walk(root, "");
  return out;
}

/** The same `{ relative path → "dir" | text }` shape for a scenario tree (directories implied). */
export function treeOf(files: ReadonlyMap<string, Uint8Array>): Record<string, string> {
  const out: Record<string, string> = {};
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for (const [path, bytes] of files) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i += 1) out[`${parts.slice(0, i).join("/")}/`] = "dir";
    out[path] = decoder.decode(bytes);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Copy `input/` into `root` on `fs`, apply the patch once with `root` as cwd, return the result and the tree. */
export async function runScenario(
  fs: FileSystem,
  root: string,
  scenario: CorpusScenario,
): Promise<{ result: MutationResult; tree: Record<string, string> }> {
  await fs.mkdir(root, { recursive: true });
  for (const [path, bytes] of scenario.input) await fs.writeFile(`${root}/${path}`, bytes);
  const tool = createApplyPatchTool({ fs, cwd: root });
  const result = await tool.execute(tool.validate({ patch: scenario.patch }));
  const tree = await snapshotTree(fs, root);
  return { result, tree };
}

/** Group flat `scenarios/<name>/<patch.txt|input/..|expected/..>` entries into scenarios. */
export function groupScenarios(files: ReadonlyMap<string, Uint8Array>): CorpusScenario[] {
  const byName = new Map<
    string,
    { patch?: string; input: Map<string, Uint8Array>; expected: Map<string, Uint8Array> }
  >();
  for (const [path, bytes] of files) {
    const [name, kind, ...rest] = path.split("/");
    if (name === undefined || kind === undefined) continue;
    let scenario = byName.get(name);
    if (scenario === undefined) {
      scenario = { input: new Map(), expected: new Map() };
      byName.set(name, scenario);
    }
    if (kind === "patch.txt") scenario.patch = new TextDecoder().decode(bytes);
    else if (kind === "input") scenario.input.set(rest.join("/"), bytes);
    else if (kind === "expected") scenario.expected.set(rest.join("/"), bytes);
  }
  return [...byName.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, s]) => ({ name, patch: s.patch ?? "", input: s.input, expected: s.expected }));
}

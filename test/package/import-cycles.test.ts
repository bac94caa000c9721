/**
 * No module of src/ imports itself back through others (static imports, type-only ones
 * included): a cycle hides which module is the lower layer (the MCP dialects and the server
 * once imported each other). Lazy `import()` is left out: it breaks no load order.
 */
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { REPOSITORY_ROOT } from "./stage.js";
import { importsOf, readSource, sourceFiles } from "./source-modules.js";

/** The cycles of a graph (each once, as the path from its smallest module back to it). */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles = new Map<string, string[]>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") {
        const cycle = stack.slice(stack.indexOf(next));
        const start = cycle.indexOf([...cycle].sort()[0] as string);
        const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
        cycles.set(rotated.join(" → "), rotated);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return [...cycles.values()];
}

describe("src/ import graph", () => {
  it("finds a cycle when there is one (the checker itself)", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(cyclesOf(graph)).toEqual([["a", "b", "c"]]);
  });

  it("has no import cycle", async () => {
    const files = await sourceFiles(REPOSITORY_ROOT, "src");
    const graph = new Map<string, string[]>();
    for (const file of files) {
      const code = await readSource(REPOSITORY_ROOT, file);
      graph.set(
        file,
        importsOf(code, file)
          .filter((entry) => !entry.dynamic && entry.specifier.startsWith("."))
          .map((entry) => normalize(join(dirname(file), entry.specifier)).replace(/\.js$/, ".ts")),
      );
    }
    expect(cyclesOf(graph).map((cycle) => cycle.join(" → "))).toEqual([]);
  });
});

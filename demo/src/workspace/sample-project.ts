/**
 * The sample project the playground loads on first visit: `demo/sample-project/**`, bundled as
 * text. A small TypeScript todo API with tests, docs and config, so the scripted agent has
 * something real to work on.
 *
 * @module
 */
const modules = import.meta.glob("../../sample-project/**/*", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const PREFIX = "../../sample-project/";

/** Workspace-relative path → content, sorted by path. */
export const SAMPLE_PROJECT: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    Object.entries(modules)
      .map(([path, content]) => [path.slice(PREFIX.length), content] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  ),
);

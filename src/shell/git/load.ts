/**
 * Lazy loading of isomorphic-git: nothing imports it statically, so a page that never runs
 * `git` never downloads it (bundlers split the dynamic `import()` into its own chunk).
 *
 * @module
 */

/** The isomorphic-git module. */
export type IsomorphicGit = typeof import("isomorphic-git");

let loading: Promise<IsomorphicGit> | undefined;

/**
 * Import isomorphic-git once and cache it. isomorphic-git uses a global `Buffer`: where the host
 * has none (a browser page), the `buffer` package is loaded and installed as `globalThis.Buffer`
 * first (the package's browser build bundles it).
 *
 * @returns the module.
 * @throws Error when the import fails (chunk not served), naming the package; the next call tries again.
 * @example
 * ```ts
 * const git = await loadIsomorphicGit();
 * ```
 */
export function loadIsomorphicGit(): Promise<IsomorphicGit> {
  loading ??= (async () => {
    const scope = globalThis as { Buffer?: unknown };
    if (scope.Buffer === undefined) {
      const { Buffer } = await import("buffer");
      scope.Buffer ??= Buffer;
    }
    return import("isomorphic-git");
  })().catch((error: unknown) => {
    loading = undefined;
    throw new Error(
      `better-fs-tools could not load isomorphic-git (make sure your bundler serves its chunk): ${String(error)}`,
      {
        cause: error,
      },
    );
  });
  return loading;
}

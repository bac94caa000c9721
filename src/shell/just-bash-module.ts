/**
 * Lazy loading of just-bash: nothing in `better-fs-tools` imports it statically, so a page that
 * never runs bash never downloads it (bundlers split the dynamic `import()` into its own chunk).
 *
 * @module
 */

/** The just-bash module as our code uses it (the Node build; the browser build lacks `DefenseInDepthBox`). */
export type JustBashModule = typeof import("just-bash");

let loading: Promise<JustBashModule> | undefined;
let loaded: JustBashModule | undefined;

/**
 * Import just-bash once and cache it.
 *
 * @returns the module (the `browser` build in browsers and Workers, the Node build in Node).
 * @throws Error when the import fails (package not installed, chunk not served), with a message
 *   that says how to fix it; the next call tries again.
 * @example
 * ```ts
 * const { Bash } = await loadJustBash();
 * ```
 */
export function loadJustBash(): Promise<JustBashModule> {
  loading ??= import("just-bash").then(
    (module) => {
      loaded = module;
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw new Error(
        `better-fs-tools could not load just-bash (install it with "npm i just-bash", and make sure your bundler serves its chunk): ${String(error)}`,
        { cause: error },
      );
    },
  );
  return loading;
}

/** The module if {@link loadJustBash} has finished, else `undefined` (never starts a load). */
export function loadedJustBash(): JustBashModule | undefined {
  return loaded;
}

/** Runs backend work as trusted host code, outside just-bash's defense-in-depth blocks. */
export type TrustedRunner = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * The trusted runner of a loaded just-bash: `DefenseInDepthBox.runTrustedAsync` in Node (where
 * the defense layer would otherwise block e.g. memfs's `process.cwd()` inside a script), and a
 * plain call in browsers, whose build has no defense layer.
 */
export function trustedRunnerOf(module: JustBashModule | undefined): TrustedRunner {
  const box = (module as { DefenseInDepthBox?: JustBashModule["DefenseInDepthBox"] } | undefined)?.DefenseInDepthBox;
  if (box === undefined || typeof box.runTrustedAsync !== "function") return (work) => work();
  return (work) => box.runTrustedAsync(work);
}

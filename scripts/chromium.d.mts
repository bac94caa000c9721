/** Where the Chromium came from, in the order the resolver tries them. */
export type ChromiumSource = "CHROMIUM_PATH" | "playwright" | "PATH" | "@sparticuz/chromium";

/** A Chromium to launch with Playwright: pass all three of executablePath, args and env. */
export interface ResolvedChromium {
  readonly executablePath: string;
  readonly args: string[];
  readonly source: ChromiumSource;
  /** The browser's whole environment when it needs one (the @sparticuz fallback), else undefined. */
  readonly env: Record<string, string | undefined> | undefined;
}

export interface FindChromiumOptions {
  /** Where CHROMIUM_PATH and PATH are read; default process.env. */
  readonly env?: Record<string, string | undefined>;
  /** Where Playwright keeps its Chromium (the file may be absent). */
  readonly playwrightExecutablePath?: () => Promise<string | undefined> | string | undefined;
  /** The bundled fallback. */
  readonly sparticuz?: (
    env: Record<string, string | undefined>,
  ) => Promise<{ executablePath: string; env: Record<string, string | undefined> }>;
}

/** Flags for every launch (no sandbox, no GPU, no background traffic). */
export declare const CHROMIUM_ARGS: readonly string[];
/** Executable names looked up on PATH, in order. */
export declare const PATH_NAMES: readonly string[];
/** The first of PATH_NAMES that is an executable file in a directory of pathVariable. */
export declare function findOnPath(pathVariable: string | undefined): string | undefined;
/** Finds the Chromium to launch, without caching. */
export declare function findChromium(options?: FindChromiumOptions): Promise<ResolvedChromium>;
/** The Chromium for this process, found once. */
export declare function resolveChromium(): Promise<ResolvedChromium>;
/** Launches the resolved Chromium headless (options.args are added after the shared flags). */
export declare function launchChromium(
  options?: import("playwright").LaunchOptions,
): Promise<import("playwright").Browser>;
/** Launches the resolved Chromium headless with a persistent profile in userDataDir. */
export declare function launchPersistentChromium(
  userDataDir: string,
  options?: Parameters<typeof import("playwright").chromium.launchPersistentContext>[1],
): Promise<import("playwright").BrowserContext>;

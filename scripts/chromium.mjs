// The one place that decides which Chromium the tests, the e2e suite and the benches launch, and
// with which flags. Build and test infrastructure, not package code (see scripts/README.md).
//
// Order: CHROMIUM_PATH (must exist) → a Playwright-installed Chromium → `chromium`,
// `chromium-browser`, `google-chrome`, `google-chrome-stable` on PATH (never a fixed /usr/bin
// path) → the Chromium inside the `@sparticuz/chromium` devDependency, unpacked to the temporary
// directory from the npm package itself (no download), so a machine with only Node and npm works.
import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/**
 * Flags for every launch: root user without a sandbox (`--no-sandbox`), no GPU, and no traffic
 * to Google services on a closed network (background networking, component updates, sync).
 * The @sparticuz binary is a headless-shell build: Playwright's own `--headless` is enough for
 * it, and it runs multi-process here, so it needs none of the Lambda flags its package lists.
 */
export const CHROMIUM_ARGS = Object.freeze([
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]);

/** Names looked up on PATH, in this order. */
export const PATH_NAMES = Object.freeze(["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]);

function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first of PATH_NAMES found as an executable file in a directory of `pathVariable`. */
export function findOnPath(pathVariable) {
  const directories = (pathVariable ?? "").split(delimiter).filter((directory) => directory !== "");
  for (const name of PATH_NAMES) {
    for (const directory of directories) {
      const candidate = join(directory, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

async function playwrightExecutablePath() {
  try {
    const { chromium } = await import("playwright");
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/**
 * Unpacks @sparticuz/chromium's binary (once per machine: it reuses `<tmpdir>/chromium`) and
 * returns it with the environment it needs: FONTCONFIG_PATH points at the fonts it ships
 * (`<tmpdir>/fonts`), so pages render the same on every machine, with or without system fonts.
 * If the binary cannot start for lack of shared libraries (libnss3, libnspr4, libexpat), the
 * Amazon Linux copies the package ships are unpacked and put on LD_LIBRARY_PATH.
 */
async function sparticuzChromium(env) {
  const { default: Chromium, inflate } = await import("@sparticuz/chromium");
  const executablePath = await Chromium.executablePath();
  const browserEnv = { ...env, FONTCONFIG_PATH: join(tmpdir(), "fonts") };
  const probe = spawnSync(executablePath, ["--version"], { env: browserEnv, encoding: "utf8", timeout: 30_000 });
  if (probe.status !== 0 && /error while loading shared libraries/.test(probe.stderr ?? "")) {
    const { createRequire } = await import("node:module");
    const packageJson = createRequire(import.meta.url).resolve("@sparticuz/chromium/package.json");
    const libraries = join(await inflate(join(packageJson, "..", "bin", "al2023.tar.br")), "lib");
    browserEnv.LD_LIBRARY_PATH = [libraries, env.LD_LIBRARY_PATH].filter(Boolean).join(delimiter);
  }
  return { executablePath, env: browserEnv };
}

/**
 * Finds the Chromium to launch, without caching (tests call this; everything else calls
 * `resolveChromium`).
 *
 * @param options.env The environment to read `CHROMIUM_PATH` and `PATH` from; default `process.env`.
 * @param options.playwrightExecutablePath Returns where Playwright keeps its Chromium (the file
 *   may be absent); default `chromium.executablePath()` from `playwright`.
 * @param options.sparticuz Returns the bundled fallback; default unpacks `@sparticuz/chromium`.
 * @returns `{ executablePath, args, source, env }`: `source` is `"CHROMIUM_PATH"`, `"playwright"`,
 *   `"PATH"` or `"@sparticuz/chromium"`; `env` is the browser's environment when it needs one
 *   (only the @sparticuz fallback), else `undefined` (Playwright then passes `process.env`).
 * @throws Error when `CHROMIUM_PATH` is set but is not an executable file:
 *   `CHROMIUM_PATH is set to <path>, which is not an executable file; unset it to find Chromium automatically`.
 * @example
 * const { executablePath, args, env } = await findChromium();
 * const browser = await chromium.launch({ executablePath, args, env, headless: true });
 */
export async function findChromium({
  env = process.env,
  playwrightExecutablePath: playwrightPath = playwrightExecutablePath,
  sparticuz = sparticuzChromium,
} = {}) {
  const args = [...CHROMIUM_ARGS];
  const configured = env.CHROMIUM_PATH;
  if (configured !== undefined && configured !== "") {
    if (!isExecutableFile(configured))
      throw new Error(
        `CHROMIUM_PATH is set to ${configured}, which is not an executable file; unset it to find Chromium automatically`,
      );
    return { executablePath: configured, args, source: "CHROMIUM_PATH", env: undefined };
  }
  const installed = await playwrightPath();
  if (installed !== undefined && isExecutableFile(installed))
    return { executablePath: installed, args, source: "playwright", env: undefined };
  const onPath = findOnPath(env.PATH);
  if (onPath !== undefined) return { executablePath: onPath, args, source: "PATH", env: undefined };
  const bundled = await sparticuz(env);
  return { executablePath: bundled.executablePath, args, source: "@sparticuz/chromium", env: bundled.env };
}

let resolved;

/**
 * The Chromium for this process (found once; later calls return the same promise).
 *
 * @returns See `findChromium`.
 * @throws See `findChromium` (the promise rejects).
 * @example
 * const { executablePath, args, env } = await resolveChromium();
 * const context = await chromium.launchPersistentContext(dir, { executablePath, args, env, headless: true });
 */
export function resolveChromium() {
  resolved ??= findChromium();
  return resolved;
}

/**
 * Launches the resolved Chromium headless through Playwright.
 *
 * @param options Other Playwright `launch` options (`args` are added after the shared flags).
 * @returns Playwright's `Browser`.
 * @throws See `findChromium`; Playwright's launch errors.
 * @example
 * const browser = await launchChromium();
 */
export async function launchChromium(options = {}) {
  const { chromium } = await import("playwright");
  return chromium.launch(await launchOptions(options));
}

/**
 * Launches the resolved Chromium headless with a persistent profile (OPFS and IndexedDB on disk,
 * as in a user's browser; default contexts keep OPFS in memory).
 *
 * @param userDataDir The profile directory (absolute).
 * @param options Other Playwright `launchPersistentContext` options (`viewport`, `acceptDownloads`...).
 * @returns Playwright's `BrowserContext`.
 * @throws See `findChromium`; Playwright's launch errors.
 * @example
 * const context = await launchPersistentChromium(mkdtempSync(join(tmpdir(), "profile-")));
 */
export async function launchPersistentChromium(userDataDir, options = {}) {
  const { chromium } = await import("playwright");
  return chromium.launchPersistentContext(userDataDir, await launchOptions(options));
}

async function launchOptions(options) {
  const { executablePath, args, env } = await resolveChromium();
  return { ...options, executablePath, args: [...args, ...(options.args ?? [])], env, headless: true };
}

/**
 * The playground's reference screenshots (test/e2e/__screenshots__/): compared, never rewritten,
 * unless `UPDATE_SCREENSHOTS=1` is set, which writes them and records the browser that took
 * them in `browser.json`. Fonts and text rendering differ between browser builds (the system
 * Chromium uses the system's fonts; the @sparticuz/chromium fallback ships its own), so shots
 * are compared only in the browser build that recorded them. A failed comparison writes
 * `<name>.actual.png` and `<name>.diff.png` beside the reference (both ignored by git).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import type { ResolvedChromium } from "../../scripts/chromium.mjs";

export const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), "__screenshots__");
const RECORDING = join(SCREENSHOTS, "browser.json");

/** `UPDATE_SCREENSHOTS=1` rewrites the references instead of comparing. */
export const UPDATE_SCREENSHOTS = process.env["UPDATE_SCREENSHOTS"] === "1";
/** pixelmatch's per-pixel colour threshold (0 to 1; its default is 0.1). */
const PIXEL_THRESHOLD = 0.1;
/** At most this share of a shot's pixels may differ (anti-aliasing and caret noise). */
export const MAX_MISMATCHED_RATIO = 0.002;

/**
 * A label for the browser build: its major version and where its fonts come from, e.g.
 * `Chromium 156 (system fonts)` or `Chromium 153 (@sparticuz/chromium fonts)`.
 */
export function browserLabel(browser: ResolvedChromium): string {
  const probe = spawnSync(browser.executablePath, ["--version"], {
    env: browser.env ?? process.env,
    encoding: "utf8",
    timeout: 30_000,
  });
  const major = /(\d+)\.\d+\.\d+\.\d+/.exec(probe.stdout ?? "")?.[1] ?? "unknown";
  const fonts = browser.source === "@sparticuz/chromium" ? "@sparticuz/chromium fonts" : "system fonts";
  return `Chromium ${major} (${fonts})`;
}

/** The label recorded with the references, or undefined when there is none. */
export function recordedBrowser(): string | undefined {
  if (!existsSync(RECORDING)) return undefined;
  return (JSON.parse(readFileSync(RECORDING, "utf8")) as { browser: string }).browser;
}

/** Writes the references' browser label (UPDATE_SCREENSHOTS=1 only). */
export function recordBrowser(label: string): void {
  writeFileSync(RECORDING, `${JSON.stringify({ browser: label }, null, 2)}\n`);
}

export interface ScreenshotComparison {
  readonly name: string;
  /** "missing" (no reference), "size" (dimensions differ), or the share of pixels that differ. */
  readonly outcome: "missing" | "size" | "within tolerance" | "different";
  readonly mismatchedPixels: number;
  readonly totalPixels: number;
}

/** Compares a shot with `<name>.png`; on a mismatch writes `<name>.actual.png` and `<name>.diff.png`. */
export function compareScreenshot(name: string, actualPng: Buffer): ScreenshotComparison {
  const referencePath = join(SCREENSHOTS, `${name}.png`);
  const actualPath = join(SCREENSHOTS, `${name}.actual.png`);
  const diffPath = join(SCREENSHOTS, `${name}.diff.png`);
  rmSync(actualPath, { force: true });
  rmSync(diffPath, { force: true });
  const actual = PNG.sync.read(actualPng);
  const totalPixels = actual.width * actual.height;
  if (!existsSync(referencePath)) {
    writeFileSync(actualPath, actualPng);
    return { name, outcome: "missing", mismatchedPixels: totalPixels, totalPixels };
  }
  const reference = PNG.sync.read(readFileSync(referencePath));
  if (reference.width !== actual.width || reference.height !== actual.height) {
    writeFileSync(actualPath, actualPng);
    return { name, outcome: "size", mismatchedPixels: totalPixels, totalPixels };
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  const mismatchedPixels = pixelmatch(reference.data, actual.data, diff.data, actual.width, actual.height, {
    threshold: PIXEL_THRESHOLD,
  });
  if (mismatchedPixels / totalPixels <= MAX_MISMATCHED_RATIO)
    return { name, outcome: "within tolerance", mismatchedPixels, totalPixels };
  writeFileSync(actualPath, actualPng);
  writeFileSync(diffPath, PNG.sync.write(diff));
  return { name, outcome: "different", mismatchedPixels, totalPixels };
}

/** Writes `<name>.png` (UPDATE_SCREENSHOTS=1 only). */
export function writeReference(name: string, png: Buffer): void {
  writeFileSync(join(SCREENSHOTS, `${name}.png`), png);
}

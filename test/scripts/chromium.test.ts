/**
 * scripts/chromium.mjs: the order Chromium is looked for in (with fake executables and injected
 * probes), and the last resort for real: with no CHROMIUM_PATH, no Playwright browser and no
 * Chromium on PATH, a child process picks @sparticuz/chromium, launches it and uses OPFS.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, findChromium, findOnPath, resolveChromium } from "../../scripts/chromium.mjs";

const scratch = mkdtempSync(join(tmpdir(), "bft-chromium-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A file at dir/name, executable unless told otherwise; returns its path. */
function fakeFile(dir: string, name: string, executable = true): string {
  mkdirSync(join(scratch, dir), { recursive: true });
  const path = join(scratch, dir, name);
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, executable ? 0o755 : 0o644);
  return path;
}

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const noPlaywright = () => undefined;
const noSparticuz = () => Promise.reject(new Error("the fallback was not expected here"));

describe("findChromium order", () => {
  const onPath = fakeFile("path-a", "chromium");
  const pathVariable = join(scratch, "path-a");

  it("the shared flags are exactly these five", () => {
    expect([...CHROMIUM_ARGS]).toEqual(FLAGS);
  });

  it("CHROMIUM_PATH wins over Playwright's browser and PATH", async () => {
    const configured = fakeFile("configured", "my-chrome");
    const playwright = fakeFile("playwright", "chrome");
    expect(
      await findChromium({
        env: { CHROMIUM_PATH: configured, PATH: pathVariable },
        playwrightExecutablePath: () => playwright,
        sparticuz: noSparticuz,
      }),
    ).toEqual({ executablePath: configured, args: FLAGS, source: "CHROMIUM_PATH", env: undefined });
  });

  it("a CHROMIUM_PATH that does not exist is an error naming it", async () => {
    const missing = join(scratch, "nowhere", "chromium");
    await expect(
      findChromium({ env: { CHROMIUM_PATH: missing, PATH: pathVariable }, playwrightExecutablePath: noPlaywright }),
    ).rejects.toThrow(
      new Error(
        `CHROMIUM_PATH is set to ${missing}, which is not an executable file; unset it to find Chromium automatically`,
      ),
    );
  });

  it("a CHROMIUM_PATH that is not executable is the same error", async () => {
    const plain = fakeFile("plain", "chromium", false);
    await expect(
      findChromium({ env: { CHROMIUM_PATH: plain }, playwrightExecutablePath: noPlaywright }),
    ).rejects.toThrow(
      `CHROMIUM_PATH is set to ${plain}, which is not an executable file; unset it to find Chromium automatically`,
    );
  });

  it("Playwright's installed Chromium comes next, when its file exists", async () => {
    const playwright = fakeFile("playwright", "chrome");
    expect(
      await findChromium({
        env: { PATH: pathVariable },
        playwrightExecutablePath: async () => playwright,
        sparticuz: noSparticuz,
      }),
    ).toEqual({ executablePath: playwright, args: FLAGS, source: "playwright", env: undefined });
  });

  it("then PATH, when Playwright's file is absent", async () => {
    expect(
      await findChromium({
        env: { PATH: pathVariable },
        playwrightExecutablePath: () => join(scratch, "no-playwright", "chrome"),
        sparticuz: noSparticuz,
      }),
    ).toEqual({ executablePath: onPath, args: FLAGS, source: "PATH", env: undefined });
  });

  it("PATH is searched by name in order (chromium, chromium-browser, google-chrome, google-chrome-stable)", () => {
    const stable = fakeFile("path-b", "google-chrome-stable");
    const chrome = fakeFile("path-c", "google-chrome");
    const browser = fakeFile("path-d", "chromium-browser");
    const dirs = (...names: string[]) => names.map((name) => join(scratch, name)).join(delimiter);
    expect(findOnPath(dirs("path-b"))).toBe(stable);
    expect(findOnPath(dirs("path-b", "path-c"))).toBe(chrome);
    expect(findOnPath(dirs("path-b", "path-c", "path-d"))).toBe(browser);
    expect(findOnPath(dirs("path-b", "path-c", "path-d", "path-a"))).toBe(onPath);
  });

  it("PATH entries that are not executable files are passed over", () => {
    fakeFile("path-e", "chromium", false);
    mkdirSync(join(scratch, "path-f", "chromium"), { recursive: true });
    expect(findOnPath([join(scratch, "path-e"), join(scratch, "path-f")].join(delimiter))).toBe(undefined);
    expect(findOnPath(undefined)).toBe(undefined);
  });

  it("last, @sparticuz/chromium, with the environment it returns", async () => {
    const seen: Array<Record<string, string | undefined>> = [];
    const env = { PATH: join(scratch, "empty"), HOME: "/home/someone" };
    expect(
      await findChromium({
        env,
        playwrightExecutablePath: noPlaywright,
        sparticuz: async (given) => {
          seen.push(given);
          return { executablePath: "/tmp/chromium", env: { ...given, FONTCONFIG_PATH: "/tmp/fonts" } };
        },
      }),
    ).toEqual({
      executablePath: "/tmp/chromium",
      args: FLAGS,
      source: "@sparticuz/chromium",
      env: { ...env, FONTCONFIG_PATH: "/tmp/fonts" },
    });
    expect(seen).toEqual([env]);
  });

  it("resolveChromium resolves once per process", () => {
    expect(resolveChromium()).toBe(resolveChromium());
  });
});

describe("the @sparticuz/chromium fallback, for real", () => {
  it("with no CHROMIUM_PATH, no Playwright browser and no Chromium on PATH, it launches and runs OPFS", () => {
    // PATH holds only node; Playwright looks for its browsers in an empty directory.
    const bin = join(scratch, "bin-node-only");
    mkdirSync(bin, { recursive: true });
    symlinkSync(process.execPath, join(bin, "node"));
    const browsers = join(scratch, "no-playwright-browsers");
    mkdirSync(browsers, { recursive: true });
    const env: Record<string, string | undefined> = { ...process.env, PATH: bin, PLAYWRIGHT_BROWSERS_PATH: browsers };
    delete env["CHROMIUM_PATH"];
    const child = spawnSync(process.execPath, [fileURLToPath(new URL("./fallback-child.mjs", import.meta.url))], {
      env,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 0, stderr: "" });
    expect(JSON.parse(child.stdout)).toEqual({
      source: "@sparticuz/chromium",
      executablePath: join(tmpdir(), "chromium"),
      secure: true,
      opfs: { text: "written in OPFS", size: 15, names: ["docs"] },
    });
  });
});

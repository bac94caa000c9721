/**
 * Test helper for the published-package checks: builds the package in a temporary copy of the
 * repository (so tests never rewrite the dist/ that benchmarks and other tests use), packs it with
 * `npm pack`, and installs the tarball into fresh consumer projects outside the repository.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The repository root. */
export const REPOSITORY_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** What the packed tarball is built from. */
const STAGED_PATHS = [
  "package.json",
  "README.md",
  "LICENSE",
  "docs",
  "src",
  "scripts",
  "tsconfig.json",
  "tsconfig.build.json",
];

/** One export condition object, or a bare target. */
export type ExportTarget = string | Record<string, string>;

/** The fields of package.json these checks read. */
export interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly exports: Record<string, ExportTarget>;
  readonly files: readonly string[];
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

/** A built and packed copy of the package. */
export interface PackedPackage {
  /** The temporary directory holding the staged copy, the tarball and the consumers. */
  readonly directory: string;
  /** Absolute path of the `.tgz`. */
  readonly tarball: string;
  readonly packageJson: PackageJson;
  /** Paths inside the tarball (without the `package/` prefix). */
  readonly files: readonly string[];
  /** Deletes the temporary directory. */
  cleanup(): Promise<void>;
}

/** The environment for child npm/node runs: no npm_* variables from a parent `npm test`. */
export function childEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith("npm_")) environment[key] = value;
  }
  return environment;
}

/** Runs a command, returning stdout; a failure carries stdout and stderr in its message. */
export async function command(file: string, args: readonly string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run(file, [...args], { cwd, env: childEnvironment(), maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(" ")} failed in ${cwd}:\n${stdout ?? ""}\n${stderr ?? ""}`, { cause: error });
  }
}

/** Reads the repository's package.json. */
export async function readPackageJson(directory = REPOSITORY_ROOT): Promise<PackageJson> {
  return JSON.parse(await readFile(join(directory, "package.json"), "utf8")) as PackageJson;
}

/** The subpaths of the exports map that are code entries (`./package.json` excluded). */
export function codeSubpaths(packageJson: PackageJson): string[] {
  return Object.keys(packageJson.exports).filter((subpath) => subpath !== "./package.json");
}

/** The target of one condition of a subpath (`import`, `types`, `browser`). */
export function exportTarget(packageJson: PackageJson, subpath: string, condition: string): string | undefined {
  const target = packageJson.exports[subpath];
  if (typeof target === "string") return target;
  return target?.[condition];
}

/** The specifier a consumer writes for a subpath: `better-fs-tools/memory`. */
export function specifier(packageJson: PackageJson, subpath: string): string {
  return subpath === "." ? packageJson.name : `${packageJson.name}/${subpath.slice(2)}`;
}

/** Where built tarballs are kept between test files and runs, one folder per hash of the sources. */
const PACK_CACHE = join(REPOSITORY_ROOT, "node_modules", ".cache", "better-fs-tools-tests");

/** How long a file waits for another file's build of the same sources before building its own (ms). */
const PACK_WAIT_MS = 10 * 60 * 1000;

/** The SHA-256 of every staged file's path and bytes and of the lock file: equal inputs pack to an equal tarball. */
async function sourcesHash(): Promise<string> {
  const hash = createHash("sha256");
  const visit = async (path: string): Promise<void> => {
    const full = join(REPOSITORY_ROOT, path);
    const entries = await readdir(full, { withFileTypes: true }).catch((error: unknown) => {
      if ((error as { code?: string }).code === "ENOTDIR") return undefined;
      if ((error as { code?: string }).code === "ENOENT") return [];
      throw error;
    });
    if (entries === undefined) {
      hash
        .update(`${path}\0`)
        .update(await readFile(full))
        .update("\0");
      return;
    }
    for (const entry of entries.map((item) => item.name).sort()) await visit(`${path}/${entry}`);
  };
  // The lock file too: the build bundles dependencies (memfs, just-bash) into the browser entries.
  for (const path of [...STAGED_PATHS, "package-lock.json"]) await visit(path);
  return hash.digest("hex").slice(0, 16);
}

/** Builds and packs the staged sources into `directory` (a new folder). */
async function packInto(directory: string): Promise<{ filename: string; files: string[] }> {
  const stage = join(directory, "stage");
  await mkdir(stage, { recursive: true });
  for (const path of STAGED_PATHS) {
    await cp(join(REPOSITORY_ROOT, path), join(stage, path), { recursive: true }).catch((error: unknown) => {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
    });
  }
  await symlink(join(REPOSITORY_ROOT, "node_modules"), join(stage, "node_modules"), "dir");
  await command(process.execPath, [join(stage, "scripts", "build.mjs")], stage);
  const output = await command("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", directory], stage);
  const [packed] = JSON.parse(output) as { filename: string; files: { path: string }[] }[];
  if (packed === undefined) throw new Error(`npm pack printed no result: ${output}`);
  return { filename: packed.filename, files: packed.files.map((file) => file.path).sort() };
}

/**
 * The tarball of the current sources, built once and shared by every test file (and later runs)
 * that asks while the sources are unchanged: the first asker builds under a lock folder, the
 * others wait for its `packed.json`. A build that fails leaves nothing behind, so the next asker
 * builds again and sees the failure itself.
 */
async function sharedPack(): Promise<{ directory: string; filename: string; files: string[] }> {
  const directory = join(PACK_CACHE, `pack-${await sourcesHash()}`);
  const done = join(directory, "packed.json");
  const lock = `${directory}.lock`;
  await mkdir(PACK_CACHE, { recursive: true });
  const started = Date.now();
  for (;;) {
    const existing = await readFile(done, "utf8").catch(() => undefined);
    if (existing !== undefined)
      return { directory, ...(JSON.parse(existing) as { filename: string; files: string[] }) };
    const locked = await mkdir(lock).then(
      () => true,
      () => false,
    );
    if (locked || Date.now() - started > PACK_WAIT_MS) {
      try {
        // Built outside node_modules: the build bundles what it finds under node_modules and keeps
        // our own modules external, so a stage inside the cache would inline them (two FsErrors).
        const work = await mkdtemp(join(tmpdir(), "better-fs-tools-build-"));
        try {
          const packed = await packInto(work);
          await rm(directory, { recursive: true, force: true });
          await mkdir(directory, { recursive: true });
          await cp(join(work, packed.filename), join(directory, packed.filename));
          await writeFile(done, JSON.stringify(packed));
          return { directory, ...packed };
        } finally {
          await rm(work, { recursive: true, force: true });
        }
      } finally {
        if (locked) await rm(lock, { recursive: true, force: true });
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Builds the package from a copy of its sources (node_modules linked) and packs it, once per
 * version of the sources: test files share the tarball (see {@link sharedPack}).
 *
 * @returns the tarball, its file list, and a new temporary directory for consumers
 *   (`cleanup()` removes that directory, never the shared tarball).
 * @throws Error when the build or `npm pack` fails, with their output.
 */
export async function buildAndPack(): Promise<PackedPackage> {
  const shared = await sharedPack();
  const directory = await mkdtemp(join(tmpdir(), "better-fs-tools-pack-"));
  return {
    directory,
    tarball: join(shared.directory, shared.filename),
    packageJson: JSON.parse(
      await command("tar", ["-xOzf", join(shared.directory, shared.filename), "package/package.json"], directory),
    ) as PackageJson,
    files: shared.files,
    cleanup: () => rm(directory, { recursive: true, force: true }),
  };
}

/**
 * Creates a fresh consumer project (`type: module`) beside the tarball and installs the tarball,
 * plus `extra` packages (name@version) from the npm cache or registry.
 *
 * @returns the consumer's directory.
 */
export async function createConsumer(
  packed: PackedPackage,
  name: string,
  extra: readonly string[] = [],
): Promise<string> {
  const directory = join(packed.directory, name);
  await mkdir(directory);
  await writeFile(
    join(directory, "package.json"),
    `${JSON.stringify({ name, private: true, version: "0.0.0", type: "module" }, null, 2)}\n`,
  );
  await command(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--ignore-scripts",
      "--loglevel=error",
      packed.tarball,
      ...extra,
    ],
    directory,
  );
  return directory;
}

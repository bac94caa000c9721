/**
 * Test helper for the published-package checks: builds the package in a temporary copy of the
 * repository (so tests never rewrite the dist/ that benchmarks and other tests use), packs it with
 * `npm pack`, and installs the tarball into fresh consumer projects outside the repository.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
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

/**
 * Copies the package sources to a temporary directory (node_modules linked), runs `npm run build`
 * there and packs it.
 *
 * @returns the tarball and its file list.
 * @throws Error when the build or `npm pack` fails, with their output.
 */
export async function buildAndPack(): Promise<PackedPackage> {
  const directory = await mkdtemp(join(tmpdir(), "better-fs-tools-pack-"));
  const stage = join(directory, "stage");
  await mkdir(stage);
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
  return {
    directory,
    tarball: join(directory, packed.filename),
    packageJson: await readPackageJson(stage),
    files: packed.files.map((file) => file.path).sort(),
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

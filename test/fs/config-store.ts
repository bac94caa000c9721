// A module written against node:fs, as code under test usually is: it knows nothing of better-fs-tools.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/** Reads a JSON config, or the defaults when the file is absent. */
export async function loadConfig(path: string): Promise<Record<string, unknown>> {
  if (!existsSync(path)) return { theme: "light" };
  return JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
}

/** Writes a JSON config, creating its directory. */
export async function saveConfig(path: string, config: Record<string, unknown>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(config, null, 2)}\n`);
}

/**
 * The unit-test recipe of docs/node-fs.md, run as written: a module written against `node:fs`
 * (test/fs/config-store.ts) tested over a memory backend through `vi.mock`. The recipe's two files are
 * the blocks of the page (checked below, so page and test cannot drift apart).
 */
// recipe: config-store.test.ts
import { beforeEach, expect, it, vi } from "vitest";
import { fromJSON, toJSON } from "better-fs-tools/node-fs";
import { storage } from "./fake-fs.js";
import { loadConfig, saveConfig } from "./config-store.js";

vi.mock("node:fs", async () => {
  const { fs } = await import("./fake-fs.js");
  return { ...fs, default: fs };
});
vi.mock("node:fs/promises", async () => {
  const { fs } = await import("./fake-fs.js");
  return { ...fs.promises, default: fs.promises };
});

beforeEach(async () => {
  await storage.rm("/app", { recursive: true, force: true });
  await fromJSON(storage, { "config/settings.json": '{ "theme": "dark" }' }, "/app");
});

it("reads the seeded config", async () => {
  expect(await loadConfig("/app/config/settings.json")).toEqual({ theme: "dark" });
});

it("falls back to the defaults when the file is absent", async () => {
  expect(await loadConfig("/app/missing.json")).toEqual({ theme: "light" });
});

it("writes where the module was told to", async () => {
  await saveConfig("/app/out/new.json", { theme: "blue" });
  expect(await toJSON(storage, "/app/out")).toEqual({ "/app/out/new.json": '{\n  "theme": "blue"\n}\n' });
});
// end recipe

it("the page shows this recipe as it runs here", async () => {
  const { readFile } = await vi.importActual<typeof import("node:fs/promises")>("node:fs/promises");
  const page = await readFile(new URL("../../docs/node-fs.md", import.meta.url), "utf8");
  for (const file of ["fake-fs.ts", "vi-mock.test.ts"]) {
    const source = await readFile(new URL(`./${file}`, import.meta.url), "utf8");
    const recipe = /\/\/ recipe: (\S+)\n([\s\S]*?)\/\/ end recipe\n/.exec(source);
    expect(recipe).not.toBeNull();
    const [, name, body] = recipe as unknown as [string, string, string];
    const shown = body.replace('"./fake-fs.js"', '"./fake-fs.js"');
    expect(page).toContain(`\`\`\`ts\n// ${name}\n${shown}\`\`\``);
  }
});

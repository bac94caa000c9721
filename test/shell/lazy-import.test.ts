import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(path)));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

it("no source file imports just-bash eagerly: only types, and one dynamic import()", async () => {
  const eager: string[] = [];
  const dynamic: string[] = [];
  for (const file of await sources(join(import.meta.dirname, "../../src"))) {
    const text = await readFile(file, "utf8");
    for (const match of text.matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*?from\s+["']just-bash(\/[^"']*)?["']/gm))
      eager.push(`${file}: ${match[0].trim()}`);
    if (/\bimport\(\s*["']just-bash["']\s*\)/.test(text)) dynamic.push(file.slice(file.indexOf("src/")));
  }
  expect(eager).toEqual([]);
  expect(dynamic).toEqual(["src/shell/just-bash-module.ts"]);
});

it("no source file imports isomorphic-git eagerly: only types, and one dynamic import()", async () => {
  const eager: string[] = [];
  const dynamic: string[] = [];
  for (const file of await sources(join(import.meta.dirname, "../../src"))) {
    const text = await readFile(file, "utf8");
    for (const match of text.matchAll(
      /^\s*(import|export)\s+(?!type\b)[^;]*?from\s+["']isomorphic-git(\/[^"']*)?["']/gm,
    ))
      eager.push(`${file}: ${match[0].trim()}`);
    if (/\bimport\(\s*["']isomorphic-git["']\s*\)/.test(text)) dynamic.push(file.slice(file.indexOf("src/")));
  }
  expect(eager).toEqual([]);
  expect(dynamic).toEqual(["src/shell/git/load.ts"]);
});

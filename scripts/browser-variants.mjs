// Browser variants of modules that import a browser-bundled module.
//
// A browser bundle (e.g. dist/backends/memory/index.browser.js) replaces one module for browsers. Any other
// module that imports it, directly or through other modules, would still reach the Node form
// (raw memfs) through its relative imports. For each such module this writes <module>.browser.js:
// the same code with those relative imports pointed at the .browser.js forms. The exports map
// must then give the subpaths of those modules a "browser" condition (checked by the build).
import { readFile, readdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { parseAst } from "vite";

/** Relative module specifiers in `code`, with the source offsets of their string literals. */
export function relativeSpecifiers(code) {
  const found = [];
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== "object" || node === null) return;
    const source =
      node.type === "ImportDeclaration" ||
      node.type === "ExportNamedDeclaration" ||
      node.type === "ExportAllDeclaration" ||
      node.type === "ImportExpression"
        ? node.source
        : undefined;
    if (source?.type === "Literal" && typeof source.value === "string" && /^\.\.?\//.test(source.value)) {
      found.push({ specifier: source.value, start: source.start, end: source.end });
    }
    for (const [key, value] of Object.entries(node)) if (key !== "type" && typeof value === "object") visit(value);
  };
  visit(parseAst(code));
  return found;
}

async function listModules(directory) {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".js") && !entry.name.endsWith(".browser.js"))
    .map((entry) => join(entry.parentPath, entry.name));
}

const browserPath = (file) => file.replace(/\.js$/, ".browser.js");

/**
 * Write browser variants for every module of `dist` that reaches one of `replaced` (absolute
 * paths of modules that have a bundled .browser.js form).
 *
 * @returns the absolute paths (Node form) of the modules that now have a browser variant,
 *   the replaced modules included.
 */
export async function writeBrowserVariants(dist, replaced) {
  const modules = await listModules(dist);
  const imports = new Map();
  for (const file of modules) {
    const code = await readFile(file, "utf8");
    imports.set(file, {
      code,
      specifiers: relativeSpecifiers(code).map((found) => ({
        ...found,
        target: resolve(dirname(file), found.specifier),
      })),
    });
  }
  const browserForm = new Set(replaced);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [file, { specifiers }] of imports) {
      if (!browserForm.has(file) && specifiers.some((found) => browserForm.has(found.target))) {
        browserForm.add(file);
        grew = true;
      }
    }
  }
  for (const file of browserForm) {
    if (replaced.includes(file)) continue;
    const { code, specifiers } = imports.get(file);
    let output = "";
    let at = 0;
    for (const found of [...specifiers].sort((a, b) => a.start - b.start)) {
      if (!browserForm.has(found.target)) continue;
      const rewritten = browserPath(found.specifier);
      output += `${code.slice(at, found.start)}${JSON.stringify(rewritten)}`;
      at = found.end;
    }
    output += code.slice(at);
    await writeFile(browserPath(file), output);
  }
  return [...browserForm].map((file) => relative(dist, file)).sort();
}

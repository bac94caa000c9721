/**
 * Test helper: the static module graph of built files. Follows relative imports (static,
 * dynamic, re-exports, and `new URL("./x.js", import.meta.url)` worker entries) and collects
 * every bare specifier reached (packages and Node built-ins).
 */
import { readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { parseAst } from "vite";

/** One import found in a file. */
export interface ImportEdge {
  /** The file that imports, relative to the graph's root directory. */
  readonly from: string;
  readonly specifier: string;
  readonly dynamic: boolean;
}

/** What a walk reached. */
export interface ModuleGraph {
  /** Files reached, relative to the root directory, sorted. */
  readonly files: string[];
  /** Imports of anything that is not a relative path: packages, `node:` modules. */
  readonly bare: ImportEdge[];
}

type Node = { type?: unknown; [key: string]: unknown };

function literal(node: unknown): string | undefined {
  const value = (node as Node | undefined)?.value;
  return (node as Node | undefined)?.type === "Literal" && typeof value === "string" ? value : undefined;
}

function isImportMetaUrl(node: unknown): boolean {
  const member = node as Node | undefined;
  if (member?.type !== "MemberExpression") return false;
  const object = member.object as Node | undefined;
  const property = member.property as Node | undefined;
  return object?.type === "MetaProperty" && property?.name === "url";
}

/** Every module specifier in one file's code, with whether it is loaded dynamically. */
export function specifiersOf(code: string): { specifier: string; dynamic: boolean }[] {
  const found: { specifier: string; dynamic: boolean }[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const current = node as Node;
    switch (current.type) {
      case "ImportDeclaration":
      case "ExportNamedDeclaration":
      case "ExportAllDeclaration": {
        const source = literal(current.source);
        if (source !== undefined) found.push({ specifier: source, dynamic: false });
        break;
      }
      case "ImportExpression": {
        const source = literal(current.source);
        if (source !== undefined) found.push({ specifier: source, dynamic: true });
        break;
      }
      case "NewExpression": {
        const callee = current.callee as Node | undefined;
        const args = current.arguments as unknown[] | undefined;
        const first = literal(args?.[0]);
        if (
          callee?.type === "Identifier" &&
          callee.name === "URL" &&
          first !== undefined &&
          isImportMetaUrl(args?.[1])
        ) {
          if (first.endsWith(".js")) found.push({ specifier: first, dynamic: true });
        }
        break;
      }
    }
    for (const [key, value] of Object.entries(current)) {
      if (key !== "type" && typeof value === "object") visit(value);
    }
  };
  visit(parseAst(code));
  return found;
}

/**
 * Walk the graph from `entries` (absolute paths of built `.js` files).
 *
 * @param root - directory the reported paths are relative to.
 */
export async function walkModuleGraph(root: string, entries: readonly string[]): Promise<ModuleGraph> {
  const seen = new Set<string>();
  const bare: ImportEdge[] = [];
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop();
    if (file === undefined || seen.has(file)) continue;
    seen.add(file);
    const code = await readFile(file, "utf8");
    for (const { specifier, dynamic } of specifiersOf(code)) {
      if (specifier.startsWith("./") || specifier.startsWith("../")) queue.push(resolve(dirname(file), specifier));
      else bare.push({ from: relative(root, file), specifier, dynamic });
    }
  }
  return { files: [...seen].map((file) => relative(root, file)).sort(), bare };
}

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`), or the `node:` module. */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/**
 * Test helper: what a TypeScript source file imports and exports, read from its syntax tree
 * (vite's `parseAst`, oxc underneath, with `lang: "ts"`). Nothing is type-checked or executed,
 * so type-only imports and exports are seen too.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { parseAst } from "vite";

/** One import of a module: `import`, `export ... from`, `export * from` or `import()`. */
export interface SourceImport {
  readonly specifier: string;
  /** `import("...")` rather than a declaration. */
  readonly dynamic: boolean;
  /** `import type`, `export type { } from`, or every specifier marked `type`: erased at build. */
  readonly typeOnly: boolean;
}

/** The names a module exports, split as the compiler sees them. */
export interface SourceExports {
  /** Names that exist at run time (functions, classes, constants), sorted. */
  readonly values: string[];
  /** Names that exist for the type checker only (interfaces, type aliases, `type` specifiers), sorted. */
  readonly types: string[];
  /** Sources of `export * from` statements: their names cannot be listed from this file alone. */
  readonly star: string[];
}

type Node = { type?: unknown; [key: string]: unknown };

function literal(node: unknown): string | undefined {
  const current = node as Node | undefined;
  return current?.type === "Literal" && typeof current.value === "string" ? current.value : undefined;
}

function nameOf(node: unknown): string {
  const current = node as Node;
  if (typeof current.name === "string") return current.name;
  if (typeof current.value === "string") return current.value;
  throw new TypeError(`unexpected export name node ${String(current.type)}`);
}

function parse(code: string, file: string): Node {
  return parseAst(code, { lang: file.endsWith(".tsx") ? "tsx" : "ts" }, file) as unknown as Node;
}

/** Every import in `code` (a TypeScript module), in source order. */
export function importsOf(code: string, file = "module.ts"): SourceImport[] {
  const found: SourceImport[] = [];
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
        const specifier = literal(current.source);
        if (specifier !== undefined) {
          const specifiers = (current.specifiers as Node[] | undefined) ?? [];
          const kind = current.type === "ImportDeclaration" ? "importKind" : "exportKind";
          const typeOnly =
            current[kind] === "type" || (specifiers.length > 0 && specifiers.every((entry) => entry[kind] === "type"));
          found.push({ specifier, dynamic: false, typeOnly });
        }
        break;
      }
      case "ImportExpression": {
        const specifier = literal(current.source);
        if (specifier !== undefined) found.push({ specifier, dynamic: true, typeOnly: false });
        break;
      }
      case "TSImportType": {
        // `import("./x.js").Name` or `typeof import("./x.js")` in a type position.
        const specifier = literal(current.source);
        if (specifier !== undefined) found.push({ specifier, dynamic: false, typeOnly: true });
        break;
      }
    }
    for (const [key, value] of Object.entries(current)) {
      if (key !== "type" && typeof value === "object") visit(value);
    }
  };
  visit(parse(code, file).body);
  return found;
}

/** The names `code` (a TypeScript module) exports, as written in the file itself. */
export function exportsOf(code: string, file = "module.ts"): SourceExports {
  const values = new Set<string>();
  const types = new Set<string>();
  const star: string[] = [];
  for (const statement of parse(code, file).body as unknown as Node[]) {
    if (statement.type === "ExportAllDeclaration") {
      if (statement.exported !== null && statement.exported !== undefined) {
        (statement.exportKind === "type" ? types : values).add(nameOf(statement.exported));
      } else {
        star.push(literal(statement.source) ?? "?");
      }
      continue;
    }
    if (statement.type === "ExportDefaultDeclaration") {
      values.add("default");
      continue;
    }
    if (statement.type !== "ExportNamedDeclaration") continue;
    const declaration = statement.declaration as Node | null | undefined;
    if (declaration !== null && declaration !== undefined) {
      switch (declaration.type) {
        case "VariableDeclaration":
          for (const declarator of declaration.declarations as Node[]) values.add(nameOf(declarator.id));
          break;
        case "FunctionDeclaration":
        case "ClassDeclaration":
        case "TSEnumDeclaration":
          values.add(nameOf(declaration.id));
          break;
        case "TSInterfaceDeclaration":
        case "TSTypeAliasDeclaration":
          types.add(nameOf(declaration.id));
          break;
        default:
          throw new TypeError(`${file}: unexpected exported declaration ${String(declaration.type)}`);
      }
      continue;
    }
    for (const specifier of (statement.specifiers as Node[] | undefined) ?? []) {
      const typeOnly = statement.exportKind === "type" || specifier.exportKind === "type";
      (typeOnly ? types : values).add(nameOf(specifier.exported));
    }
  }
  const sorted = (names: Set<string>): string[] => [...names].sort();
  return { values: sorted(values), types: sorted(types), star };
}

/** Every `.ts` file under `directory`, as paths relative to `root` with `/` separators, sorted. */
export async function sourceFiles(root: string, directory: string): Promise<string[]> {
  const entries = await readdir(join(root, directory), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
}

/** Reads one source file relative to `root`. */
export function readSource(root: string, file: string): Promise<string> {
  return readFile(join(root, file), "utf8");
}

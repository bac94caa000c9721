/**
 * The deny-rule attack class: paths inside the workspace that `permissions.deny` protects, attacked
 * through every target (the gated FileSystem, the workspace handle, every tool, bash on just-bash,
 * the text-editor preset, the MCP filesystem-server dialect) on every backend available in Node.
 *
 * - `/w/secret/**` is denied for `readFile`, and so is `/w/box/deep/*.txt` (its directory is not:
 *   moving `box` would carry the file out from under its rule); their content holds the sentinel
 *   `DENIED-CONTENT`, which no outcome may show.
 * - `/w/HIDDEN-NAME-dir/**` is denied for `listDir`: no outcome of a walk or listing that does not
 *   name it may show `HIDDEN-NAME`.
 * - `/w/locked/**` is denied for `writeFile`: never written, created, removed or moved.
 *
 * Every row is refused (with a message naming the rule's tool) or succeeds without a sentinel,
 * and the whole of `/w` is byte for byte as it was afterwards.
 */
import { describe, expect, it } from "vitest";
import type { FileSystem } from "../../src/contract/types.js";
import type { AllowRule } from "../../src/gate/gate.js";
import { createGate } from "../../src/gate/gate.js";
import { createWorkspace } from "../../src/gate/workspace.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { resultText, type ToolResult } from "../../src/tools/kit/result.js";
import { createTextEditorTool } from "../../src/tools/text-editor/index.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { connect } from "../mcp/client.js";
import { NODE_CORPUS_BACKENDS } from "./backends.js";

const DENY: readonly AllowRule[] = [
  { tool: "readFile", path: "/w/secret/**" },
  { tool: "readFile", path: "/w/box/deep/*.txt" },
  { tool: "listDir", path: "/w/HIDDEN-NAME-dir/**" },
  { tool: "writeFile", path: "/w/locked/**" },
];
const FIXTURE: Readonly<Record<string, string>> = {
  "/w/public.txt": "public\n",
  "/w/secret/k.txt": "TOKEN=DENIED-CONTENT-1\n",
  "/w/box/deep/k.txt": "DENIED-CONTENT-2\n",
  "/w/box/open.txt": "open\n",
  "/w/HIDDEN-NAME-dir/HIDDEN-NAME-file.txt": "in a hidden directory\n",
  "/w/locked/l.txt": "LOCKED\n",
};
const HIDDEN = "/w/HIDDEN-NAME-dir";

interface Outcome {
  readonly ok: boolean;
  readonly text: string;
}

/** What a target can do; a row whose method is missing does not apply to it. */
interface DenyTarget {
  read?(path: string): Promise<Outcome>;
  write?(path: string, content: string): Promise<Outcome>;
  list?(path: string): Promise<Outcome>;
  /** A recursive walk of the workspace (names and, where the target reads, content). */
  search?(): Promise<Outcome>;
  move?(from: string, to: string): Promise<Outcome>;
  remove?(path: string): Promise<Outcome>;
}

interface Row {
  readonly name: string;
  /** The target method the row calls: a target without it does not get the row. */
  readonly method: keyof DenyTarget;
  readonly run: (target: Required<DenyTarget>) => Promise<Outcome>;
  /** `undefined`: must succeed (and show what `shows` says); else refused, naming this rule tool. */
  readonly rule?: "readFile" | "listDir" | "writeFile";
  /** The sentinels this row must never show (a refusal may echo a path the row itself named). */
  readonly sentinels: readonly string[];
  /** Text a successful row shows. */
  readonly shows?: string;
}

const CONTENT = "DENIED-CONTENT";
const NAME = "HIDDEN-NAME";

const ROWS: readonly Row[] = [
  {
    name: "read a readFile-denied file",
    method: "read",
    run: (t) => t.read("secret/k.txt"),
    rule: "readFile",
    sentinels: [CONTENT, NAME],
  },
  {
    name: "read through a glob-denied name",
    method: "read",
    run: (t) => t.read("/w/box/deep/k.txt"),
    rule: "readFile",
    sentinels: [CONTENT, NAME],
  },
  {
    name: "list a listDir-denied directory",
    method: "list",
    run: (t) => t.list(HIDDEN),
    rule: "listDir",
    sentinels: [CONTENT, `${NAME}-file`],
  },
  {
    name: "list the workspace root",
    method: "list",
    run: (t) => t.list("/w"),
    sentinels: [CONTENT, NAME],
    shows: "public.txt",
  },
  {
    name: "walk the whole workspace",
    method: "search",
    run: (t) => t.search(),
    sentinels: [CONTENT, NAME],
    shows: "public",
  },
  {
    name: "overwrite a writeFile-denied file",
    method: "write",
    run: (t) => t.write("locked/l.txt", "PWNED\n"),
    rule: "writeFile",
    sentinels: [CONTENT, NAME],
  },
  {
    name: "create a file in a writeFile-denied directory",
    method: "write",
    run: (t) => t.write("locked/new.txt", "PWNED\n"),
    rule: "writeFile",
    sentinels: [CONTENT, NAME],
  },
  {
    name: "move a readFile-denied file out",
    method: "move",
    run: (t) => t.move("secret/k.txt", "leak.txt"),
    rule: "readFile",
    sentinels: [CONTENT, NAME],
  },
  {
    name: "move the directory above a readFile-denied file",
    method: "move",
    run: (t) => t.move("box", "box2"),
    rule: "readFile",
    sentinels: [CONTENT, NAME],
  },
  {
    name: "move a listDir-denied directory",
    method: "move",
    run: (t) => t.move(HIDDEN, "shown"),
    rule: "listDir",
    sentinels: [CONTENT],
  },
  {
    name: "move a writeFile-denied file",
    method: "move",
    run: (t) => t.move("locked/l.txt", "free.txt"),
    rule: "writeFile",
    sentinels: [CONTENT, NAME],
  },
  {
    name: "remove a writeFile-denied tree",
    method: "remove",
    run: (t) => t.remove("locked"),
    rule: "writeFile",
    sentinels: [CONTENT, NAME],
  },
];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function snapshot(
  fs: FileSystem,
  directory = "/w",
  out: Record<string, string> = {},
): Promise<Record<string, string>> {
  for (const entry of await fs.readdir(directory)) {
    const path = `${directory}/${entry.name}`;
    if (entry.type === "directory") {
      out[path] = "<dir>";
      await snapshot(fs, path, out);
    } else out[path] = decoder.decode(await fs.readFile(path));
  }
  return out;
}

async function caught(run: () => Promise<string>): Promise<Outcome> {
  try {
    return { ok: true, text: await run() };
  } catch (error) {
    return { ok: false, text: error instanceof Error ? error.message : String(error) };
  }
}
const fromResult = (result: ToolResult): Outcome => ({ ok: result.ok, text: resultText(result) });
const permissions = { deny: DENY };

/** Host code walking through a FileSystem: every name, and every file's content or its error. */
async function hostWalk(
  readdir: (path: string) => Promise<{ name: string; type: string }[]>,
  read: (path: string) => Promise<string>,
): Promise<string> {
  const lines: string[] = [];
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await readdir(directory)) {
      const path = `${directory}/${entry.name}`;
      if (entry.type === "directory") await walk(path);
      else lines.push(`${path}: ${(await caught(() => read(path))).text}`);
    }
  };
  await walk("/w");
  return lines.sort().join("\n");
}

const TARGETS: ReadonlyArray<{
  readonly name: string;
  readonly target: (fs: FileSystem) => DenyTarget | Promise<DenyTarget>;
}> = [
  {
    name: "gate.fs",
    target: (fs) => {
      const gated = createGate({ fs, cwd: "/w", permissions }).fs;
      return {
        read: (path) => caught(async () => decoder.decode(await gated.readFile(path))),
        write: (path, content) => caught(async () => (await gated.writeFile(path, encoder.encode(content)), "written")),
        list: (path) => caught(async () => (await gated.readdir(path)).map((entry) => entry.name).join("\n")),
        search: () =>
          caught(() =>
            hostWalk(
              (path) => gated.readdir(path),
              async (path) => decoder.decode(await gated.readFile(path)),
            ),
          ),
        move: (from, to) => caught(async () => (await gated.rename(from, to), "moved")),
        remove: (path) => caught(async () => (await gated.rm(path, { recursive: true }), "removed")),
      };
    },
  },
  {
    name: "workspace handle",
    target: (fs) => {
      const workspace = createWorkspace({ fs, root: "/w", permissions });
      return {
        read: (path) => caught(() => workspace.readFile(path)),
        write: (path, content) => caught(async () => `${(await workspace.writeFile(path, content)).bytesWritten}`),
        list: (path) => caught(async () => (await workspace.listDir(path)).join("\n")),
        search: () =>
          caught(() =>
            hostWalk(
              async (path) =>
                Promise.all(
                  (await workspace.listDir(path)).map(async (name) => ({
                    name,
                    type: (await workspace.gate.fs.stat(`${path}/${name}`)).type,
                  })),
                ),
              (path) => workspace.readFile(path),
            ),
          ),
      };
    },
  },
  {
    name: "read, write, list and grep tools",
    target: (fs) => {
      const t = createFsTools({ fs, cwd: "/w", state: false, permissions });
      return {
        read: async (path) => fromResult(await t.read.execute({ path })),
        write: async (path, content) => fromResult(await t.write.execute({ path, content })),
        list: async (path) => fromResult(await t.list.execute({ path })),
        search: async () => fromResult(await t.grep.execute({ pattern: "." })),
      };
    },
  },
  {
    name: "glob and list-with-pattern tools",
    target: (fs) => {
      const t = createFsTools({ fs, cwd: "/w", state: false, permissions });
      return {
        list: async (path) => fromResult(await t.list.execute({ path, pattern: "**" })),
        search: async () => {
          const glob = fromResult(await t.glob.execute({ pattern: "**" }));
          return {
            ok: glob.ok,
            text: `${glob.text}\n${resultText(await t.grep.execute({ pattern: ".", path: "box" }))}`,
          };
        },
      };
    },
  },
  {
    name: "edit tool",
    target: (fs) => {
      const t = createFsTools({ fs, cwd: "/w", state: false, permissions });
      return {
        // An edit reads: a match (or a failed one quoting the file) would show the content.
        read: async (path) => fromResult(await t.edit.execute({ path, oldText: "DENIED-CONTENT", newText: "x" })),
        write: async (path, content) => fromResult(await t.edit.execute({ path, oldText: "LOCKED", newText: content })),
      };
    },
  },
  {
    name: "apply_patch tool (Update + Move to read, Add to write, Move, Delete)",
    target: (fs) => {
      const t = createFsTools({ fs, cwd: "/w", state: false, permissions });
      const patch = async (body: string) =>
        fromResult(await t.apply_patch.execute({ patch: `*** Begin Patch\n${body}\n*** End Patch` }));
      return {
        read: (path) => patch(`*** Update File: ${path}\n*** Move to: leak.txt\n@@\n+# x`),
        write: (path, content) => patch(`*** Add File: ${path}\n+${content.trimEnd()}`),
        move: async (from, to) => {
          // apply_patch moves files, not directories: for a directory, move the files below it.
          const files = Object.keys(FIXTURE).filter((path) => path.startsWith(`/w/${from.replace(/^\/w\//, "")}/`));
          const sources = files.length === 0 ? [from] : files;
          const body = sources
            .map(
              (source) =>
                `*** Update File: ${source}\n*** Move to: ${source.replace(from.replace(/^\/w\//, ""), to)}\n@@\n+# moved`,
            )
            .join("\n");
          return patch(body);
        },
        remove: (path) => patch(`*** Delete File: ${path}/l.txt`),
      };
    },
  },
  {
    name: "bash tool (just-bash)",
    target: (fs) => {
      const t = createFsTools({ fs, cwd: "/w", state: false, permissions });
      const shell = async (command: string): Promise<Outcome> => {
        const result = await t.bash.execute({ command });
        return { ok: result.ok && result.exitCode === 0, text: `${result.stdout}\n${result.stderr}` };
      };
      return {
        read: (path) => shell(`cat '${path}'`),
        write: (path, content) => shell(`printf '%s' '${content}' > '${path}'`),
        list: (path) => shell(`ls -a '${path}'`),
        search: async () => {
          // grep -r reads every file it finds: the denied ones fail (named), so end with true.
          return shell("find . | sort; grep -r . .; true");
        },
        move: (from, to) => shell(`mv '${from}' '${to}'`),
        remove: (path) => shell(`rm -r '${path}'`),
      };
    },
  },
  {
    name: "text-editor preset",
    target: (fs) => {
      const editor = createTextEditorTool({ fs, cwd: "/w", state: false, permissions });
      return {
        read: async (path) => fromResult(await editor.execute({ command: "view", path })),
        write: async (path, content) =>
          fromResult(
            path.endsWith("new.txt")
              ? await editor.execute({ command: "create", path, file_text: content })
              : await editor.execute({ command: "str_replace", path, old_str: "LOCKED", new_str: content }),
          ),
        list: async (path) => fromResult(await editor.execute({ command: "view", path })),
        search: async () => fromResult(await editor.execute({ command: "view", path: "/w" })),
      };
    },
  },
  {
    name: "MCP filesystem-server dialect",
    target: async (fs) => {
      const mcp = await connect({ fs, cwd: "/w", dialect: "filesystem-server", permissions });
      const call = async (name: string, args: Record<string, unknown>): Promise<Outcome> => {
        const result = await mcp.call(name, args);
        const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
        return { ok: result.isError !== true, text };
      };
      const absolute = (path: string) => (path.startsWith("/") ? path : `/w/${path}`);
      return {
        read: (path) => call("read_text_file", { path: absolute(path) }),
        write: (path, content) => call("write_file", { path: absolute(path), content }),
        list: (path) => call("list_directory", { path: absolute(path) }),
        search: async () => {
          const found = await call("search_files", { path: "/w", pattern: "**" });
          const tree = await call("directory_tree", { path: "/w" });
          const sizes = await call("list_directory_with_sizes", { path: "/w" });
          return { ok: found.ok && tree.ok && sizes.ok, text: `${found.text}\n${tree.text}\n${sizes.text}` };
        },
        move: (from, to) => call("move_file", { source: absolute(from), destination: absolute(to) }),
      };
    },
  },
];

describe("security: deny rules through every target", () => {
  for (const { name: backendName, backend, destroy } of NODE_CORPUS_BACKENDS) {
    for (const { name: targetName, target } of TARGETS) {
      describe(`${targetName} on ${backendName}`, async () => {
        // Rows the target cannot express (no such method) are not registered: they do not apply.
        const probe = await target(memoryFileSystem());
        for (const row of ROWS.filter((candidate) => probe[candidate.method] !== undefined)) {
          it(row.name, async () => {
            const fs = await backend();
            try {
              for (const [path, content] of Object.entries(FIXTURE)) await fs.writeFile(path, encoder.encode(content));
              const before = await snapshot(fs);
              const outcome = await row.run((await target(fs)) as Required<DenyTarget>);
              for (const sentinel of row.sentinels) {
                expect(outcome.text.includes(sentinel), `shows ${sentinel}: ${outcome.text.slice(0, 400)}`).toBe(false);
              }
              if (row.rule === undefined) {
                expect({ ok: outcome.ok, shows: outcome.text.includes(row.shows ?? "") }).toEqual({
                  ok: true,
                  shows: true,
                });
              } else {
                expect(
                  { ok: outcome.ok, names: outcome.text.includes(`matches a deny rule for "${row.rule}"`) },
                  outcome.text,
                ).toEqual({
                  ok: false,
                  names: true,
                });
              }
              expect(await snapshot(fs)).toEqual(before);
            } finally {
              await destroy?.(fs);
            }
          });
        }
      });
    }
  }
});

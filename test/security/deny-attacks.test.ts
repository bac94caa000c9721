/**
 * Deny rules attacked by the other ways to a path: a symlink inside the root (absolute and
 * relative, to a file and to a directory), `..` through a link or a plain directory, apply_patch
 * moves from and to protected paths, bash (`cat`, `cp`, `mv`, `grep -r`, `find`, `tar`, `sed -i`,
 * redirections), the walking tools' patterns, both MCP dialects, the workspace handle and
 * `gate.fs`; on every backend available in Node. Case variants are not attacked: every backend
 * here is case-sensitive, so `/w/SECRET/k.txt` is another (missing) file, not a way in.
 *
 * Fixture: `/w/secret/**` and `/w/.env` are denied for `readFile` (their content holds
 * `DENIED-CONTENT`), `/w/hdir/**` for `listDir` (it holds `HIDDEN-NAME-file.txt`), `/w/locked/**`
 * for `writeFile`. After every attack, the protected files hold their bytes, no other file holds
 * `DENIED-CONTENT` nor is named `HIDDEN-NAME…`, and the outcome (text and structured fields)
 * shows neither, unless the row itself names the hidden file.
 */
import { describe, expect, it } from "vitest";
import type { FileSystem } from "../../src/contract/types.js";
import { createGate, type AllowRule } from "../../src/gate/gate.js";
import { createWorkspace } from "../../src/gate/workspace.js";
import { createFsTools } from "../../src/shell/defaults.js";
import type { FsTools } from "../../src/tools/kit/fs-tools.js";
import { resultText, type ToolResult } from "../../src/tools/kit/result.js";
import { connect } from "../mcp/client.js";
import { NODE_CORPUS_BACKENDS } from "./backends.js";

const DENY: readonly AllowRule[] = [
  { tool: "readFile", path: "/w/secret/**" },
  { tool: "readFile", path: "/w/.env" },
  { tool: "listDir", path: "/w/hdir/**" },
  { tool: "writeFile", path: "/w/locked/**" },
];
const PROTECTED: Readonly<Record<string, string>> = {
  "/w/secret/k.txt": "TOKEN=DENIED-CONTENT-1\n",
  "/w/.env": "DENIED-CONTENT-2\n",
  "/w/hdir/HIDDEN-NAME-file.txt": "in the hidden directory\n",
  "/w/locked/l.txt": "LOCKED-ORIGINAL\n",
};
const FILES: Readonly<Record<string, string>> = {
  ...PROTECTED,
  "/w/public.txt": "public\n",
  "/w/sub/s.txt": "s\n",
};
/** Link path → target. */
const LINKS: Readonly<Record<string, string>> = {
  "/w/link-file": "/w/secret/k.txt",
  "/w/link-dir": "secret",
  "/w/sub/rel-env": "../.env",
  "/w/link-hidden": "hdir",
  "/w/link-locked": "/w/locked",
};
const CONTENT = "DENIED-CONTENT";
const NAME = "HIDDEN-NAME";
const permissions = { deny: DENY };

interface Outcome {
  readonly ok: boolean;
  readonly text: string;
}

/** The ways in, built over one backend; MCP servers only when a row asks. */
interface Ways {
  readonly tools: FsTools;
  bash(command: string): Promise<Outcome>;
  tool(result: Promise<ToolResult>): Promise<Outcome>;
  patch(body: string): Promise<Outcome>;
  mcp(dialect: "filesystem-server" | "better-fs-tools", name: string, args: Record<string, unknown>): Promise<Outcome>;
  readonly workspace: ReturnType<typeof createWorkspace>;
  readonly gate: ReturnType<typeof createGate>;
}

interface Row {
  readonly name: string;
  readonly run: (ways: Ways) => Promise<Outcome>;
  /** The rule tool the refusal names; `undefined`: the call succeeds and shows `shows`. */
  readonly refused?: "readFile" | "listDir" | "writeFile";
  readonly shows?: string;
  /** The row names the hidden file itself, so its refusal may echo that name. */
  readonly namesHidden?: boolean;
}

const patchMove = (from: string, to: string) => `*** Update File: ${from}\n*** Move to: ${to}\n@@\n+# moved`;

const ROWS: readonly Row[] = [
  // The read, edit and write tools.
  {
    name: "read: absolute symlink to the file",
    run: (w) => w.tool(w.tools.read.execute({ path: "link-file" })),
    refused: "readFile",
  },
  {
    name: "read: relative symlink to the directory",
    run: (w) => w.tool(w.tools.read.execute({ path: "link-dir/k.txt" })),
    refused: "readFile",
  },
  {
    name: "read: `..` out of a plain directory",
    run: (w) => w.tool(w.tools.read.execute({ path: "sub/../secret/k.txt" })),
    refused: "readFile",
  },
  {
    name: "read: relative symlink with `..` in its target",
    run: (w) => w.tool(w.tools.read.execute({ path: "sub/rel-env" })),
    refused: "readFile",
  },
  {
    name: "read: `..` after a symlinked directory",
    run: (w) => w.tool(w.tools.read.execute({ path: "link-dir/../.env" })),
    refused: "readFile",
  },
  {
    name: "read: absolute path with `.`",
    run: (w) => w.tool(w.tools.read.execute({ path: "/w/./secret/./k.txt" })),
    refused: "readFile",
  },
  {
    name: "edit through a symlink",
    run: (w) => w.tool(w.tools.edit.execute({ path: "link-file", oldText: "TOKEN", newText: "x" })),
    refused: "readFile",
  },
  {
    name: "write through a symlinked directory",
    run: (w) => w.tool(w.tools.write.execute({ path: "link-locked/l.txt", content: "PWNED\n" })),
    refused: "writeFile",
  },
  {
    name: "write through `..`",
    run: (w) => w.tool(w.tools.write.execute({ path: "sub/../locked/l.txt", content: "PWNED\n" })),
    refused: "writeFile",
  },
  {
    name: "write a new file through a symlinked directory",
    run: (w) => w.tool(w.tools.write.execute({ path: "link-locked/new.txt", content: "PWNED\n" })),
    refused: "writeFile",
  },
  // The walking tools and their patterns.
  {
    name: "grep the whole workspace",
    run: (w) => w.tool(w.tools.grep.execute({ pattern: "DENIED" })),
    shows: 'No matches for "DENIED"',
  },
  {
    name: "grep with a glob filter",
    run: (w) => w.tool(w.tools.grep.execute({ pattern: "TOKEN", glob: "**/*" })),
    shows: "No matches",
  },
  {
    name: "grep a symlinked denied directory",
    run: (w) => w.tool(w.tools.grep.execute({ pattern: "TOKEN", path: "link-dir" })),
    refused: "readFile",
  },
  {
    name: "grep a symlink to a denied file",
    run: (w) => w.tool(w.tools.grep.execute({ pattern: "TOKEN", path: "link-file" })),
    refused: "readFile",
  },
  {
    name: "grep a directory holding a symlink to a denied file",
    run: (w) => w.tool(w.tools.grep.execute({ pattern: ".", path: "sub" })),
    shows: "sub/s.txt:1:s",
  },
  {
    name: "grep a symlinked hidden directory",
    run: (w) => w.tool(w.tools.grep.execute({ pattern: ".", path: "link-hidden" })),
    refused: "listDir",
  },
  {
    name: "glob into a symlinked hidden directory",
    run: (w) => w.tool(w.tools.glob.execute({ pattern: "link-hidden/**" })),
    refused: "listDir",
  },
  {
    name: "glob into the hidden directory by absolute pattern",
    run: (w) => w.tool(w.tools.glob.execute({ pattern: "/w/hdir/*" })),
    refused: "listDir",
  },
  { name: "glob every file", run: (w) => w.tool(w.tools.glob.execute({ pattern: "**/*.txt" })), shows: "public.txt" },
  {
    name: "glob `..` back into the workspace",
    run: (w) => w.tool(w.tools.glob.execute({ pattern: "sub/../**" })),
    shows: "public.txt",
  },
  {
    name: "list a symlinked hidden directory",
    run: (w) => w.tool(w.tools.list.execute({ path: "link-hidden" })),
    refused: "listDir",
  },
  {
    name: "list a symlinked hidden directory with a pattern",
    run: (w) => w.tool(w.tools.list.execute({ path: "link-hidden", pattern: "**" })),
    refused: "listDir",
  },
  {
    name: "list the workspace with a pattern",
    run: (w) => w.tool(w.tools.list.execute({ path: ".", pattern: "**" })),
    shows: "public.txt",
  },
  {
    name: "list the workspace through `..`",
    run: (w) => w.tool(w.tools.list.execute({ path: "sub/.." })),
    shows: "public.txt",
  },
  // apply_patch: moves from and to protected paths.
  {
    name: "apply_patch: move from a symlink to a denied file",
    run: (w) => w.patch(patchMove("link-file", "leak.txt")),
    refused: "readFile",
  },
  {
    name: "apply_patch: move from `..`",
    run: (w) => w.patch(patchMove("sub/../secret/k.txt", "leak.txt")),
    refused: "readFile",
  },
  {
    name: "apply_patch: move from a relative symlink",
    run: (w) => w.patch(patchMove("sub/rel-env", "leak.txt")),
    refused: "readFile",
  },
  {
    name: "apply_patch: move within the denied directory",
    run: (w) => w.patch(patchMove("secret/k.txt", "secret/k2.txt")),
    refused: "readFile",
  },
  {
    name: "apply_patch: update through a symlinked directory",
    run: (w) => w.patch("*** Update File: link-dir/k.txt\n@@\n+# x"),
    refused: "readFile",
  },
  {
    name: "apply_patch: move a hidden file out",
    run: (w) => w.patch(patchMove("link-hidden/HIDDEN-NAME-file.txt", "shown.txt")),
    refused: "listDir",
    namesHidden: true,
  },
  {
    name: "apply_patch: move onto a locked file through a symlink",
    run: (w) => w.patch(patchMove("public.txt", "link-locked/l.txt")),
    refused: "writeFile",
  },
  {
    name: "apply_patch: move onto a locked file through `..`",
    run: (w) => w.patch(patchMove("public.txt", "sub/../locked/l.txt")),
    refused: "writeFile",
  },
  {
    name: "apply_patch: delete through a symlink",
    run: (w) => w.patch("*** Delete File: link-locked/l.txt"),
    refused: "writeFile",
  },
  {
    name: "apply_patch: add through a symlink",
    run: (w) => w.patch("*** Add File: link-locked/new.txt\n+PWNED"),
    refused: "writeFile",
  },
  // bash on just-bash.
  { name: "bash: cat a symlink", run: (w) => w.bash("cat link-file"), refused: "readFile" },
  { name: "bash: cat through a symlinked directory", run: (w) => w.bash("cat link-dir/k.txt"), refused: "readFile" },
  { name: "bash: cat through `..`", run: (w) => w.bash("cat sub/../secret/k.txt"), refused: "readFile" },
  { name: "bash: cat a relative symlink", run: (w) => w.bash("cat sub/rel-env"), refused: "readFile" },
  {
    name: "bash: redirect a denied file into a loop",
    run: (w) => w.bash("while read line; do echo $line; done < link-dir/../.env"),
    refused: "readFile",
  },
  { name: "bash: source a denied file", run: (w) => w.bash(". ./.env && echo $TOKEN"), refused: "readFile" },
  {
    name: "bash: cp through a symlink, then cat",
    run: (w) => w.bash("cp link-dir/k.txt leak.txt && cat leak.txt"),
    refused: "readFile",
  },
  {
    name: "bash: cp -r the denied directory",
    run: (w) => w.bash("cp -r secret leakdir; cat leakdir/k.txt"),
    refused: "readFile",
  },
  {
    name: "bash: mv through a symlinked directory",
    run: (w) => w.bash("mv link-dir/k.txt leak.txt"),
    refused: "readFile",
  },
  {
    name: "bash: mv the denied directory through `..`",
    run: (w) => w.bash("mv sub/../secret leakdir"),
    refused: "readFile",
  },
  {
    name: "bash: mv a hidden file out",
    run: (w) => w.bash("mv link-hidden/HIDDEN-NAME-file.txt shown.txt"),
    refused: "listDir",
    namesHidden: true,
  },
  {
    name: "bash: mv onto a locked file through a symlink",
    run: (w) => w.bash("mv public.txt link-locked/l.txt"),
    refused: "writeFile",
  },
  {
    name: "bash: cp onto a locked file through `..`",
    run: (w) => w.bash("cp public.txt sub/../locked/l.txt"),
    refused: "writeFile",
  },
  {
    name: "bash: redirect into a locked file through a symlink",
    run: (w) => w.bash("echo PWNED > link-locked/l.txt"),
    refused: "writeFile",
  },
  {
    name: "bash: sed -i through a symlink",
    run: (w) => w.bash("sed -i s/LOCKED/PWNED/ link-locked/l.txt"),
    refused: "writeFile",
  },
  { name: "bash: rm -r the workspace", run: (w) => w.bash("rm -r /w"), refused: "writeFile" },
  { name: "bash: grep -r the workspace", run: (w) => w.bash("grep -r DENIED ."), refused: "readFile" },
  { name: "bash: grep -rl a symlinked directory", run: (w) => w.bash("grep -rl TOKEN link-dir"), refused: "readFile" },
  { name: "bash: find every path", run: (w) => w.bash("find . | sort"), shows: "./secret/k.txt" },
  {
    name: "bash: find the hidden file by name",
    run: (w) => w.bash("find . -name '*NAME*'; echo searched"),
    shows: "searched",
  },
  {
    name: "bash: find below a symlinked hidden directory",
    run: (w) => w.bash("find link-hidden/ -type f; echo searched"),
    shows: "searched",
  },
  {
    name: "bash: a glob through a symlinked hidden directory",
    run: (w) => w.bash("cat link-hidden/*"),
    refused: "listDir",
  },
  { name: "bash: ls -R", run: (w) => w.bash("ls -R"), shows: "public.txt" },
  { name: "bash: ls a symlinked hidden directory", run: (w) => w.bash("ls link-hidden"), refused: "listDir" },
  // tar leaves out what it cannot read, says why, and exits 0: the archive holds no content.
  {
    name: "bash: tar the denied directory, then read the archive",
    run: (w) => w.bash("tar -cf t.tar link-dir/ secret; cat t.tar"),
    shows: 'matches a deny rule for "readFile"',
  },
  // The MCP dialects.
  {
    name: "mcp filesystem-server: read_text_file a symlink",
    run: (w) => w.mcp("filesystem-server", "read_text_file", { path: "/w/link-file" }),
    refused: "readFile",
  },
  {
    name: "mcp filesystem-server: read_multiple_files",
    run: (w) => w.mcp("filesystem-server", "read_multiple_files", { paths: ["/w/sub/rel-env", "/w/public.txt"] }),
    shows: 'matches a deny rule for "readFile"',
  },
  {
    name: "mcp filesystem-server: edit_file through a symlink",
    run: (w) =>
      w.mcp("filesystem-server", "edit_file", { path: "/w/link-file", edits: [{ oldText: "TOKEN", newText: "x" }] }),
    refused: "readFile",
  },
  {
    name: "mcp filesystem-server: move_file through a symlinked directory",
    run: (w) => w.mcp("filesystem-server", "move_file", { source: "/w/link-dir/k.txt", destination: "/w/leak.txt" }),
    refused: "readFile",
  },
  {
    name: "mcp filesystem-server: write_file through a symlink",
    run: (w) => w.mcp("filesystem-server", "write_file", { path: "/w/link-locked/l.txt", content: "PWNED" }),
    refused: "writeFile",
  },
  {
    name: "mcp filesystem-server: search_files a symlinked hidden directory",
    run: (w) => w.mcp("filesystem-server", "search_files", { path: "/w/link-hidden", pattern: "**" }),
    refused: "listDir",
  },
  {
    name: "mcp filesystem-server: search_files the workspace",
    run: (w) => w.mcp("filesystem-server", "search_files", { path: "/w", pattern: "**" }),
    shows: "/w/public.txt",
  },
  {
    name: "mcp filesystem-server: directory_tree the workspace",
    run: (w) => w.mcp("filesystem-server", "directory_tree", { path: "/w" }),
    shows: "public.txt",
  },
  {
    name: "mcp better-fs-tools: read a symlink",
    run: (w) => w.mcp("better-fs-tools", "read", { path: "link-file" }),
    refused: "readFile",
  },
  {
    name: "mcp better-fs-tools: grep the workspace",
    run: (w) => w.mcp("better-fs-tools", "grep", { pattern: "DENIED" }),
    shows: "No matches",
  },
  {
    name: "mcp better-fs-tools: glob a symlinked hidden directory",
    run: (w) => w.mcp("better-fs-tools", "glob", { pattern: "link-hidden/*" }),
    refused: "listDir",
  },
  {
    name: "mcp better-fs-tools: apply_patch move from `..`",
    run: (w) =>
      w.mcp("better-fs-tools", "apply_patch", {
        patch: `*** Begin Patch\n${patchMove("sub/../.env", "env.txt")}\n*** End Patch`,
      }),
    refused: "readFile",
  },
  // The workspace handle and gate.fs.
  {
    name: "workspace: readFile through a symlinked directory",
    run: (w) => caught(() => w.workspace.readFile("link-dir/k.txt")),
    refused: "readFile",
  },
  {
    name: "workspace: listDir a symlinked hidden directory",
    run: (w) => caught(async () => (await w.workspace.listDir("link-hidden")).join("\n")),
    refused: "listDir",
  },
  {
    name: "workspace: writeFile through a symlink",
    run: (w) => caught(async () => `${(await w.workspace.writeFile("link-locked/l.txt", "PWNED")).bytesWritten}`),
    refused: "writeFile",
  },
  {
    name: "gate.fs: readFile through `..` after a symlink",
    run: (w) => caught(async () => new TextDecoder().decode(await w.gate.fs.readFile("/w/link-dir/../.env"))),
    refused: "readFile",
  },
  {
    name: "gate.fs: rename the denied directory through `..`",
    run: (w) => caught(async () => (await w.gate.fs.rename("/w/sub/../secret", "/w/s2"), "moved")),
    refused: "readFile",
  },
  {
    name: "gate.fs: rm -r a symlinked locked directory's file",
    run: (w) => caught(async () => (await w.gate.fs.rm("/w/link-locked/l.txt", { recursive: true }), "removed")),
    refused: "writeFile",
  },
];

async function caught(run: () => Promise<string>): Promise<Outcome> {
  try {
    return { ok: true, text: await run() };
  } catch (error) {
    return { ok: false, text: error instanceof Error ? error.message : String(error) };
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Every regular file under `/w` (links not followed) with its text, and every path's name. */
async function everything(fs: FileSystem, directory = "/w", out: Map<string, string> = new Map()) {
  for (const entry of await fs.readdir(directory)) {
    const path = `${directory}/${entry.name}`;
    if (entry.type === "directory") await everything(fs, path, out);
    else if (entry.type === "file") out.set(path, decoder.decode(await fs.readFile(path)));
    else out.set(path, `-> ${await fs.readlink!(path)}`);
  }
  return out;
}

function ways(fs: FileSystem, opened: Array<() => Promise<void>>): Ways {
  const tools = createFsTools({ fs, cwd: "/w", state: false, permissions });
  const tool = async (result: Promise<ToolResult>): Promise<Outcome> => {
    const done = await result;
    // The structured fields too: content must not hide in one.
    const { parts: _parts, ...fields } = done;
    return { ok: done.ok, text: `${resultText(done)}\n${JSON.stringify(fields)}` };
  };
  return {
    tools,
    tool,
    patch: (body) => tool(tools.apply_patch.execute({ patch: `*** Begin Patch\n${body}\n*** End Patch` })),
    async bash(command) {
      const result = await tools.bash.execute({ command });
      return { ok: result.ok && result.exitCode === 0, text: `${result.stdout}\n${result.stderr}` };
    },
    async mcp(dialect, name, args) {
      const client = await connect({ fs, cwd: "/w", dialect, permissions });
      opened.push(() => client.close());
      const result = await client.call(name, args);
      const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
      return { ok: result.isError !== true, text: `${text}\n${JSON.stringify(result.structuredContent ?? {})}` };
    },
    workspace: createWorkspace({ fs, root: "/w", permissions }),
    gate: createGate({ fs, cwd: "/w", permissions }),
  };
}

describe("security: deny rules reached another way (symlinks, `..`, moves, bash, patterns, MCP)", () => {
  for (const { name: backendName, backend, destroy } of NODE_CORPUS_BACKENDS) {
    describe(backendName, () => {
      for (const row of ROWS) {
        it(row.name, async () => {
          const fs = await backend();
          const opened: Array<() => Promise<void>> = [];
          try {
            for (const [path, content] of Object.entries(FILES)) await fs.writeFile(path, encoder.encode(content));
            for (const [path, target] of Object.entries(LINKS)) await fs.symlink!(target, path);
            const outcome = await row.run(ways(fs, opened));

            const sentinels = row.namesHidden === true ? [CONTENT] : [CONTENT, NAME];
            for (const sentinel of sentinels) {
              expect(outcome.text.includes(sentinel), `shows ${sentinel}: ${outcome.text.slice(0, 600)}`).toBe(false);
            }
            if (row.refused === undefined) {
              expect({ ok: outcome.ok, shows: outcome.text.includes(row.shows ?? "") }, outcome.text).toEqual({
                ok: true,
                shows: true,
              });
            } else {
              expect(
                { ok: outcome.ok, names: outcome.text.includes(`matches a deny rule for "${row.refused}"`) },
                outcome.text,
              ).toEqual({ ok: false, names: true });
            }

            // The protected files hold their bytes; no other file holds their content or the hidden name.
            const after = await everything(fs);
            expect(Object.fromEntries(Object.keys(PROTECTED).map((path) => [path, after.get(path)]))).toEqual(
              PROTECTED,
            );
            const elsewhere = [...after].filter(
              ([path, text]) => !(path in PROTECTED) && (text.includes(CONTENT) || path.includes(NAME)),
            );
            expect(elsewhere).toEqual([]);
          } finally {
            for (const close of opened) await close();
            await destroy?.(fs);
          }
        });
      }
    });
  }
});

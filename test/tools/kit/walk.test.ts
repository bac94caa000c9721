/**
 * Deny rules in the walking tools (list, glob, grep, the text editor's directory view): what
 * each shows, what it skips, and the note and `denied` field that say so; and `walkSource`,
 * `deniedNote` themselves.
 */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { createGate, type AllowRule } from "../../../src/gate/gate.js";
import { createGlobTool } from "../../../src/tools/glob/index.js";
import { createGrepTool } from "../../../src/tools/grep/index.js";
import { createListTool } from "../../../src/tools/list/index.js";
import { resultText } from "../../../src/tools/kit/result.js";
import { createTextEditorTool } from "../../../src/tools/text-editor/index.js";
import { deniedField, deniedNote, walkFiles, walkSource } from "../../../src/tools/kit/walk.js";

const files = () =>
  memoryFileSystem({
    files: {
      "/w/a.txt": "a TOKEN\n",
      "/w/secret/k.txt": "TOKEN=hunter2\n",
      "/w/hidden/h.txt": "TOKEN=hidden\n",
      "/w/src/b.ts": "b\n",
      "/out/open.txt": "TOKEN=open\n",
      "/out/hidden/x.txt": "TOKEN=x\n",
    },
  });
const DENY: AllowRule[] = [
  { tool: "readFile", path: "/w/secret/**" },
  { tool: "listDir", path: "/w/hidden/**" },
  { tool: "listDir", path: "/out/hidden" },
];
const options = () => ({ fs: files(), cwd: "/w", permissions: { deny: DENY } });
const BOTH = '[Skipped 2 paths because of deny rules in the permissions config: 1 for "listDir", 1 for "readFile".]';
const LISTED = '[Skipped 1 path because of a deny rule for "listDir" in the permissions config.]';

describe("deny rules in the walking tools", () => {
  it("grep skips files denied for readFile and directories denied for listDir, and says how many", async () => {
    const grep = createGrepTool(options());
    const result = await grep.execute({ pattern: "TOKEN" });
    expect({ text: resultText(result), count: result.count, denied: result.denied }).toEqual({
      text: `a.txt:1:a TOKEN\n${BOTH}`,
      count: 1,
      denied: [
        { path: "/w/hidden", tool: "listDir" },
        { path: "/w/secret/k.txt", tool: "readFile" },
      ],
    });
    const none = await grep.execute({ pattern: "hunter2" });
    expect(resultText(none)).toBe(`No matches for "hunter2" in .; searched 2 files.\n${BOTH}`);
    // Named directly: refused with the rule, as read and list are.
    expect(resultText(await grep.execute({ pattern: "TOKEN", path: "secret/k.txt" }))).toBe(
      'Permission denied: /w/secret/k.txt matches a deny rule for "readFile" in the permissions config.',
    );
    expect(resultText(await grep.execute({ pattern: "TOKEN", path: "hidden" }))).toBe(
      'Permission denied: /w/hidden matches a deny rule for "listDir" in the permissions config.',
    );
  });

  it("glob and list show the names of readFile-denied files, not what a listDir rule hides", async () => {
    const glob = createGlobTool(options());
    const all = await glob.execute({ pattern: "**" });
    expect({ text: resultText(all), count: all.count, denied: all.denied }).toEqual({
      text: `a.txt\nsecret/k.txt\nsrc/b.ts\n${LISTED}`,
      count: 3,
      denied: [{ path: "/w/hidden", tool: "listDir" }],
    });
    expect(resultText(await glob.execute({ pattern: "hidden/**" }))).toBe(
      'Permission denied: /w/hidden matches a deny rule for "listDir" in the permissions config.',
    );
    const list = createListTool(options());
    const top = await list.execute({ path: "." });
    expect({ text: resultText(top), count: top.count, denied: top.denied }).toEqual({
      text: `a.txt (8 bytes)\nsecret/\nsrc/\n${LISTED}`,
      count: 3,
      denied: [{ path: "/w/hidden", tool: "listDir" }],
    });
    const deep = await list.execute({ path: ".", pattern: "**" });
    expect(resultText(deep)).toBe(`a.txt (8 bytes)\nsecret/k.txt (14 bytes)\nsrc/b.ts (2 bytes)\n${LISTED}`);
    expect(resultText(await list.execute({ path: "hidden" }))).toBe(
      'Permission denied: /w/hidden matches a deny rule for "listDir" in the permissions config.',
    );
    expect(resultText(await list.execute({ path: "hidden/h.txt", pattern: "*" }))).toBe(
      'Permission denied: /w/hidden/h.txt matches a deny rule for "listDir" in the permissions config.',
    );
  });

  it("a directory whose every entry is hidden says so, not that it is empty", async () => {
    const list = createListTool({
      fs: files(),
      cwd: "/w",
      permissions: { deny: [{ tool: "listDir", path: "/w/src/*" }] },
    });
    const result = await list.execute({ path: "src" });
    expect({ text: resultText(result), count: result.count }).toEqual({
      text: `src has no entries to show.\n${LISTED}`,
      count: 0,
    });
  });

  it("outside the roots (admitted by a rule), the same entries are skipped and counted", async () => {
    const permissions = {
      allow: [{ tool: "listDir", path: "/out{,/**}" } as const, { tool: "readFile", path: "/out/**" } as const],
      deny: DENY,
    };
    const grep = createGrepTool({ fs: files(), cwd: "/w", permissions });
    const result = await grep.execute({ pattern: "TOKEN", path: "/out" });
    expect({ text: resultText(result), denied: result.denied }).toEqual({
      text: `/out/open.txt:1:TOKEN=open\n${LISTED}`,
      denied: [{ path: "/out/hidden", tool: "listDir" }],
    });
    const list = createListTool({ fs: files(), cwd: "/w", permissions });
    expect(resultText(await list.execute({ path: "/out" }))).toBe(`open.txt (11 bytes)\n${LISTED}`);
  });

  it("the text editor's directory view leaves out what a listDir rule hides, and says so", async () => {
    const editor = createTextEditorTool(options());
    const view = await editor.execute({ command: "view", path: "/w" });
    expect({ text: resultText(view), denied: "denied" in view ? view.denied : undefined }).toEqual({
      text: `Here's the files and directories up to 2 levels deep in /w, excluding hidden items:\n/w\n/w/a.txt\n/w/secret\n/w/secret/k.txt\n/w/src\n/w/src/b.ts\n${LISTED}\n`,
      denied: [{ path: "/w/hidden", tool: "listDir" }],
    });
    expect(resultText(await editor.execute({ command: "view", path: "/w/secret/k.txt" }))).toBe(
      'Permission denied: /w/secret/k.txt matches a deny rule for "readFile" in the permissions config.',
    );
  });
});

describe("walkSource, deniedNote, deniedField", () => {
  it("tests nothing per entry without deny rules, and records what the rules leave out", async () => {
    const open = walkSource(createGate({ fs: files(), cwd: "/w" }), { outside: false });
    expect([open.include, open.readable("/w/secret/k.txt"), open.denied]).toEqual([undefined, true, []]);

    const source = walkSource(createGate({ fs: files(), cwd: "/w", permissions: { deny: DENY } }), { outside: false });
    const seen: string[] = [];
    await walkFiles({
      fs: source.fs,
      root: "/w",
      concurrency: 4,
      include: source.include,
      onEntry: (path) => {
        if (source.readable(path)) seen.push(path);
      },
    });
    expect(seen.sort()).toEqual(["/w/a.txt", "/w/src/b.ts"]);
    expect(deniedField(source.denied)).toEqual({
      denied: [
        { path: "/w/hidden", tool: "listDir" },
        { path: "/w/secret/k.txt", tool: "readFile" },
      ],
    });
  });

  it("deniedNote counts per rule tool; nothing skipped is no note", () => {
    expect(deniedNote([])).toBeUndefined();
    expect(deniedField([])).toEqual({});
    expect(
      deniedNote([
        { path: "/a", tool: "readFile" },
        { path: "/b", tool: "readFile" },
      ]),
    ).toBe('[Skipped 2 paths because of a deny rule for "readFile" in the permissions config.]');
    expect(
      deniedNote([
        { path: "/a", tool: "listDir" },
        { path: "/b", tool: "readFile" },
        { path: "/c", tool: "listDir" },
      ]),
    ).toBe('[Skipped 3 paths because of deny rules in the permissions config: 2 for "listDir", 1 for "readFile".]');
  });
});

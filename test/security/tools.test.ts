/**
 * The attack corpus through every tool (read, write, edit, apply_patch, list, glob, grep, bash)
 * on every backend available in Node (memory, node).
 */
import { describe } from "vitest";
import { createFsTools } from "../../src/tools/fs-tools.js";
import { resultText, type ToolResult } from "../../src/tools/result.js";
import type { FileSystem } from "../../src/fs/types.js";
import { ATTACKS, runSecurityCorpus, type AttackTarget, type AttemptOutcome } from "./corpus.js";
import { NODE_CORPUS_BACKENDS } from "./backends.js";

function fromResult(result: ToolResult): AttemptOutcome {
  return { ok: result.ok, text: resultText(result), ...(result.error === undefined ? {} : { code: result.error.code }) };
}

function tools(fs: FileSystem) {
  return createFsTools({ fs, cwd: "/w", state: false });
}

/** Single-quote a word for bash. */
const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

const allowedWrites = Object.fromEntries(
  ATTACKS.filter((attack) => attack.access === "write" && attack.expect === "allowed").map((attack) => [
    attack.name,
    "edit changes existing text only; a new legal file cannot be made by it",
  ]),
);
const TARGETS: ReadonlyArray<{ name: string; target: (fs: FileSystem) => AttackTarget; skip?: Record<string, string> }> = [
  {
    name: "read, write and list tools",
    target: (fs) => {
      const t = tools(fs);
      return {
        read: async (path) => fromResult(await t.read.execute({ path })),
        write: async (path, content) => fromResult(await t.write.execute({ path, content })),
        list: async (path) => fromResult(await t.list.execute({ path })),
      };
    },
  },
  {
    name: "edit tool (old text taken from the outside files)",
    target: (fs) => {
      const t = tools(fs);
      return { write: async (path, content) => fromResult(await t.edit.execute({ path, oldText: "SECRET", newText: content })) };
    },
    skip: allowedWrites,
  },
  {
    name: "apply_patch tool (Add File)",
    target: (fs) => {
      const t = tools(fs);
      return {
        write: async (path, content) =>
          fromResult(await t.apply_patch.execute({ patch: `*** Begin Patch\n*** Add File: ${path}\n+${content}\n*** End Patch` })),
      };
    },
  },
  {
    name: "apply_patch tool (Update File of the outside text)",
    target: (fs) => {
      const t = tools(fs);
      return {
        write: async (path, content) =>
          fromResult(
            await t.apply_patch.execute({ patch: `*** Begin Patch\n*** Update File: ${path}\n@@\n-OUTSIDE-SECRET\n+${content}\n*** End Patch` }),
          ),
      };
    },
    skip: allowedWrites,
  },
  {
    name: "glob and grep tools",
    target: (fs) => {
      const t = tools(fs);
      return {
        read: async (path) => fromResult(await t.grep.execute({ pattern: "[A-Za-z]", path })),
        list: async (path) => fromResult(await t.glob.execute({ pattern: "**", path })),
      };
    },
  },
  {
    name: "bash tool (just-bash: cat, printf >, ls)",
    target: (fs) => {
      const t = tools(fs);
      const shell = async (command: string): Promise<AttemptOutcome> => {
        const result = await t.bash.execute({ command });
        return { ok: result.ok && result.exitCode === 0, text: `${result.stdout}\n${result.stderr}` };
      };
      return {
        read: (path) => shell(`cat -- ${quote(path)}`),
        write: (path, content) => shell(`printf '%s' ${quote(content)} > ${quote(path)}`),
        list: (path) => shell(`ls -a -- ${quote(path)}`),
      };
    },
  },
];

describe("security corpus through the tools", () => {
  for (const { name: backendName, backend, destroy } of NODE_CORPUS_BACKENDS) {
    for (const { name, target, skip } of TARGETS) {
      runSecurityCorpus({ name: `${name} on ${backendName}`, backend, destroy, target, ...(skip === undefined ? {} : { skip }) });
    }
  }
});

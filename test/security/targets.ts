/**
 * The targets the security corpus runs through, usable in Node and in Chromium: the gate
 * (`gate.check` then the backend), the gated FileSystem, the workspace handle, and every tool.
 */
import { createGate } from "../../src/gate/gate.js";
import { createWorkspace } from "../../src/gate/workspace.js";
import { type FileSystem } from "../../src/contract/types.js";
import { FsError } from "../../src/contract/errors.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { resultText, type ToolResult } from "../../src/tools/kit/result.js";
import { ATTACKS, type AttackTarget, type AttemptOutcome } from "./corpus.js";

/** A named target factory, with rows it cannot express. */
export interface NamedTarget {
  readonly name: string;
  readonly target: (fs: FileSystem) => AttackTarget;
  readonly skip?: Readonly<Record<string, string>>;
  /** Rows it contains rather than refuses, with the reason (see `SecurityCorpusOptions.contained`). */
  readonly contained?: Readonly<Record<string, string>>;
  /** Its outcomes carry the gate's codes. */
  readonly gateCodes?: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function outcome(run: () => Promise<string>): Promise<AttemptOutcome> {
  try {
    return { ok: true, text: await run() };
  } catch (error) {
    return {
      ok: false,
      text: error instanceof Error ? error.message : String(error),
      ...(FsError.isInstance(error) ? { code: error.code } : {}),
    };
  }
}

const names = (entries: readonly { name: string }[]) =>
  entries
    .map((entry) => entry.name)
    .sort()
    .join("\n");

/** `gate.check`, then the checked path through the gate's no-follow form (as host code should call the backend). */
export function gateTarget(fs: FileSystem, backslashNames = false): AttackTarget {
  const gate = createGate({ fs, cwd: "/w", ...(backslashNames ? { backslashNames } : {}) });
  const checked = async (
    path: string,
    access: "read" | "write" | "list",
    run: (real: string) => Promise<string>,
  ): Promise<AttemptOutcome> => {
    const check = await gate.check(path, access);
    if (!check.ok) return { ok: false, text: check.error.message, code: check.error.code };
    return outcome(() => run(check.path));
  };
  return {
    read: (path) => checked(path, "read", async (real) => decoder.decode(await gate.noFollow.readFile(real))),
    write: (path, content) =>
      checked(path, "write", async (real) => (await gate.noFollow.writeFile(real, encoder.encode(content)), "written")),
    list: (path) => checked(path, "list", async (real) => names(await gate.noFollow.readdir(real))),
  };
}

export function gatedFsTarget(fs: FileSystem): AttackTarget {
  const gated = createGate({ fs, cwd: "/w" }).fs;
  return {
    read: (path) => outcome(async () => decoder.decode(await gated.readFile(path))),
    write: (path, content) => outcome(async () => (await gated.writeFile(path, encoder.encode(content)), "written")),
    list: (path) => outcome(async () => names(await gated.readdir(path))),
  };
}

export function workspaceTarget(fs: FileSystem): AttackTarget {
  const workspace = createWorkspace({ fs, root: "/w" });
  return {
    read: (path) => outcome(() => workspace.readFile(path)),
    write: (path, content) =>
      outcome(async () => `wrote ${(await workspace.writeFile(path, content)).bytesWritten} bytes`),
    list: (path) => outcome(async () => (await workspace.listDir(path)).join("\n")),
  };
}

/** The gate, the gated FileSystem and the workspace handle. */
export const CORE_TARGETS: readonly NamedTarget[] = [
  { name: "gate.check", target: gateTarget, gateCodes: true },
  { name: "gate.fs", target: gatedFsTarget },
  { name: "workspace handle", target: workspaceTarget },
];

function fromResult(result: ToolResult): AttemptOutcome {
  return {
    ok: result.ok,
    text: resultText(result),
    ...(result.error === undefined ? {} : { code: result.error.code }),
  };
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
// The Update target's patch quotes the outside text itself (`-OUTSIDE-SECRET`): on a race row
// the inside file does not match, and the refusal quotes the patch's lines back, sentinel
// included. The Add File target and the edit target cover the races through apply_patch and edit.
const raceRows = Object.fromEntries(
  ATTACKS.filter((attack) => attack.race !== undefined).map((attack) => [
    attack.name,
    "the patch quotes OUTSIDE-SECRET, and the mismatch error quotes the patch back",
  ]),
);
// Known gap, in just-bash 3.4.2 itself: its ls treats an operand holding `*`, `?` or `[` as a
// pattern (quoted or not, since the shell has already removed the quotes) and matches it against
// `fs.getAllPaths()` with minimatch, printing the matched names instead of listing the directory.
// This path holds a directory named `*`; our bridge's getAllPaths is empty (a backend cannot be
// listed in full synchronously), so nothing matches and ls exits 2 with `No such file or
// directory`; over just-bash's own InMemoryFs it prints the names of the cwd instead. No bridge
// answer makes ls list the directory, so the row stays skipped (test/shell/just-bash-ls-glob.test.ts).
const bashListGaps = {
  "deep-path: 200 odd legal names, present (list)":
    "just-bash 3.4.2 ls globs its own operands: the quoted name '*' in this path is matched against fs.getAllPaths() (empty in our bridge) instead of being listed, so ls exits 2 (cat and cd of the same path work)",
};
/**
 * The shell stats a link leading outside the workspace as the link itself (so `rm` and `mv` act
 * on the link, never its target): `ls` of such a link prints the link's own name, and lists
 * nothing outside.
 */
const LINK_AS_ITSELF =
  "the shell stats a link leading outside as the link itself (so rm and mv act on the link), so ls prints the link's name and lists nothing outside";
const bashListContained = {
  "symlink-leaf: leaf → /outside/secret.txt (list)": LINK_AS_ITSELF,
  "symlink-dir: dir-link (list)": LINK_AS_ITSELF,
  "race: listed directory swapped for a link to /outside (list)": LINK_AS_ITSELF,
};
/** Every tool. */
export const TOOL_TARGETS: readonly NamedTarget[] = [
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
      return {
        write: async (path, content) => fromResult(await t.edit.execute({ path, oldText: "SECRET", newText: content })),
      };
    },
    skip: allowedWrites,
  },
  {
    name: "apply_patch tool (Add File)",
    target: (fs) => {
      const t = tools(fs);
      return {
        write: async (path, content) =>
          fromResult(
            await t.apply_patch.execute({
              patch: `*** Begin Patch\n*** Add File: ${path}\n+${content}\n*** End Patch`,
            }),
          ),
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
            await t.apply_patch.execute({
              patch: `*** Begin Patch\n*** Update File: ${path}\n@@\n-OUTSIDE-SECRET\n+${content}\n*** End Patch`,
            }),
          ),
      };
    },
    skip: { ...allowedWrites, ...raceRows },
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
    name: "bash tool (just-bash: cat, mkdir -p && printf >, ls)",
    target: (fs) => {
      const t = tools(fs);
      const shell = async (command: string): Promise<AttemptOutcome> => {
        const result = await t.bash.execute({ command });
        return { ok: result.ok && result.exitCode === 0, text: `${result.stdout}\n${result.stderr}` };
      };
      return {
        read: (path) => shell(`cat -- ${quote(path)}`),
        // Missing parents are made first (as the write tool does), so deep new files can be written.
        write: (path, content) => {
          const parent = path.lastIndexOf("/") > 0 ? path.slice(0, path.lastIndexOf("/")) : undefined;
          const write = `printf '%s' ${quote(content)} > ${quote(path)}`;
          return shell(parent === undefined ? write : `mkdir -p -- ${quote(parent)} && ${write}`);
        },
        list: (path) => shell(`ls -a -- ${quote(path)}`),
      };
    },
    skip: bashListGaps,
    contained: bashListContained,
  },
];

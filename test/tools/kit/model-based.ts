/**
 * A model-based test of a backend through the tools (as FoundationDB and SQLite test): fast-check
 * generates sequences of tool calls (write, edit, apply_patch over several files, and through
 * bash mkdir -p, mv, rm -rf and ln -s where the backend has links, and concurrent pairs), runs
 * each through the tools and, separately, through a plain model (a map of paths), and after every
 * step compares the tree (names, bytes, kinds, link targets) with the model's.
 *
 * With faults on, a random mutating backend call of a write, edit or apply_patch fails (`EIO` or
 * `ENOSPC`): the tool must say it failed, and every path must hold either its state before the
 * call or after it, never anything else. With a dying Worker (backends that have one), the
 * backend's Worker is terminated at a random mutating call (before it is sent, or a moment after):
 * the tool must say it failed (or, when the call was done before the Worker died, succeed), and a
 * fresh instance on the same store must load every path as it was before the call or after it.
 *
 * Shared by test/tools/kit/model-based.test.ts (memory, Node) and model-based.browser.test.ts
 * (Chromium); imports nothing from `node:`.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { FsError } from "../../../src/contract/errors.js";
import { forwardFileSystem } from "../../../src/contract/forward.js";
import type { FileSystem } from "../../../src/contract/types.js";
import { createFsTools } from "../../../src/shell/defaults.js";
import type { FsTools } from "../../../src/tools/kit/fs-tools.js";
import { resultText, type ToolResult } from "../../../src/tools/kit/result.js";

/** One entry of a tree, by path relative to the root. */
export type Entry =
  | { readonly kind: "file"; readonly text: string }
  | { readonly kind: "directory" }
  | { readonly kind: "symlink"; readonly target: string };

/** A tree: relative path (no leading slash) → entry. */
export type Tree = Map<string, Entry>;

/** A fresh, empty backend with `root` present, and what to do after the run. */
export interface ModelPlace {
  readonly fs: FileSystem;
  /** Absolute root the tools work in (their cwd and only allowed root). */
  readonly root: string;
  /** Closes the instance in use (the first, or the last {@link ModelWorker.reopen}'s) and removes the store. */
  readonly cleanup?: () => Promise<void>;
  /** The backend's Worker, for the `"dying-worker"` fault. */
  readonly worker?: ModelWorker;
}

/** What the `"dying-worker"` fault needs of a backend that runs in a Worker. */
export interface ModelWorker {
  /** Terminate the Worker of the instance in use (as a crash would). */
  kill(): void;
  /** A fresh instance on the same store, with a new Worker; it is the instance in use from now on. */
  reopen(): Promise<FileSystem>;
}

export interface ModelOptions {
  /** Makes a fresh place per sequence. */
  readonly create: () => Promise<ModelPlace>;
  /** The backend has symlinks (ln -s commands are generated). */
  readonly symlinks: boolean;
  /** Sequences to run. */
  readonly runs: number;
  /**
   * Inject faults into mutating backend calls: `"errors"` (`EIO`, `ENOSPC`), or `"dying-worker"`
   * (the place's Worker is terminated; see {@link ModelPlace.worker}).
   */
  readonly faults: false | "errors" | "dying-worker";
  /** fast-check seed (reproduce a failure). */
  readonly seed?: number;
}

const DIRS = ["d", "d/e", "f"] as const;
const NAMES = ["a.txt", "b.txt"] as const;
const WORDS = ["alpha", "beta", "gamma"] as const;

const pathArb = fc
  .tuple(fc.constantFrom("", ...DIRS), fc.constantFrom(...NAMES))
  .map(([dir, name]) => (dir === "" ? name : `${dir}/${name}`));
const anyPathArb = fc.oneof(pathArb, fc.constantFrom(...DIRS));
const textArb = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 })
  .map((words) => `${words.join("\n")}\n`);

const parentOf = (path: string): string => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");
const ancestorsOf = (path: string): string[] => {
  const parts = path.split("/");
  return parts.slice(0, -1).map((_, index) => parts.slice(0, index + 1).join("/"));
};
const isUnder = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`);
/** The parent of `path` is a directory (the root always is). */
const parentIsDirectory = (tree: Tree, path: string): boolean =>
  parentOf(path) === "" || tree.get(parentOf(path))?.kind === "directory";

/** Every ancestor is a directory or missing (none is a file or a link). */
function parentsPlain(tree: Tree, path: string): boolean {
  return ancestorsOf(path).every((ancestor) => {
    const entry = tree.get(ancestor);
    return entry === undefined || entry.kind === "directory";
  });
}

function addParents(tree: Tree, path: string): void {
  for (const ancestor of ancestorsOf(path)) if (!tree.has(ancestor)) tree.set(ancestor, { kind: "directory" });
}

/** `path` is a link whose target (followed through links) is not there. */
function dangling(tree: Tree, path: string, seen = 0): boolean {
  const entry = tree.get(path);
  if (entry?.kind !== "symlink") return false;
  // Targets are absolute, under the root (which ends in /w; no name here contains a "w" directory).
  const target = entry.target.replace(/^.*\/w\//, "");
  if (seen > 8 || !tree.has(target)) return true;
  return dangling(tree, target, seen + 1);
}

const countOf = (text: string, needle: string): number => text.split(needle).length - 1;

/** What a command does to the model: the next tree, or `undefined` when the tool must refuse it (nothing changes). */
type Apply = (tree: Tree) => Tree | undefined;

/** A command: its tool call, what it does to the model, and which paths it touches (for concurrent pairs). */
interface Command {
  readonly label: string;
  /** How fast-check prints it in a counterexample. */
  readonly [fc.toStringMethod]: () => string;
  /** May run at all (preconditions the model cannot answer for, e.g. links on the way). */
  readonly runnable: (tree: Tree) => boolean;
  readonly apply: Apply;
  readonly run: (tools: FsTools) => Promise<{ ok: boolean; text: string }>;
  readonly touches: readonly string[];
  /** Faults may be injected into it (write, edit, apply_patch). */
  readonly faultable: boolean;
}

const toolResult = (result: ToolResult) => ({ ok: result.ok, text: resultText(result) });

function writeCommand(path: string, text: string): Command {
  return {
    label: `write ${path} ${JSON.stringify(text)}`,
    [fc.toStringMethod]: () => `write ${path} ${JSON.stringify(text)}`,
    runnable: (tree) => tree.get(path)?.kind !== "symlink",
    apply: (tree) => {
      if (!parentsPlain(tree, path) || tree.get(path)?.kind === "directory") return undefined;
      const next = new Map(tree);
      addParents(next, path);
      next.set(path, { kind: "file", text });
      return next;
    },
    run: async (tools) => toolResult(await tools.write.execute({ path, content: text })),
    touches: [path],
    faultable: true,
  };
}

function editCommand(path: string, oldText: string, newText: string): Command {
  return {
    label: `edit ${path} ${oldText} → ${newText}`,
    [fc.toStringMethod]: () => `edit ${path} ${oldText} → ${newText}`,
    runnable: (tree) => tree.get(path)?.kind !== "symlink" && parentsPlain(tree, path),
    apply: (tree) => {
      const entry = tree.get(path);
      if (entry?.kind !== "file" || countOf(entry.text, oldText) !== 1 || oldText === newText) return undefined;
      const next = new Map(tree);
      next.set(path, { kind: "file", text: entry.text.replace(oldText, newText) });
      return next;
    },
    run: async (tools) => toolResult(await tools.edit.execute({ path, oldText, newText })),
    touches: [path],
    faultable: true,
  };
}

/** apply_patch: add (or replace) one file and delete another, all or nothing. */
function patchCommand(add: string, text: string, remove: string): Command {
  const body = text
    .slice(0, -1)
    .split("\n")
    .map((line) => `+${line}`)
    .join("\n");
  const patch = `*** Begin Patch\n*** Add File: ${add}\n${body}\n*** Delete File: ${remove}\n*** End Patch`;
  return {
    label: `apply_patch add ${add}, delete ${remove}`,
    [fc.toStringMethod]: () => `apply_patch add ${add}, delete ${remove}`,
    runnable: (tree) =>
      add !== remove &&
      tree.get(add)?.kind !== "symlink" &&
      tree.get(remove)?.kind !== "symlink" &&
      parentsPlain(tree, remove),
    apply: (tree) => {
      if (tree.get(remove)?.kind !== "file") return undefined;
      if (!parentsPlain(tree, add) || tree.get(add)?.kind === "directory") return undefined;
      const next = new Map(tree);
      next.delete(remove);
      addParents(next, add);
      next.set(add, { kind: "file", text });
      return next;
    },
    run: async (tools) => toolResult(await tools.apply_patch.execute({ patch })),
    touches: [add, remove],
    faultable: true,
  };
}

function bash(tools: FsTools, command: string) {
  return tools.bash.execute({ command }).then((result) => ({ ok: result.exitCode === 0, text: resultText(result) }));
}

function mkdirCommand(path: string): Command {
  return {
    label: `mkdir -p ${path}`,
    [fc.toStringMethod]: () => `mkdir -p ${path}`,
    runnable: (tree) => parentsPlain(tree, path) && tree.get(path)?.kind !== "symlink",
    apply: (tree) => {
      if (tree.get(path)?.kind === "file") return undefined;
      const next = new Map(tree);
      addParents(next, path);
      next.set(path, { kind: "directory" });
      return next;
    },
    run: (tools) => bash(tools, `mkdir -p ${path}`),
    touches: [path],
    faultable: false,
  };
}

function rmCommand(path: string): Command {
  return {
    label: `rm -rf ${path}`,
    [fc.toStringMethod]: () => `rm -rf ${path}`,
    // Found by this test: just-bash's rm stats (follows) its operand first, so `rm -rf` of a
    // dangling link answers "absent" and leaves the link (GNU rm removes it). Not generated.
    runnable: (tree) => parentsPlain(tree, path) && !dangling(tree, path),
    apply: (tree) => new Map([...tree].filter(([key]) => !isUnder(key, path))),
    run: (tools) => bash(tools, `rm -rf ${path}`),
    touches: [path],
    faultable: false,
  };
}

function mvCommand(from: string, to: string): Command {
  return {
    label: `mv ${from} ${to}`,
    [fc.toStringMethod]: () => `mv ${from} ${to}`,
    // As for rm: a dangling or looping link is not generated as mv's source (just-bash's mv
    // follows it first, and fails with ENOENT or ELOOP where GNU mv moves the link).
    runnable: (tree) =>
      tree.has(from) &&
      !dangling(tree, from) &&
      !tree.has(to) &&
      parentsPlain(tree, from) &&
      parentsPlain(tree, to) &&
      parentIsDirectory(tree, to) &&
      !isUnder(to, from),
    apply: (tree) => {
      const next: Tree = new Map();
      for (const [key, entry] of tree) next.set(isUnder(key, from) ? to + key.slice(from.length) : key, entry);
      return next;
    },
    run: (tools) => bash(tools, `mv ${from} ${to}`),
    touches: [from, to],
    faultable: false,
  };
}

function lnCommand(root: string, target: string, path: string): Command {
  return {
    label: `ln -s ${target} ${path}`,
    [fc.toStringMethod]: () => `ln -s ${target} ${path}`,
    runnable: (tree) => !tree.has(path) && parentsPlain(tree, path) && parentIsDirectory(tree, path),
    apply: (tree) => new Map(tree).set(path, { kind: "symlink", target: `${root}/${target}` }),
    run: (tools) => bash(tools, `ln -s ${root}/${target} ${path}`),
    touches: [path],
    faultable: false,
  };
}

/** Two commands at once on disjoint paths: the model applies both (in either order, the same). */
function pairCommand(first: Command, second: Command): Command {
  return {
    label: `together: [${first.label}] and [${second.label}]`,
    [fc.toStringMethod]: () => `together: [${first.label}] and [${second.label}]`,
    runnable: (tree) =>
      first.runnable(tree) &&
      second.runnable(tree) &&
      first.touches.every((a) =>
        second.touches.every((b) => !isUnder(a, b) && !isUnder(b, a) && parentOf(a) !== parentOf(b)),
      ) &&
      // Each alone must succeed, and they must commute.
      first.apply(tree) !== undefined &&
      second.apply(tree) !== undefined,
    apply: (tree) => {
      const one = first.apply(tree);
      return one === undefined ? undefined : second.apply(one);
    },
    run: async (tools) => {
      const [a, b] = await Promise.all([first.run(tools), second.run(tools)]);
      return { ok: a.ok && b.ok, text: `${a.text}\n${b.text}` };
    },
    touches: [...first.touches, ...second.touches],
    faultable: false,
  };
}

function commandArb(root: string, symlinks: boolean): fc.Arbitrary<Command> {
  const single: fc.Arbitrary<Command>[] = [
    fc.tuple(pathArb, textArb).map(([path, text]) => writeCommand(path, text)),
    fc
      .tuple(pathArb, fc.constantFrom(...WORDS), fc.constantFrom(...WORDS))
      .filter(([, oldText, newText]) => oldText !== newText)
      .map(([path, oldText, newText]) => editCommand(path, oldText, newText)),
    fc.tuple(pathArb, textArb, pathArb).map(([add, text, remove]) => patchCommand(add, text, remove)),
    fc.constantFrom(...DIRS).map((path) => mkdirCommand(path)),
    anyPathArb.map((path) => rmCommand(path)),
    fc.tuple(anyPathArb, anyPathArb).map(([from, to]) => mvCommand(from, to)),
  ];
  if (symlinks) single.push(fc.tuple(pathArb, pathArb).map(([target, path]) => lnCommand(root, target, path)));
  const one = fc.oneof(...single);
  return fc.oneof(
    { arbitrary: one, weight: 5 },
    { arbitrary: fc.tuple(one, one).map(([a, b]) => pairCommand(a, b)), weight: 1 },
  );
}

/** The tree under `root` as the backend has it (raw calls: names, bytes, kinds, link targets). */
export async function treeOf(fs: FileSystem, root: string): Promise<Tree> {
  const tree: Tree = new Map();
  const decoder = new TextDecoder();
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const entry of (await fs.readdir(dir)).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = `${dir}/${entry.name}`;
      const key = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      const stat = await fs.lstat(path);
      if (stat.type === "symlink") tree.set(key, { kind: "symlink", target: await fs.readlink!(path) });
      else if (stat.type === "directory") {
        tree.set(key, { kind: "directory" });
        await walk(path, key);
      } else tree.set(key, { kind: "file", text: decoder.decode(await fs.readFile(path)) });
    }
  };
  await walk(root, "");
  return tree;
}

const sorted = (tree: Tree) => Object.fromEntries([...tree].sort(([a], [b]) => (a < b ? -1 : 1)));

/** One fault: fail the `at`-th mutating backend call from arming on, with `code`, or kill the Worker there. */
type Fault =
  | { readonly kind: "error"; at: number; readonly code: "EIO" | "ENOSPC" }
  /** Kill the Worker before the call is sent (`delayMs` 0) or this long after, in milliseconds. */
  | { readonly kind: "dying-worker"; at: number; readonly delayMs: number };

/** A fault plan: the fault armed for the command running, and whether it fired. */
interface Faults {
  armed?: Fault;
  fired: boolean;
  /** Kills the Worker of the instance in use (the `"dying-worker"` fault). */
  kill?: () => void;
}

const MUTATING = ["writeFile", "mkdir", "rm", "rename", "symlink"] as const;

/** `fs` with faults injected at mutating calls, in the backend and its no-follow form alike. */
function faulty(fs: FileSystem, faults: Faults): FileSystem {
  return forwardFileSystem(fs, (target) => {
    const overrides: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const method of MUTATING) {
      const own = target[method] as ((...args: unknown[]) => Promise<unknown>) | undefined;
      if (typeof own !== "function") continue;
      overrides[method] = async (...args) => {
        const armed = faults.armed;
        if (armed !== undefined) {
          armed.at -= 1;
          if (armed.at === 0) {
            faults.armed = undefined;
            faults.fired = true;
            if (armed.kind === "error") {
              throw new FsError(armed.code, { syscall: method, path: String(args[0]), detail: "injected fault" });
            }
            if (armed.delayMs === 0) {
              faults.kill!();
              return own.apply(target, args);
            }
            const call = own.apply(target, args);
            call.catch(() => undefined);
            await new Promise((resolve) => setTimeout(resolve, armed.delayMs));
            faults.kill!();
            return call;
          }
        }
        return own.apply(target, args);
      };
    }
    return overrides as Partial<FileSystem>;
  }) as FileSystem;
}

/**
 * Run the model-based property: `options.runs` sequences of up to 12 commands (a few hundred runs
 * in `npm test`, thousands under `npm run test:soak`).
 *
 * @returns how many steps ran and in how many an injected fault fired (so a test can show the
 *   faults were exercised).
 */
export async function runModel(options: ModelOptions): Promise<{ steps: number; faultsFired: number }> {
  const stats = { steps: 0, faultsFired: 0 };
  const { create, symlinks, faults: withFaults } = options;
  const probe = await create();
  const root = probe.root;
  await probe.cleanup?.();
  const faultArb: fc.Arbitrary<Fault | null> =
    withFaults === "errors"
      ? fc.option(
          fc.record({
            kind: fc.constant("error" as const),
            at: fc.integer({ min: 1, max: 2 }),
            code: fc.constantFrom("EIO" as const, "ENOSPC" as const),
          }),
          { freq: 2 },
        )
      : withFaults === "dying-worker"
        ? fc.option(
            fc.record({
              kind: fc.constant("dying-worker" as const),
              at: fc.integer({ min: 1, max: 2 }),
              delayMs: fc.integer({ min: 0, max: 3 }),
            }),
            { freq: 3 },
          )
        : fc.constant(null);
  const step = fc.record({ command: commandArb(root, symlinks), fault: faultArb });
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
      const place = await create();
      if (withFaults === "dying-worker" && place.worker === undefined) {
        throw new TypeError('runModel: faults "dying-worker" needs a place with a worker');
      }
      const faults: Faults = { fired: false, ...(place.worker === undefined ? {} : { kill: place.worker.kill }) };
      /** The instance in use (a fresh one after its Worker died). */
      let fs = place.fs;
      let tools = createFsTools({ fs: faulty(fs, faults), cwd: place.root });
      let model: Tree = new Map();
      try {
        for (const { command, fault } of steps) {
          if (!command.runnable(model)) continue;
          const after = command.apply(model);
          faults.fired = false;
          faults.armed = fault !== null && command.faultable ? { ...fault } : undefined;
          const result = await command.run(tools);
          faults.armed = undefined;
          const killed = faults.fired && fault?.kind === "dying-worker";
          if (killed) {
            // The instance whose Worker died is done; a fresh one loads what the store kept.
            fs = await place.worker!.reopen();
            tools = createFsTools({ fs: faulty(fs, faults), cwd: place.root });
          }
          const actual = await treeOf(fs, place.root);
          stats.steps += 1;
          if (killed && result.ok) {
            // The call was done before the Worker died: what the tool reported written is kept.
            stats.faultsFired += 1;
            if (after !== undefined) model = after;
            expect({ command: command.label, killed: "after the call", tree: sorted(actual) }).toEqual({
              command: command.label,
              killed: "after the call",
              tree: sorted(model),
            });
            continue;
          }
          if (faults.fired) {
            stats.faultsFired += 1;
            // The tool says it failed, and every path is as before or as after, nothing else.
            expect({ command: command.label, ok: result.ok }).toEqual({ command: command.label, ok: false });
            const expectedAfter = after ?? model;
            for (const path of new Set([...model.keys(), ...expectedAfter.keys(), ...actual.keys()])) {
              const now = actual.get(path);
              const states = [model.get(path), expectedAfter.get(path)];
              expect({
                command: command.label,
                path,
                ok: states.some((state) => sameEntry(state, now)),
              }).toEqual({
                command: command.label,
                path,
                ok: true,
              });
            }
            model = actual;
            continue;
          }
          expect({
            command: command.label,
            ok: result.ok,
            ...(result.ok === (after !== undefined) ? {} : { text: result.text }),
          }).toEqual({
            command: command.label,
            ok: after !== undefined,
          });
          if (after !== undefined) model = after;
          expect({ command: command.label, tree: sorted(actual) }).toEqual({
            command: command.label,
            tree: sorted(model),
          });
        }
      } finally {
        await place.cleanup?.();
      }
    }),
    { numRuns: options.runs, seed: options.seed ?? modelSeed(), endOnFailure: true },
  );
  return stats;
}

function sameEntry(a: Entry | undefined, b: Entry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fast-check seed: `MODEL_SEED` (or `VITE_MODEL_SEED`) when set; a new one per run in a soak
 * run (`MODEL_RUNS` set: explore); otherwise {@link DEFAULT_MODEL_SEED}, so `npm test` runs the
 * same sequences every time (a failure it finds is reproducible, and a run never fails by chance,
 * e.g. on a draw whose sequences inject no fault). A failure prints its seed.
 */
export function modelSeed(): number {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const viteEnv = (import.meta as { env?: Record<string, string> }).env;
  const given = Number(env?.MODEL_SEED ?? viteEnv?.VITE_MODEL_SEED);
  if (Number.isInteger(given)) return given;
  const soak = (env?.MODEL_RUNS ?? viteEnv?.VITE_MODEL_RUNS) !== undefined;
  return soak ? Math.floor(Math.random() * 2 ** 31) : DEFAULT_MODEL_SEED;
}

/** The seed of `npm test`'s model-based runs (see {@link modelSeed}). */
export const DEFAULT_MODEL_SEED = 1;

/** Sequences per property: `MODEL_RUNS` (soak) or the given default. */
export function modelRuns(fallback: number): number {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const fromEnv = Number(env?.MODEL_RUNS ?? (import.meta as { env?: Record<string, string> }).env?.VITE_MODEL_RUNS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : fallback;
}

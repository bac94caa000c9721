/**
 * `runGit`: the `git` command of the just-bash shell, on isomorphic-git over the `node:fs` face
 * of any backend (through the gate when given a gate's `fs`). `git init|add|commit|status|diff|
 * log|checkout|restore|rm`, output in git's own formats for those.
 *
 * @module
 */
import { joinPath, parentPath, resolvePath } from "../../contract/path.js";
import type { FileSystem } from "../../contract/types.js";
import { createNodeFs, type NodeFs } from "../../node-fs/create-node-fs.js";
import {
  formatFileDiff,
  formatGitDate,
  formatShortStat,
  lineCounts,
  shortOid,
  type DiffSide,
  type FileChange,
  formatDiffStat,
} from "./format.js";
import { loadIsomorphicGit, type IsomorphicGit } from "./load.js";

/** Options of {@link runGit}. */
export interface RunGitOptions {
  /** The files (a backend, or a gate's checked `gate.fs`). */
  readonly fs: FileSystem;
  /** The working directory (absolute); the repository is found from here upward, as git does. */
  readonly cwd: string;
  /** The environment: `GIT_AUTHOR_NAME`, `GIT_AUTHOR_EMAIL`, `GIT_AUTHOR_DATE` (and the `GIT_COMMITTER_*` ones). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** What {@link runGit} returns: a command's output and exit code (128 for git's `fatal:` errors, 1 for usage). */
export interface GitOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** The subcommands {@link runGit} knows. */
export const GIT_SUBCOMMANDS = ["init", "add", "rm", "commit", "status", "diff", "log", "checkout", "restore"] as const;

class GitFatal extends Error {
  constructor(
    message: string,
    readonly exitCode = 128,
  ) {
    super(message);
  }
}

type NodeFsClient = Parameters<IsomorphicGit["init"]>[0]["fs"];

interface Context {
  readonly git: IsomorphicGit;
  readonly fs: NodeFsClient;
  readonly nodeFs: NodeFs;
  readonly backend: FileSystem;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cache: object;
}

/** The repository's top directory: the nearest directory from `cwd` up with a `.git` in it. */
async function findRoot(context: Context): Promise<string> {
  for (let at = context.cwd; ; at = parentPath(at)) {
    const found = await context.backend.stat(joinPath(at, ".git")).then(
      () => true,
      () => false,
    );
    if (found) return at;
    if (at === "/") break;
  }
  throw new GitFatal("fatal: not a git repository (or any of the parent directories): .git\n");
}

/** A path argument as a path relative to the repository's top (`.` for the top itself). */
function repoPath(root: string, cwd: string, argument: string): string {
  const absolute = resolvePath(cwd, argument);
  if (absolute === root) return ".";
  if (!absolute.startsWith(`${root}/`))
    throw new GitFatal(`fatal: ${argument}: '${argument}' is outside repository at '${root}'\n`);
  return absolute.slice(root.length + 1);
}

function under(path: string, filters: readonly string[]): boolean {
  return (
    filters.length === 0 || filters.some((filter) => filter === "." || path === filter || path.startsWith(`${filter}/`))
  );
}

/** Who and when, from the environment as git reads it (`GIT_AUTHOR_*`, `GIT_COMMITTER_*`). */
function identity(env: Context["env"], role: "AUTHOR" | "COMMITTER") {
  const name = env[`GIT_${role}_NAME`] ?? env.GIT_AUTHOR_NAME ?? "agent";
  const email = env[`GIT_${role}_EMAIL`] ?? env.GIT_AUTHOR_EMAIL ?? "agent@localhost";
  const date = env[`GIT_${role}_DATE`] ?? env.GIT_AUTHOR_DATE;
  if (date === undefined) return { name, email };
  // "@<seconds> <+hhmm>" (git's internal form) or an ISO date.
  const internal = /^@?(\d+)(?:\s+([+-])(\d\d)(\d\d))?$/.exec(date.trim());
  if (internal !== null) {
    // isomorphic-git's offset has the opposite sign of the zone (`+0100` is -60); `+ 0` avoids a -0 (printed `-0000`).
    const offset =
      internal[2] === undefined
        ? 0
        : (internal[2] === "-" ? 1 : -1) * (Number(internal[3]) * 60 + Number(internal[4])) + 0;
    return { name, email, timestamp: Number(internal[1]), timezoneOffset: offset };
  }
  const parsed = Date.parse(date);
  if (Number.isNaN(parsed)) throw new GitFatal(`fatal: invalid date format: ${date}\n`);
  return { name, email, timestamp: Math.floor(parsed / 1000), timezoneOffset: 0 };
}

/** One path's ids in HEAD, the index and the working tree (undefined where absent). */
interface Entry {
  readonly path: string;
  readonly head?: { oid: string; mode: number };
  readonly stage?: { oid: string; mode: number };
  readonly work?: { oid: string; mode: number };
}

/** Every file in HEAD, the index or the working tree (ignored untracked files left out), sorted by path. */
async function entries(context: Context, root: string, hasHead: boolean): Promise<Entry[]> {
  const { git } = context;
  const trees = [hasHead ? git.TREE({ ref: "HEAD" }) : git.STAGE(), git.STAGE(), git.WORKDIR()];
  const rows = (await git.walk({
    fs: context.fs,
    dir: root,
    cache: context.cache,
    trees,
    map: async (path, walked) => {
      if (path === ".") return undefined;
      const [head, stage, work] = walked as (Awaited<ReturnType<Parameters<IsomorphicGit["walk"]>[0]["map"] & object>> &
        null)[];
      const typeOf = async (entry: typeof head | undefined) =>
        entry == null ? undefined : await (entry as unknown as { type(): Promise<string> }).type();
      const side = async (entry: unknown) => {
        const walker = entry as { type(): Promise<string>; oid(): Promise<string>; mode(): Promise<number> } | null;
        if (walker == null || (await walker.type()) !== "blob") return undefined;
        return { oid: await walker.oid(), mode: await walker.mode() };
      };
      // An untracked directory that is ignored: skip it whole.
      if (stage == null && (head == null || !hasHead) && (await typeOf(work)) === "tree") {
        if (await git.isIgnored({ fs: context.fs, dir: root, filepath: path })) return null;
        return undefined;
      }
      const w = await side(work);
      const s = await side(stage);
      const h = hasHead ? await side(head) : undefined;
      if (w === undefined && s === undefined && h === undefined) return undefined;
      if (s === undefined && h === undefined && (await git.isIgnored({ fs: context.fs, dir: root, filepath: path })))
        return undefined;
      return { path, ...(h ? { head: h } : {}), ...(s ? { stage: s } : {}), ...(w ? { work: w } : {}) } satisfies Entry;
    },
  })) as unknown;
  const flat: Entry[] = [];
  const collect = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value !== undefined && value !== null) flat.push(value as Entry);
  };
  collect(rows);
  return flat.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function hasCommits(context: Context, root: string): Promise<boolean> {
  try {
    await context.git.resolveRef({ fs: context.fs, dir: root, ref: "HEAD" });
    return true;
  } catch {
    return false;
  }
}

async function branchName(context: Context, root: string): Promise<string> {
  return (await context.git.currentBranch({ fs: context.fs, dir: root, fullname: false })) ?? "HEAD";
}

async function blobBytes(context: Context, root: string, oid: string): Promise<Uint8Array> {
  return (await context.git.readBlob({ fs: context.fs, dir: root, oid, cache: context.cache })).blob;
}

async function sideOf(
  context: Context,
  root: string,
  found: { oid: string; mode: number } | undefined,
  workPath?: string,
): Promise<DiffSide | undefined> {
  if (found === undefined) return undefined;
  const bytes =
    workPath !== undefined
      ? ((await context.nodeFs.promises.readFile(joinPath(root, workPath))) as Uint8Array)
      : await blobBytes(context, root, found.oid);
  return { oid: found.oid, mode: found.mode, bytes };
}

// ---- subcommands ----

async function init(context: Context, args: string[]): Promise<string> {
  let branch = "master";
  const rest: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "-b" || arg === "--initial-branch") branch = args[++index] ?? branch;
    else if (arg.startsWith("--initial-branch=")) branch = arg.slice("--initial-branch=".length);
    else if (arg === "-q" || arg === "--quiet") continue;
    else rest.push(arg);
  }
  const dir = rest[0] === undefined ? context.cwd : resolvePath(context.cwd, rest[0]);
  const existed = await context.backend.stat(joinPath(dir, ".git")).then(
    () => true,
    () => false,
  );
  await context.nodeFs.promises.mkdir(dir, { recursive: true });
  await context.git.init({ fs: context.fs, dir, defaultBranch: branch });
  if (args.includes("-q") || args.includes("--quiet")) return "";
  return `${existed ? "Reinitialized existing" : "Initialized empty"} Git repository in ${joinPath(dir, ".git")}/\n`;
}

async function add(context: Context, args: string[]): Promise<string> {
  const root = await findRoot(context);
  const all = args.includes("-A") || args.includes("--all");
  const paths = args.filter((arg) => !arg.startsWith("-"));
  if (paths.length === 0 && !all) {
    throw new GitFatal("Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\n", 0);
  }
  const filters = all && paths.length === 0 ? ["."] : paths.map((path) => repoPath(root, context.cwd, path));
  const rows = await entries(context, root, await hasCommits(context, root));
  let matched = false;
  for (const entry of rows) {
    if (!under(entry.path, filters)) continue;
    matched = true;
    if (entry.work === undefined && entry.stage !== undefined)
      await context.git.remove({ fs: context.fs, dir: root, filepath: entry.path, cache: context.cache });
    else if (entry.work !== undefined && entry.work.oid !== entry.stage?.oid)
      await context.git.add({ fs: context.fs, dir: root, filepath: entry.path, cache: context.cache });
  }
  const missing = filters.find((filter) => filter !== "." && !rows.some((entry) => under(entry.path, [filter])));
  if (missing !== undefined || (!matched && filters.length > 0 && !filters.includes("."))) {
    throw new GitFatal(`fatal: pathspec '${missing ?? filters[0]}' did not match any files\n`);
  }
  return "";
}

async function rm(context: Context, args: string[]): Promise<string> {
  const root = await findRoot(context);
  const cached = args.includes("--cached");
  let out = "";
  for (const arg of args.filter((value) => !value.startsWith("-"))) {
    const path = repoPath(root, context.cwd, arg);
    await context.git.remove({ fs: context.fs, dir: root, filepath: path, cache: context.cache });
    if (!cached) await context.nodeFs.promises.rm(joinPath(root, path), { force: true });
    out += `rm '${path}'\n`;
  }
  return args.includes("-q") || args.includes("--quiet") ? "" : out;
}

async function commit(context: Context, args: string[]): Promise<string> {
  const root = await findRoot(context);
  const messages: string[] = [];
  let all = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "-m" || arg === "--message") messages.push(args[++index] ?? "");
    else if (arg.startsWith("--message=")) messages.push(arg.slice(10));
    else if (arg === "-a" || arg === "--all") all = true;
    else if (arg === "-am") {
      all = true;
      messages.push(args[++index] ?? "");
    } else if (arg === "-q" || arg === "--quiet") continue;
    else throw new GitFatal(`error: unknown option '${arg.replace(/^-+/, "")}'\n`, 129);
  }
  if (messages.length === 0) throw new GitFatal("error: a message is needed: git commit -m <message>\n", 1);
  const headExists = await hasCommits(context, root);
  if (all) {
    for (const entry of await entries(context, root, headExists)) {
      if (entry.stage === undefined) continue;
      if (entry.work === undefined)
        await context.git.remove({ fs: context.fs, dir: root, filepath: entry.path, cache: context.cache });
      else if (entry.work.oid !== entry.stage.oid)
        await context.git.add({ fs: context.fs, dir: root, filepath: entry.path, cache: context.cache });
    }
  }
  const rows = await entries(context, root, headExists);
  const staged = rows.filter((entry) => entry.stage?.oid !== entry.head?.oid || entry.stage?.mode !== entry.head?.mode);
  if (staged.length === 0) {
    return Promise.reject(new GitFatal(await statusText(context, root, rows, headExists, true), 1));
  }
  const message = `${messages.join("\n\n").replace(/\s+$/, "")}\n`;
  const oid = await context.git.commit({
    fs: context.fs,
    dir: root,
    message,
    author: identity(context.env, "AUTHOR"),
    committer: identity(context.env, "COMMITTER"),
    cache: context.cache,
  });
  const branch = await branchName(context, root);
  let added = 0;
  let removed = 0;
  for (const entry of staged) {
    const counts = lineCounts({
      path: entry.path,
      ...(entry.head ? { before: (await sideOf(context, root, entry.head)) as DiffSide } : {}),
      ...(entry.stage ? { after: (await sideOf(context, root, entry.stage)) as DiffSide } : {}),
    });
    added += counts.added;
    removed += counts.removed;
  }
  let out = `[${branch}${headExists ? "" : " (root-commit)"} ${shortOid(oid)}] ${message.split("\n")[0]}\n`;
  out += formatShortStat(staged.length, added, removed);
  for (const entry of staged) {
    if (entry.head === undefined && entry.stage !== undefined)
      out += ` create mode ${entry.stage.mode.toString(8)} ${entry.path}\n`;
    else if (entry.stage === undefined && entry.head !== undefined)
      out += ` delete mode ${entry.head.mode.toString(8)} ${entry.path}\n`;
  }
  return args.includes("-q") || args.includes("--quiet") ? "" : out;
}

/** Untracked paths as git lists them: a directory with nothing tracked in it shows once, as `dir/`. */
function untrackedShown(rows: readonly Entry[]): string[] {
  const tracked = new Set<string>();
  for (const entry of rows) {
    if (entry.stage === undefined && entry.head === undefined) continue;
    for (let at = entry.path; at.includes("/");) {
      at = at.slice(0, at.lastIndexOf("/"));
      tracked.add(at);
    }
  }
  const shown = new Set<string>();
  for (const entry of rows) {
    if (entry.stage !== undefined || entry.work === undefined) continue;
    const names = entry.path.split("/");
    let prefix = "";
    let shownAs = entry.path;
    for (let index = 0; index < names.length - 1; index += 1) {
      prefix = prefix === "" ? (names[index] as string) : `${prefix}/${names[index] as string}`;
      if (!tracked.has(prefix)) {
        shownAs = `${prefix}/`;
        break;
      }
    }
    shown.add(shownAs);
  }
  return [...shown];
}

async function statusText(
  context: Context,
  root: string,
  rows: readonly Entry[],
  headExists: boolean,
  forCommit = false,
): Promise<string> {
  const branch = await branchName(context, root);
  const staged: string[] = [];
  const unstaged: string[] = [];
  for (const entry of rows) {
    if (entry.stage !== undefined && entry.head === undefined) staged.push(`\tnew file:   ${entry.path}\n`);
    else if (entry.stage === undefined && entry.head !== undefined) staged.push(`\tdeleted:    ${entry.path}\n`);
    else if (
      entry.stage !== undefined &&
      entry.head !== undefined &&
      (entry.stage.oid !== entry.head.oid || entry.stage.mode !== entry.head.mode)
    )
      staged.push(`\tmodified:   ${entry.path}\n`);
    if (entry.stage !== undefined && entry.work === undefined) unstaged.push(`\tdeleted:    ${entry.path}\n`);
    else if (
      entry.stage !== undefined &&
      entry.work !== undefined &&
      (entry.work.oid !== entry.stage.oid || entry.work.mode !== entry.stage.mode)
    )
      unstaged.push(`\tmodified:   ${entry.path}\n`);
  }
  const untracked = untrackedShown(rows);
  let out = `On branch ${branch}\n`;
  if (!headExists) out += `\n${forCommit ? "Initial commit" : "No commits yet"}\n\n`;
  if (staged.length > 0) {
    out += `Changes to be committed:\n  (use "git ${headExists ? "restore --staged" : "rm --cached"} <file>..." to unstage)\n${staged.join("")}\n`;
  }
  if (unstaged.length > 0) {
    out +=
      `Changes not staged for commit:\n  (use "git add${unstaged.some((line) => line.includes("deleted:")) ? "/rm" : ""} <file>..." to update what will be committed)\n` +
      `  (use "git restore <file>..." to discard changes in working directory)\n${unstaged.join("")}\n`;
  }
  if (untracked.length > 0) {
    out += `Untracked files:\n  (use "git add <file>..." to include in what will be committed)\n${untracked.map((path) => `\t${path}\n`).join("")}\n`;
  }
  if (staged.length > 0) return out;
  if (unstaged.length > 0) return `${out}no changes added to commit (use "git add" and/or "git commit -a")\n`;
  if (untracked.length > 0)
    return `${out}nothing added to commit but untracked files present (use "git add" to track)\n`;
  if (!headExists) return `${out}nothing to commit (create/copy files and use "git add" to track)\n`;
  return `${out}nothing to commit, working tree clean\n`;
}

async function status(context: Context, args: string[]): Promise<string> {
  const root = await findRoot(context);
  const headExists = await hasCommits(context, root);
  const rows = await entries(context, root, headExists);
  if (args.includes("-s") || args.includes("--short") || args.includes("--porcelain")) {
    let out = "";
    for (const entry of rows) {
      if (entry.stage === undefined && entry.head === undefined) continue;
      const x =
        entry.head === undefined
          ? "A"
          : entry.stage === undefined
            ? "D"
            : entry.stage.oid !== entry.head.oid || entry.stage.mode !== entry.head.mode
              ? "M"
              : " ";
      const y =
        entry.stage === undefined
          ? " "
          : entry.work === undefined
            ? "D"
            : entry.work.oid !== entry.stage.oid || entry.work.mode !== entry.stage.mode
              ? "M"
              : " ";
      if (x !== " " || y !== " ") out += `${x}${y} ${entry.path}\n`;
    }
    for (const path of untrackedShown(rows)) out += `?? ${path}\n`;
    return out;
  }
  return statusText(context, root, rows, headExists);
}

async function diff(context: Context, args: string[]): Promise<string> {
  const root = await findRoot(context);
  const separator = args.indexOf("--");
  const options = separator < 0 ? args : args.slice(0, separator);
  const cached = options.includes("--cached") || options.includes("--staged");
  const positional = options.filter((arg) => !arg.startsWith("-"));
  const refs: string[] = [];
  const filters: string[] =
    separator < 0 ? [] : args.slice(separator + 1).map((path) => repoPath(root, context.cwd, path));
  for (const arg of positional) {
    if (filters.length === 0 && refs.length < 2) {
      try {
        refs.push(await resolveRevision(context, root, arg));
        continue;
      } catch {
        // not a revision: a path
      }
    }
    filters.push(repoPath(root, context.cwd, arg));
  }
  const changes: FileChange[] = [];
  if (refs.length === 2) {
    // Between two commits.
    const trees = [context.git.TREE({ ref: refs[0] as string }), context.git.TREE({ ref: refs[1] as string })];
    const rows = (await context.git.walk({
      fs: context.fs,
      dir: root,
      cache: context.cache,
      trees,
      map: async (path, walked) => {
        const side = async (entry: unknown) => {
          const walker = entry as { type(): Promise<string>; oid(): Promise<string>; mode(): Promise<number> } | null;
          if (walker == null || (await walker.type()) !== "blob") return undefined;
          return { oid: await walker.oid(), mode: await walker.mode() };
        };
        if (path === ".") return undefined;
        const [a, b] = await Promise.all(walked.map(side));
        if (a === undefined && b === undefined) return undefined;
        return { path, a, b };
      },
    })) as unknown;
    const flat: { path: string; a?: { oid: string; mode: number }; b?: { oid: string; mode: number } }[] = [];
    const collect = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value != null) flat.push(value as (typeof flat)[number]);
    };
    collect(rows);
    for (const row of flat.sort((x, y) => (x.path < y.path ? -1 : 1))) {
      if (!under(row.path, filters) || (row.a?.oid === row.b?.oid && row.a?.mode === row.b?.mode)) continue;
      const before = await sideOf(context, root, row.a);
      const after = await sideOf(context, root, row.b);
      changes.push({ path: row.path, ...(before ? { before } : {}), ...(after ? { after } : {}) });
    }
  } else {
    const headExists = await hasCommits(context, root);
    const rows = await entries(context, root, headExists);
    const headOid = refs[0];
    for (const entry of rows) {
      if (!under(entry.path, filters)) continue;
      if (headOid !== undefined) {
        // git diff <commit>: that commit's tree against the working tree (tracked files).
        const base =
          headOid === (headExists ? await context.git.resolveRef({ fs: context.fs, dir: root, ref: "HEAD" }) : "")
            ? entry.head
            : await treeEntry(context, root, headOid, entry.path);
        if (entry.stage === undefined && base === undefined) continue;
        if (base?.oid === entry.work?.oid && base?.mode === entry.work?.mode) continue;
        const before = await sideOf(context, root, base);
        const after = await sideOf(context, root, entry.work, entry.work === undefined ? undefined : entry.path);
        changes.push({ path: entry.path, ...(before ? { before } : {}), ...(after ? { after } : {}) });
      } else if (cached) {
        if (entry.stage?.oid === entry.head?.oid && entry.stage?.mode === entry.head?.mode) continue;
        const before = await sideOf(context, root, entry.head);
        const after = await sideOf(context, root, entry.stage);
        changes.push({ path: entry.path, ...(before ? { before } : {}), ...(after ? { after } : {}) });
      } else {
        if (entry.stage === undefined) continue;
        if (entry.work?.oid === entry.stage.oid && entry.work?.mode === entry.stage.mode) continue;
        const before = await sideOf(context, root, entry.stage);
        const after = await sideOf(context, root, entry.work, entry.work === undefined ? undefined : entry.path);
        changes.push({ path: entry.path, ...(before ? { before } : {}), ...(after ? { after } : {}) });
      }
    }
  }
  if (options.includes("--stat")) return formatDiffStat(changes);
  if (options.includes("--name-only")) {
    return changes.map((change) => `${change.path}\n`).join("");
  }
  return changes.map(formatFileDiff).join("");
}

/**
 * A revision as git reads it: a branch or ref name, `HEAD`, a full or abbreviated object id,
 * each optionally followed by `~N`, `^` or `^N` steps to parents.
 *
 * @throws Error when it names no commit.
 */
async function resolveRevision(context: Context, root: string, revision: string): Promise<string> {
  const match = /^(.*?)((?:[~^]\d*)*)$/.exec(revision);
  const base = match?.[1] ?? revision;
  let oid: string;
  try {
    oid = await context.git.resolveRef({ fs: context.fs, dir: root, ref: base });
  } catch {
    if (!/^[0-9a-f]{4,40}$/.test(base)) throw new Error(`unknown revision ${revision}`);
    oid = await context.git.expandOid({ fs: context.fs, dir: root, oid: base });
  }
  for (const step of (match?.[2] ?? "").match(/[~^]\d*/g) ?? []) {
    const count = step.length === 1 ? 1 : Number(step.slice(1));
    if (step.startsWith("~")) {
      for (let index = 0; index < count; index += 1) {
        const parent = (await context.git.readCommit({ fs: context.fs, dir: root, oid, cache: context.cache })).commit
          .parent[0];
        if (parent === undefined) throw new Error(`unknown revision ${revision}`);
        oid = parent;
      }
    } else {
      const parent = (await context.git.readCommit({ fs: context.fs, dir: root, oid, cache: context.cache })).commit
        .parent[count - 1];
      if (parent === undefined) throw new Error(`unknown revision ${revision}`);
      oid = parent;
    }
  }
  return oid;
}

async function treeEntry(
  context: Context,
  root: string,
  commitOid: string,
  path: string,
): Promise<{ oid: string; mode: number } | undefined> {
  try {
    const { oid } = await context.git.readBlob({
      fs: context.fs,
      dir: root,
      oid: commitOid,
      filepath: path,
      cache: context.cache,
    });
    return { oid, mode: 0o100644 };
  } catch {
    return undefined;
  }
}

async function log(context: Context, args: string[]): Promise<string> {
  const root = await findRoot(context);
  let oneline = false;
  let depth: number | undefined;
  let ref = "HEAD";
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "--oneline") oneline = true;
    else if (arg === "-n" || arg === "--max-count") depth = Number(args[++index]);
    else if (/^-\d+$/.test(arg)) depth = Number(arg.slice(1));
    else if (arg.startsWith("--max-count=")) depth = Number(arg.slice(12));
    else if (arg === "--no-decorate" || arg === "--no-color") continue;
    else if (!arg.startsWith("-")) ref = arg;
    else throw new GitFatal(`fatal: unrecognized argument: ${arg}\n`);
  }
  if (!(await hasCommits(context, root))) {
    throw new GitFatal(
      `fatal: your current branch '${await branchName(context, root)}' does not have any commits yet\n`,
    );
  }
  if (ref !== "HEAD") ref = await resolveRevision(context, root, ref);
  const commits = await context.git.log({
    fs: context.fs,
    dir: root,
    ref,
    ...(depth === undefined ? {} : { depth }),
    cache: context.cache,
  });
  if (oneline)
    return commits.map((entry) => `${shortOid(entry.oid)} ${entry.commit.message.split("\n")[0]}\n`).join("");
  return commits
    .map((entry, index) => {
      const { author, message } = entry.commit;
      const body = message
        .replace(/\n+$/, "")
        .split("\n")
        .map((line) => (line === "" ? "" : `    ${line}`))
        .join("\n");
      return `${index === 0 ? "" : "\n"}commit ${entry.oid}\nAuthor: ${author.name} <${author.email}>\nDate:   ${formatGitDate(author.timestamp, author.timezoneOffset)}\n\n${body}\n`;
    })
    .join("");
}

async function checkout(
  context: Context,
  args: string[],
  restore: boolean,
): Promise<{ stdout: string; stderr: string }> {
  const root = await findRoot(context);
  const separator = args.indexOf("--");
  const staged = restore && (args.includes("--staged") || args.includes("-S"));
  const positional = (separator < 0 ? args : args.filter((_, index) => index !== separator)).filter(
    (arg) => !arg.startsWith("-"),
  );
  const paths =
    separator < 0 && !restore && positional.length === 1 ? await branchOrPaths(context, root, positional) : positional;
  if (paths === "branch") {
    await context.git.checkout({ fs: context.fs, dir: root, ref: positional[0] as string, cache: context.cache });
    return { stdout: "", stderr: `Switched to branch '${positional[0] as string}'\n` };
  }
  const filepaths = paths.map((path) => repoPath(root, context.cwd, path));
  if (staged) {
    for (const filepath of filepaths)
      await context.git.resetIndex({ fs: context.fs, dir: root, filepath, cache: context.cache });
    return { stdout: "", stderr: "" };
  }
  // From the index, as git does: the file as it was last added.
  let count = 0;
  for (const entry of await entries(context, root, await hasCommits(context, root))) {
    if (!under(entry.path, filepaths) || entry.stage === undefined) continue;
    if (entry.work?.oid === entry.stage.oid) {
      count += 1;
      continue;
    }
    const bytes = await blobBytes(context, root, entry.stage.oid);
    await context.nodeFs.promises.mkdir(parentPath(joinPath(root, entry.path)), { recursive: true });
    await context.nodeFs.promises.writeFile(joinPath(root, entry.path), bytes);
    count += 1;
  }
  if (count === 0)
    throw new GitFatal(`error: pathspec '${filepaths[0] ?? ""}' did not match any file(s) known to git\n`, 1);
  return { stdout: "", stderr: restore ? "" : `Updated ${count} path${count === 1 ? "" : "s"} from the index\n` };
}

async function branchOrPaths(context: Context, root: string, positional: string[]): Promise<string[] | "branch"> {
  const branches = await context.git.listBranches({ fs: context.fs, dir: root });
  return branches.includes(positional[0] as string) ? "branch" : positional;
}

const USAGE = `usage: git <command> [<args>]\n\nThe commands of this git (isomorphic-git over the workspace): ${GIT_SUBCOMMANDS.join(", ")}\n`;

/**
 * Runs one `git` command line (already split into words) over `fs`: `init [-b <branch>]`,
 * `add <paths>|.|-A`, `rm [-q] [--cached] <paths>`, `commit -m <msg> [-a]`, `status [-s]`,
 * `diff [--cached] [--stat|--name-only] [<commit> [<commit>]] [-- <paths>]`, `log [--oneline] [-n N]`,
 * `checkout [--] <paths>` or `checkout <branch>`, `restore [--staged] <paths>`. Output is git's
 * own text for those. isomorphic-git is loaded on the first call.
 *
 * What differs from git: paths print relative to the repository's top, not to the working
 * directory; no pager, no colour, no hooks, no config files read (the identity comes from
 * `GIT_AUTHOR_*`/`GIT_COMMITTER_*`, default `agent <agent@localhost>`); `diff` compares whole files
 * with jsdiff (hunks can differ from git's on large rearrangements).
 *
 * @param args - the words after `git`.
 * @param options - the files, the working directory and the environment.
 * @returns stdout, stderr and the exit code (0; 1 for usage errors; 128 for `fatal:` errors,
 *   which are on stderr). A file the gate refuses ends the command with `fatal:` and the reason.
 * @example
 * ```ts
 * const fs = memoryFileSystem({ files: { "/w/a.txt": "hi\n" } });
 * await runGit(["init"], { fs, cwd: "/w" });
 * await runGit(["add", "."], { fs, cwd: "/w" });
 * (await runGit(["status", "-s"], { fs, cwd: "/w" })).stdout; // "A  a.txt\n"
 * ```
 */
export async function runGit(args: readonly string[], options: RunGitOptions): Promise<GitOutput> {
  const words = args.filter((arg) => arg !== "--no-pager");
  const [subcommand, ...rest] = words;
  if (subcommand === undefined || subcommand === "help" || subcommand === "--help")
    return { stdout: USAGE, stderr: "", exitCode: subcommand === undefined ? 1 : 0 };
  if (!(GIT_SUBCOMMANDS as readonly string[]).includes(subcommand)) {
    return {
      stdout: "",
      stderr: `git: '${subcommand}' is not a git command here (this git knows: ${GIT_SUBCOMMANDS.join(", ")})\n`,
      exitCode: 1,
    };
  }
  const git = await loadIsomorphicGit();
  const nodeFs = createNodeFs(options.fs, { cwd: options.cwd });
  const context: Context = {
    git,
    fs: nodeFs as unknown as NodeFsClient,
    nodeFs,
    backend: options.fs,
    cwd: options.cwd,
    env: options.env ?? {},
    cache: {},
  };
  try {
    switch (subcommand) {
      case "init":
        return { stdout: await init(context, rest), stderr: "", exitCode: 0 };
      case "add":
        return { stdout: await add(context, rest), stderr: "", exitCode: 0 };
      case "rm":
        return { stdout: await rm(context, rest), stderr: "", exitCode: 0 };
      case "commit":
        return { stdout: await commit(context, rest), stderr: "", exitCode: 0 };
      case "status":
        return { stdout: await status(context, rest), stderr: "", exitCode: 0 };
      case "diff":
        return { stdout: await diff(context, rest), stderr: "", exitCode: 0 };
      case "log":
        return { stdout: await log(context, rest), stderr: "", exitCode: 0 };
      default: {
        const out = await checkout(context, rest, subcommand === "restore");
        return { ...out, exitCode: 0 };
      }
    }
  } catch (error) {
    if (error instanceof GitFatal) {
      // A failed commit prints the status on stdout, as git does.
      if (subcommand === "commit" && error.exitCode === 1 && error.message.startsWith("On branch"))
        return { stdout: error.message, stderr: "", exitCode: 1 };
      return { stdout: "", stderr: error.message, exitCode: error.exitCode };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { stdout: "", stderr: `fatal: ${message}\n`, exitCode: 128 };
  }
}

/**
 * The attack corpus: a table of paths a model (or bash, or host code) might use to get out of
 * the workspace, and legal names that must keep working. Run through any target with
 * `runSecurityCorpus` (./corpus.ts).
 *
 * Fixture (namespace paths; the workspace root and cwd is `/w`):
 * - `/w/a.txt` "inside-a", `/w/sub/b.txt` "inside-b", `/w/data` "data-plain", `/w/data ` "data-space"
 * - `/w-evil/secret.txt` "EVIL-SECRET", `/w-evil/EVIL-ONLY-NAME.txt` "EVIL-SECRET-2" (the `/w` vs `/w-evil` prefix trap)
 * - `/outside/secret.txt` "OUTSIDE-SECRET", `/outside/OUTSIDE-ONLY-NAME.txt` "OUTSIDE-SECRET-2"
 * - `/W/a.txt` "CASE-SECRET" (a case variant of the root, outside it)
 * - symlinks (when the backend has them): `/w/leaf` → `/outside/secret.txt`, `/w/dir-link` →
 *   `/outside`, `/w/rel-link` → `../outside`, `/w/dangling` → `/outside/new.txt`,
 *   `/w/dangling-dir` → `/outside/newdir`, `/w/loop-a` ↔ `/w/loop-b`, `/w/self` → `/w/self`,
 *   `/w/inside-link` → `/w/a.txt` (legal).
 * - per row: `files` and `links` of its own (deep directories; the race file `/w/race/secret.txt`).
 *
 * Two classes go beyond a static tree:
 * - race: a name of the path is swapped for a link to outside between the gate's check and the
 *   backend's use (see {@link RACE_SWAPS}); the runner swaps after each backend call of the
 *   attempt in turn (after the 1st, then the 2nd...), until the attempt ends before the swap.
 * - deep-path: 200 and 2,000 names, missing and present, odd legal names, `..` out of and back
 *   into a deep path, and a link to outside at depth 200 and 1,000.
 */
import type { FileSystem } from "../../src/contract/types.js";
import type { ToolErrorCode } from "../../src/contract/errors.js";

/** The workspace root (and cwd) of the fixture. */
export const WORKSPACE_ROOT = "/w";

/** Strings that must never appear in what a target returns, nor be written over. */
export const SENTINELS = [
  "OUTSIDE-SECRET",
  "EVIL-SECRET",
  "CASE-SECRET",
  "OUTSIDE-ONLY-NAME",
  "EVIL-ONLY-NAME",
] as const;

/** Files of the fixture (path → text). */
export const FIXTURE_FILES: Readonly<Record<string, string>> = Object.freeze({
  "/w/a.txt": "inside-a",
  "/w/sub/b.txt": "inside-b",
  "/w/data": "data-plain",
  "/w/data ": "data-space",
  "/w-evil/secret.txt": "EVIL-SECRET",
  "/w-evil/EVIL-ONLY-NAME.txt": "EVIL-SECRET-2",
  "/outside/secret.txt": "OUTSIDE-SECRET",
  "/outside/OUTSIDE-ONLY-NAME.txt": "OUTSIDE-SECRET-2",
  "/W/a.txt": "CASE-SECRET",
});

/** Symlinks of the fixture (link path → target), written when the backend declares `symlink`. */
export const FIXTURE_LINKS: Readonly<Record<string, string>> = Object.freeze({
  "/w/leaf": "/outside/secret.txt",
  "/w/dir-link": "/outside",
  "/w/rel-link": "../outside",
  "/w/dangling": "/outside/new.txt",
  "/w/dangling-dir": "/outside/newdir",
  "/w/loop-a": "/w/loop-b",
  "/w/loop-b": "/w/loop-a",
  "/w/self": "/w/self",
  "/w/inside-link": "/w/a.txt",
});

/** What a target must do with an attack. */
export type AttackExpectation =
  /** Refused: the call fails with a clear error; nothing outside is read, listed or changed. */
  | "denied"
  /** The path lands inside the workspace (a literal odd name): success or not-found are both fine; nothing outside is touched. */
  | "contained"
  /** A legal name: the call succeeds (reads return `content`). */
  | "allowed"
  /** Inside the workspace but absent: the call fails (the gate's code: ENOENT); nothing outside is touched. */
  | "missing"
  /**
   * A race row: swapped before the attempt, the call is refused; swapped after any of its
   * backend calls, it may succeed inside or fail, and nothing outside is read or changed; with
   * no swap (the attempt ended first), a read or list succeeds with the inside `content`/`names`.
   */
  | "raced";

export type AttackAccess = "read" | "write" | "list";

/** One row of the corpus. */
export interface Attack {
  /** Unique, stable: targets may name rows they cannot express. */
  readonly name: string;
  readonly family:
    | "dot-dot"
    | "absolute"
    | "prefix"
    | "symlink-leaf"
    | "symlink-dir"
    | "symlink-loop"
    | "nul"
    | "backslash"
    | "spaces-quotes"
    | "case"
    | "percent"
    | "long"
    | "legal"
    | "unicode"
    | "race"
    | "deep-path";
  readonly access: AttackAccess;
  /** The path as the caller gives it (relative to `/w`, or absolute). */
  readonly path: string;
  readonly expect: AttackExpectation;
  /** The gate's code for a denied row (`gate.check`); other targets word refusals their own way. */
  readonly gateCode?: ToolErrorCode;
  /** For allowed reads: the exact text read. For writes: the text written (default `PWNED`). */
  readonly content?: string;
  /** For allowed lists: names that must be listed. */
  readonly names?: readonly string[];
  /** The row needs symlinks in the fixture. */
  readonly needs?: "symlink";
  /** Files the row adds to the fixture (path relative to `/w` → text). */
  readonly files?: Readonly<Record<string, string>>;
  /** Links the row adds to the fixture (path relative to `/w` → target), on backends with symlinks. */
  readonly links?: Readonly<Record<string, string>>;
  /** For race rows: which name is swapped for a link to outside (see {@link RACE_SWAPS}). */
  readonly race?: RaceSwap;
  /**
   * For backslash rows: what a target that takes a backslash as a name byte (never a separator:
   * the Node backend on a POSIX host, `backslashNames`) must do instead. Default `contained`.
   */
  readonly asNames?: { readonly expect: AttackExpectation; readonly gateCode?: ToolErrorCode };
}

/** What a race row swaps: the file itself, or the directory holding it. */
export type RaceSwap = "leaf" | "parent";

/**
 * The swaps of the race rows, in namespace paths: `path` is renamed to `aside` and a link to
 * `target` (outside) is made at `path`. Undone by removing both and writing the row's files again.
 */
export const RACE_SWAPS: Readonly<Record<RaceSwap, { path: string; aside: string; target: string }>> = Object.freeze({
  leaf: { path: "/w/race/secret.txt", aside: "/w/race/secret.real", target: "/outside/secret.txt" },
  parent: { path: "/w/race", aside: "/w/race.real", target: "/outside" },
});

/** The race rows' own file, inside; its outside twin is `/outside/secret.txt` ("OUTSIDE-SECRET"). */
export const RACE_FILE_TEXT = "inside-race";

const LONG_NAME = "n".repeat(300);
const LONG_PATH = `${"deep/".repeat(900)}x.txt`;
const DOTS_TO_OUTSIDE = `${"../".repeat(1000)}outside/secret.txt`;

function each(
  family: Attack["family"],
  base: Omit<Attack, "access" | "name" | "family">,
  name: string,
  accesses: readonly AttackAccess[] = ["read", "write", "list"],
): Attack[] {
  return accesses.map((access) => ({ ...base, family, access, name: `${family}: ${name} (${access})` }));
}

/** `count` names joined by `/` (`name(index)` gives each one). */
function names(count: number, name: (index: number) => string): string {
  return Array.from({ length: count }, (_, index) => name(index)).join("/");
}

/** Odd but legal names, cycled through a deep path (every backend stores them as given). */
const ODD_NAMES = [
  "...",
  "..x",
  "a b",
  "-rf",
  "%2e%2e",
  "\u00e9",
  "\uff0e\uff0e",
  "x ",
  "'q'",
  '"dq"',
  "$HOME",
  "*",
  "~",
  "#",
  "\u65e5\u672c",
];
const D200 = names(200, () => "d");
const D1000 = names(1000, () => "d");
const D2000 = names(2000, () => "d");
const M200 = names(200, () => "m");
const M2000 = names(2000, () => "m");
const ODD200 = names(200, (index) => ODD_NAMES[index % ODD_NAMES.length] as string);
const RACE_FILES = { "race/secret.txt": RACE_FILE_TEXT } as const;
const RACE_DEEP = `race/${D200}`;

/** The table. */
export const ATTACKS: readonly Attack[] = [
  // `..` chains.
  ...each("dot-dot", { path: "../outside/secret.txt", expect: "denied", gateCode: "EDENIED" }, "../outside/secret.txt"),
  ...each("dot-dot", { path: "../../../../../outside/secret.txt", expect: "denied", gateCode: "EDENIED" }, "many ../"),
  ...each(
    "dot-dot",
    { path: "sub/../../outside/secret.txt", expect: "denied", gateCode: "EDENIED" },
    "sub/../../outside",
  ),
  ...each(
    "dot-dot",
    { path: "sub/../../w/../outside/secret.txt", expect: "denied", gateCode: "EDENIED" },
    "in and out again",
  ),
  ...each("dot-dot", { path: "..", expect: "denied", gateCode: "EDENIED" }, "bare .."),
  ...each("dot-dot", { path: DOTS_TO_OUTSIDE, expect: "denied", gateCode: "EDENIED" }, "1000 × ../"),
  ...each(
    "dot-dot",
    { path: "sub/../a.txt", expect: "allowed", content: "inside-a", names: ["a.txt"] },
    "sub/../a.txt stays inside",
    ["read"],
  ),
  // Absolute paths.
  ...each("absolute", { path: "/outside/secret.txt", expect: "denied", gateCode: "EDENIED" }, "/outside/secret.txt"),
  ...each("absolute", { path: "/", expect: "denied", gateCode: "EDENIED" }, "/"),
  ...each("absolute", { path: "//outside/secret.txt", expect: "denied", gateCode: "EDENIED" }, "//outside"),
  ...each("absolute", { path: "/w/../outside/secret.txt", expect: "denied", gateCode: "EDENIED" }, "/w/../outside"),
  ...each("absolute", { path: "/w/a.txt", expect: "allowed", content: "inside-a" }, "/w/a.txt inside", ["read"]),
  // The /w vs /w-evil prefix.
  ...each("prefix", { path: "/w-evil/secret.txt", expect: "denied", gateCode: "EDENIED" }, "/w-evil file"),
  ...each("prefix", { path: "/w-evil", expect: "denied", gateCode: "EDENIED" }, "/w-evil directory"),
  ...each("prefix", { path: "../w-evil/secret.txt", expect: "denied", gateCode: "EDENIED" }, "../w-evil"),
  ...each("prefix", { path: "/w/../w-evil/secret.txt", expect: "denied", gateCode: "EDENIED" }, "/w/../w-evil"),
  // Symlink leaf to outside.
  ...each(
    "symlink-leaf",
    { path: "leaf", expect: "denied", gateCode: "EDENIED", needs: "symlink" },
    "leaf → /outside/secret.txt",
  ),
  ...each(
    "symlink-leaf",
    { path: "dangling", expect: "denied", gateCode: "EDENIED", needs: "symlink" },
    "dangling → /outside/new.txt",
    ["read", "write"],
  ),
  ...each(
    "symlink-leaf",
    { path: "inside-link", expect: "allowed", content: "inside-a", needs: "symlink" },
    "inside-link → /w/a.txt",
    ["read"],
  ),
  // Symlink as an intermediate directory.
  ...each(
    "symlink-dir",
    { path: "dir-link/secret.txt", expect: "denied", gateCode: "EDENIED", needs: "symlink" },
    "dir-link/secret.txt",
  ),
  ...each("symlink-dir", { path: "dir-link", expect: "denied", gateCode: "EDENIED", needs: "symlink" }, "dir-link", [
    "list",
  ]),
  ...each(
    "symlink-dir",
    { path: "rel-link/secret.txt", expect: "denied", gateCode: "EDENIED", needs: "symlink" },
    "rel-link (relative target)",
  ),
  ...each(
    "symlink-dir",
    { path: "dir-link/../a.txt", expect: "allowed", content: "inside-a", needs: "symlink" },
    "dir-link/.. is lexical",
    ["read"],
  ),
  ...each(
    "symlink-dir",
    { path: "dangling-dir/new.txt", expect: "denied", gateCode: "EDENIED", needs: "symlink" },
    "dangling-dir/new.txt",
    ["write"],
  ),
  // Symlink loops.
  ...each("symlink-loop", { path: "loop-a", expect: "denied", gateCode: "ELOOP", needs: "symlink" }, "loop-a ↔ loop-b"),
  ...each(
    "symlink-loop",
    { path: "loop-a/x.txt", expect: "denied", gateCode: "ELOOP", needs: "symlink" },
    "below a loop",
  ),
  ...each("symlink-loop", { path: "self", expect: "denied", gateCode: "ELOOP", needs: "symlink" }, "self → self"),
  // NUL bytes.
  ...each("nul", { path: "a.txt\0.png", expect: "denied", gateCode: "EINVAL" }, "a.txt\\0.png"),
  ...each("nul", { path: "../outside/secret.txt\0", expect: "denied", gateCode: "EINVAL" }, "trailing NUL"),
  ...each("nul", { path: "\0", expect: "denied", gateCode: "EINVAL" }, "only NUL"),
  // Backslashes.
  ...each("backslash", { path: "..\\outside\\secret.txt", expect: "denied", gateCode: "EINVAL" }, "..\\outside"),
  ...each("backslash", { path: "sub\\b.txt", expect: "denied", gateCode: "EINVAL" }, "sub\\b.txt"),
  ...each("backslash", { path: "\\outside\\secret.txt", expect: "denied", gateCode: "EINVAL" }, "\\outside"),
  ...each("backslash", { path: "..\\..\\etc\\passwd", expect: "denied", gateCode: "EINVAL" }, "..\\..\\etc\\passwd"),
  ...each(
    "backslash",
    { path: "a\\..\\..\\outside\\secret.txt", expect: "denied", gateCode: "EINVAL" },
    "a\\..\\..\\outside",
  ),
  ...each(
    "backslash",
    { path: "sub/..\\..\\outside\\secret.txt", expect: "denied", gateCode: "EINVAL" },
    "sub/..\\..\\outside (mixed)",
  ),
  ...each(
    "backslash",
    { path: "..\\/outside/secret.txt", expect: "denied", gateCode: "EINVAL" },
    "..\\/outside (mixed)",
  ),
  ...each(
    "backslash",
    { path: "/w/..\\outside\\secret.txt", expect: "denied", gateCode: "EINVAL" },
    "/w/..\\outside absolute",
  ),
  // Where `..` is still a name of its own, the lexical `..` applies: out, whatever the backslashes.
  ...each(
    "backslash",
    {
      path: "a\\../../../outside/secret.txt",
      expect: "denied",
      gateCode: "EINVAL",
      asNames: { expect: "denied", gateCode: "EDENIED" },
    },
    "a\\../../../outside (mixed: `a\\..` is one name, the two `..` lead out)",
  ),
  ...each(
    "backslash",
    {
      path: "/w\\..\\outside/secret.txt",
      expect: "denied",
      gateCode: "EINVAL",
      asNames: { expect: "denied", gateCode: "EDENIED" },
    },
    "/w\\..\\outside/ is a name at /",
  ),
  // Trailing spaces and quotes: literal names, distinct from the bare name.
  ...each("spaces-quotes", { path: "data ", expect: "allowed", content: "data-space" }, "`data ` is not `data`", [
    "read",
  ]),
  ...each("spaces-quotes", { path: "data", expect: "allowed", content: "data-plain" }, "`data` is not `data `", [
    "read",
  ]),
  ...each("spaces-quotes", { path: '"../outside/secret.txt"', expect: "contained" }, "double-quoted ../"),
  ...each("spaces-quotes", { path: "'../outside/secret.txt'", expect: "contained" }, "single-quoted ../"),
  ...each(
    "spaces-quotes",
    { path: "../outside/secret.txt ", expect: "denied", gateCode: "EDENIED" },
    "trailing space after ../",
  ),
  ...each("spaces-quotes", { path: " ../outside/secret.txt", expect: "contained" }, "leading space before ../"),
  // Case variants (case-sensitive namespaces: /W is not /w).
  ...each("case", { path: "/W/a.txt", expect: "denied", gateCode: "EDENIED" }, "/W/a.txt"),
  ...each("case", { path: "../W/a.txt", expect: "denied", gateCode: "EDENIED" }, "../W/a.txt"),
  ...each("case", { path: "A.TXT", expect: "contained" }, "A.TXT inside"),
  // Percent-encoded dots and slashes are literal names.
  ...each("percent", { path: "%2e%2e/outside/secret.txt", expect: "contained" }, "%2e%2e/"),
  ...each("percent", { path: "%2e%2e%2foutside%2fsecret.txt", expect: "contained" }, "%2e%2e%2f"),
  ...each("percent", { path: "..%2foutside%2fsecret.txt", expect: "contained" }, "..%2f"),
  ...each("percent", { path: "%252e%252e/outside/secret.txt", expect: "contained" }, "double-encoded"),
  // Very long paths.
  ...each("long", { path: LONG_NAME, expect: "denied", gateCode: "ENAMETOOLONG" }, "a 300-byte name"),
  ...each("long", { path: LONG_PATH, expect: "denied", gateCode: "ENAMETOOLONG" }, "a 4505-byte path"),
  // Legal names that look odd.
  ...each("legal", { path: "report..final.md", expect: "allowed", content: "report" }, "report..final.md", [
    "write",
    "read",
  ]),
  ...each("legal", { path: "...", expect: "allowed", content: "three dots" }, "...", ["write", "read"]),
  ...each("legal", { path: "..hidden", expect: "allowed", content: "dotdot prefix" }, "..hidden", ["write", "read"]),
  ...each("legal", { path: "my file.txt", expect: "allowed", content: "spaces" }, "my file.txt", ["write", "read"]),
  ...each("legal", { path: "-rf", expect: "allowed", content: "dash" }, "-rf", ["write", "read"]),
  ...each("legal", { path: "sub", expect: "allowed", names: ["b.txt"] }, "sub", ["list"]),
  ...each("legal", { path: ".", expect: "allowed", names: ["a.txt", "data", "data ", "sub"] }, ".", ["list"]),
  // Unicode look-alikes of dots and slashes are literal names.
  ...each("unicode", { path: "\uff0e\uff0e/outside/secret.txt", expect: "contained" }, "fullwidth dots ．．"),
  ...each("unicode", { path: "\u2024\u2024/outside/secret.txt", expect: "contained" }, "one-dot leaders ․․"),
  ...each("unicode", { path: "..\u2215outside\u2215secret.txt", expect: "contained" }, "division slash ∕"),
  ...each("unicode", { path: "..\uff0foutside\uff0fsecret.txt", expect: "contained" }, "fullwidth solidus ／"),
  ...each(
    "unicode",
    { path: "/\u0077-evil/secret.txt", expect: "denied", gateCode: "EDENIED" },
    "plain w-evil spelled with an escape",
  ),
  ...each("unicode", { path: "/\u0461/a.txt", expect: "denied", gateCode: "EDENIED" }, "Cyrillic omega ѡ for w"),
  ...each("unicode", { path: "../\uff57/a.txt", expect: "denied", gateCode: "EDENIED" }, "fullwidth ｗ root"),
  // Races: a name swapped for a link to outside between the check and the use.
  ...each(
    "race",
    {
      path: "race/secret.txt",
      expect: "raced",
      race: "leaf",
      files: RACE_FILES,
      content: RACE_FILE_TEXT,
      needs: "symlink",
    },
    "leaf file swapped for a link to /outside/secret.txt",
    ["read", "write"],
  ),
  ...each(
    "race",
    {
      path: "race/secret.txt",
      expect: "raced",
      race: "parent",
      files: RACE_FILES,
      content: RACE_FILE_TEXT,
      needs: "symlink",
    },
    "parent directory swapped for a link to /outside",
    ["read", "write"],
  ),
  ...each(
    "race",
    { path: "race/new.txt", expect: "raced", race: "parent", files: RACE_FILES, needs: "symlink" },
    "parent swapped for a link, a new file would land outside",
    ["write"],
  ),
  ...each(
    "race",
    { path: "race", expect: "raced", race: "parent", files: RACE_FILES, names: ["secret.txt"], needs: "symlink" },
    "listed directory swapped for a link to /outside",
    ["list"],
  ),
  ...each(
    "race",
    {
      path: `${RACE_DEEP}/new.txt`,
      expect: "raced",
      race: "parent",
      files: { ...RACE_FILES, [`${RACE_DEEP}/keep.txt`]: "keep" },
      needs: "symlink",
    },
    "parent swapped for a link above a 200-name path, a new file would land outside",
    ["write"],
  ),
  // Deep paths: resolution is linear, nothing breaks or escapes at depth.
  ...each(
    "deep-path",
    { path: `${D200}/x.txt`, expect: "allowed", content: "deep-200", names: ["x.txt"] },
    "200 names, present",
    ["read"],
  ),
  ...each(
    "deep-path",
    { path: D200, expect: "allowed", files: { [`${D200}/x.txt`]: "deep-200" }, names: ["x.txt"] },
    "200 names, present",
    ["list"],
  ),
  ...each("deep-path", { path: `${M200}/x.txt`, expect: "missing", gateCode: "ENOENT" }, "200 names, missing", [
    "read",
  ]),
  ...each("deep-path", { path: M200, expect: "missing", gateCode: "ENOENT" }, "200 names, missing", ["list"]),
  ...each("deep-path", { path: `${M200}/x.txt`, expect: "allowed", content: "deep-new" }, "200 names, missing", [
    "write",
  ]),
  ...each("deep-path", { path: `${D2000}/x.txt`, expect: "allowed", content: "deep-2000" }, "2,000 names, present", [
    "read",
  ]),
  ...each(
    "deep-path",
    { path: D2000, expect: "allowed", files: { [`${D2000}/x.txt`]: "deep-2000" }, names: ["x.txt"] },
    "2,000 names, present",
    ["list"],
  ),
  ...each("deep-path", { path: `${M2000}/x.txt`, expect: "missing", gateCode: "ENOENT" }, "2,000 names, missing", [
    "read",
  ]),
  ...each(
    "deep-path",
    { path: `${M2000}/x.txt`, expect: "allowed", content: "deep-2000-new" },
    "2,000 names, missing",
    ["write"],
  ),
  ...each(
    "deep-path",
    { path: `${ODD200}/x.txt`, expect: "allowed", content: "deep-odd" },
    "200 odd legal names, present",
    ["read"],
  ),
  ...each(
    "deep-path",
    { path: ODD200, expect: "allowed", files: { [`${ODD200}/x.txt`]: "deep-odd" }, names: ["x.txt"] },
    "200 odd legal names, present",
    ["list"],
  ),
  ...each(
    "deep-path",
    { path: `${ODD200}/y.txt`, expect: "allowed", content: "deep-odd-new" },
    "200 odd legal names, missing",
    ["write"],
  ),
  ...each(
    "deep-path",
    {
      path: `${D200}/${"../".repeat(201)}outside/secret.txt`,
      expect: "denied",
      gateCode: "EDENIED",
      files: { [`${D200}/x.txt`]: "deep-200" },
    },
    "200 names then 201 × .. to outside",
  ),
  ...each(
    "deep-path",
    { path: `${D200}/${"../".repeat(200)}a.txt`, expect: "allowed", content: "inside-a" },
    "200 names then 200 × .. back inside",
    ["read"],
  ),
  ...each(
    "deep-path",
    {
      path: `${D200}/out-link/secret.txt`,
      expect: "denied",
      gateCode: "EDENIED",
      files: { [`${D200}/x.txt`]: "deep-200" },
      links: { [`${D200}/out-link`]: "/outside" },
      needs: "symlink",
    },
    "a link to /outside at depth 200",
  ),
  ...each(
    "deep-path",
    {
      path: `${D1000}/out-link/secret.txt`,
      expect: "denied",
      gateCode: "EDENIED",
      files: { [`${D1000}/x.txt`]: "deep-1000" },
      links: { [`${D1000}/out-link`]: "/outside" },
      needs: "symlink",
    },
    "a link to /outside at depth 1,000",
    ["read", "write"],
  ),
];

/**
 * Write the fixture into a fresh backend (symlinks only when it declares them), with the row's own
 * files and links. The directories are made first, then every file and every link is written at
 * once (backends take many calls in flight): on OPFS that makes a case's setup about a third
 * cheaper than one call after another.
 */
export async function writeAttackFixture(fs: FileSystem, attack?: Attack): Promise<void> {
  await writeFiles(fs, FIXTURE_FILES);
  if (fs.capabilities.symlink === true && fs.symlink !== undefined) {
    const symlink = fs.symlink.bind(fs);
    await Promise.all(Object.entries(FIXTURE_LINKS).map(([path, target]) => symlink(target, path)));
  }
  if (attack !== undefined) await writeRowFiles(fs, attack);
}

/** Write a row's own files and links (links only where the backend declares them). */
export async function writeRowFiles(fs: FileSystem, attack: Attack): Promise<void> {
  await writeFiles(
    fs,
    Object.fromEntries(Object.entries(attack.files ?? {}).map(([path, text]) => [`${WORKSPACE_ROOT}/${path}`, text])),
  );
  if (fs.capabilities.symlink === true && fs.symlink !== undefined) {
    for (const [path, target] of Object.entries(attack.links ?? {}))
      await fs.symlink(target, `${WORKSPACE_ROOT}/${path}`);
  }
}

/** Make the files' directories (none inside another, all at once), then write the files at once. */
async function writeFiles(fs: FileSystem, files: Readonly<Record<string, string>>): Promise<void> {
  const parents = [...new Set(Object.keys(files).map((path) => path.slice(0, path.lastIndexOf("/"))))].filter(
    (parent) => parent !== "",
  );
  const deepest = parents.filter((parent) => !parents.some((other) => other.startsWith(`${parent}/`)));
  await Promise.all(deepest.map((parent) => fs.mkdir(parent, { recursive: true })));
  await Promise.all(Object.entries(files).map(([path, text]) => fs.writeFile(path, encoder.encode(text))));
}

const encoder = new TextEncoder();

/**
 * The gate: every file access (tools, bash, host code) passes here before reaching a backend.
 * It canonicalises paths, confines them to the allowed roots, resolves symlinks component by
 * component, and applies allow rules, the approve callback, or fails closed.
 *
 * @module
 */
import picomatch from "picomatch";
import { type DirEntry, type FileStat, type FileSystem, type WatchEvent } from "../contract/types.js";
import { walkFiles } from "../contract/walk.js";
import { FsError, isFsErrorCode, type FsErrorCode } from "../contract/errors.js";
import type { ToolError } from "../contract/errors.js";
import {
  checkPathInput,
  isWithin,
  lookupRealPath,
  relativeTo,
  resolvePath,
  resolveRealPath,
  type PathInputOptions,
  type ResolutionCache,
} from "../contract/path.js";
import { missingMethodMessage, withMissingMethods } from "../contract/missing-methods.js";
import { assertKnownOptions } from "../contract/options.js";
import { lostNoFollow, trustedNoFollow } from "../contract/no-follow.js";
import { normalizeCommand, plainCommand, splitCommandLine } from "./command-line.js";

export { splitCommandLine } from "./command-line.js";

/** What a call does with a path. Rules are named after it: read → `readFile`, write → `writeFile`, list → `listDir`. */
export type Access = "read" | "write" | "list";

/** An allow rule for access outside the workspace. */
export interface AllowRule {
  /** `readFile`, `writeFile`, `listDir` or `runBash`. */
  readonly tool: "readFile" | "writeFile" | "listDir" | "runBash";
  /**
   * picomatch glob matched against the real absolute path (after symlinks resolve), normalised at
   * creation (`//`, `.`, `..`, a trailing `/`). In a deny rule it also matches everything below a
   * path it matches.
   */
  readonly path?: string;
  /** For `runBash`: a command prefix (`git status`) or a glob (`npm run *`). */
  readonly command?: string;
}

/** What the `approve` callback is asked. */
export interface ApprovalRequest {
  readonly tool: AllowRule["tool"];
  /** Real absolute path, for file access. */
  readonly path?: string;
  /** The command line, for `runBash`. */
  readonly command?: string;
  /** Why approval is needed, in words a user can answer. */
  readonly reason: string;
}

/** Decides an access the rules do not admit; only interactive hosts pass one. */
export type Approve = (request: ApprovalRequest) => boolean | Promise<boolean>;

/**
 * Ask `approve` and tell a yes, a no and a failure apart: `true` for a yes, `false` for any other
 * answer, `{ failed }` (the thrown error's message) when the callback threw or its promise
 * rejected. A failure still refuses (fail closed), but the refusal says the callback failed.
 *
 * @internal used by the gate and the bash tool.
 *
 * @param approve - the host's callback.
 * @param request - what it is asked.
 * @returns `true`, `false`, or `{ failed: message }`.
 * @example
 * ```ts
 * await askApprove(() => { throw new Error("ui crashed"); }, request); // { failed: "ui crashed" }
 * ```
 */
export async function askApprove(
  approve: Approve,
  request: ApprovalRequest,
): Promise<boolean | { readonly failed: string }> {
  try {
    return (await approve(request)) === true;
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}

/** Permission settings. */
export interface PermissionOptions {
  /** Rules that admit access outside the workspace (and commands for bash). */
  readonly allow?: readonly AllowRule[];
  /**
   * Rules that refuse access (same shape as allow rules). Deny wins: a matching deny rule refuses
   * the access inside the workspace too, over any allow rule and without asking `approve`.
   * Rules match real paths (after symlinks resolve), and every way to the path obeys them: the
   * tools, bash, the workspace handle and `gate.fs`. A rule's path is normalised when the gate is
   * created (`//` collapsed, `.` and `..` resolved, a trailing `/` dropped), and a deny rule
   * matches a path when its glob matches the path or any of its ancestors: a directory a deny
   * rule names is denied whole, with everything under it (`/w/secret`, `/w/secret/` and
   * `/w/secret/**` all deny `/w/secret/k.txt`). Allow rules match only what their glob matches.
   *
   * - `readFile`: the file's content is never read, by any tool: `read` and `edit` are refused,
   *   `grep` skips it and says so, `apply_patch` refuses to update or move it. Its name still
   *   shows in listings (`list`, `glob`, `ls`), and its size and metadata too: to hide names,
   *   deny `listDir` as well.
   * - `listDir`: the path is not listed anywhere: listing or walking it is refused, it is left out
   *   of its parent's entries (`gate.fs.readdir`, `ls`, `list`, the workspace handle's
   *   `listDir`), and `list`, `glob` and `grep` do not enter it and say how many paths they
   *   skipped.
   * - No deny rule refuses a metadata call (`stat`, `lstat`, `realpath`, `readlink`): it reads
   *   neither content nor a listing, so a path known by name can still be stat'ed (and a file
   *   below a `listDir`-denied directory read, unless `readFile` is denied too).
   * - `writeFile`: the path is never written, created, removed or moved (`write`, `edit`,
   *   `apply_patch`, `mkdir`, `rm`, `rename`), nor is a directory above it removed or moved.
   *
   * A path denied for `readFile` or `listDir` cannot be moved or renamed either (that would
   * expose it under another name), nor can a directory that holds one.
   *
   * - `runBash`: a guard over the command line as written, not a sandbox. With at least one such
   *   rule, each simple command of a line (split on `;`, `&&`, `||`, `|`, `&`, newlines) must be
   *   plain: after leading `NAME=value` assignments, a program name of letters, digits and
   *   `_ . / + : -` (no quoting, escapes, `$`, braces, globs), not a shell keyword (`if`, `{`,
   *   `(`, `!`...), not a function definition or subshell, and not a program that runs a command
   *   from its arguments (`eval`, `exec`, `command`, `env`, `xargs`, `bash`/`sh -c`, `source`,
   *   `nohup`, `nice`, `timeout`, `sudo`, `find -exec`...); any other line is refused, saying to
   *   run the commands plainly. A rule then matches each command from its program name (`rm`
   *   matches `rm -f a` and `/bin/rm a`, not `rmdir`). Programs that run code from their own
   *   arguments or scripts (awk's `system()`, `python3 -c`, a script file) are not followed:
   *   to protect files, deny their paths, which every file operation of bash obeys.
   */
  readonly deny?: readonly AllowRule[];
  /** Interactive hosts: asked when no rule admits. Without it the gate fails closed. */
  readonly approve?: Approve;
}

/** The keys of {@link GateOptions}. */
const GATE_OPTION_KEYS = ["fs", "cwd", "allowedRoots", "permissions", "backslashNames"] as const;

/** The keys of {@link PermissionOptions}. */
const PERMISSION_OPTION_KEYS = ["allow", "deny", "approve"] as const;

/** Options of {@link createGate}. */
export interface GateOptions {
  /** The backend the gate guards. */
  readonly fs: FileSystem;
  /** Working directory for relative paths (absolute). Default: the first allowed root, or `/`. */
  readonly cwd?: string;
  /**
   * Roots the tools may use without a rule (absolute). Default: `[cwd]`, or `["/"]`. A root that
   * does not exist yet admits what will be under it. An empty list throws a TypeError at creation
   * (it would admit nothing).
   */
  readonly allowedRoots?: readonly string[];
  readonly permissions?: PermissionOptions;
  /**
   * Take a backslash in a path as an ordinary byte of a name (`a\b.txt` is one name, `..\x` a
   * name and not `..`), never as a separator. Only for a backend that declares
   * `capabilities.backslashNames` (the Node backend on a POSIX host); else a TypeError at
   * creation. Default `false`: a path with a backslash is refused with `EINVAL` and a hint to
   * use `/` (a model writing `src\a.ts` usually means `src/a.ts`).
   */
  readonly backslashNames?: boolean;
}

/** Options of {@link Gate.check}. */
export interface CheckOptions {
  /**
   * Follow a symlink at the last name (default `true`). Pass `false` for calls that act on the
   * link itself (`lstat`, `readlink`, `rm`, `rename`, `symlink`): the parent is still resolved.
   */
  readonly followSymlinks?: boolean;
  /**
   * A memo shared by the checks of one tool call (`createResolutionCache()`): directories shared
   * by several paths are resolved once, and a missing name costs one failed lookup. Create one
   * per call; never keep it across calls.
   */
  readonly cache?: ResolutionCache;
}

/**
 * The outcome of a check: the canonical path to use, or an error result for the model. With a
 * `cache` in the options, `exists` says whether that path existed when it was checked (with
 * `followSymlinks: false`, the name itself, link or not), so a tool can skip its own lookup.
 */
export type GateCheck =
  | { readonly ok: true; readonly path: string; readonly outside: boolean; readonly exists?: boolean }
  | { readonly ok: false; readonly error: ToolError };

export interface Gate {
  /** The guarded backend (raw: calls on it bypass the gate; tools use `fs` below). */
  readonly backend: FileSystem;
  /**
   * The backend's no-follow form ({@link FileSystem.noFollow}), or the backend itself when it
   * has none: call it with a path `check` returned, so the path checked is the path used and a
   * symlink swapped in since is refused, not followed. `fs` uses it for every call.
   */
  readonly noFollow: FileSystem;
  /** A FileSystem whose every call is checked (refusals reject with FsError EACCES). */
  readonly fs: FileSystem;
  readonly cwd: string;
  readonly allowedRoots: readonly string[];
  /**
   * Resolve `path` (relative to cwd or absolute) and check it for `access`. Never throws for bad
   * input. Use the returned `path` for the backend call: it is the path that was checked.
   * An edit gates as a read and as a write: `check(path, "read")`, then `check(path, "write")`
   * (or {@link checkAccesses}).
   */
  check(path: string, access: Access, options?: CheckOptions): Promise<GateCheck>;
  /** Check a bash command against the `runBash` rules / approve. */
  checkCommand(command: string): Promise<{ readonly ok: true } | { readonly ok: false; readonly error: ToolError }>;
  /** A path as the model should see it: relative to cwd when inside it, else absolute. */
  display(path: string): string;
  /**
   * Whether any deny rule names `access` (its rule tool: read → `readFile`, write → `writeFile`,
   * list → `listDir`). A walk tests its entries with {@link Gate.denied} only when this is true,
   * so it costs nothing per entry without deny rules.
   */
  denies(access: Access): boolean;
  /**
   * Test a real absolute path against the deny rules of `access`, synchronously and without
   * backend calls: for a path a check returned, or one a walk reached below a checked real root
   * without following a symlink (such a path is real too).
   *
   * @param path - real absolute path.
   * @param access - the access to test.
   * @returns the `EDENIED` error {@link Gate.check} would give (its message names the rule's
   *   tool), or `undefined` when no deny rule matches.
   * @example
   * ```ts
   * const gate = createGate({ fs, cwd: "/w", permissions: { deny: [{ tool: "readFile", path: "/w/secret/**" }] } });
   * gate.denied("/w/secret/k.txt", "read"); // { code: "EDENIED", path: "/w/secret/k.txt", message: 'Permission denied: ... "readFile" ...' }
   * gate.denied("/w/secret/k.txt", "list"); // undefined
   * ```
   */
  denied(path: string, access: Access): ToolError | undefined;
}

/** The allow-rule tool name for each access. */
export const ACCESS_RULE_TOOL: Readonly<Record<Access, "readFile" | "writeFile" | "listDir">> = Object.freeze({
  read: "readFile",
  write: "writeFile",
  list: "listDir",
});

const RULE_TOOLS: readonly AllowRule["tool"][] = ["readFile", "writeFile", "listDir", "runBash"];
const FILE_RULE_TOOLS: readonly AllowRule["tool"][] = ["readFile", "writeFile", "listDir"];
const GLOB_CHARACTERS = /[*?[\]{}]/;
/** The keys of a `runBash` rule, and of a file rule. */
const RUN_BASH_RULE_KEYS = ["tool", "command"] as const;
const PATH_RULE_KEYS = ["tool", "path"] as const;

type CommandCheck = { readonly ok: true } | { readonly ok: false; readonly error: ToolError };

interface CompiledRule {
  readonly tool: AllowRule["tool"];
  readonly matchPath?: (path: string) => boolean;
  readonly matchCommand?: (command: string) => boolean;
}

function assertAbsolute(option: string, value: unknown, input: PathInputOptions): string {
  if (typeof value !== "string" || !value.startsWith("/")) {
    throw new TypeError(`createGate ${option} must be an absolute POSIX path, got ${JSON.stringify(value)}`);
  }
  const problem = checkPathInput(value, input);
  if (problem !== undefined) throw new TypeError(`createGate ${option} ${JSON.stringify(value)}: ${problem.reason}`);
  return resolvePath("/", value);
}

function compileRules(rules: readonly AllowRule[] | undefined, kind: "allow" | "deny" = "allow"): CompiledRule[] {
  if (rules === undefined) return [];
  if (!Array.isArray(rules)) throw new TypeError(`createGate permissions.${kind} must be an array of rules`);
  return rules.map((rule: AllowRule, index) => {
    const where = `permissions.${kind}[${index}]`;
    if (typeof rule !== "object" || rule === null || !RULE_TOOLS.includes(rule.tool)) {
      throw new TypeError(
        `createGate ${where}.tool must be one of ${RULE_TOOLS.join(", ")}, got ${JSON.stringify(rule?.tool)}`,
      );
    }
    // A misspelt or misplaced key would be dropped silently (`command` on a path rule matches nothing).
    assertKnownOptions("createGate", rule, rule.tool === "runBash" ? RUN_BASH_RULE_KEYS : PATH_RULE_KEYS, where);
    if (rule.tool === "runBash") {
      if (typeof rule.command !== "string" || rule.command.trim() === "") {
        throw new TypeError(
          `createGate ${where}.command must be a non-empty command prefix or glob for a runBash rule`,
        );
      }
      const pattern = normalizeCommand(rule.command);
      if (GLOB_CHARACTERS.test(pattern)) {
        const isMatch = picomatch(pattern, { bash: true, dot: true, windows: false });
        return { tool: rule.tool, matchCommand: (command) => isMatch(command) };
      }
      return {
        tool: rule.tool,
        matchCommand: (command) => command === pattern || command.startsWith(`${pattern} `),
      };
    }
    if (typeof rule.path !== "string" || !rule.path.startsWith("/")) {
      throw new TypeError(
        `createGate ${where}.path must be an absolute glob (e.g. "/etc/**") for a ${rule.tool} rule, got ${JSON.stringify(rule.path)}`,
      );
    }
    return { tool: rule.tool, matchPath: pathMatcher(normalizeRulePath(rule.path), kind) };
  });
}

/**
 * A rule path as the gate reads it, lexically: `//` collapsed, `.` and `..` resolved, a
 * trailing `/` dropped (`/w/x/../secret/` → `/w/secret`). Real paths never hold these, so a
 * rule written with them would otherwise match nothing.
 */
function normalizeRulePath(glob: string): string {
  const names: string[] = [];
  for (const name of glob.split("/")) {
    if (name === "" || name === ".") continue;
    if (name === "..") names.pop();
    else names.push(name);
  }
  return `/${names.join("/")}`;
}

/**
 * The test of a real absolute path against a rule's (normalised) glob. An allow rule matches
 * what its glob matches; a deny rule matches a path when the glob matches it or any of its
 * ancestors (a directory a deny rule names is denied whole). Compiled once: the bare expression
 * (what picomatch's matcher tests, after a literal comparison) without the matcher's per-call
 * result object, and for a deny rule the same expression followed by an optional `/…` tail, so
 * the ancestors cost no extra test: walks test every entry against the deny rules.
 */
function pathMatcher(glob: string, kind: "allow" | "deny"): (path: string) => boolean {
  const exact = picomatch.makeRe(glob, { dot: true, windows: false });
  if (kind === "allow") return (path) => path === glob || exact.test(path);
  if (glob === "/") return () => true;
  const below = `${glob}/`;
  const literal = (path: string) => path === glob || path.startsWith(below);
  const { source, flags } = exact;
  // The `/…` tail may follow the expression only where its `$` anchors mean "end of the matched
  // path": picomatch's `**` (`(?:\/|$)`, `|$)`). Other anchors (in a negated extglob's
  // lookahead, `!(x)`) would then test the end of the whole path and match too much.
  const anchors = source.slice(0, -1).replaceAll("(?:\\/|$)", "").replaceAll("|$)", ")");
  if (source.startsWith("^(?:") && source.endsWith(")$") && !/(?<!\\)\$/.test(anchors)) {
    const orBelow = new RegExp(`${source.slice(0, -1)}(?:\\/[\\s\\S]*)?$`, flags);
    return (path) => literal(path) || orBelow.test(path);
  }
  // Otherwise the path, then each ancestor: linear in the depth.
  return (path) => {
    if (literal(path)) return true;
    for (let end = path.length; end > 0; end = path.lastIndexOf("/", end - 1)) {
      if (exact.test(path.slice(0, end))) return true;
    }
    return false;
  };
}

function toolError(
  code: ToolError["code"],
  message: string,
  path?: string,
): { readonly ok: false; readonly error: ToolError } {
  return { ok: false, error: path === undefined ? { code, message } : { code, message, path } };
}

/**
 * Why the gate refuses a wrapper that lost its backend's no-follow form, and the way to wrap.
 */
export const LOST_NO_FOLLOW_MESSAGE =
  "createGate fs: this wrapper lost its backend's no-follow form (a spread copy with a method replaced, " +
  "or forwardFileSystem with a plain object of overrides), so a symlink planted between the gate's check " +
  "and the call would be followed outside the roots. Write the overrides as a function of the target, " +
  "applied to the backend and to its no-follow form alike: " +
  "forwardFileSystem(backend, (target) => ({ writeFile: (path, data) => target.writeFile(path, data) }))";

/**
 * Create the gate over a backend: paths are checked (input rules, lexical `..`, symlinks resolved
 * through the backend, confinement to `allowedRoots` name by name), then access outside the roots
 * is admitted by an allow rule, else by `approve`, else refused (fail closed).
 *
 * Refusals are error results, never throws: `EINVAL` (empty path, NUL byte, backslash unless
 * `backslashNames`),
 * `ENAMETOOLONG` (over 4096 bytes, or a name over 255), `ELOOP` (more than 40 symlinks), and
 * `EDENIED` (outside the roots and not admitted). Messages name the path; the input and loop
 * refusals also name the allowed roots; the fail-closed refusal reads exactly
 * `Permission denied: /etc/hosts is outside the workspace and interactive permission prompts are not available in this execution context. Add an allow rule for "readFile" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.`
 *
 * An `approve` answer of yes is remembered for the gate's lifetime per tool and real path (and
 * per command line), so a tool's stat-then-read asks once. A callback that throws (or rejects)
 * refuses too, still `EDENIED`, with a message saying the callback failed and its error's message
 * (`... and the approve callback failed (ui crashed), so readFile was refused. ...`).
 * Symlinks are resolved through the backend's `realpath`, and through `lstat`/`readlink` for a
 * dangling link (a link to a file not yet created outside); a backend without `readlink` has
 * no dangling links to follow. A path that exists costs one backend call; so does a missing one
 * when the backend's `realpath` rejection says how far it resolved (`FsError.resolvedPrefix`,
 * given by the Node backend); with other backends a missing path costs O(log n) `realpath` calls.
 *
 * `runBash` rules are opt-in: with none configured, `checkCommand` admits every command (a
 * just-bash shell reaches files only through this gate). With one or more, each simple command
 * of the line (split on `;`, `&&`, `||`, `|`, `&`) must match a rule, by prefix (`git status`
 * admits `git status -s`, not `git statusx`) or glob (`npm run *`); a line with command
 * substitution or a redirection other than `2>&1` matches no rule. Unmatched lines go to
 * `approve`, else fail closed. `runBash` deny rules refuse first (over allow rules and without
 * asking `approve`): a line with a simple command that matches one, or that is not plain enough
 * to be checked (see {@link PermissionOptions.deny}), is refused with `EDENIED`.
 *
 * @param options - see {@link GateOptions}.
 * `gate.fs` checks each call: `readFile` as read; `writeFile`, `mkdir`, `rm`, `rename` (both
 * paths) and `symlink` as write; `readdir` as list; `stat`, `lstat`, `realpath` and `readlink`
 * as metadata, admitted by a `readFile`, `writeFile` or `listDir` rule (or approval) for the path,
 * so a tool allowed to read or write an outside file may also stat it (else refused as `listDir`).
 * `lstat`, `readlink`, `rm`, `rename` and `symlink` act on a link itself: only its parent is
 * resolved.
 *
 * @returns a {@link Gate}; its `fs` rejects refused calls with FsError `EACCES` (or `EINVAL`,
 *   `ENAMETOOLONG`, `ELOOP`) whose message ends with the refusal in parentheses.
 * @throws TypeError at creation for an unknown option or `permissions` key (an `OptionError`:
 *   `createGate permissions got an unknown option "dney". Known options: allow, deny, approve`),
 *   or when `fs` is missing or has no `realpath`, `cwd` or a root is not absolute, `allowedRoots`
 *   is empty, or a rule is malformed (the message names the option); and when `fs` has symlinks
 *   and is a wrapper that lost its backend's no-follow form ({@link LOST_NO_FOLLOW_MESSAGE}: a
 *   spread copy with a method replaced, or `forwardFileSystem` with plain-object overrides), since
 *   a link swapped in between the check and the call would be followed. A backend lacking another
 *   required method is accepted; a call that needs the method rejects with a TypeError naming it
 *   and how to add it.
 * @example
 * ```ts
 * const gate = createGate({ fs, cwd: "/w", permissions: { allow: [{ tool: "readFile", path: "/etc/hosts" }] } });
 * await gate.check("src/a.ts", "read"); // { ok: true, path: "/w/src/a.ts", outside: false }
 * await gate.check("../w-evil/x", "read"); // { ok: false, error: { code: "EDENIED", ... } }
 * await gate.fs.readFile("/etc/hosts"); // admitted by the rule
 * ```
 */
export function createGate(givenOptions: GateOptions): Gate {
  if (typeof givenOptions !== "object" || givenOptions === null)
    throw new TypeError("createGate needs an options object");
  // A misspelt key is an error, not a silent default: `permissions: { dney: [...] }` would drop a deny rule.
  assertKnownOptions("createGate", givenOptions, GATE_OPTION_KEYS);
  const givenPermissions: unknown = givenOptions.permissions;
  if (givenPermissions !== undefined) {
    if (typeof givenPermissions !== "object" || givenPermissions === null || Array.isArray(givenPermissions))
      throw new TypeError("createGate permissions must be an object ({ allow, deny, approve })");
    assertKnownOptions("createGate", givenPermissions, PERMISSION_OPTION_KEYS, "permissions");
  }
  const given = givenOptions.fs;
  if (typeof given !== "object" || given === null) {
    throw new TypeError("createGate needs an fs option (a FileSystem)");
  }
  if (typeof given.realpath !== "function") {
    // Every check resolves symlinks through it: without it the gate cannot confine anything.
    throw new TypeError(`createGate fs: ${missingMethodMessage(given, "realpath")}`);
  }
  // Other missing methods fail when called, with a message that names them and the fix.
  const backend = withMissingMethods(given);
  const options = withBackendPlace(givenOptions, backend);
  const backslashNames = options.backslashNames ?? false;
  if (typeof backslashNames !== "boolean") {
    throw new TypeError(`createGate backslashNames must be a boolean, got ${JSON.stringify(backslashNames)}`);
  }
  if (backslashNames && given.capabilities?.backslashNames !== true) {
    throw new TypeError(
      `createGate backslashNames: the backend "${String(given.name)}" does not declare capabilities.backslashNames (a backslash may be a separator or refused there)`,
    );
  }
  const pathInput = { backslashNames } as const;
  const givenCwd = options.cwd === undefined ? undefined : assertAbsolute("cwd", options.cwd, pathInput);
  if (options.allowedRoots !== undefined && !Array.isArray(options.allowedRoots)) {
    throw new TypeError("createGate allowedRoots must be an array of absolute paths");
  }
  if (options.allowedRoots?.length === 0) {
    throw new TypeError(
      "createGate allowedRoots must list at least one absolute path (an empty list would admit nothing); leave it out for [cwd]",
    );
  }
  const allowedRoots = Object.freeze(
    options.allowedRoots === undefined
      ? [givenCwd ?? "/"]
      : options.allowedRoots.map((root, index) => assertAbsolute(`allowedRoots[${index}]`, root, pathInput)),
  );
  const cwd = givenCwd ?? allowedRoots[0] ?? "/";
  const rules = compileRules(options.permissions?.allow);
  const commandRules = rules.filter((rule) => rule.tool === "runBash");
  const denyRules = compileRules(options.permissions?.deny, "deny");
  const denyCommandRules = denyRules.filter((rule) => rule.tool === "runBash");
  const denyPathRules: Readonly<Record<Access, readonly CompiledRule[]>> = {
    read: denyRules.filter((rule) => rule.tool === "readFile"),
    write: denyRules.filter((rule) => rule.tool === "writeFile"),
    list: denyRules.filter((rule) => rule.tool === "listDir"),
  };
  /**
   * Why the deny rules refuse a line, or undefined: each simple command must be plain
   * ({@link plainCommand}) and match no rule, from its command word or that word's basename.
   */
  function commandDenial(segments: readonly string[] | undefined): string | undefined {
    if (segments === undefined) return "it cannot be split into simple commands to check the deny rules";
    for (const segment of segments) {
      const found = plainCommand(segment);
      if (!found.plain) {
        return `it uses shell syntax a runBash deny rule cannot be checked through (${JSON.stringify(segment)} ${found.reason}); run the commands plainly: the program's name first, unquoted, not inside keywords, functions, subshells or wrappers such as eval, bash -c or xargs`;
      }
      const forms = found.byName === found.command ? [found.command] : [found.command, found.byName];
      if (forms.some((form) => denyCommandRules.some((rule) => rule.matchCommand?.(form) === true))) {
        return 'it matches a deny rule for "runBash" in the permissions config';
      }
    }
    return undefined;
  }
  function denies(access: Access): boolean {
    return (denyPathRules[access]?.length ?? 0) > 0;
  }
  function denied(path: string, access: Access): ToolError | undefined {
    const matching = denyPathRules[access];
    if (matching === undefined || matching.length === 0) return undefined;
    if (!matching.some((rule) => rule.matchPath?.(path) === true)) return undefined;
    return {
      code: "EDENIED",
      message: `Permission denied: ${path} matches a deny rule for "${ACCESS_RULE_TOOL[access]}" in the permissions config.`,
      path,
    };
  }
  const approve = options.permissions?.approve;
  if (approve !== undefined && typeof approve !== "function") {
    throw new TypeError("createGate permissions.approve must be a function");
  }
  const rootsText = allowedRoots.join(", ");
  const approved = new Set<string>();
  // Checked paths are used through the no-follow form; lookups use its lstat and readlink too
  // (the names walked are real), and the backend's own realpath for the one-call fast path.
  const declaredForm = trustedNoFollow(given);
  if (declaredForm === undefined && given.capabilities?.symlink === true && lostNoFollow(given)) {
    throw new TypeError(LOST_NO_FOLLOW_MESSAGE);
  }
  const declared = declaredForm === undefined ? undefined : withMissingMethods(declaredForm);
  const noFollow = declared ?? backend;
  const lookupFs: FileSystem =
    declared === undefined
      ? backend
      : Object.freeze({ ...declared, realpath: (path: string) => backend.realpath(path) });
  /** Directories above a root: a jailed backend may refuse to look at them (a root not created yet). */
  const aboveRoot = (path: string): boolean => allowedRoots.some((root) => root !== path && isWithin(path, root));

  // Real roots: resolved through the backend; cached once every root exists. Concurrent checks
  // share one resolution in flight.
  const realRoots = new Map<string, string>();
  /** Roots that did not exist when last resolved, with the real path they will have. */
  const missingRoots = new Map<string, string>();
  let realCwd: string | undefined;
  let allRealRoots: string[] | undefined;
  let rootsInFlight: Promise<string[]> | undefined;
  function currentRealRoots(): string[] | Promise<string[]> {
    if (allRealRoots !== undefined) return allRealRoots;
    rootsInFlight ??= resolveRoots().finally(() => {
      rootsInFlight = undefined;
    });
    return rootsInFlight;
  }
  async function resolveRoots(): Promise<string[]> {
    const roots = await Promise.all(
      allowedRoots.map(async (root) => {
        const cached = realRoots.get(root);
        if (cached !== undefined) return cached;
        try {
          const real = resolvePath("/", await backend.realpath(root));
          realRoots.set(root, real);
          return real;
        } catch {
          // Missing (or refused): resolved as far as it exists, retried on the next check; a
          // root that cannot be resolved at all is taken as written and breaks no other root.
          const resolved = await resolveRealPath(lookupFs, root, { passThrough: aboveRoot }).catch(() => root);
          missingRoots.set(root, resolved); // for display until the root exists
          return resolved;
        }
      }),
    );
    if (realRoots.size === allowedRoots.length) allRealRoots = roots;
    return roots;
  }

  async function check(path: string, access: Access, checkOptions: CheckOptions = {}): Promise<GateCheck> {
    return checkPath(path, access, checkOptions, false);
  }

  /** `metadata`: a stat-like call, admitted by a rule or approval of any file tool for the path. */
  async function checkPath(
    path: string,
    access: Access,
    checkOptions: CheckOptions,
    metadata: boolean,
  ): Promise<GateCheck> {
    const problem = checkPathInput(path, pathInput);
    if (problem !== undefined) {
      const shown = typeof path === "string" ? JSON.stringify(path) : String(path);
      return toolError(problem.code, `Invalid path ${shown}: ${problem.reason}. Allowed roots: ${rootsText}.`);
    }
    const lexical = resolvePath(cwd, path);
    let real: string;
    let exists: boolean | undefined;
    let roots: string[];
    try {
      const found = await lookupRealPath(lookupFs, lexical, {
        followLeaf: checkOptions.followSymlinks !== false,
        passThrough: aboveRoot,
        ...(checkOptions.cache === undefined ? {} : { cache: checkOptions.cache }),
      });
      real = found.path;
      // Reported to callers that pass a cache (the others' results keep their shape).
      if (checkOptions.cache !== undefined) exists = found.exists;
      const known = currentRealRoots();
      roots = Array.isArray(known) ? known : await known;
    } catch (error) {
      const code: ToolError["code"] = FsError.isInstance(error) ? error.code : "EIO";
      const reason =
        code === "ELOOP"
          ? "too many symbolic links (a symlink loop?)"
          : error instanceof Error
            ? error.message
            : String(error);
      return toolError(
        code,
        `Cannot resolve ${JSON.stringify(path)}: ${reason}. Allowed roots: ${rootsText}.`,
        lexical,
      );
    }
    const admitted = (outside: boolean): GateCheck =>
      exists === undefined ? { ok: true, path: real, outside } : { ok: true, path: real, outside, exists };
    const tool = ACCESS_RULE_TOOL[access];
    if (tool === undefined) {
      return toolError(
        "EINVAL",
        `Unknown access ${JSON.stringify(access)} for ${real}: use read, write or list.`,
        real,
      );
    }
    // Deny rules govern what they name (content, listings, changes); a stat-like call reads
    // none of these, so no deny rule refuses it.
    const refused = metadata ? undefined : denied(real, access);
    if (refused !== undefined) return { ok: false, error: refused };
    if (roots.some((root) => isWithin(root, real))) return admitted(false);
    const admits = (ruleTool: AllowRule["tool"]) => ruleTool === tool || (metadata && ruleTool !== "runBash");
    if (rules.some((rule) => admits(rule.tool) && rule.matchPath?.(real) === true)) return admitted(true);
    const via = lexical === real ? "" : ` (the real path of ${lexical}, through a symlink)`;
    const key = `${tool}\0${real}`;
    if (metadata && FILE_RULE_TOOLS.some((fileTool) => approved.has(`${fileTool}\0${real}`))) return admitted(true);
    if (approve !== undefined) {
      if (approved.has(key)) return admitted(true);
      const answer = await askApprove(approve, {
        tool,
        path: real,
        reason: `${tool} of ${real}${via}, which is outside the workspace (allowed roots: ${rootsText})`,
      });
      if (answer === true) {
        approved.add(key);
        return admitted(true);
      }
      if (typeof answer === "object") {
        return toolError(
          "EDENIED",
          `Permission denied: ${real}${via} is outside the workspace and the approve callback failed (${answer.failed}), so ${tool} was refused. Allowed roots: ${rootsText}.`,
          real,
        );
      }
      return toolError(
        "EDENIED",
        `Permission denied: ${real}${via} is outside the workspace and the user did not approve ${tool}. Allowed roots: ${rootsText}.`,
        real,
      );
    }
    return toolError(
      "EDENIED",
      `Permission denied: ${real}${via} is outside the workspace and interactive permission prompts are not available in this execution context. Add an allow rule for "${tool}" to the permissions config. A model cannot change the permissions: use a path inside the workspace, or ask the user to allow this one.`,
      real,
    );
  }

  async function checkCommand(command: string): Promise<CommandCheck> {
    if (typeof command !== "string" || command.trim() === "") {
      return toolError("EINVAL", "Invalid command: the command is empty.");
    }
    const segments = splitCommandLine(command);
    if (denyCommandRules.length > 0) {
      const denied = commandDenial(segments);
      if (denied !== undefined) {
        return toolError("EDENIED", `Permission denied: the command ${JSON.stringify(command)} is refused: ${denied}.`);
      }
    }
    if (commandRules.length === 0) return { ok: true };
    if (
      segments !== undefined &&
      segments.every((segment) => commandRules.some((rule) => rule.matchCommand?.(segment) === true))
    ) {
      return { ok: true };
    }
    const shown = JSON.stringify(command);
    if (approve !== undefined) {
      const key = `runBash\0${command}`;
      if (approved.has(key)) return { ok: true };
      const answer = await askApprove(approve, {
        tool: "runBash",
        command,
        reason: `run the command ${shown}, which no runBash rule admits`,
      });
      if (answer === true) {
        approved.add(key);
        return { ok: true };
      }
      if (typeof answer === "object") {
        return toolError(
          "EDENIED",
          `Permission denied: the command ${shown} is not allowed and the approve callback failed (${answer.failed}), so it was refused.`,
        );
      }
      return toolError(
        "EDENIED",
        `Permission denied: the command ${shown} is not allowed and the user did not approve it.`,
      );
    }
    return toolError(
      "EDENIED",
      `Permission denied: the command ${shown} matches no runBash rule and interactive permission prompts are not available in this execution context. Add an allow rule for "runBash" to the permissions config. A model cannot change the permissions: use the file tools or a command the rules allow, or ask the user to allow this one.`,
    );
  }

  function display(path: string): string {
    const known = realCwd ?? realRoots.get(cwd);
    if (known !== undefined) realCwd = known;
    const real = known ?? missingRoots.get(cwd);
    const relative = relativeTo(cwd, path) ?? (real === undefined ? undefined : relativeTo(real, path));
    return relative ?? path;
  }

  const gate: Gate = {
    backend,
    noFollow,
    cwd,
    allowedRoots,
    check,
    checkCommand,
    display,
    denies,
    denied,
    // The checked backend declares the gate's place, so a tool or shell over it starts there too.
    fs: Object.freeze({
      ...gatedFileSystem(backend, noFollow, checkPath, { denies, denied }, backslashNames),
      cwd,
      allowedRoots,
      // The tools say so in their results when the backend may still lose a change (relaxed).
      ...(given.durability === "relaxed" ? { durability: "relaxed" as const } : {}),
    }),
  };
  return Object.freeze(gate);
}

/**
 * The gate's options with `cwd` and `allowedRoots` taken from the backend where the options do
 * not give them (`nodeFileSystem({ cwd, allowedRoots })` declares both). Given options win; a
 * given `cwd` alone keeps its default roots (`[cwd]`), and given roots alone keep theirs (cwd:
 * the first root) unless the backend's cwd lies inside them.
 */
function withBackendPlace(options: GateOptions, backend: FileSystem): GateOptions {
  const { cwd, allowedRoots } = backend;
  if (options.cwd !== undefined && options.allowedRoots !== undefined) return options;
  const place: { cwd?: string; allowedRoots?: readonly string[] } = {};
  if (options.cwd === undefined && typeof cwd === "string") {
    const roots = options.allowedRoots;
    if (roots === undefined || roots.some((root) => isWithin(resolvePath("/", root), resolvePath("/", cwd))))
      place.cwd = cwd;
  }
  if (options.allowedRoots === undefined && options.cwd === undefined && Array.isArray(allowedRoots))
    place.allowedRoots = allowedRoots;
  return { ...options, ...place };
}

/**
 * Check one path for several accesses in order and return the first refusal, else the last
 * admission. An edit outside the workspace is gated as a read and as a write:
 * `checkAccesses(gate, path, ["read", "write"])`.
 *
 * @example
 * ```ts
 * const checked = await checkAccesses(gate, "notes.md", ["read", "write"]);
 * if (!checked.ok) return errorResult("mutation", checked.error);
 * ```
 */
export async function checkAccesses(
  gate: Pick<Gate, "check">,
  path: string,
  accesses: readonly Access[],
  options?: CheckOptions,
): Promise<GateCheck> {
  let last: GateCheck = { ok: false, error: { code: "EINVAL", message: "No access to check." } };
  for (const access of accesses) {
    last = await gate.check(path, access, options);
    if (!last.ok) return last;
  }
  return last;
}

const PASS_THROUGH_CODES = new Set<string>(["EINVAL", "ENAMETOOLONG", "ELOOP", "EIO", "ENOTDIR"]);

/**
 * The FsError a refused check becomes in `gate.fs` (and in host-facing handles): `EINVAL`,
 * `ENAMETOOLONG`, `ELOOP`, `EIO` and `ENOTDIR` keep their code, every other refusal is `EACCES`;
 * the gate's message follows in parentheses.
 *
 * @param error - the `error` of a failed {@link GateCheck}.
 * @param syscall - the call's name in the message (`open`, `scandir`...).
 * @param path - the path as the caller gave it.
 * @example
 * ```ts
 * const checked = await gate.check(path, "read");
 * if (!checked.ok) throw gateRefusal(checked.error, "open", path);
 * ```
 */
export function gateRefusal(error: ToolError, syscall: string, path: string): FsError {
  const code: FsErrorCode = PASS_THROUGH_CODES.has(error.code) && isFsErrorCode(error.code) ? error.code : "EACCES";
  return new FsError(code, { syscall, path: typeof path === "string" ? path : String(path), detail: error.message });
}

/** The gate's synchronous deny-rule tests, handed to {@link gatedFileSystem}. */
type DenyTests = Pick<Gate, "denies" | "denied">;

/**
 * The refusal of a `rm` or `rename` of `real` because of a deny rule: on `real` itself (for
 * `rename`, a `readFile` or `listDir` rule: moving would expose it under another name), or on a
 * path below it (`rm`: a `writeFile` rule; `rename`: any file rule), found by walking it through
 * the no-follow backend. Costs nothing without deny rules for those accesses.
 */
async function denialOfTree(
  backend: FileSystem,
  tests: DenyTests,
  real: string,
  operation: "rm" | "rename",
): Promise<ToolError | undefined> {
  const accesses: readonly Access[] = operation === "rm" ? ["write"] : ["read", "list", "write"];
  const active = accesses.filter((access) => tests.denies(access));
  if (active.length === 0) return undefined;
  const verb = operation === "rm" ? "removed" : "moved or renamed";
  if (operation === "rename") {
    for (const access of active) {
      if (access === "write") continue; // admitted (or refused) as a write already
      const refused = tests.denied(real, access);
      if (refused !== undefined) {
        return {
          ...refused,
          message: `${refused.message.slice(0, -1)}, so it cannot be ${verb} (that would expose it under another name).`,
        };
      }
    }
  }
  try {
    if ((await backend.lstat(real)).type !== "directory") return undefined;
  } catch {
    return undefined; // missing: the call itself reports it
  }
  let found: ToolError | undefined;
  await walkFiles({
    fs: backend,
    root: real,
    concurrency: DENY_WALK_CONCURRENCY,
    include: (path) => {
      if (found !== undefined) return false;
      for (const access of active) {
        found = tests.denied(path, access);
        if (found !== undefined) return false;
      }
      return true;
    },
    onEntry: () => undefined,
  });
  if (found === undefined) return undefined;
  return {
    ...found,
    path: real,
    message: `${found.message.slice(0, -1)}, and it lies under ${real}, so ${real} cannot be ${verb}.`,
  };
}

/** Backend calls in flight while a `rm` or `rename` looks for denied paths below a directory. */
const DENY_WALK_CONCURRENCY = 16;

function gatedFileSystem(
  guarded: FileSystem,
  backend: FileSystem,
  check: (path: string, access: Access, options: CheckOptions, metadata: boolean) => Promise<GateCheck>,
  tests: DenyTests,
  backslashNames: boolean,
): FileSystem {
  // The checked fs takes a backslash as a name byte only when the gate does.
  const capabilities =
    backslashNames || guarded.capabilities.backslashNames !== true
      ? guarded.capabilities
      : Object.freeze({ ...guarded.capabilities, backslashNames: false });
  async function admit(
    path: string,
    access: Access | "metadata",
    syscall: string,
    followSymlinks = true,
  ): Promise<string> {
    const checked = await check(
      path,
      access === "metadata" ? "list" : access,
      { followSymlinks },
      access === "metadata",
    );
    if (!checked.ok) throw gateRefusal(checked.error, syscall, path);
    return checked.path;
  }
  /** Entries of the real directory `real` that no `listDir` deny rule hides. */
  const visible = (real: string, entries: DirEntry[]): DirEntry[] => {
    if (!tests.denies("list")) return entries;
    const prefix = real === "/" ? "/" : `${real}/`;
    return entries.filter((entry) => tests.denied(prefix + entry.name, "list") === undefined);
  };
  const fs: FileSystem = {
    name: guarded.name,
    capabilities,
    readFile: async (path) => backend.readFile(await admit(path, "read", "open")),
    writeFile: async (path, data) => backend.writeFile(await admit(path, "write", "open"), data),
    stat: async (path): Promise<FileStat> => backend.stat(await admit(path, "metadata", "stat")),
    lstat: async (path): Promise<FileStat> => backend.lstat(await admit(path, "metadata", "lstat", false)),
    readdir: async (path) => {
      const real = await admit(path, "list", "scandir");
      return visible(real, await backend.readdir(real));
    },
    mkdir: async (path, mkdirOptions) => backend.mkdir(await admit(path, "write", "mkdir"), mkdirOptions),
    rm: async (path, rmOptions) => {
      const real = await admit(path, "write", "rm", false);
      if (rmOptions?.recursive === true) {
        const refused = await denialOfTree(backend, tests, real, "rm");
        if (refused !== undefined) throw gateRefusal(refused, "rm", path);
      }
      return backend.rm(real, rmOptions);
    },
    rename: async (from, to) => {
      const realFrom = await admit(from, "write", "rename", false);
      const realTo = await admit(to, "write", "rename", false);
      const refused = await denialOfTree(backend, tests, realFrom, "rename");
      if (refused !== undefined) throw gateRefusal(refused, "rename", from);
      return backend.rename(realFrom, realTo);
    },
    realpath: async (path) => backend.realpath(await admit(path, "metadata", "realpath")),
  };
  if (backend.symlink !== undefined) {
    const symlink = backend.symlink.bind(backend);
    fs.symlink = async (target, path) => symlink(target, await admit(path, "write", "symlink", false));
  }
  if (backend.readlink !== undefined) {
    const readlink = backend.readlink.bind(backend);
    fs.readlink = async (path) => readlink(await admit(path, "metadata", "readlink", false));
  }
  if (guarded.watch !== undefined) {
    const watch = guarded.watch.bind(guarded);
    fs.watch = (path, listener) => {
      let stop: (() => void) | undefined;
      let stopped = false;
      // A change to a path denied for listing is not reported (its name would be listed).
      const shown = (event: WatchEvent): void => {
        if (!tests.denies("list") || tests.denied(event.path, "list") === undefined) listener(event);
      };
      void check(path, "list", {}, false).then((checked) => {
        if (checked.ok && !stopped) stop = watch(checked.path, shown);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    };
  }
  return Object.freeze(fs);
}

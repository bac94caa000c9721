/**
 * The security corpus runner: registers one vitest case per row of {@link ATTACKS} against a
 * target (the gate, the workspace handle, a tool, bash...), each on a fresh fixture (the deep-path
 * reads and lists on one fixture per backend, where the backend allows: see `sharesFixture`).
 *
 * Every case checks: no sentinel (outside content or outside names) in what the target
 * returned; denied rows fail with a non-empty message; allowed rows succeed with the expected
 * content; missing rows fail; and nothing outside `/w` changed (every file, directory and link
 * outside it is compared before and after, byte for byte).
 *
 * A race row runs its attempt again and again on one backend: first with the swap made before
 * the attempt (refused), then with the swap after the attempt's 1st backend call, its 2nd, and so
 * on, until an attempt ends before its swap (that one must succeed for a read or list). Each
 * attempt gets a fresh target and the race paths written again; each is checked as above.
 *
 * @example
 * ```ts
 * runSecurityCorpus({
 *   name: "read tool on memory",
 *   backend: async () => memoryFileSystem(),
 *   target: (fs) => {
 *     const read = createReadTool({ fs, cwd: "/w" });
 *     return { read: async (path) => outcomeOf(await read.execute({ path })) };
 *   },
 * });
 * ```
 */
import { describe, expect, it } from "vitest";
import { resolvePath } from "../../src/contract/path.js";
import type { FileSystem } from "../../src/contract/types.js";
import { ATTACKS, SENTINELS, WORKSPACE_ROOT, writeAttackFixture, type Attack, type AttackAccess } from "./attacks.js";
import { resetRace, swapForLink, swappingBackend } from "./race.js";

export { ATTACKS, FIXTURE_FILES, FIXTURE_LINKS, SENTINELS, WORKSPACE_ROOT, writeAttackFixture } from "./attacks.js";
export type { Attack, AttackAccess, AttackExpectation } from "./attacks.js";

/** What one attempt gave: success, the text the caller saw (content, listing or error message), and a code when there is one. */
export interface AttemptOutcome {
  readonly ok: boolean;
  readonly text: string;
  readonly code?: string;
}

/** The calls a target can make; a missing method leaves the rows of that access out (they are not registered: they do not apply). */
export interface AttackTarget {
  read?(path: string): Promise<AttemptOutcome>;
  write?(path: string, content: string): Promise<AttemptOutcome>;
  list?(path: string): Promise<AttemptOutcome>;
}

/** Options of {@link runSecurityCorpus}. */
export interface SecurityCorpusOptions {
  /** Names the describe block: `security corpus: <name>`. */
  readonly name: string;
  /** A fresh, empty backend per case; the runner writes the fixture into it. */
  readonly backend: () => Promise<FileSystem>;
  /** The target under test over that backend (cwd and root `/w`). */
  readonly target: (fs: FileSystem) => AttackTarget | Promise<AttackTarget>;
  /** Releases a backend after its case. */
  readonly destroy?: (fs: FileSystem) => Promise<void>;
  /** Compare `outcome.code` with the row's `gateCode` on denied rows (for targets that report gate codes). */
  readonly checkGateCodes?: boolean;
  /** Rows skipped on this target, by name, with the reason: each is registered as `it.skip("<row>: skipped, <reason>")`. */
  readonly skip?: Readonly<Record<string, string>>;
  /**
   * Rows this target contains rather than refuses, by name, with the reason: the attempt may
   * succeed, but nothing outside is read, listed or changed (checked as for every row). Each is
   * registered as `"<row>, contained here: <reason>"`.
   */
  readonly contained?: Readonly<Record<string, string>>;
  /**
   * Every `backend()` call gives a store of its own (a new memory volume, temporary directory,
   * OPFS root, database or key prefix), so the deep-path read and list rows may share one fixture
   * per backend across targets (see {@link sharesFixture}). Leave it unset for a backend whose
   * instances share one root (the OPFS mirror wipes and reopens the same root per case).
   */
  readonly shareDeepFixtures?: boolean;
  /**
   * The target takes a backslash as a name byte where the backend declares
   * `capabilities.backslashNames` (the Node backend on POSIX): there the backslash rows expect
   * their `asNames` outcome (default `contained`), and their names say so.
   */
  readonly backslashNames?: boolean;
}

/** A backslash row as a target that takes a backslash as a name byte must meet it. */
function asNameRow(attack: Attack): Attack {
  const { asNames, gateCode: _refused, ...rest } = attack;
  const expected = asNames ?? { expect: "contained" as const };
  return {
    ...rest,
    ...expected,
    name: `${attack.name}, ${expected.expect} here: a backslash is a name byte on this POSIX backend, never a separator`,
  };
}

/** The text written by write rows that give no `content`. */
export const ATTACK_WRITE_CONTENT = "PWNED";

const decoder = new TextDecoder();

/** Everything outside the workspace: path → file content, `-> target` for a link, `<dir>`. */
export async function snapshotOutside(fs: FileSystem, root = WORKSPACE_ROOT): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  // The entries of a directory are read at once (the outside is a handful of small files).
  async function walk(directory: string): Promise<Array<readonly [string, string]>> {
    const entries = await fs.readdir(directory);
    const parts = await Promise.all(
      entries.map(async (entry): Promise<Array<readonly [string, string]>> => {
        const path = directory === "/" ? `/${entry.name}` : `${directory}/${entry.name}`;
        if (path === root) return [];
        if (entry.type === "directory") return [[path, "<dir>"], ...(await walk(path))];
        if (entry.type === "symlink")
          return [[path, `-> ${fs.readlink === undefined ? "?" : await fs.readlink(path)}`]];
        if (entry.type === "file") return [[path, decoder.decode(await fs.readFile(path))]];
        return [[path, `<${entry.type}>`]];
      }),
    );
    return parts.flat();
  }
  for (const [path, value] of await walk("/")) out[path] = value;
  return out;
}

async function attempt(target: AttackTarget, attack: Attack): Promise<AttemptOutcome> {
  const method = target[attack.access];
  if (method === undefined) throw new Error(`target has no ${attack.access}`);
  if (attack.access === "write")
    return (method as NonNullable<AttackTarget["write"]>).call(
      target,
      attack.path,
      attack.content ?? ATTACK_WRITE_CONTENT,
    );
  return (method as (path: string) => Promise<AttemptOutcome>).call(target, attack.path);
}

function expectNoLeak(outcome: AttemptOutcome): void {
  expect(typeof outcome.text).toBe("string");
  for (const sentinel of SENTINELS) {
    expect(outcome.text.includes(sentinel), `leaked ${sentinel}: ${outcome.text.slice(0, 300)}`).toBe(false);
  }
}

/** The most backend calls one attempt of a race row may make before the runner gives up. */
const MAX_RACE_CALLS = 2_000;

/**
 * Run a race row (see the module comment). Returns after the attempt that ended before its
 * swap; fails when an attempt read or changed anything outside, or when the attempts never end.
 */
async function runRace(
  raw: FileSystem,
  attack: Attack,
  target: (fs: FileSystem) => AttackTarget | Promise<AttackTarget>,
): Promise<void> {
  const kind = attack.race!;
  for (let after = 0; after <= MAX_RACE_CALLS; after += 1) {
    await resetRace(raw, attack);
    const before = await snapshotOutside(raw);
    const swapping = await swappingBackend(raw, after, () => swapForLink(raw, kind));
    const outcome = await attempt(await target(swapping.fs), attack);
    const at = `swap after call ${after}`;
    expectNoLeak(outcome);
    expect(await snapshotOutside(raw), `${at}: outside changed`).toEqual(before);
    if (after === 0 && attack.expect !== "contained") expect({ at, ok: outcome.ok }).toEqual({ at, ok: false });
    if (!swapping.fired()) {
      // The attempt made fewer calls than `after`: nothing was swapped; a read or list sees the inside.
      expect(after, "the attempt made no backend call after the first").toBeGreaterThan(1);
      if (attack.access === "read") expect({ ok: outcome.ok, text: outcome.text }).toMatchObject({ ok: true });
      if (attack.access === "read") expect(outcome.text).toContain(attack.content ?? "");
      if (attack.access === "list") {
        expect({ ok: outcome.ok, text: outcome.text }).toMatchObject({ ok: true });
        for (const name of attack.names ?? []) expect(outcome.text).toContain(name);
      }
      return;
    }
  }
  throw new Error(`${attack.name}: still swapping after ${MAX_RACE_CALLS} backend calls`);
}

/**
 * A row's time limit: races run many attempts; a deep-path row makes up to 2,000 nested
 * directories, which Chromium's in-memory OPFS creates in about 20 s (O(depth) per directory)
 * and longer under load.
 */
function timeoutMs(attack: Attack): number {
  if (attack.race !== undefined) return 180_000;
  return attack.family === "deep-path" ? 120_000 : 60_000;
}

/**
 * Whether a row reads its fixture through the target without writing: a deep-path read or list
 * (no race). Building a deep tree is most of such a row's cost (2,000 nested directories take
 * about 20 s in Chromium's in-memory OPFS and grow as depth² on memfs and the Node backend), and
 * the same tree serves every target of a backend, so on a backend with
 * {@link SecurityCorpusOptions.shareDeepFixtures} these rows read one tree built once per
 * backend and fixture; each row still checks everything a fresh fixture's row checks, and checks
 * after its attempt that the tree is as built (the row's files hold their text).
 */
function sharesFixture(attack: Attack): boolean {
  return attack.family === "deep-path" && attack.race === undefined && attack.access !== "write";
}

/** The file a row writes into its fixture before a read (an allowed read's `content` at its path), if any. */
function preWritten(attack: Attack): { path: string; text: string } | undefined {
  if (attack.access !== "read" || attack.expect !== "allowed" || attack.content === undefined) return undefined;
  if (attack.path.includes("link")) return undefined;
  return { path: resolvePath(WORKSPACE_ROOT, attack.path), text: attack.content };
}

/** Build a row's fixture in `fs`: the corpus fixture, the row's files and links, and its pre-written file. */
async function buildFixture(fs: FileSystem, attack: Attack): Promise<void> {
  await writeAttackFixture(fs, attack);
  const file = preWritten(attack);
  if (file !== undefined) await fs.writeFile(file.path, new TextEncoder().encode(file.text));
}

/** The files a row's fixture holds inside `/w` beyond the corpus fixture (path → text). */
function fixtureFiles(attack: Attack): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(attack.files ?? {})) files[`${WORKSPACE_ROOT}/${path}`] = text;
  const file = preWritten(attack);
  if (file !== undefined) files[file.path] = file.text;
  return files;
}

/** One shared fixture: the backend holding it, and how many registered rows have yet to use it. */
interface SharedFixture {
  fs: Promise<FileSystem> | undefined;
  users: number;
}

/** Shared fixtures per backend factory, by {@link fixtureKey}. */
const sharedFixtures = new WeakMap<() => Promise<FileSystem>, Map<string, SharedFixture>>();

/** Rows with equal keys build equal fixtures. */
function fixtureKey(attack: Attack): string {
  return JSON.stringify([attack.files ?? {}, attack.links ?? {}, attack.needs ?? "", preWritten(attack) ?? null]);
}

/**
 * Register the corpus for one target.
 *
 * @param options - see {@link SecurityCorpusOptions}.
 * @param attacks - the rows to run (default: all of {@link ATTACKS}).
 */
export function runSecurityCorpus(options: SecurityCorpusOptions, attacks: readonly Attack[] = ATTACKS): void {
  describe(`security corpus: ${options.name}`, async () => {
    const probe = await options.backend();
    const symlinks = probe.capabilities.symlink === true;
    const probeTarget = await options.target(probe);
    await options.destroy?.(probe);
    const accesses = new Set<AttackAccess>(
      (["read", "write", "list"] as const).filter((access) => probeTarget[access] !== undefined),
    );

    const stale = [...Object.keys(options.skip ?? {}), ...Object.keys(options.contained ?? {})].filter(
      (name) => !ATTACKS.some((attack) => attack.name === name),
    );
    if (stale.length > 0)
      throw new Error(`${options.name}: skip or contained names no row of the corpus: ${stale.join(", ")}`);
    const namesHere = options.backslashNames === true && probe.capabilities.backslashNames === true;
    for (const given of attacks) {
      const containedHere = options.contained?.[given.name];
      const attack: Attack =
        namesHere && given.family === "backslash"
          ? asNameRow(given)
          : containedHere !== undefined
            ? { ...given, expect: "contained", name: `${given.name}, contained here: ${containedHere}` }
            : given;
      // A row the target cannot express at all (it has no such access, or the backend has no
      // symlinks) is not registered: it does not apply. A row in `skip` is registered as a
      // skipped case whose name says why.
      if (!accesses.has(attack.access) || (attack.needs === "symlink" && !symlinks)) continue;
      const reason = options.skip?.[given.name];
      if (reason !== undefined) {
        it.skip(`${attack.name}: skipped, ${reason}`, () => {});
        continue;
      }
      // A shared fixture is counted here, at registration, and released by the last row that
      // uses it (a run filtered by name leaves it to the process's end: a memory volume, or a
      // directory under the temporary directory).
      let shared: SharedFixture | undefined;
      if (options.shareDeepFixtures === true && sharesFixture(attack)) {
        const byKey = sharedFixtures.get(options.backend) ?? new Map<string, SharedFixture>();
        sharedFixtures.set(options.backend, byKey);
        const key = fixtureKey(attack);
        shared = byKey.get(key) ?? { fs: undefined, users: 0 };
        byKey.set(key, shared);
        shared.users += 1;
      }
      it(attack.name, { timeout: timeoutMs(attack) }, async () => {
        const built = async (fresh: FileSystem) => (await buildFixture(fresh, attack), fresh);
        const fs = await (shared === undefined ? options.backend() : (shared.fs ??= options.backend().then(built)));
        try {
          if (shared === undefined) await buildFixture(fs, attack);
          if (attack.race !== undefined) return await runRace(fs, attack, options.target);
          const inside = resolvePath(WORKSPACE_ROOT, attack.path);
          const before = await snapshotOutside(fs);
          const target = await options.target(fs);
          const outcome = await attempt(target, attack);
          expectNoLeak(outcome);
          if (attack.expect === "denied" || attack.expect === "missing") {
            expect({ ok: outcome.ok, clear: outcome.text.trim().length > 0 }).toEqual({ ok: false, clear: true });
            if (options.checkGateCodes === true && attack.gateCode !== undefined)
              expect(outcome.code).toBe(attack.gateCode);
          }
          if (attack.expect === "allowed") {
            expect(outcome.ok, `an allowed attempt failed: ${outcome.text.slice(0, 300)}`).toBe(true);
            if (attack.access === "read" && attack.content !== undefined)
              expect(outcome.text).toContain(attack.content);
            if (attack.access === "list") for (const name of attack.names ?? []) expect(outcome.text).toContain(name);
            // A trailing newline is allowed (a patch's added lines end with one).
            if (attack.access === "write")
              expect(decoder.decode(await fs.readFile(inside)).replace(/\n$/, "")).toBe(
                attack.content ?? ATTACK_WRITE_CONTENT,
              );
          }
          expect(await snapshotOutside(fs)).toEqual(before);
          if (shared !== undefined) {
            // The next row reads this tree: it must be as built.
            for (const [path, text] of Object.entries(fixtureFiles(attack)))
              expect({ path, text: decoder.decode(await fs.readFile(path)) }).toEqual({ path, text });
          }
        } finally {
          if (shared === undefined) await options.destroy?.(fs);
          else if ((shared.users -= 1) === 0) {
            shared.fs = undefined;
            await options.destroy?.(fs);
          }
        }
      });
    }
  });
}

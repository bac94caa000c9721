// A user's own wrapper around a backend, attacked as a parallel `ln -s` would: the wrapper awaits
// before every call, and while it waits a directory the gate has just checked is swapped for a
// link to outside the roots (the backend's jail is wider than the tools' roots). In every style
// docs/safety.md shows, read, overwrite, edit and create through the tools must not reach outside:
// the safe styles keep the no-follow form (the swap is refused), the unsafe ones are refused at
// creation with a TypeError naming the safe way.
import {
  mkdir as mkdirHost,
  mkdtemp,
  readFile as readHost,
  rename as renameHost,
  rm as rmHost,
} from "node:fs/promises";
import { symlink as symlinkHost, writeFile as writeHost } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROMISE_METHODS, forwardFileSystem } from "../../src/contract/forward.js";
import type { FileSystem } from "../../src/contract/types.js";
import { LOST_NO_FOLLOW_MESSAGE } from "../../src/gate/gate.js";
import { compose, withFilesystemLogging, withQuota, type FileSystemMiddleware } from "../../src/gate/middleware.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { nodeFileSystem } from "../../src/backends/node/file-system.js";
import { createFsTools } from "../../src/shell/defaults.js";
import type { FsTools } from "../../src/tools/kit/fs-tools.js";
import { resultText } from "../../src/tools/kit/result.js";

type Method = (...args: unknown[]) => Promise<unknown>;

/** A place to attack: the raw backend, the tools' root, and the swap of `<root>/d` for a link to outside. */
interface Place {
  readonly raw: FileSystem;
  /** The tools' root (the backend's jail is its parent, wider). */
  readonly root: string;
  /** Swap `<root>/d` for a link to the outside directory, as a parallel `ln -s` would. */
  swap(): Promise<void>;
  /** The outside directory's files, name → text. */
  outside(): Promise<Record<string, string>>;
}

const temporary: string[] = [];
afterAll(async () => {
  for (const dir of temporary) await rmHost(dir, { recursive: true, force: true });
});

const places: Record<"memory" | "node", () => Promise<Place>> = {
  memory: async () => {
    const raw = memoryFileSystem({ files: { "/w/d/a.txt": "inside\n", "/out/a.txt": "SECRET\n" } });
    return {
      raw,
      root: "/w",
      swap: async () => {
        await raw.rename("/w/d", "/w/d.real");
        await raw.symlink("/out", "/w/d");
      },
      outside: async () => {
        const json = raw.volume.toJSON();
        return Object.fromEntries(
          Object.entries(json)
            .filter(([path]) => path.startsWith("/out/"))
            .map(([path, text]) => [path.slice(5), text ?? ""]),
        );
      },
    };
  },
  node: async () => {
    const base = await mkdtemp(join(tmpdir(), "bft-wrapper-attack-"));
    temporary.push(base);
    await mkdirHost(join(base, "w", "d"), { recursive: true });
    await mkdirHost(join(base, "out"));
    await writeHost(join(base, "w", "d", "a.txt"), "inside\n");
    await writeHost(join(base, "out", "a.txt"), "SECRET\n");
    // The backend's jail is the whole base: wider than the tools' root.
    const raw = nodeFileSystem({ cwd: join(base, "w"), allowedRoots: [base] });
    return {
      raw,
      root: join(base, "w"),
      // Made on the host, around the backend, as another process would.
      swap: async () => {
        await renameHost(join(base, "w", "d"), join(base, "w", "d.real"));
        await symlinkHost(join(base, "out"), join(base, "w", "d"));
      },
      outside: async () => {
        const names = ["a.txt", "new.txt"];
        const found: Record<string, string> = {};
        for (const name of names) {
          try {
            found[name] = await readHost(join(base, "out", name), "utf8");
          } catch {
            // absent
          }
        }
        return found;
      },
    };
  },
};

/**
 * Overrides of every promise method of `target` that await a tick first, and run the armed swap
 * once at the first call of `armed.method` (between the gate's check and its use).
 */
function pausing(target: FileSystem, armed: { method?: string; swap?: () => Promise<void> }): Partial<FileSystem> {
  const overrides: Record<string, Method> = {};
  for (const method of PROMISE_METHODS) {
    const own = target[method] as Method | undefined;
    if (typeof own !== "function") continue;
    overrides[method] = async (...args) => {
      await Promise.resolve();
      if (armed.method === method && armed.swap !== undefined) {
        const swap = armed.swap;
        armed.swap = undefined;
        await swap();
      }
      return own.apply(target, args);
    };
  }
  return overrides as Partial<FileSystem>;
}

type Armed = { method?: string; swap?: () => Promise<void> };

/** The safe styles: each makes an async wrapper that keeps the backend's no-follow form. */
const SAFE_STYLES: Record<string, (raw: FileSystem, armed: Armed) => FileSystem> = {
  "forwardFileSystem(backend, (target) => overrides)": (raw, armed) =>
    forwardFileSystem(raw, (target) => pausing(target, armed)) as FileSystem,
  "a middleware written with the function form, composed with logging and a quota": (raw, armed) => {
    const pause: FileSystemMiddleware = (next) =>
      forwardFileSystem(next, (target) => pausing(target, armed)) as FileSystem;
    return compose(withFilesystemLogging({ destination: () => {} }), pause, withQuota({ maxBytes: 1 << 20 }))(raw);
  },
};

/** The unsafe styles: the gate refuses them at creation when links are possible. */
const UNSAFE_STYLES: Record<string, (raw: FileSystem, armed: Armed) => FileSystem> = {
  "a spread copy with a method replaced ({ ...backend, writeFile })": (raw, armed) => ({
    ...raw,
    writeFile: pausing(raw, armed).writeFile!,
  }),
  "forwardFileSystem(backend, { ...plain overrides })": (raw, armed) =>
    forwardFileSystem(raw, pausing(raw, armed)) as FileSystem,
  "a middleware that spreads its next backend": (raw, armed) => {
    const spreading: FileSystemMiddleware = (next) => ({ ...next, readFile: pausing(next, armed).readFile! });
    return compose(withFilesystemLogging({ destination: () => {} }), spreading)(raw);
  },
};

/** The four peer cases: what the tool call does, and which backend call the swap lands before. */
const CASES = [
  {
    name: "read",
    method: "readFile",
    run: (tools: FsTools) => tools.read.execute({ path: "d/a.txt" }),
  },
  {
    name: "overwrite",
    method: "writeFile",
    run: (tools: FsTools) => tools.write.execute({ path: "d/a.txt", content: "PWNED\n" }),
  },
  {
    name: "edit",
    method: "writeFile",
    run: (tools: FsTools) => tools.edit.execute({ path: "d/a.txt", oldText: "inside", newText: "PWNED" }),
  },
  {
    name: "create",
    method: "writeFile",
    run: (tools: FsTools) => tools.write.execute({ path: "d/new.txt", content: "PWNED\n" }),
  },
] as const;

for (const [backend, makePlace] of Object.entries(places)) {
  describe(`a user's async wrapper on ${backend}, a directory swapped for a link between check and use`, () => {
    for (const [style, wrap] of Object.entries(SAFE_STYLES)) {
      for (const attack of CASES) {
        test(`${style}: ${attack.name} is refused and nothing outside is read or changed`, async () => {
          const place = await makePlace();
          const armed: Armed = {};
          const tools = createFsTools({ fs: wrap(place.raw, armed), cwd: place.root });
          armed.method = attack.method;
          armed.swap = place.swap;
          const result = await attack.run(tools);
          expect(armed.swap).toBeUndefined(); // the swap ran, between the check and the use
          expect(result.ok).toBe(false);
          expect(resultText(result)).not.toContain("SECRET");
          expect(await place.outside()).toEqual({ "a.txt": "SECRET\n" });
        });
      }
    }

    test("the attack is real: the same swap through the same wrapper, called without the gate, reaches outside", async () => {
      const place = await makePlace();
      const armed: Armed = { method: "readFile", swap: place.swap };
      const wrapped = SAFE_STYLES["forwardFileSystem(backend, (target) => overrides)"]!(place.raw, armed);
      expect(new TextDecoder().decode(await wrapped.readFile(`${place.root}/d/a.txt`))).toBe("SECRET\n");
    });

    for (const [style, wrap] of Object.entries(UNSAFE_STYLES)) {
      test(`${style}: refused at creation with a TypeError naming the function form`, async () => {
        const place = await makePlace();
        const fs = wrap(place.raw, {});
        expect(() => createFsTools({ fs, cwd: place.root })).toThrow(new TypeError(LOST_NO_FOLLOW_MESSAGE));
      });
    }
  });
}

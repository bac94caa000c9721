/**
 * The shared shell script of issue 5: the same commands run through the gate over every backend
 * (memory and Node here, OPFS in Chromium) and must print exactly {@link SHARED_SCRIPT_OUTPUT}.
 * Imported by the Node tests and the browser test; it imports nothing from `node:`.
 */
import { createGate } from "../../src/gate/gate.js";
import type { FileSystem } from "../../src/contract/types.js";
import { justBashCommandRunner } from "../../src/shell/just-bash-runner.js";
import type { CommandOutput } from "../../src/contract/runner.js";

/** The directory the script runs in, in every backend's namespace. */
export const SHARED_SCRIPT_DIR = "/w";

/** 0..255 then 255..0: every byte value, twice (SHA-256 1c7454fd…5143). */
export function binaryFixture(): Uint8Array {
  const data = new Uint8Array(512);
  for (let index = 0; index < 256; index++) {
    data[index] = index;
    data[511 - index] = index;
  }
  return data;
}

/** Create, append, cat, grep -rn, sed -i, find, ls -la, mv, mv and cp over an existing file, rm -r, pipes, redirects, binary cp. */
export const SHARED_SCRIPT = [
  "mkdir -p src/lib docs",
  'echo "alpha one" > src/a.txt',
  "printf 'beta two\\ngamma three\\n' > src/lib/b.txt",
  'echo "alpha again" >> src/a.txt',
  "cat src/a.txt",
  "grep -rn alpha .",
  "sed -i 's/alpha/ALPHA/g' src/a.txt",
  "cat src/a.txt",
  "find . -type f | sort",
  "ls -la src | awk '{print $1, $5, $NF}'",
  "mv src/lib/b.txt docs/b.md",
  "cat docs/b.md | grep gamma | tr a-z A-Z",
  "wc -l < docs/b.md",
  'cat missing.txt 2> err.txt; echo "exit $?"; cat err.txt',
  "cp data.bin copy.bin && wc -c < copy.bin && sha256sum copy.bin",
  "echo one > x.txt && echo two > y.txt && mv x.txt y.txt && cat y.txt",
  "echo three > z.txt && cp z.txt y.txt && cat y.txt",
  'cp y.txt ./y.txt 2>&1; echo "exit $?"',
  "rm -r src z.txt",
  "ls",
].join("\n");

/** What {@link SHARED_SCRIPT} prints on every backend. */
export const SHARED_SCRIPT_OUTPUT = [
  "alpha one",
  "alpha again",
  "src/a.txt:1:alpha one",
  "src/a.txt:2:alpha again",
  "ALPHA one",
  "ALPHA again",
  "./data.bin",
  "./src/a.txt",
  "./src/lib/b.txt",
  "total  4",
  "drwxr-xr-x 0 .",
  "drwxr-xr-x 0 ..",
  "-rw-r--r-- 22 a.txt",
  "drwxr-xr-x 0 lib/",
  "GAMMA THREE",
  "2",
  "exit 1",
  "cat: missing.txt: No such file or directory",
  "512",
  "1c7454fdb5783a77693d566de1ea54b3f3ba558f48aae8f782c199c84e355143  copy.bin",
  "one",
  "three",
  "cp: 'y.txt' and '/w/y.txt' are the same file",
  "exit 1",
  "copy.bin",
  "data.bin",
  "docs",
  "err.txt",
  "y.txt",
  "",
].join("\n");

/** What one run of the shared script gives: the output, then the tree and the copied bytes as the backend has them. */
export interface SharedScriptRun {
  readonly output: CommandOutput;
  /** `readdir` of the directory afterwards, sorted. */
  readonly names: readonly string[];
  /** The bytes of `copy.bin` read back through the backend. */
  readonly copy: Uint8Array;
  /** The text of `docs/b.md` read back through the backend. */
  readonly moved: string;
}

/**
 * Write the fixture (`data.bin`) into {@link SHARED_SCRIPT_DIR} of `fs`, run the script through a
 * gate rooted there with the just-bash runner, and read the results back through `fs`.
 */
export async function runSharedScript(fs: FileSystem): Promise<SharedScriptRun> {
  await fs.writeFile(`${SHARED_SCRIPT_DIR}/data.bin`, binaryFixture());
  const gate = createGate({ fs, cwd: SHARED_SCRIPT_DIR });
  const runner = justBashCommandRunner({ fs: gate });
  const output = await runner.run({ command: SHARED_SCRIPT, cwd: SHARED_SCRIPT_DIR, env: {}, timeoutMs: 30_000 });
  const names = (await fs.readdir(SHARED_SCRIPT_DIR)).map((entry) => entry.name).sort();
  const copy = await fs.readFile(`${SHARED_SCRIPT_DIR}/copy.bin`);
  const moved = new TextDecoder().decode(await fs.readFile(`${SHARED_SCRIPT_DIR}/docs/b.md`));
  return { output, names, copy, moved };
}

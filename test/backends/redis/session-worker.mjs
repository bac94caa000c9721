// One process of the many-process test and bench: `sessions` concurrent sessions editing,
// patching and grepping one Redis workspace until `durationMs` has passed, through the tools
// (locks: the backend's Redis locks). Built code from `built` (a tsc build of src/). Prints one
// JSON line: every call's outcome, so the parent can check the final tree against them.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const config = JSON.parse(process.argv[2]);
const load = (path) => import(pathToFileURL(join(config.built, path)).href);
const { redisFileSystem } = await load("backends/redis/index.js");
const { createFsTools } = await load("index.js");

const fs = redisFileSystem({ url: config.url, prefix: config.prefix, cwd: "/w" });
const tools = createFsTools({ fs, cwd: "/w", state: false });
const deadline = Date.now() + config.durationMs;
const outcomes = [];
let grepMisses = 0;
let grepCalls = 0;

async function session(index) {
  let lastAcked;
  for (let n = 0; Date.now() < deadline; n++) {
    const tag = `${config.id}-${index}-${n}`;
    const file = `shared-${(index + n) % config.files}.txt`;
    const kind = n % 3;
    if (kind === 2 && lastAcked !== undefined) {
      grepCalls++;
      const result = await tools.grep.execute({ pattern: `^${lastAcked.tag}$`, path: "." });
      const text = result.parts.map((part) => part.text ?? "").join("");
      if (!result.ok || !text.includes(lastAcked.file)) grepMisses++;
      continue;
    }
    const result =
      kind === 0
        ? await tools.edit.execute({ path: file, oldText: "END\n", newText: `${tag}\nEND\n` })
        : await tools.apply_patch.execute({
            patch: `*** Begin Patch\n*** Update File: ${file}\n@@\n-END\n+${tag}\n+END\n*** End Patch`,
          });
    const outcome = {
      tag,
      file,
      ok: result.ok,
      ...(result.ok ? {} : { error: result.parts.map((part) => part.text ?? "").join("") }),
    };
    outcomes.push(outcome);
    if (result.ok) lastAcked = outcome;
  }
}

await Promise.all(Array.from({ length: config.sessions }, (_, index) => session(index)));
await fs.close();
process.stdout.write(`${JSON.stringify({ id: config.id, outcomes, grepCalls, grepMisses })}\n`);

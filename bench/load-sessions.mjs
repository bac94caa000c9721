// The sessions of bench/load.bench.mjs (issue 27, item 5), shared by the Node run (memory) and
// the page (bench/browser/load-page.js, the OPFS mirror): each session works in its own directory
// on 4 files of 40 lines and keeps a plain model of them; one call after another it edits (edit,
// then apply_patch) a line, greps for a line and runs `wc -l` through bash. Imports nothing from
// `node:`. Timings in milliseconds from performance.now().

export const FILES = 4;
export const LINES = 40;

/** Write each session's files; returns the models (per session: path → lines). */
export async function seedSessions(fs, sessions) {
  const models = [];
  const encoder = new TextEncoder();
  for (let session = 0; session < sessions; session++) {
    const files = new Map();
    await fs.mkdir(`/w/s${session}`, { recursive: true });
    for (let file = 0; file < FILES; file++) {
      const lines = Array.from({ length: LINES }, (_, line) => `s${session} f${file} line ${line} v0`);
      const path = `/w/s${session}/f${file}.txt`;
      await fs.writeFile(path, encoder.encode(`${lines.join("\n")}\n`));
      files.set(path, lines);
    }
    models.push(files);
  }
  return models;
}

/** Run every session at once for `seconds`; returns `{ times: { tool: ms[] }, failures, calls, elapsedMs }`. */
export async function runSessions(tools, models, seconds) {
  const times = { edit: [], apply_patch: [], grep: [], bash: [] };
  const failures = [];
  const deadline = performance.now() + seconds * 1000;
  const timed = async (tool, call) => {
    const started = performance.now();
    const result = await call();
    times[tool].push(performance.now() - started);
    return result;
  };
  const sessionLoop = async (session) => {
    const files = models[session];
    let step = 0;
    while (performance.now() < deadline) {
      step += 1;
      const file = step % FILES;
      const path = `/w/s${session}/f${file}.txt`;
      const lines = files.get(path);
      const line = (step * 7) % LINES;
      const old = lines[line];
      const next = old.replace(/ v\d+$/, ` v${step}`);
      const kind = step % 4;
      if (kind === 0) {
        const result = await timed("edit", () => tools.edit.execute({ path, oldText: old, newText: next }));
        if (result.ok) lines[line] = next;
        else failures.push(`edit ${path}: ${result.error?.message}`);
      } else if (kind === 1) {
        const patch = `*** Begin Patch\n*** Update File: ${path}\n@@\n-${old}\n+${next}\n*** End Patch`;
        const result = await timed("apply_patch", () => tools.apply_patch.execute({ patch }));
        if (result.ok) lines[line] = next;
        else failures.push(`apply_patch ${path}: ${result.error?.message}`);
      } else if (kind === 2) {
        const result = await timed("grep", () =>
          tools.grep.execute({ pattern: `s${session} f${file} line ${line} `, path: `s${session}` }),
        );
        if (!result.ok || result.count !== 1) failures.push(`grep ${path}: ${result.count}`);
      } else {
        const result = await timed("bash", () => tools.bash.execute({ command: `wc -l s${session}/f${file}.txt` }));
        if (result.exitCode !== 0 || !result.stdout.includes(`${LINES}`))
          failures.push(`bash ${path}: ${result.stdout}`);
      }
    }
  };
  const started = performance.now();
  await Promise.all(models.map((_, session) => sessionLoop(session)));
  const calls = Object.values(times).reduce((sum, values) => sum + values.length, 0);
  return { times, failures, calls, elapsedMs: performance.now() - started };
}

/** How many files differ from their session's model. */
export async function lostFiles(fs, models) {
  let lost = 0;
  const decoder = new TextDecoder();
  for (const files of models) {
    for (const [path, lines] of files) {
      const text = await fs.readFile(path).then(
        (bytes) => decoder.decode(bytes),
        () => undefined,
      );
      if (text !== `${lines.join("\n")}\n`) lost += 1;
    }
  }
  return lost;
}

// Runs every bench/*.bench.mjs in order and writes BENCHMARKS.md.
// Each bench module exports `title` (string) and `run()` → Promise<string> (a markdown section).
// Benchmarks import the built package from ../dist (run `npm run build` first; `npm run bench` does).
import { readdir, writeFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";
import os from "node:os";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = (await readdir(here)).filter((f) => f.endsWith(".bench.mjs")).sort();
const sections = [];
for (const file of files) {
  if (only.length > 0 && !only.some((o) => file.includes(o))) continue;
  const mod = await import(pathToFileURL(join(here, file)).href);
  process.stderr.write(`bench: ${file} ...\n`);
  const started = performance.now();
  const body = await mod.run();
  sections.push(
    `## ${mod.title}\n\n_Source: \`bench/${file}\`, ${((performance.now() - started) / 1000).toFixed(1)} s._\n\n${body.trim()}\n`,
  );
}
const header = `# Benchmarks

Produced by \`npm run bench\` (or \`npm run bench -- <name>\` for one file) on ${new Date().toISOString().slice(0, 10)},
Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB.
Every figure is a ratio measured side by side in one run: our tool against the raw backend
(the floor) and against the named peer. Medians of several rounds after a warm-up.
`;
if (only.length === 0) {
  await writeFile(join(here, "..", "BENCHMARKS.md"), `${header}\n${sections.join("\n")}`);
  process.stderr.write("bench: wrote BENCHMARKS.md\n");
} else {
  process.stdout.write(sections.join("\n"));
}

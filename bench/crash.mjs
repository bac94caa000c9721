// What the crash benches share: each round writes its own content, kills the browser process
// with SIGKILL and checks what came back after the restart.
import { readFileSync, readdirSync } from "node:fs";

/** Text of round `round`: 4 KiB, deterministic, different each round. */
export function roundContent(round) {
  let state = round * 2654435761 + 1;
  let text = "";
  while (text.length < 4096) {
    state = (state * 1103515245 + 12345) >>> 0;
    text += (state >>> 8).toString(36);
  }
  return `round ${round}\n${text.slice(0, 4096 - 12)}\n`;
}

/** The pid of the browser process launched on `dir` (the one without `--type=`: not a renderer or helper). */
export function browserPid(dir) {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let cmdline;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
    } catch {
      continue;
    }
    const args = cmdline.split("\0");
    if (args.includes(`--user-data-dir=${dir}`) && !args.some((arg) => arg.startsWith("--type="))) return Number(name);
  }
  throw new Error(`no browser process on ${dir}`);
}

/**
 * git's own text formats, for the `git` command: `git diff` patches, `git log` dates, the
 * `git commit` summary. Pure functions over data.
 *
 * @module
 */
import { structuredPatch } from "diff";

/** One side of a changed file: its blob id, mode (e.g. `0o100644`) and bytes; absent on the side where the file is missing. */
export interface DiffSide {
  readonly oid: string;
  readonly mode: number;
  readonly bytes: Uint8Array;
}

/** A file that differs between two trees (or a tree and the index, or the index and the files). */
export interface FileChange {
  /** Path relative to the repository, `/`-separated. */
  readonly path: string;
  readonly before?: DiffSide;
  readonly after?: DiffSide;
}

/** The 7-character abbreviation git prints for an object id in small repositories. */
export function shortOid(oid: string): string {
  return oid.slice(0, 7);
}

function isBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8000);
  return head.includes(0);
}

// ignoreBOM keeps a byte order mark as text: it is part of line 1, as git shows it.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The hunks' lines of a text change, in git's unified format (3 lines of context). */
function hunks(before: string, after: string): { text: string; added: number; removed: number } {
  const patch = structuredPatch("a", "b", before, after, undefined, undefined, { context: 3 });
  let text = "";
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    const range = (start: number, count: number) =>
      `${count === 0 ? start - 1 : start}${count === 1 ? "" : `,${count}`}`;
    text += `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@\n`;
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added += 1;
      else if (line.startsWith("-")) removed += 1;
      text += `${line}\n`;
    }
  }
  return { text, added, removed };
}

/** Lines added and removed by a change (0 and 0 for binary files). */
export function lineCounts(change: FileChange): { added: number; removed: number } {
  const before = change.before?.bytes ?? new Uint8Array(0);
  const after = change.after?.bytes ?? new Uint8Array(0);
  if (isBinary(before) || isBinary(after)) return { added: 0, removed: 0 };
  const { added, removed } = hunks(decoder.decode(before), decoder.decode(after));
  return { added, removed };
}

/**
 * One file's part of `git diff`, as git prints it: the `diff --git` header, `new file mode` /
 * `deleted file mode` / `old mode`+`new mode` lines, the `index` line with abbreviated ids,
 * `---`/`+++` and the hunks (or `Binary files ... differ`).
 */
export function formatFileDiff(change: FileChange): string {
  const { path, before, after } = change;
  const mode = (value: number) => value.toString(8).padStart(6, "0");
  let text = `diff --git a/${path} b/${path}\n`;
  const zero = "0000000";
  if (before === undefined && after !== undefined) {
    text += `new file mode ${mode(after.mode)}\nindex ${zero}..${shortOid(after.oid)}\n`;
  } else if (after === undefined && before !== undefined) {
    text += `deleted file mode ${mode(before.mode)}\nindex ${shortOid(before.oid)}..${zero}\n`;
  } else if (before !== undefined && after !== undefined) {
    if (before.mode !== after.mode) {
      text += `old mode ${mode(before.mode)}\nnew mode ${mode(after.mode)}\n`;
      if (before.oid === after.oid) return text;
      text += `index ${shortOid(before.oid)}..${shortOid(after.oid)}\n`;
    } else text += `index ${shortOid(before.oid)}..${shortOid(after.oid)} ${mode(after.mode)}\n`;
  }
  const oldBytes = before?.bytes ?? new Uint8Array(0);
  const newBytes = after?.bytes ?? new Uint8Array(0);
  if (isBinary(oldBytes) || isBinary(newBytes)) {
    return `${text}Binary files ${before === undefined ? "/dev/null" : `a/${path}`} and ${after === undefined ? "/dev/null" : `b/${path}`} differ\n`;
  }
  const body = hunks(decoder.decode(oldBytes), decoder.decode(newBytes)).text;
  if (body === "") return text;
  text += `--- ${before === undefined ? "/dev/null" : `a/${path}`}\n+++ ${after === undefined ? "/dev/null" : `b/${path}`}\n`;
  return text + body;
}

/** The columns `git diff --stat` fits its lines in when not writing to a terminal. */
const STAT_WIDTH = 80;

/**
 * `git diff --stat` as git prints it to a pipe: per file ` name | count +++--` (the graph scaled
 * to fit 80 columns, long names cut to `...tail`, ` Bin X -> Y bytes` for binary files), then
 * the ` N files changed, ...` line; nothing when no file changed.
 *
 * @param changes - the changed files, in git's order.
 * @returns the text, each line ending in `\n`.
 * @example
 * ```ts
 * formatDiffStat([{ path: "a.txt", before, after }]); // " a.txt | 1 +\n 1 file changed, 1 insertion(+)\n"
 * ```
 */
export function formatDiffStat(changes: readonly FileChange[]): string {
  if (changes.length === 0) return "";
  const rows = changes.map((change) => {
    const before = change.before?.bytes ?? new Uint8Array(0);
    const after = change.after?.bytes ?? new Uint8Array(0);
    const binary = isBinary(before) || isBinary(after);
    const { added, removed } = binary ? { added: 0, removed: 0 } : lineCounts(change);
    return { path: change.path, binary, added, removed, sizes: [before.byteLength, after.byteLength] as const };
  });
  const maxChange = Math.max(0, ...rows.map((row) => row.added + row.removed));
  const maxName = Math.max(...rows.map((row) => row.path.length));
  const bin = rows.find((row) => row.binary);
  const numberWidth = Math.max(bin === undefined ? 0 : 3, String(maxChange).length);
  const binWidth = Math.max(
    0,
    ...rows.filter((row) => row.binary).map((row) => `Bin ${row.sizes[0]} -> ${row.sizes[1]} bytes`.length),
  );
  const width = Math.max(STAT_WIDTH, 16 + 6 + numberWidth);
  let graphWidth = maxChange + 4 > binWidth ? maxChange : binWidth - 4;
  let nameWidth = maxName;
  if (nameWidth + numberWidth + 6 + graphWidth > width) {
    if (graphWidth > Math.floor((width * 3) / 8) - numberWidth - 6) {
      graphWidth = Math.max(6, Math.floor((width * 3) / 8) - numberWidth - 6);
    }
    if (nameWidth > width - numberWidth - 6 - graphWidth) nameWidth = width - numberWidth - 6 - graphWidth;
    else graphWidth = width - numberWidth - 6 - nameWidth;
  }
  const scale = (count: number) => (count === 0 ? 0 : 1 + Math.floor((count * (graphWidth - 1)) / maxChange));
  let text = "";
  let added = 0;
  let removed = 0;
  for (const row of rows) {
    let name = row.path;
    if (name.length > nameWidth) {
      // git cuts at a "/" when one is in the kept tail.
      let tail = name.slice(name.length - (nameWidth - 3));
      const slash = tail.indexOf("/");
      if (slash >= 0) tail = tail.slice(slash);
      name = `...${tail}`;
    }
    text += ` ${name.padEnd(nameWidth)} |`;
    if (row.binary) {
      text += ` ${"Bin".padStart(numberWidth)} ${row.sizes[0]} -> ${row.sizes[1]} bytes\n`;
      continue;
    }
    added += row.added;
    removed += row.removed;
    let plus = row.added;
    let minus = row.removed;
    if (graphWidth <= maxChange) {
      let total = scale(plus + minus);
      if (total < 2 && plus > 0 && minus > 0) total = 2;
      if (plus < minus) {
        plus = scale(plus);
        minus = total - plus;
      } else {
        minus = scale(minus);
        plus = total - minus;
      }
    }
    const count = String(row.added + row.removed).padStart(numberWidth);
    text += ` ${count}${row.added + row.removed > 0 ? " " : ""}${"+".repeat(plus)}${"-".repeat(minus)}\n`;
  }
  return text + formatShortStat(rows.length, added, removed);
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A commit time as `git log` prints it by default: `Thu Dec 3 15:21:40 2026 +0000`, in the
 * commit's own time zone.
 *
 * @param timestamp - seconds since the epoch.
 * @param timezoneOffset - isomorphic-git's offset: minutes to add to local time to get UTC (so `-60` is `+0100`).
 */
export function formatGitDate(timestamp: number, timezoneOffset: number): string {
  const local = new Date((timestamp - timezoneOffset * 60) * 1000);
  const minutes = -timezoneOffset;
  const sign = minutes < 0 ? "-" : "+";
  const zone = `${sign}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, "0")}${String(Math.abs(minutes) % 60).padStart(2, "0")}`;
  const time = [local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds()]
    .map((n) => String(n).padStart(2, "0"))
    .join(":");
  return `${DAYS[local.getUTCDay()]} ${MONTHS[local.getUTCMonth()]} ${local.getUTCDate()} ${time} ${local.getUTCFullYear()} ${zone}`;
}

/** The `N files changed, N insertions(+), N deletions(-)` line of `git commit`, with its leading space. */
export function formatShortStat(files: number, added: number, removed: number): string {
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  let text = ` ${plural(files, "file changed", "files changed")}`;
  if (added > 0 || removed === 0) text += `, ${plural(added, "insertion(+)", "insertions(+)")}`;
  if (removed > 0 || added === 0) text += `, ${plural(removed, "deletion(-)", "deletions(-)")}`;
  return `${text}\n`;
}

/**
 * The viewer: the open file with line numbers, and the list of changes, each shown as a diff
 * (the `diff` package's structured patch, 3 lines of context).
 *
 * @module
 */
import { structuredPatch } from "diff";
import { formatBytes, h } from "../ui/dom.js";

/** A change to show: workspace-relative path and the text before and after. */
export interface ViewerChange {
  readonly path: string;
  readonly kind: "created" | "updated" | "deleted" | "renamed";
  /** Text before (undefined for binary, unknown or new). */
  readonly before?: string;
  /** Text after (undefined for binary, unknown or deleted). */
  readonly after?: string;
  readonly from?: string;
  /** Who made it: `agent`, `console`, `terminal`, `import`... */
  readonly source: string;
  /**
   * The command or call that made it: writes to one file one after the other in the same group
   * show as one change (`echo hi > f` truncates, then writes).
   */
  readonly group?: number;
}

/** `next` folded into `last` when both write the same file in the same group, else undefined. */
export function mergeWrites(last: ViewerChange | undefined, next: ViewerChange): ViewerChange | undefined {
  const writes = (change: ViewerChange) => change.kind === "created" || change.kind === "updated";
  if (
    last === undefined ||
    last.group === undefined ||
    last.group !== next.group ||
    last.path !== next.path ||
    !writes(last) ||
    !writes(next)
  ) {
    return undefined;
  }
  return { ...next, kind: last.kind, before: last.before };
}

/** A commit in the Changes list, as `git show` would show it: `git log -1` and the diff. */
export interface ViewerCommit {
  readonly kind: "commit";
  /** `git commit`'s summary line (`[master 1a2b3c4] Agent run: ...`). */
  readonly summary: string;
  /** `git log -1`'s text. */
  readonly log: string;
  /** `git diff`'s text of the committed changes. */
  readonly diff: string;
}

/**
 * An offer above the Changes list (the last agent run: commit it), with at most one button; a
 * busy offer shows its button disabled.
 */
export interface ViewerOffer {
  readonly text: string;
  /** The button: its label, its element id (for tests and links), whether it is busy, what it does. */
  readonly action?: { readonly label: string; readonly id: string; readonly busy?: boolean; run(): void };
}

export type ViewerMode = "file" | "changes";

export interface ViewerPanel {
  showFile(path: string, content: Uint8Array): void;
  /**
   * The open file changed (in this tab or another): show `content` if `path` is still the open
   * file, or say it is gone (`undefined`), without leaving the Changes list if that is showing.
   */
  updateFile(path: string, content: Uint8Array | undefined): void;
  /** Show no file (another workspace opened, without the file to show first). */
  closeFile(): void;
  addChange(change: ViewerChange): void;
  /** Show a commit at the top of the Changes list (it counts as no change). */
  addCommit(commit: ViewerCommit): void;
  /** Show `offer` above the Changes list, or none (`undefined`). */
  setOffer(offer: ViewerOffer | undefined): void;
  /** Forget every change, commit and offer. */
  clearChanges(): void;
  setMode(mode: ViewerMode): void;
  readonly openPath: string | undefined;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** The text of `bytes`, or undefined when it is not valid UTF-8 or holds NUL bytes (binary). */
export function textOf(bytes: Uint8Array | undefined): string | undefined {
  if (bytes === undefined) return undefined;
  try {
    const text = decoder.decode(bytes);
    return text.includes("\0") ? undefined : text;
  } catch {
    return undefined;
  }
}

function diffView(change: ViewerChange): HTMLElement {
  const body = h("div", { class: "diff" });
  let added = 0;
  let removed = 0;
  if (
    change.kind === "deleted" ||
    change.kind === "renamed" ||
    (change.before === undefined && change.kind !== "created") ||
    change.after === undefined
  ) {
    const text =
      change.kind === "renamed"
        ? `renamed from ${change.from}`
        : change.kind === "deleted"
          ? "deleted"
          : "binary or large file: no diff";
    body.append(h("div", { class: "diff-line hunk" }, text));
  } else {
    const patch = structuredPatch(change.path, change.path, change.before ?? "", change.after, "", "", { context: 3 });
    for (const hunk of patch.hunks) {
      body.append(
        h(
          "div",
          { class: "diff-line hunk" },
          `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
        ),
      );
      for (const line of hunk.lines) {
        const kind = line.startsWith("+")
          ? "add"
          : line.startsWith("-")
            ? "del"
            : line.startsWith("\\")
              ? "hunk"
              : "ctx";
        if (kind === "add") added += 1;
        if (kind === "del") removed += 1;
        body.append(h("div", { class: `diff-line ${kind}` }, line));
      }
    }
    if (patch.hunks.length === 0) body.append(h("div", { class: "diff-line hunk" }, "no change in content"));
  }
  const head = h(
    "div",
    { class: "change-head" },
    h("span", { class: "path" }, change.path),
    h("span", { class: "tag" }, change.kind),
    h("span", { class: "tag" }, change.source),
    added > 0 ? h("span", { class: "stat-add" }, `+${added}`) : null,
    removed > 0 ? h("span", { class: "stat-del" }, `-${removed}`) : null,
  );
  return h("div", { class: "change", "data-change-path": change.path }, head, body);
}

/** The class of one line of `git diff` output: `add`, `del`, `hunk` (`@@`), `meta` (headers) or `ctx`. */
export function gitDiffLineKind(line: string): "add" | "del" | "hunk" | "meta" | "ctx" {
  if (/^(?:diff --git |index |--- |\+\+\+ |new file mode |deleted file mode |Binary files )/.test(line)) return "meta";
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("+")) return "add";
  if (line.startsWith("-")) return "del";
  return "ctx";
}

function commitView(commit: ViewerCommit): HTMLElement {
  const body = h("div", { class: "diff" });
  for (const line of commit.log.replace(/\n$/, "").split("\n"))
    body.append(h("div", { class: "diff-line meta" }, line));
  body.append(h("div", { class: "diff-line ctx" }, ""));
  const diff = commit.diff.replace(/\n$/, "");
  for (const line of diff === "" ? [] : diff.split("\n"))
    body.append(h("div", { class: `diff-line ${gitDiffLineKind(line)}` }, line));
  const head = h(
    "div",
    { class: "change-head" },
    h("span", { class: "path" }, commit.summary),
    h("span", { class: "tag" }, "commit"),
  );
  return h("div", { class: "change commit" }, head, body);
}

function offerView(offer: ViewerOffer): HTMLElement {
  const action = offer.action;
  return h(
    "div",
    { class: "change-offer", role: "status" },
    h("span", {}, offer.text),
    action === undefined
      ? null
      : h(
          "button",
          { type: "button", id: action.id, disabled: action.busy === true, onclick: () => action.run() },
          action.label,
        ),
  );
}

export function createViewerPanel(options: {
  container: HTMLElement;
  title: HTMLElement;
  count: HTMLElement;
  onMode(mode: ViewerMode): void;
  /** Called after the changes were cleared (another workspace, a reset): what was offered is over. */
  onClearChanges?(): void;
}): ViewerPanel {
  const changes: Array<ViewerChange | ViewerCommit> = [];
  let offer: ViewerOffer | undefined;
  let mode: ViewerMode = "file";
  let openPath: string | undefined;
  let fileRenders = 0;
  const noFile = () =>
    h(
      "div",
      { class: "empty" },
      "Pick a file in the tree. Edits made by the agent, the console or the terminal show up under Changes as diffs.",
    );
  let fileView: HTMLElement = noFile();

  const viewOf = (path: string, content: Uint8Array): HTMLElement => {
    const text = textOf(content);
    if (text === undefined) return h("div", { class: "empty" }, `Binary file, ${formatBytes(content.byteLength)}.`);
    const lines = text.split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const code = h("div", { class: "code", "data-file": path });
    lines.forEach((line, index) =>
      code.append(h("span", { class: "ln" }, String(index + 1)), h("span", { class: "tx" }, line)),
    );
    return code;
  };

  const render = () => {
    if (mode === "file") {
      options.title.textContent = openPath ?? "No file open";
      options.container.replaceChildren(fileView);
    } else {
      options.title.textContent = `Changes in this session`;
      options.container.replaceChildren(
        ...(offer === undefined ? [] : [offerView(offer)]),
        changes.length === 0
          ? h("div", { class: "empty" }, "No changes yet.")
          : h(
              "div",
              { class: "changes" },
              ...[...changes]
                .reverse()
                .map((change) => (change.kind === "commit" ? commitView(change) : diffView(change))),
            ),
      );
      options.container.scrollTop = 0;
    }
  };

  return {
    get openPath() {
      return openPath;
    },
    showFile(path, content) {
      openPath = path;
      fileView = viewOf(path, content);
      mode = "file";
      options.onMode(mode);
      render();
      // Counts file renders, so a caller (or a test) can tell a fresh render from the previous one.
      fileRenders += 1;
      options.container.dataset.fileRenders = String(fileRenders);
    },
    closeFile() {
      openPath = undefined;
      fileView = noFile();
      if (mode === "file") render();
    },
    updateFile(path, content) {
      if (path !== openPath) return;
      fileView =
        content === undefined
          ? h("div", { class: "empty", "data-gone": path }, `${path} no longer exists.`)
          : viewOf(path, content);
      if (mode !== "file") return;
      const scroll = options.container.scrollTop;
      render();
      options.container.scrollTop = scroll;
    },
    addChange(change) {
      const last = changes[changes.length - 1];
      const merged = mergeWrites(last?.kind === "commit" ? undefined : last, change);
      if (merged === undefined) changes.push(change);
      else changes[changes.length - 1] = merged;
      options.count.textContent = String(changes.filter((entry) => entry.kind !== "commit").length);
      if (mode === "changes") render();
    },
    addCommit(commit) {
      changes.push(commit);
      if (mode === "changes") render();
    },
    setOffer(next) {
      offer = next;
      if (mode === "changes") render();
    },
    clearChanges() {
      changes.length = 0;
      offer = undefined;
      options.count.textContent = "0";
      if (mode === "changes") render();
      options.onClearChanges?.();
    },
    setMode(next) {
      mode = next;
      options.onMode(mode);
      render();
    },
  };
}

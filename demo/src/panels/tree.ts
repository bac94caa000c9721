/**
 * The file tree: the workspace's files, refreshed whenever anything changes them. Recently
 * changed files carry a dot.
 *
 * @module
 */
import { formatBytes, h } from "../ui/dom.js";

export interface TreeFile {
  /** Workspace-relative path. */
  readonly path: string;
  readonly size: number;
}

interface DirNode {
  readonly dirs: Map<string, DirNode>;
  readonly files: TreeFile[];
}

export interface TreePanel {
  render(files: readonly TreeFile[]): void;
  markChanged(path: string): void;
  setOpen(path: string | undefined): void;
}

export function createTreePanel(options: {
  container: HTMLElement;
  count: HTMLElement;
  onOpen(path: string): void;
}): TreePanel {
  const changed = new Set<string>();
  const collapsed = new Set<string>();
  let open: string | undefined;
  let files: readonly TreeFile[] = [];

  const build = (): DirNode => {
    const root: DirNode = { dirs: new Map(), files: [] };
    for (const file of files) {
      const segments = file.path.split("/");
      let node = root;
      for (const segment of segments.slice(0, -1)) {
        let next = node.dirs.get(segment);
        if (!next) {
          next = { dirs: new Map(), files: [] };
          node.dirs.set(segment, next);
        }
        node = next;
      }
      node.files.push(file);
    }
    return root;
  };

  const renderDir = (node: DirNode, prefix: string): HTMLUListElement => {
    const list = h("ul");
    for (const name of [...node.dirs.keys()].sort()) {
      const path = `${prefix}${name}`;
      const details = h(
        "details",
        { open: !collapsed.has(path), "data-dir": path },
        h("summary", {}, `${name}/`),
        renderDir(node.dirs.get(name)!, `${path}/`),
      );
      details.addEventListener("toggle", () => {
        if (details.open) collapsed.delete(path);
        else collapsed.add(path);
      });
      list.append(h("li", {}, details));
    }
    for (const file of [...node.files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
      const name = file.path.slice(prefix.length);
      const classes = ["file", file.path === open ? "open" : "", changed.has(file.path) ? "changed" : ""]
        .filter(Boolean)
        .join(" ");
      list.append(
        h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              class: classes,
              "data-path": file.path,
              title: file.path,
              onclick: () => options.onOpen(file.path),
            },
            name,
            h("span", { class: "size" }, formatBytes(file.size)),
          ),
        ),
      );
    }
    return list;
  };

  const render = () => {
    const scroll = options.container.scrollTop;
    options.container.replaceChildren(
      files.length === 0 ? h("div", { class: "empty" }, "The workspace is empty.") : renderDir(build(), ""),
    );
    options.container.scrollTop = scroll;
    const bytes = files.reduce((sum, file) => sum + file.size, 0);
    options.count.textContent = `${files.length} files · ${formatBytes(bytes)}`;
  };

  return {
    render(next) {
      files = next;
      for (const path of changed) if (!files.some((file) => file.path === path)) changed.delete(path);
      render();
    },
    markChanged(path) {
      changed.add(path);
    },
    setOpen(path) {
      open = path;
      render();
    },
  };
}

/** Tiny DOM helpers: the playground uses plain DOM, no framework. */

type Child = Node | string | null | undefined | false;

/** Create an element with attributes (`class`, `data-*`, properties for the rest) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | undefined | ((event: Event) => void)> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(key.replace(/^on/, ""), value);
    else if (
      key === "class" ||
      key.startsWith("data-") ||
      key.startsWith("aria-") ||
      key === "role" ||
      key === "title"
    ) {
      element.setAttribute(key, String(value));
    } else (element as unknown as Record<string, unknown>)[key] = value;
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** The element with this id; throws if the page lacks it (a broken index.html). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html has no #${id}`);
  return element as T;
}

/** `1.2 KB`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Wire a tab list: buttons with `data-<attribute>` select the matching body. */
export function wireTabs(
  buttons: NodeListOf<HTMLButtonElement>,
  attribute: string,
  onSelect: (value: string) => void,
): (value: string) => void {
  const select = (value: string) => {
    for (const button of buttons) button.setAttribute("aria-selected", String(button.dataset[attribute] === value));
    onSelect(value);
  };
  for (const button of buttons) button.addEventListener("click", () => select(button.dataset[attribute]!));
  return select;
}

/**
 * The status line under the header: one message at a time, cleared after a while unless sticky.
 *
 * @module
 */

/** How long a message stays before it is cleared, in milliseconds. */
export const STATUS_CLEAR_MS = 8000;

/** Shows `text`; a sticky message stays until the next one, an empty one clears the line. */
export type SetStatus = (text: string, sticky?: boolean) => void;

/** The status line: {@link SetStatus}, and `clear(text)` for a message whose event is over. */
export interface StatusLine extends SetStatus {
  /** Clear the line if it still shows `text` (a later message stays). */
  clear(text: string): void;
}

/** The status line in `element`. */
export function createStatusLine(element: HTMLElement): StatusLine {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const set: SetStatus = (text, sticky = false) => {
    element.textContent = text;
    clearTimeout(timer);
    if (!sticky && text !== "") timer = setTimeout(() => (element.textContent = ""), STATUS_CLEAR_MS);
  };
  return Object.assign(set, {
    clear(text: string) {
      if (element.textContent === text) set("");
    },
  });
}

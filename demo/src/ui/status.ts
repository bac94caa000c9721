/**
 * The status line under the header: one message at a time, cleared after a while unless sticky.
 *
 * @module
 */

/** How long a message stays before it is cleared, in milliseconds. */
export const STATUS_CLEAR_MS = 8000;

/** Shows `text`; a sticky message stays until the next one, an empty one clears the line. */
export type SetStatus = (text: string, sticky?: boolean) => void;

/** The status line in `element`. */
export function createStatusLine(element: HTMLElement): SetStatus {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (text, sticky = false) => {
    element.textContent = text;
    clearTimeout(timer);
    if (!sticky && text !== "") timer = setTimeout(() => (element.textContent = ""), STATUS_CLEAR_MS);
  };
}

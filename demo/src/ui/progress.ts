/**
 * The transfer bar: files and bytes done of the total, and a Cancel button that aborts.
 *
 * @module
 */
import type { TransferProgress } from "../workspace/transfer.js";
import { byId, formatBytes } from "./dom.js";

export interface ProgressBar {
  /** Show the bar for a transfer; returns its signal (aborted by Cancel) and an update function. */
  start(label: string): { signal: AbortSignal; update(progress: TransferProgress): void; done(): void };
}

export function createProgressBar(): ProgressBar {
  const box = byId("progress");
  const label = byId("progress-label");
  const bar = byId<HTMLProgressElement>("progress-bar");
  const cancel = byId<HTMLButtonElement>("progress-cancel");
  let controller: AbortController | undefined;
  cancel.addEventListener("click", () => controller?.abort());
  return {
    start(title) {
      controller?.abort();
      const own = new AbortController();
      controller = own;
      box.hidden = false;
      label.textContent = `${title}…`;
      bar.value = 0;
      return {
        signal: own.signal,
        update(progress) {
          label.textContent = `${title}: ${progress.filesDone} / ${progress.filesTotal} files · ${formatBytes(progress.bytesDone)} / ${formatBytes(progress.bytesTotal)}`;
          bar.value =
            progress.bytesTotal > 0
              ? progress.bytesDone / progress.bytesTotal
              : progress.filesTotal > 0
                ? progress.filesDone / progress.filesTotal
                : 1;
        },
        done() {
          if (controller === own) {
            box.hidden = true;
            controller = undefined;
          }
        },
      };
    },
  };
}

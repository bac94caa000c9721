/**
 * The header's workspace buttons: import a zip or a folder, export a zip (each with a progress
 * bar that can cancel), and reset to the sample project.
 *
 * @module
 */
import { byId, formatBytes } from "../ui/dom.js";
import { askImportMode } from "../ui/import-choice.js";
import type { ProgressBar } from "../ui/progress.js";
import type { SetStatus } from "../ui/status.js";
import type { WorkspaceController } from "../workspace/controller.js";
import { WORKSPACE_ROOT } from "../workspace/session.js";
import {
  exportZip,
  handleFolderEntries,
  importEntries,
  ImportCancelledError,
  inputFolderEntries,
  zipEntries,
  type ImportEntry,
} from "../workspace/transfer.js";

/** How long the exported zip's object URL is kept for the download to start, in milliseconds. */
const EXPORT_URL_LIFETIME_MS = 10_000;

type FolderHandle = Parameters<typeof handleFolderEntries>[0];

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/** Wire the import, export and reset buttons to `workspace`. */
export function wireTransferControls(options: {
  readonly workspace: WorkspaceController;
  readonly progress: ProgressBar;
  readonly setStatus: SetStatus;
}): void {
  const { workspace, progress, setStatus } = options;

  /**
   * Import `what` (its entries read by `entries`): into an empty workspace at once, otherwise
   * after the user chose to replace the files or merge into them.
   */
  async function runImport(what: string, entries: (signal: AbortSignal) => Promise<ImportEntry[]>): Promise<void> {
    const label = `Importing ${what}`;
    const files = (await workspace.current().files()).length;
    const mode = files === 0 ? "merge" : await askImportMode(what, files);
    if (mode === undefined) {
      setStatus(`${label} cancelled.`);
      return;
    }
    const job = progress.start(label);
    try {
      const list = await entries(job.signal);
      const session = workspace.current();
      if (mode === "replace") await session.clear();
      const summary = await session.quiet(() =>
        importEntries(session.gate.fs, WORKSPACE_ROOT, list, { onProgress: job.update, signal: job.signal }),
      );
      await session.flush();
      setStatus(
        `${label}: ${summary.files} files, ${formatBytes(summary.bytes)}${summary.skipped.length ? `; skipped ${summary.skipped.join(", ")}` : ""}.`,
      );
    } catch (error) {
      setStatus(
        error instanceof ImportCancelledError
          ? `${label} cancelled: ${error.summary.files} files, ${formatBytes(error.summary.bytes)} imported.`
          : isAbort(error)
            ? `${label} cancelled.`
            : `${label} failed: ${(error as Error).message}`,
      );
    } finally {
      job.done();
      await workspace.refreshAll();
    }
  }

  const zipInput = byId<HTMLInputElement>("zip-input");
  byId("import-zip").addEventListener("click", () => zipInput.click());
  zipInput.addEventListener("change", () => {
    const file = zipInput.files?.[0];
    zipInput.value = "";
    if (file) void runImport(file.name, async () => zipEntries(new Uint8Array(await file.arrayBuffer())));
  });

  const folderInput = byId<HTMLInputElement>("folder-input");
  byId("import-folder").addEventListener("click", async () => {
    const picker = (window as unknown as { showDirectoryPicker?: () => Promise<FolderHandle> }).showDirectoryPicker;
    if (!picker) {
      folderInput.click();
      return;
    }
    let handle: FolderHandle;
    try {
      handle = await picker();
    } catch {
      return; // the user closed the picker
    }
    void runImport(`${handle.name}/`, (signal) => handleFolderEntries(handle, signal));
  });
  folderInput.addEventListener("change", () => {
    const files = folderInput.files;
    if (files && files.length > 0) {
      const entries = inputFolderEntries(files);
      // Before clearing the input, which empties `files`.
      const folder = files[0]!.webkitRelativePath.split("/")[0];
      folderInput.value = "";
      void runImport(folder ? `${folder}/` : "the folder", async () => entries);
    }
  });

  byId("export-zip").addEventListener("click", async () => {
    const job = progress.start("Exporting workspace.zip");
    try {
      const zip = await exportZip(workspace.current().gate.fs, WORKSPACE_ROOT, {
        onProgress: job.update,
        signal: job.signal,
      });
      const url = URL.createObjectURL(new Blob([zip as Uint8Array<ArrayBuffer>], { type: "application/zip" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = "workspace.zip";
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), EXPORT_URL_LIFETIME_MS);
      setStatus(`Exported workspace.zip (${formatBytes(zip.byteLength)}).`);
    } catch (error) {
      setStatus(isAbort(error) ? "Export cancelled." : `Export failed: ${(error as Error).message}`);
    } finally {
      job.done();
    }
  });

  byId("reset").addEventListener("click", async () => {
    if (!confirm("Delete every file in this workspace and load the sample project again?")) return;
    await workspace.reset();
  });
}

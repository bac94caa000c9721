/**
 * Before an import into a workspace that has files: replace them, merge into them, or cancel.
 * Nothing is overwritten without the user choosing.
 *
 * @module
 */
import { byId } from "./dom.js";

/** What to do with the files already in the workspace. */
export type ImportMode = "replace" | "merge";

/**
 * Ask how to import `what` into a workspace of `files` files.
 *
 * @returns `"replace"` (delete every file first), `"merge"` (same-named files are overwritten,
 *   the others kept), or undefined when the user cancelled (Escape or Cancel).
 */
export function askImportMode(what: string, files: number): Promise<ImportMode | undefined> {
  const dialog = byId<HTMLDialogElement>("import-dialog");
  byId("import-text").textContent =
    `The workspace has ${files} ${files === 1 ? "file" : "files"}. Replace them with ${what}, or merge ${what} into them (files with the same name are overwritten)?`;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        const value = dialog.returnValue;
        resolve(value === "replace" || value === "merge" ? value : undefined);
      },
      { once: true },
    );
    dialog.showModal();
    byId("import-cancel").focus();
  });
}

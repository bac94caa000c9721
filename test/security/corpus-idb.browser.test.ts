/**
 * The attack corpus in real Chromium through every target, on IndexedDB (a memory workspace
 * persisted in real IndexedDB); it has symlinks, so the race rows run, through its no-follow form.
 */
import { IDB_BACKEND, runBrowserCorpus } from "./browser-backends.js";

runBrowserCorpus(IDB_BACKEND, true);

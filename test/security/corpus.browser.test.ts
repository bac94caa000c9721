/**
 * The attack corpus in real Chromium: through the gate, the gated FileSystem, the workspace
 * handle and the first tool target, on the memory backend and on OPFS (main thread); every tool
 * runs it on opfs-mirror here and on memory and node in the Node project. The other browser
 * backends have a file each: corpus-opfs-worker, corpus-idb, corpus-opfs-mirror.
 */
import { MEMORY_BACKEND, OPFS_MAIN_BACKEND, runBrowserCorpus } from "./browser-backends.js";

runBrowserCorpus(MEMORY_BACKEND, true);
runBrowserCorpus(OPFS_MAIN_BACKEND, false);

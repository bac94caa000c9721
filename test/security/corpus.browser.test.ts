/**
 * The attack corpus in real Chromium through every target (the gate, the gated FileSystem, the
 * workspace handle, and every tool: read/write/list, edit, apply_patch Add File and Update File,
 * glob and grep, bash), on the memory backend and on OPFS (main thread). The other browser
 * backends have a file each: corpus-opfs-worker, corpus-idb, corpus-opfs-mirror, and the mirror's
 * reader tab corpus-mirror-tabs.
 */
import { MEMORY_BACKEND, OPFS_MAIN_BACKEND, runBrowserCorpus } from "./browser-backends.js";

runBrowserCorpus(MEMORY_BACKEND, true);
runBrowserCorpus(OPFS_MAIN_BACKEND, false);

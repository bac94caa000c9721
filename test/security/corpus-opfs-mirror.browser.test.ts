/**
 * The attack corpus in real Chromium through every target, on the OPFS mirror (memory working set, journal in OPFS); no symlinks (no call makes one and the
 * journal has no record for one), so the race rows are replaced by the checks that it refuses them.
 */
import { OPFS_MIRROR_BACKEND, runBrowserCorpus } from "./browser-backends.js";

runBrowserCorpus(OPFS_MIRROR_BACKEND, false);

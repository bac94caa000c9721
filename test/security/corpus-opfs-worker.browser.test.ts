/**
 * The attack corpus in real Chromium through every target, on OPFS through its dedicated Worker (sync access handles); no symlinks, so the race rows are
 * replaced by the checks that it refuses them.
 */
import { OPFS_WORKER_BACKEND, runBrowserCorpus } from "./browser-backends.js";

runBrowserCorpus(OPFS_WORKER_BACKEND, false);

/**
 * The attack corpus through every tool (read, write, list, edit, apply_patch, glob, grep, bash
 * on just-bash) on every backend available in Node (memory, node). The browser backends run the
 * same tool targets, and the core ones, in Chromium (corpus*.browser.test.ts beside this file).
 */
import { describe } from "vitest";
import { NODE_CORPUS_BACKENDS } from "./backends.js";
import { runSecurityCorpus } from "./corpus.js";
import { TOOL_TARGETS } from "./targets.js";

describe("security corpus through the tools", () => {
  for (const { name: backendName, backend, destroy, independent } of NODE_CORPUS_BACKENDS) {
    for (const { name, target, skip, contained } of TOOL_TARGETS) {
      runSecurityCorpus({
        name: `${name} on ${backendName}`,
        backend,
        destroy,
        target,
        shareDeepFixtures: independent === true,
        ...(skip === undefined ? {} : { skip }),
        ...(contained === undefined ? {} : { contained }),
      });
    }
  }
});

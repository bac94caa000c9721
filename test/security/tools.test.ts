/**
 * The attack corpus through every tool (read, write, list, edit, apply_patch, glob, grep, bash
 * on just-bash) on every backend available in Node (memory, node).
 */
import { describe } from "vitest";
import { NODE_CORPUS_BACKENDS } from "./backends.js";
import { runSecurityCorpus } from "./corpus.js";
import { TOOL_TARGETS } from "./targets.js";

// Known gap (reported): apply_patch adding a file under many new directories on the Node backend
// ran past 60 s at 2,000 names (and under load at 200 odd names); the write tool, bash and the
// other backends create the same paths.
const SLOW_DEEP_ADDS = {
  "deep-path: 2,000 names, missing (write)": "apply_patch Add File on node makes 2,000 directories too slowly",
  "deep-path: 200 odd legal names, missing (write)":
    "apply_patch Add File on node makes 200 directories too slowly under load",
};

describe("security corpus through the tools", () => {
  for (const { name: backendName, backend, destroy } of NODE_CORPUS_BACKENDS) {
    for (const { name, target, skip } of TOOL_TARGETS) {
      const backendSkip =
        backendName === "node" && name.startsWith("apply_patch tool (Add File)") ? SLOW_DEEP_ADDS : {};
      runSecurityCorpus({
        name: `${name} on ${backendName}`,
        backend,
        destroy,
        target,
        skip: { ...backendSkip, ...skip },
      });
    }
  }
});

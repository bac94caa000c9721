// ai-sdk-adapter.txt, "A patch signature with a grammar", as written with our package names (the
// spec's `applyPatch` is exported so the test can use it).
import { createAiSdkApplyPatchTool } from "better-fs-tools/ai-sdk";
import { nodeFileSystem } from "better-fs-tools/node";
import { freeformPatchSignature } from "better-fs-tools";

const cwd = process.cwd();
export const applyPatch = createAiSdkApplyPatchTool({
  fs: nodeFileSystem({ cwd, allowedRoots: [cwd] }),
  signature: freeformPatchSignature(),
});

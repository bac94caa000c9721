// ai-sdk-adapter.txt, "Bundle options", as written with our package names (the spec's `bundle`
// is exported so the test can use it).
import { createAiSdkFsTools } from "better-fs-tools/ai-sdk";
import { nodeCommandRunner, nodeFileSystem } from "better-fs-tools/node";
import { memoryStore } from "better-fs-tools";
import { shellEnv } from "better-fs-tools/shell";

const cwd = process.cwd();
export const bundle = createAiSdkFsTools({
  fs: nodeFileSystem({ cwd, allowedRoots: [cwd] }),
  state: memoryStore(),
  read: { converters: [] },
  applyPatch: true,
  bash: { runner: nodeCommandRunner({ cwd }), env: shellEnv(() => process.env) },
});

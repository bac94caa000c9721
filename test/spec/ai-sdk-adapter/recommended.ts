// ai-sdk-adapter.txt, "Recommended configuration" (first example), as written with our package names.
import { createAiSdkFsTools } from "better-fs-tools/ai-sdk";
import { nodeCommandRunner, nodeDigest, nodeFileSystem } from "better-fs-tools/node";
import { shellEnv } from "better-fs-tools/shell";

const cwd = process.cwd();
export const { tools } = createAiSdkFsTools({
  fs: nodeFileSystem({ cwd, allowedRoots: [cwd] }),
  digest: nodeDigest(), // faster on Node than the default sha256Digest()
  bash: { runner: nodeCommandRunner({ cwd }), env: shellEnv(() => process.env) },
});

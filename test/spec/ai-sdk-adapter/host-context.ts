// ai-sdk-adapter.txt, "Host context", as written with our package names.
import { jsonSchema } from "ai";
import { createAiSdkFsTools } from "better-fs-tools/ai-sdk";
import { nodeFileSystem } from "better-fs-tools/node";

interface Workspace {
  readonly root: string;
}

export const { tools } = createAiSdkFsTools<Workspace>({
  contextSchema: jsonSchema<Workspace>({
    type: "object",
    properties: { root: { type: "string" } },
    required: ["root"],
    additionalProperties: false,
  }),
  fs: (call) => nodeFileSystem({ cwd: call.host.context.root, allowedRoots: [call.host.context.root] }),
});

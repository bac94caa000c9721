/**
 * The type-level statements of ai-sdk-adapter.txt, checked by tsc (run from the last test of
 * test/spec/ai-sdk-adapter.test.ts, with the example modules of test/spec/ai-sdk-adapter/).
 * Nothing here runs.
 */
import { jsonSchema, type ToolSet } from "ai";
import { expectTypeOf } from "vitest";
import {
  createAiSdkBashTool,
  createAiSdkEditTool,
  createAiSdkFsTools,
  createAiSdkReadTool,
  type AiSdkFsTool,
} from "better-fs-tools/ai-sdk";
import {
  createReadTool,
  type ApplyPatchInput,
  type BashInput,
  type CommandRunner,
  type FileSystem,
  type MutationResult,
  type ReadInput,
  type ReadResult,
  type ShellResult,
} from "better-fs-tools";
import { tools as recommended } from "./ai-sdk-adapter/recommended.js";
import { bundle } from "./ai-sdk-adapter/bundle-options.js";
import { tools as perWorkspace } from "./ai-sdk-adapter/host-context.js";

declare const fs: FileSystem;
declare const runner: CommandRunner;

// "The result": when you set applyPatch or bash, the result type makes that property non-null.
expectTypeOf(recommended.bash).toEqualTypeOf<AiSdkFsTool<BashInput, ShellResult>>();
expectTypeOf(recommended).not.toHaveProperty("apply_patch");
expectTypeOf(bundle.tools.apply_patch).toEqualTypeOf<AiSdkFsTool<ApplyPatchInput, MutationResult>>();
expectTypeOf(bundle.tools.bash).toEqualTypeOf<AiSdkFsTool<BashInput, ShellResult>>();
expectTypeOf(createAiSdkFsTools({ fs, applyPatch: true }).tools).not.toHaveProperty("bash");
expectTypeOf(createAiSdkFsTools({ fs, bash: { runner, env: {} } }).tools.bash).toEqualTypeOf<
  AiSdkFsTool<BashInput, ShellResult>
>();
expectTypeOf(recommended).toExtend<ToolSet>();

// "Host context": the type argument of a factory is the type of context.
interface Workspace {
  readonly root: string;
}
const contextSchema = jsonSchema<Workspace>({
  type: "object",
  properties: { root: { type: "string" } },
  required: ["root"],
  additionalProperties: false,
});
expectTypeOf(perWorkspace.read).toEqualTypeOf<AiSdkFsTool<ReadInput, ReadResult, Workspace>>();
createAiSdkFsTools<Workspace>({
  contextSchema,
  fs: (call) => {
    expectTypeOf(call.host.context).toEqualTypeOf<Workspace>();
    return fs;
  },
  state: (call) => {
    expectTypeOf(call.host.context.root).toEqualTypeOf<string>();
    return undefined as never;
  },
});
const single = createAiSdkReadTool<Workspace>({
  contextSchema,
  fs: (call) => {
    expectTypeOf(call.host.context).toEqualTypeOf<Workspace>();
    return fs;
  },
});
expectTypeOf(single).toEqualTypeOf<AiSdkFsTool<ReadInput, ReadResult, Workspace>>();
createAiSdkEditTool<Workspace>({ contextSchema, fs: (call) => (call.host.context.root === "/" ? fs : fs) });
createAiSdkBashTool<Workspace>({ contextSchema, runner, env: {} });

// "Model output": a core tool is a function of its input, and keeps execute.
const readFile = createReadTool({ fs });
expectTypeOf(readFile({ path: "/notes.txt" })).toEqualTypeOf<Promise<ReadResult>>();
expectTypeOf(readFile.execute({ path: "/notes.txt" })).toEqualTypeOf<Promise<ReadResult>>();

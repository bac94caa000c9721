/**
 * Type tests of the AI SDK adapter, checked by `tsc -p test/ai-sdk/tsconfig.json` (run from
 * test/ai-sdk/types.test.ts). Nothing here runs.
 */
import type { Tool, ToolSet } from "ai";
import { expectTypeOf } from "vitest";
import { z } from "zod";
import { createAiSdkFsTools, createAiSdkReadTool, type AiSdkFsTool } from "../../src/ai-sdk/index.js";
import type { FileSystem } from "../../src/contract/types.js";
import type { ApplyPatchInput } from "../../src/tools/apply-patch/index.js";
import type { BashInput } from "../../src/tools/bash/index.js";
import type { GlobInput } from "../../src/tools/glob/index.js";
import type { GrepInput } from "../../src/tools/grep/index.js";
import type { ListInput } from "../../src/tools/list/index.js";
import type { ReadInput } from "../../src/tools/read/index.js";
import type { MutationResult, ReadResult, SearchResult, ShellResult } from "../../src/tools/kit/result.js";
import type { ToolSignature } from "../../src/tools/kit/tool.js";
import type { CommandRunner } from "../../src/contract/runner.js";

declare const fs: FileSystem;
declare const runner: CommandRunner;

// Without applyPatch and bash: read, edit, write; no apply_patch, list, glob, grep or bash key.
const plain = createAiSdkFsTools({ fs });
expectTypeOf(plain.tools.read).toEqualTypeOf<AiSdkFsTool<ReadInput, ReadResult>>();
expectTypeOf(plain.tools.edit).toExtend<Tool>();
expectTypeOf(plain.tools).not.toHaveProperty("apply_patch");
expectTypeOf(plain.tools).not.toHaveProperty("bash");
expectTypeOf(plain.tools).not.toHaveProperty("grep");
// @ts-expect-error apply_patch is absent without applyPatch
plain.tools.apply_patch;
// The tool set goes into generateText as it is.
expectTypeOf(plain.tools).toExtend<ToolSet>();

// applyPatch set: the apply_patch key is non-optional.
const withPatch = createAiSdkFsTools({ fs, applyPatch: true });
expectTypeOf(withPatch.tools.apply_patch).toEqualTypeOf<AiSdkFsTool<ApplyPatchInput, MutationResult>>();
expectTypeOf(withPatch.tools).not.toHaveProperty("bash");

// Any tool can be added (list, glob, grep) or left out (false); write: false leaves out edit and apply_patch.
const scoped = createAiSdkFsTools({ fs, read: false, list: true, glob: {}, grep: { maxMatches: 10 }, bash: false });
expectTypeOf(scoped.tools.list).toEqualTypeOf<AiSdkFsTool<ListInput, SearchResult>>();
expectTypeOf(scoped.tools.glob).toEqualTypeOf<AiSdkFsTool<GlobInput, SearchResult>>();
expectTypeOf(scoped.tools.grep).toEqualTypeOf<AiSdkFsTool<GrepInput, SearchResult>>();
expectTypeOf(scoped.tools).not.toHaveProperty("bash");
expectTypeOf(scoped.tools).not.toHaveProperty("read");
const readOnly = createAiSdkFsTools({ fs, write: false, grep: true });
expectTypeOf(readOnly.tools.read).toEqualTypeOf<AiSdkFsTool<ReadInput, ReadResult>>();
expectTypeOf(readOnly.tools).not.toHaveProperty("write");
expectTypeOf(readOnly.tools).not.toHaveProperty("edit");
expectTypeOf(readOnly.tools).not.toHaveProperty("apply_patch");
expectTypeOf(readOnly.tools).toExtend<ToolSet>();
expectTypeOf(withPatch.tools).toExtend<ToolSet>();

// bash set: the bash key is non-optional.
const withBash = createAiSdkFsTools({ fs, applyPatch: { maxFileBytes: 1024 }, bash: { runner, env: {} } });
expectTypeOf(withBash.tools.bash).toEqualTypeOf<AiSdkFsTool<BashInput, ShellResult>>();
expectTypeOf(withBash.tools.apply_patch).toEqualTypeOf<AiSdkFsTool<ApplyPatchInput, MutationResult>>();
expectTypeOf(withBash.tools).toExtend<ToolSet>();

// Options typed wide (unknown at compile time): the keys are optional.
declare const wide: { fs: FileSystem; applyPatch?: true };
const maybe = createAiSdkFsTools(wide);
expectTypeOf(maybe.tools.apply_patch).toEqualTypeOf<AiSdkFsTool<ApplyPatchInput, MutationResult> | undefined>();

// A signature with a literal name renames the key and types the model input.
declare const view: ToolSignature<ReadInput, { file: string }, ReadResult> & { readonly name: "view" };
const renamed = createAiSdkFsTools({ fs, read: { signature: view } });
expectTypeOf(renamed.tools.view).toEqualTypeOf<AiSdkFsTool<{ file: string }, ReadResult>>();
// @ts-expect-error the read key is gone once renamed
renamed.tools.read.execute;

// contextSchema types each tool's context.
const withContext = createAiSdkFsTools({ fs, contextSchema: z.object({ user: z.string() }) });
expectTypeOf(withContext.tools.read).toEqualTypeOf<AiSdkFsTool<ReadInput, ReadResult, { user: string }>>();

// Single factories: model input from the signature, else the core input.
expectTypeOf(createAiSdkReadTool({ fs })).toEqualTypeOf<AiSdkFsTool<ReadInput, ReadResult>>();
expectTypeOf(createAiSdkReadTool({ fs, signature: view })).toEqualTypeOf<AiSdkFsTool<{ file: string }, ReadResult>>();

// Bad options do not compile.
// @ts-expect-error bash needs an object
createAiSdkFsTools({ fs, bash: true });
// @ts-expect-error unknown option
createAiSdkFsTools({ fs, reed: {} });
// @ts-expect-error a shared key inside one tool's options
createAiSdkFsTools({ fs, read: { digest: async () => "" } });

// Strict mode sends null for an optional parameter left out: execute accepts it (trial finding 12).
type ReadExecuteInput = Parameters<NonNullable<typeof plain.tools.read.execute>>[0];
expectTypeOf<{ path: string; offset: null; limit: null }>().toExtend<ReadExecuteInput>();
expectTypeOf<{ path: string; offset: number }>().toExtend<ReadExecuteInput>();
// @ts-expect-error path is required and never null
expectTypeOf<{ path: null }>().toExtend<ReadExecuteInput>();

// ai-sdk-adapter.txt, "Single tools" (one store and one lock manager for three single tools), as
// written with our package names (the spec's `tools` is exported so the test can use it).
import { createAiSdkEditTool, createAiSdkReadTool, createAiSdkWriteTool } from "better-fs-tools/ai-sdk";
import { nodeFileSystem } from "better-fs-tools/node";
import { memoryStore } from "better-fs-tools";
import { memoryLocks } from "better-fs-tools";

const cwd = process.cwd();
const fs = nodeFileSystem({ cwd, allowedRoots: [cwd] });
const state = memoryStore();
const locks = memoryLocks();
const read = createAiSdkReadTool({ fs, state });
const edit = createAiSdkEditTool({ fs, state, locks });
const write = createAiSdkWriteTool({ fs, state, locks });
export const tools = { [read.name]: read, [edit.name]: edit, [write.name]: write };

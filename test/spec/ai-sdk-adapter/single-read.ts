// ai-sdk-adapter.txt, "Single tools" (a read tool with a new name and a line range), as written
// with our package names (the spec's `read` is exported so the test can use it).
import { generateText, isStepCount } from "ai";
import type { LanguageModel } from "ai";
import { createAiSdkReadTool } from "better-fs-tools/ai-sdk";
import { nodeFileSystem } from "better-fs-tools/node";
import { lineRangeSignature } from "better-fs-tools";

const cwd = process.cwd();
export const read = createAiSdkReadTool({
  fs: nodeFileSystem({ cwd, allowedRoots: [cwd] }),
  signature: lineRangeSignature({
    name: "read_file",
    names: { path: "file_path", start: "start_line", end: "end_line" },
  }),
});

export async function ask(model: LanguageModel, prompt: string): Promise<string> {
  const result = await generateText({
    model,
    prompt,
    tools: { [read.name]: read },
    stopWhen: isStepCount(5),
  });
  return result.text;
}

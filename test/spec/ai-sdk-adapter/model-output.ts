// ai-sdk-adapter.txt, "Model output", as written with our package names (the spec's `readNotes`
// is exported so the test can use it).
import { jsonSchema, tool } from "ai";
import { toAiSdkOutput } from "better-fs-tools/ai-sdk";
import { memoryFileSystem } from "better-fs-tools/memory";
import { createReadTool } from "better-fs-tools";

const fs = memoryFileSystem({ files: { "/notes.txt": "one\n" } });
const readFile = createReadTool({ fs });

export const readNotes = tool({
  description: "Read the notes file.",
  inputSchema: jsonSchema<Record<string, never>>({
    type: "object",
    properties: {},
    additionalProperties: false,
  }),
  execute: () => readFile({ path: "/notes.txt" }),
  toModelOutput: ({ output }) => toAiSdkOutput(output),
});

/**
 * Worker entry for worker.browser.test.ts: the whole adapter inside a dedicated Worker. Runs a
 * scripted two-step generateText over a memory fs and posts what the model was sent.
 */
import { generateText, isStepCount } from "ai";
import { createAiSdkFsTools } from "../../src/ai-sdk/index.js";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { memoryStore } from "../../src/tools/kit/state.js";
import { scriptedModel, toolOutputsSentAt } from "./mock-model.js";

self.onmessage = async () => {
  try {
    const fs = memoryFileSystem({ files: { "/notes.txt": "one\n" } });
    const { tools } = createAiSdkFsTools({ fs, state: memoryStore(), applyPatch: true });
    const model = scriptedModel([
      { calls: [{ tool: "read", input: { path: "/notes.txt", offset: null, limit: null } }] },
      {
        calls: [
          {
            tool: "apply_patch",
            input: { patch: "*** Begin Patch\n*** Update File: /notes.txt\n@@\n-one\n+uno\n*** End Patch" },
          },
        ],
      },
      { text: "done" },
    ]);
    const result = await generateText({ model, tools, prompt: "go", stopWhen: isStepCount(5) });
    const content = new TextDecoder().decode(await fs.readFile("/notes.txt"));
    self.postMessage({
      text: result.text,
      outputs: toolOutputsSentAt(model, 2),
      content,
      isWorker:
        typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === "function" &&
        typeof (globalThis as { window?: unknown }).window === "undefined",
    });
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};

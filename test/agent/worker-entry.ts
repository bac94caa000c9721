/**
 * Worker entry for worker.browser.test.ts: the workspace agent inside a dedicated Worker, over
 * OPFS (the workspace and the run cache), driven by a mock model. Runs twice and posts what the
 * model received and what the second run replayed.
 */
import { createWorkspaceAgent, fileRunCache } from "../../src/agent/index.js";
import { opfsFileSystem } from "../../src/backends/opfs/index.js";
import { policyModel, systemOf, toolNamesOf } from "./mock-model.js";

self.onmessage = async (event: MessageEvent<string>) => {
  try {
    const root = event.data;
    const fs = opfsFileSystem({ root: `${root}/workspace` });
    const cacheFs = opfsFileSystem({ root: `${root}/cache` });
    await fs.writeFile("/AGENTS.md", new TextEncoder().encode("Reports go in reports/.\n"));
    await fs.writeFile("/notes/a.md", new TextEncoder().encode("alpha\n"));
    const model = policyModel((options, n) =>
      n === 0 && toolNamesOf(options).includes("write")
        ? { calls: [{ tool: "write", input: { path: "reports/r.md", content: "# Report\nalpha\n" } }] }
        : { text: "report written" },
    );
    const agent = createWorkspaceAgent({
      model,
      fs,
      instructions: "You write reports.",
      cache: fileRunCache(cacheFs, "/runs"),
      inputGlobs: ["notes/*.md"],
      expectedOutputFiles: () => ["reports/r.md"],
    });
    const first = await agent.generate({ prompt: "Write the report." });
    const second = await agent.generate({ prompt: "Write the report." });
    self.postMessage({
      isWorker:
        typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === "function" &&
        typeof (globalThis as { window?: unknown }).window === "undefined",
      system: systemOf(model.doGenerateCalls[0]),
      tools: toolNamesOf(model.doGenerateCalls[0]),
      report: new TextDecoder().decode(await fs.readFile("/reports/r.md")),
      first: { text: first.text, cached: first.cached, modelCalls: first.modelCalls, rounds: first.rounds },
      second: {
        text: second.text,
        cached: second.cached,
        modelCalls: second.modelCalls,
        sameKey: second.key === first.key,
      },
      cacheFiles: (await cacheFs.readdir("/runs")).map((entry) => entry.name).length,
      modelCalls: model.doGenerateCalls.length,
    });
  } catch (error) {
    self.postMessage({ error: String(error), stack: (error as Error).stack });
  }
};

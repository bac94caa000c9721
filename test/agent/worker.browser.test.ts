import { expect, test } from "vitest";

test("the workspace agent runs in a dedicated Worker (Chromium) on OPFS: memory file, write, cache replay", async () => {
  const worker = new Worker(new URL("./worker-entry.ts", import.meta.url), { type: "module" });
  const root = `agent-worker-${crypto.randomUUID()}`;
  try {
    const reply = await new Promise<unknown>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(`worker error: ${event.message}`));
      worker.postMessage(root);
    });
    expect(reply).toStrictEqual({
      isWorker: true,
      system: "You write reports.\n\n# Agent memory (AGENTS.md)\n\nReports go in reports/.\n",
      tools: ["read", "list", "glob", "grep", "write", "edit", "apply_patch"],
      report: "# Report\nalpha\n",
      first: { text: "report written", cached: false, modelCalls: 2, rounds: 1 },
      second: { text: "report written", cached: true, modelCalls: 0, sameKey: true },
      cacheFiles: 1,
      modelCalls: 2,
    });
  } finally {
    worker.terminate();
    await (await navigator.storage.getDirectory()).removeEntry(root, { recursive: true }).catch(() => undefined);
  }
});

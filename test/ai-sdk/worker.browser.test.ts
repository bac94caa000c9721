import { expect, test } from "vitest";

test("the adapter runs inside a dedicated Worker (Chromium): read then apply_patch through generateText", async () => {
  const worker = new Worker(new URL("./worker-entry.ts", import.meta.url), { type: "module" });
  try {
    const reply = await new Promise<unknown>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(`worker error: ${event.message}`));
      worker.postMessage("go");
    });
    expect(reply).toStrictEqual({
      text: "done",
      isWorker: true,
      content: "uno\n",
      outputs: [
        { toolName: "read", output: { type: "content", value: [{ type: "text", text: "1|one" }] } },
        {
          toolName: "apply_patch",
          output: {
            type: "content",
            value: [{ type: "text", text: "Success. Updated the following files:\nM notes.txt" }],
          },
        },
      ],
    });
  } finally {
    worker.terminate();
  }
});

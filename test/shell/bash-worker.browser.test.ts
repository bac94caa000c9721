import { expect, it } from "vitest";

it("in a Worker, the file tools, the bash tool and just-bash share one store", async () => {
  const worker = new Worker(new URL("./bash-worker-fixture.ts", import.meta.url), { type: "module" });
  try {
    const reply = await new Promise((resolve) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.postMessage("go");
    });
    expect(reply).toEqual({
      bash: "a.txt\nb.txt\n[exit code 0]",
      read: "1|FROM THE WRITE TOOL",
      raw: "FROM THE WRITE TOOL\n",
      worker: "function",
    });
  } finally {
    worker.terminate();
  }
});

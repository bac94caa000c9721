/**
 * The mirror's Worker, which fails (an uncaught error, the Worker's `error` event) when the page
 * posts it "die": a Worker failing in the middle of a load.
 */
import "../../../src/backends/opfs-mirror/mirror-worker.js";

self.addEventListener("message", (event: MessageEvent) => {
  if (event.data === "die") throw new Error("the worker died on purpose");
});

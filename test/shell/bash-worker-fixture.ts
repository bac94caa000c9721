// Runs in a dedicated Worker (test/shell/bash-worker.browser.test.ts): one just-bash store shared by
// the file tools and the bash tool, then by just-bash's own Bash over the raw store.
import { justBashFileSystem } from "../../src/shell/just-bash-file-system.js";
import { loadJustBash } from "../../src/shell/just-bash-module.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { resultText } from "../../src/tools/kit/result.js";

self.onmessage = async () => {
  try {
    const { Bash, InMemoryFs } = await loadJustBash();
    const store = new InMemoryFs();
    const tools = createFsTools({ fs: justBashFileSystem(store), cwd: "/" });
    await tools.write.execute({ path: "w/a.txt", content: "from the write tool\n" });
    const bash = resultText(await tools.bash.execute({ command: "cat w/a.txt | tr a-z A-Z > w/b.txt && ls w" }));
    const read = resultText(await tools.read.execute({ path: "w/b.txt" }));
    const raw = (await new Bash({ fs: store, cwd: "/w" }).exec("cat b.txt")).stdout;
    self.postMessage({ bash, read, raw, worker: typeof (self as { WorkerGlobalScope?: unknown }).WorkerGlobalScope });
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};

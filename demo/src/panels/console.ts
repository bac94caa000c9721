/**
 * The tool console: pick a tool, fill its input (JSON, as a model would send it), run it, and
 * see exactly what the model would receive.
 *
 * @module
 */
import type { ToolSet } from "ai";
import type { JSONSchema7 } from "@ai-sdk/provider";
import { fitInput } from "../agent/fit-input.js";
import { callToolAsModel, modelOutputText, toolJsonSchema } from "../agent/tool-call.js";
import { byId, h } from "../ui/dom.js";

/** Example inputs by role for each tool, fitted to the tool's own parameter names. */
const EXAMPLES: Readonly<Record<string, Record<string, unknown>>> = {
  read: { path: "README.md" },
  write: { path: "notes/hello.md", content: "# Hello\n\nWritten from the tool console.\n" },
  edit: { path: "src/config.ts", old: "export const DEFAULT_PORT = 3000;", new: "export const DEFAULT_PORT = 8080;" },
  apply_patch: {
    patch:
      "*** Begin Patch\n*** Add File: docs/faq.md\n+# FAQ\n+\n+Ask away.\n*** Update File: docs/api.md\n@@\n # API reference\n+\n+Version 0.3.\n*** End Patch",
  },
  list: { path: "src" },
  glob: { pattern: "**/*.test.ts" },
  grep: { pattern: "MAX_TITLE_LENGTH", path: "." },
  bash: { command: "ls src && wc -l src/lib/*.ts" },
};

export interface ConsolePanel {
  setTools(tools: ToolSet, order: readonly string[]): void;
}

export function createConsolePanel(options: {
  run<T>(source: string, fn: () => Promise<T>): Promise<T>;
  /** Read the files the call changes that were not read yet (see read-first.ts); the paths read. */
  readFirst(toolName: string, input: unknown): Promise<string[]>;
}): ConsolePanel {
  const select = byId<HTMLSelectElement>("console-tool");
  const input = byId<HTMLTextAreaElement>("console-input");
  const output = byId<HTMLPreElement>("console-output");
  const status = byId("console-status");
  const form = byId<HTMLFormElement>("console-form");
  const runButton = byId<HTMLButtonElement>("console-run");
  const schemaView = byId<HTMLPreElement>("console-schema");
  let tools: ToolSet = {};

  const fillExample = async () => {
    const name = select.value;
    const schema = (await toolJsonSchema(tools, name)) as JSONSchema7;
    input.value = JSON.stringify(fitInput(schema, EXAMPLES[name] ?? {}), null, 2);
    schemaView.textContent = JSON.stringify(schema, null, 2);
    const description = tools[name]?.description;
    const text = typeof description === "string" ? description : "";
    // The description's first paragraph, whole: the line wraps.
    status.textContent = text.split("\n")[0]!;
    status.title = text;
  };
  select.addEventListener("change", () => void fillExample());
  // Ctrl+Enter (Cmd+Enter on a Mac) runs the tool from the input box.
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(input.value);
    } catch (error) {
      output.className = "output error";
      output.textContent = `The input is not valid JSON: ${(error as Error).message}`;
      return;
    }
    const name = select.value;
    runButton.disabled = true;
    output.className = "output";
    output.textContent = name === "bash" ? "Loading just-bash and running…" : "Running…";
    output.removeAttribute("data-output-type");
    const started = performance.now();
    try {
      const {
        output: modelOutput,
        result,
        read,
      } = await options.run("console", async () => {
        const read = await options.readFirst(name, parsed);
        return { ...(await callToolAsModel(tools, name, parsed)), read };
      });
      const failed =
        modelOutput.type.startsWith("error") ||
        (typeof result === "object" && result !== null && (result as { ok?: unknown }).ok === false);
      output.className = failed ? "output error" : "output";
      output.dataset.outputType = modelOutput.type;
      output.textContent = modelOutputText(modelOutput);
      const first = read.length === 0 ? "" : `read ${read.join(", ")} first (a file is read before it is changed) · `;
      status.textContent = `${first}${name}: ${failed ? "error" : "ok"} in ${Math.round(performance.now() - started)} ms · output type "${modelOutput.type}"`;
    } catch (error) {
      output.className = "output error";
      output.textContent = error instanceof Error ? error.message : String(error);
    } finally {
      runButton.disabled = false;
    }
  });

  return {
    setTools(next, order) {
      tools = next;
      const previous = select.value;
      select.replaceChildren(...order.filter((name) => name in next).map((name) => h("option", { value: name }, name)));
      if (previous && previous in next) select.value = previous;
      void fillExample();
    },
  };
}

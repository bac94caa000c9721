/**
 * The playground's offline model: an AI SDK `LanguageModelV4` that needs no key and no network.
 * It is scripted on the loaded workspace: each step looks at the tool results so far (as a real
 * model would, from the prompt) and decides the next call. It lists the files, reads the README,
 * greps for TODO, reads the first file with one and edits it with a real edit call, updates the
 * changelog with apply_patch, runs bash, writes a report (unless asked to skip it), then answers
 * in text. Given the workspace agent's feedback that the report is missing, it writes the report.
 *
 * Deterministic: the same workspace gives the same calls, ids and text.
 *
 * @module
 */
import type {
  JSONSchema7,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FunctionTool,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { fitInput } from "./fit-input.js";

/** Delay between streamed chunks, in milliseconds: enough to watch text stream, short enough for a fast run. */
export const DEFAULT_CHUNK_DELAY_MS = 6;
/** The report the agent writes at the end of its run (workspace-relative). */
export const REPORT_PATH = "AGENT_REPORT.md";
/** The sample project's TODO the script knows how to fix for real. */
const TITLE_TODO = "TODO: reject titles longer than MAX_TITLE_LENGTH";

export interface ScriptedModelOptions {
  /** Delay between streamed chunks in milliseconds. Default {@link DEFAULT_CHUNK_DELAY_MS}; 0 streams as fast as possible. */
  readonly chunkDelayMs?: number;
}

/** One completed tool call, as the model sees it in its prompt. */
interface DoneCall {
  readonly toolName: string;
  readonly input: unknown;
  readonly output: string;
  readonly failed: boolean;
}

/** What the next step does: some text, then (unless final) one tool call. */
interface Action {
  readonly key: string;
  readonly text: string;
  readonly toolName?: string;
  readonly input?: Record<string, unknown>;
}

type Tools = ReadonlyMap<string, LanguageModelV4FunctionTool>;

interface StepContext {
  readonly tools: Tools;
  /** The text of the last user message. */
  readonly request: string;
  /** Outputs of the calls made so far in this turn, by step key. */
  readonly out: ReadonlyMap<string, DoneCall>;
  /** Inputs of the calls made so far, by step key. */
  readonly inputs: ReadonlyMap<string, Record<string, unknown>>;
}

type Step = (context: StepContext) => Action | undefined;

/** The text of a tool result as the model receives it. */
function outputText(output: LanguageModelV4ToolResultOutput): { text: string; failed: boolean } {
  switch (output.type) {
    case "text":
      return { text: output.value, failed: false };
    case "error-text":
      return { text: output.value, failed: true };
    case "json":
      return { text: JSON.stringify(output.value), failed: false };
    case "error-json":
      return { text: JSON.stringify(output.value), failed: true };
    case "execution-denied":
      return { text: `denied${output.reason ? `: ${output.reason}` : ""}`, failed: true };
    case "content":
      return {
        text: output.value.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n"),
        failed: false,
      };
  }
}

/** The calls made since the last user message, in order, with their results. */
function callsSinceLastUser(prompt: LanguageModelV4Prompt): DoneCall[] {
  let start = 0;
  prompt.forEach((message, index) => {
    if (message.role === "user") start = index + 1;
  });
  const inputs = new Map<string, { toolName: string; input: unknown }>();
  const done: DoneCall[] = [];
  for (const message of prompt.slice(start)) {
    if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type === "tool-call") inputs.set(part.toolCallId, { toolName: part.toolName, input: part.input });
      }
    } else if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        const call = inputs.get(part.toolCallId);
        const { text, failed } = outputText(part.output);
        done.push({ toolName: call?.toolName ?? part.toolName, input: call?.input, output: text, failed });
      }
    }
  }
  return done;
}

function inputFor(
  tool: LanguageModelV4FunctionTool,
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return fitInput(tool.inputSchema as JSONSchema7, values);
}

/** Workspace-relative paths mentioned in a listing, in order (`src/app.ts`, `README.md`...). */
function pathsIn(listing: string): string[] {
  const found: string[] = [];
  for (const match of listing.matchAll(/(?:^|[\s|])\.?\/?((?:[\w.-]+\/)*[\w.-]+\.[A-Za-z0-9]+)\b/gm)) {
    const path = match[1]!;
    if (!found.includes(path)) found.push(path);
  }
  return found;
}

/** The text of line `lineNumber` (1-based) in a read result (`N|text` lines), if shown. */
function lineOf(readOutput: string, lineNumber: number): string | undefined {
  for (const line of readOutput.split("\n")) {
    const match = /^\s*(\d+)[|\t](.*)$/.exec(line);
    if (match && Number(match[1]) === lineNumber) return match[2];
  }
  return undefined;
}

/** The file's lines from a read result, without the numbering. */
function linesOf(readOutput: string): string[] {
  const lines: string[] = [];
  for (const line of readOutput.split("\n")) {
    const match = /^\s*\d+[|\t](.*)$/.exec(line);
    if (match) lines.push(match[1]!);
  }
  return lines;
}

/** The first `path:line:text` match of a grep output. */
function firstMatch(grepOutput: string): { path: string; line: number; text: string } | undefined {
  for (const line of grepOutput.split("\n")) {
    const match = /^(?:\.\/)?([^\s:][^:]*):(\d+):(.*)$/.exec(line);
    if (match) return { path: match[1]!, line: Number(match[2]), text: match[3]! };
  }
  return undefined;
}

function countMatches(grepOutput: string): number {
  return grepOutput.split("\n").filter((line) => /^[^\s:][^:]*:\d+:/.test(line)).length;
}

/** The replacement for a TODO line: a real fix for the sample project's one, a triage note otherwise. */
function fixFor(line: string): string {
  const indent = /^\s*/.exec(line)![0];
  if (line.includes(TITLE_TODO)) {
    return [
      `${indent}if (title.trim().length > MAX_TITLE_LENGTH) {`,
      `${indent}  throw new Error(\`title must be at most \${MAX_TITLE_LENGTH} characters\`);`,
      `${indent}}`,
    ].join("\n");
  }
  return line.replace(/TODO:?\s*/, "NOTE (triaged by the playground agent): ");
}

/** Whether the user asked for no report ("skip the report", "without a report"). */
function skipsReport(request: string): boolean {
  return /\b(?:skip|without|no)\b[^.]*\breport\b/i.test(request);
}

/** The workspace agent's feedback turn, when it says the report is missing. */
function reportMissingFeedback(request: string): boolean {
  return (
    request.startsWith("Your result did not pass the checks:") && request.includes(`${REPORT_PATH} does not exist`)
  );
}

/** The report written on feedback: the review itself is in the previous answer. */
const FEEDBACK_REPORT = [
  "# Agent report",
  "",
  "- Written because the host's check asked for it; the review is in the previous answer.",
  "",
  "Written by the playground's offline scripted model.",
  "",
].join("\n");

/** An absolute path the user's message names (`/etc/hosts`), if any. */
function requestedPath(request: string): string | undefined {
  return /(?:^|[\s"'`(])(\/[\w.-]+(?:\/[\w.-]+)*)/.exec(request)?.[1];
}

const STEPS: readonly Step[] = [
  ({ tools, request }) => {
    const path = requestedPath(request);
    if (path === undefined || !tools.has("read")) return undefined;
    return {
      key: "requested",
      text: `You mentioned ${path}, so I'll read it first.`,
      toolName: "read",
      input: inputFor(tools.get("read")!, { path }),
    };
  },
  ({ tools }) => {
    const text = "I'll start by looking at what is in the workspace.";
    if (tools.has("list"))
      return { key: "list", text, toolName: "list", input: inputFor(tools.get("list")!, { path: "." }) };
    if (tools.has("glob"))
      return { key: "list", text, toolName: "glob", input: inputFor(tools.get("glob")!, { pattern: "**/*" }) };
    if (tools.has("bash"))
      return {
        key: "list",
        text,
        toolName: "bash",
        input: inputFor(tools.get("bash")!, { command: "find . -type f | sort" }),
      };
    return undefined;
  },
  ({ tools, out }) => {
    const paths = pathsIn(out.get("list")?.output ?? "");
    const readme =
      paths.find((path) => /^readme(\.md)?$/i.test(path)) ??
      paths.find((path) => /\.(md|txt)$/i.test(path)) ??
      paths[0];
    if (readme === undefined || !tools.has("read")) return undefined;
    return {
      key: "readme",
      text: `Reading ${readme} to understand the project.`,
      toolName: "read",
      input: inputFor(tools.get("read")!, { path: readme }),
    };
  },
  ({ tools }) => {
    const text = "Now let me search the code for TODO comments.";
    if (tools.has("grep"))
      return {
        key: "grep",
        text,
        toolName: "grep",
        input: inputFor(tools.get("grep")!, { pattern: "TODO", path: "." }),
      };
    if (tools.has("bash"))
      return {
        key: "grep",
        text,
        toolName: "bash",
        input: inputFor(tools.get("bash")!, { command: "grep -rn TODO ." }),
      };
    return undefined;
  },
  ({ tools, out }) => {
    const match = firstMatch(out.get("grep")?.output ?? "");
    if (match === undefined || !tools.has("read")) return undefined;
    return {
      key: "readTodo",
      text: `There is a TODO in ${match.path} at line ${match.line}. I'll read the file before editing it.`,
      toolName: "read",
      input: inputFor(tools.get("read")!, { path: match.path }),
    };
  },
  ({ tools, out }) => {
    const match = firstMatch(out.get("grep")?.output ?? "");
    const read = out.get("readTodo");
    if (match === undefined || read === undefined || read.failed || !tools.has("edit")) return undefined;
    const oldLine = lineOf(read.output, match.line) ?? match.text;
    const fixed = oldLine.includes(TITLE_TODO);
    return {
      key: "edit",
      text: fixed
        ? "The TODO asks to reject long titles. Replacing it with the check."
        : "I can't resolve this TODO safely without more context, so I'll mark it as triaged.",
      toolName: "edit",
      input: inputFor(tools.get("edit")!, { path: match.path, old: oldLine, new: fixFor(oldLine) }),
    };
  },
  ({ tools, out }) => {
    const paths = pathsIn(out.get("list")?.output ?? "");
    if (!paths.some((path) => /^changelog\.md$/i.test(path)) || !tools.has("read") || !tools.has("apply_patch"))
      return undefined;
    const changelog = paths.find((path) => /^changelog\.md$/i.test(path))!;
    return {
      key: "changelog",
      text: `Next, the changelog. Reading ${changelog}.`,
      toolName: "read",
      input: inputFor(tools.get("read")!, { path: changelog }),
    };
  },
  ({ tools, out, inputs }) => {
    if (!tools.has("apply_patch")) return undefined;
    const edited = out.get("edit");
    // (The entries avoid the word the script greps for, so the count of what is left stays true.)
    const entry =
      edited === undefined
        ? "- Reviewed the project: no open to-do comments were found."
        : edited.failed
          ? "- Tried to resolve the first open to-do comment; the edit failed (see the agent report)."
          : String(Object.values(inputs.get("edit") ?? {}).join("\n")).includes(TITLE_TODO)
            ? "- Reject todo titles longer than MAX_TITLE_LENGTH (200 characters)."
            : "- Triaged the first open to-do comment found by the playground agent.";
    const changelog = out.get("changelog");
    const lines = changelog && !changelog.failed ? linesOf(changelog.output) : [];
    const heading = lines.findIndex((line) => /^##\s+unreleased/i.test(line));
    const changelogPath = changelog
      ? String(Object.values(inputs.get("changelog") ?? {}).find((value) => typeof value === "string"))
      : "";
    let patch: string;
    if (heading >= 0 && lines[heading + 1] === "" && lines[heading + 2] !== undefined) {
      patch = [
        "*** Begin Patch",
        `*** Update File: ${changelogPath}`,
        "@@",
        ` ${lines[heading]}`,
        " ",
        `+${entry}`,
        ` ${lines[heading + 2]}`,
        "*** End Patch",
      ].join("\n");
    } else {
      patch = [
        "*** Begin Patch",
        "*** Add File: AGENT_NOTES.md",
        "+# Agent notes",
        "+",
        `+${entry}`,
        "*** End Patch",
      ].join("\n");
    }
    return {
      key: "patch",
      text: "Recording the change with a patch.",
      toolName: "apply_patch",
      input: inputFor(tools.get("apply_patch")!, { patch }),
    };
  },
  ({ tools }) => {
    if (!tools.has("bash")) return undefined;
    return {
      key: "bash",
      text: "Let me count the files and the TODOs left with bash.",
      toolName: "bash",
      input: inputFor(tools.get("bash")!, { command: "find . -type f | wc -l && grep -rn TODO . | wc -l" }),
    };
  },
  ({ tools, out, inputs, request }) => {
    if (!tools.has("write") || skipsReport(request)) return undefined;
    return {
      key: "report",
      text: `Finally, I'll write the report to ${REPORT_PATH}.`,
      toolName: "write",
      input: inputFor(tools.get("write")!, { path: REPORT_PATH, content: reportOf(out, inputs) }),
    };
  },
];

function reportOf(out: ReadonlyMap<string, DoneCall>, inputs: ReadonlyMap<string, Record<string, unknown>>): string {
  const lines = ["# Agent report", ""];
  const requested = out.get("requested");
  if (requested) {
    const path = String(Object.values(inputs.get("requested") ?? {})[0]);
    lines.push(
      `- ${path}: ${requested.failed || /^Permission denied/.test(requested.output) ? requested.output.split("\n")[0] : "read"}`,
    );
  }
  const list = out.get("list");
  if (list) lines.push(`- Top-level entries: ${list.output.split("\n").filter((line) => line.trim() !== "").length}.`);
  const readme = out.get("readme");
  if (readme) {
    const title = linesOf(readme.output).find((line) => line.startsWith("# "));
    lines.push(`- Project: ${title ? title.slice(2) : "(no title in the README)"}.`);
  }
  const grep = out.get("grep");
  // The report avoids the word the script greps for, so a later run does not find it here.
  if (grep) lines.push(`- Open to-do comments found: ${countMatches(grep.output)}.`);
  const edit = out.get("edit");
  if (edit) {
    const path = Object.values(inputs.get("edit") ?? {})[0];
    lines.push(`- Edit of ${String(path)}: ${edit.output.split("\n")[0]}`);
  }
  const patch = out.get("patch");
  if (patch) lines.push(`- Patch: ${patch.output.split("\n").join(" ").trim()}`);
  const bash = out.get("bash");
  if (bash) {
    const [files, todos] = bash.output.trim().split(/\s+/);
    lines.push(`- bash: ${files ?? "?"} files, ${todos ?? "?"} to-do comments left.`);
  }
  lines.push("", "Written by the playground's offline scripted model.", "");
  return lines.join("\n");
}

/** Decide the next action from the calls made so far in this turn (replaying the script). */
function nextAction(tools: Tools, request: string, done: readonly DoneCall[]): Action {
  if (reportMissingFeedback(request) && tools.has("write")) {
    if (done.length === 0) {
      return {
        key: "report",
        text: `The check says ${REPORT_PATH} is missing. Writing it now.`,
        toolName: "write",
        input: inputFor(tools.get("write")!, { path: REPORT_PATH, content: FEEDBACK_REPORT }),
      };
    }
    return {
      key: "final",
      text: done[0]!.failed
        ? `I could not write ${REPORT_PATH}: ${done[0]!.output.split("\n")[0]}`
        : `Wrote ${REPORT_PATH}, which the check asked for.`,
    };
  }
  const out = new Map<string, DoneCall>();
  const inputs = new Map<string, Record<string, unknown>>();
  let index = 0;
  for (const step of STEPS) {
    const action = step({ tools, request, out, inputs });
    if (action === undefined) continue;
    if (index >= done.length) return action;
    out.set(action.key, done[index]!);
    inputs.set(action.key, action.input ?? {});
    index += 1;
  }
  return { key: "final", text: finalText(out, inputs) };
}

/** A call as a reader names it: the tool and what it was about (`read /etc/hosts`, `bash`). */
function describeCall(call: DoneCall): string {
  const input = (typeof call.input === "object" && call.input !== null ? call.input : {}) as Record<string, unknown>;
  const subject = Object.values(input).find(
    (value): value is string => typeof value === "string" && value !== "" && !value.includes("\n"),
  );
  return subject === undefined || subject.length > 60 ? call.toolName : `${call.toolName} ${subject}`;
}

function finalText(out: ReadonlyMap<string, DoneCall>, inputs: ReadonlyMap<string, Record<string, unknown>>): string {
  if (out.size === 0) return "I have no file tools to work with, so there is nothing I can do here.";
  const failed = [...out.values()].filter((call) => call.failed).map(describeCall);
  const parts = [`Done. I made ${out.size} tool calls`];
  if (out.has("edit")) {
    const fixed = Object.values(inputs.get("edit") ?? {}).some((value) => String(value).includes(TITLE_TODO));
    parts.push(
      out.get("edit")!.failed
        ? "the edit failed"
        : fixed
          ? "fixed the first TODO with an edit"
          : "marked the first TODO as triaged with an edit",
    );
  }
  if (out.has("patch")) {
    const notes = String(Object.values(inputs.get("patch") ?? {})[0]).includes("*** Add File: AGENT_NOTES.md");
    const what = notes ? "AGENT_NOTES.md" : "the changelog";
    parts.push(
      out.get("patch")!.failed
        ? `the patch to ${what} failed`
        : notes
          ? "added AGENT_NOTES.md with a patch"
          : "updated the changelog with a patch",
    );
  }
  if (out.has("report")) parts.push(`and wrote ${REPORT_PATH}`);
  let text = `${parts.join(", ")}.`;
  if (failed.length > 0)
    text += ` ${failed.length === 1 ? "This call" : "These calls"} returned an error: ${failed.join(", ")}.`;
  return text;
}

function usageOf(promptChars: number, outputChars: number): LanguageModelV4Usage {
  const input = Math.ceil(promptChars / 4);
  const output = Math.ceil(outputChars / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

/** Split text into small word groups, as a model streams it. */
function textChunks(text: string): string[] {
  return (
    text.match(/\S+\s*/g)?.reduce<string[]>((chunks, word, index) => {
      if (index % 2 === 0) chunks.push(word);
      else chunks[chunks.length - 1] += word;
      return chunks;
    }, []) ?? [text]
  );
}

function plan(options: LanguageModelV4CallOptions): {
  action: Action;
  turn: number;
  step: number;
  promptChars: number;
} {
  const tools = new Map<string, LanguageModelV4FunctionTool>();
  for (const tool of options.tools ?? []) if (tool.type === "function") tools.set(tool.name, tool);
  const done = callsSinceLastUser(options.prompt);
  const users = options.prompt.filter((message) => message.role === "user");
  const last = users[users.length - 1];
  const request = last ? last.content.map((part) => (part.type === "text" ? part.text : "")).join("\n") : "";
  const turn = users.length;
  return {
    action: nextAction(tools, request, done),
    turn,
    step: done.length,
    promptChars: JSON.stringify(options.prompt).length,
  };
}

/**
 * Create the offline scripted model.
 *
 * @param options - chunk delay in milliseconds.
 * @returns a `LanguageModelV4` (provider `playground`, model `scripted`) for `streamText`/`generateText`.
 * @example
 * ```ts
 * const result = streamText({ model: createScriptedModel(), tools, stopWhen: isStepCount(20), prompt: "Review the project" });
 * ```
 */
export function createScriptedModel(options: ScriptedModelOptions = {}): LanguageModelV4 {
  const chunkDelayMs = options.chunkDelayMs ?? DEFAULT_CHUNK_DELAY_MS;
  return {
    specificationVersion: "v4",
    provider: "playground",
    modelId: "scripted",
    supportedUrls: {},
    async doGenerate(callOptions) {
      const { action, turn, step, promptChars } = plan(callOptions);
      const content: LanguageModelV4Content[] = [{ type: "text", text: action.text }];
      if (action.toolName !== undefined) {
        content.push({
          type: "tool-call",
          toolCallId: `call-${turn}-${step}`,
          toolName: action.toolName,
          input: JSON.stringify(action.input),
        });
      }
      return {
        content,
        finishReason: { unified: action.toolName ? "tool-calls" : "stop", raw: undefined },
        usage: usageOf(promptChars, action.text.length + JSON.stringify(action.input ?? "").length),
        warnings: [],
      };
    },
    async doStream(callOptions) {
      const { action, turn, step, promptChars } = plan(callOptions);
      const textId = `text-${turn}-${step}`;
      const parts: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "response-metadata", id: `response-${turn}-${step}`, modelId: "scripted", timestamp: new Date(0) },
        { type: "text-start", id: textId },
        ...textChunks(action.text).map((delta): LanguageModelV4StreamPart => ({
          type: "text-delta",
          id: textId,
          delta,
        })),
        { type: "text-end", id: textId },
      ];
      if (action.toolName !== undefined) {
        const id = `call-${turn}-${step}`;
        const json = JSON.stringify(action.input);
        const third = Math.ceil(json.length / 3);
        parts.push(
          { type: "tool-input-start", id, toolName: action.toolName },
          ...[0, 1, 2].map((index): LanguageModelV4StreamPart => ({
            type: "tool-input-delta",
            id,
            delta: json.slice(index * third, (index + 1) * third),
          })),
          { type: "tool-input-end", id },
          { type: "tool-call", toolCallId: id, toolName: action.toolName, input: json },
        );
      }
      parts.push({
        type: "finish",
        finishReason: { unified: action.toolName ? "tool-calls" : "stop", raw: undefined },
        usage: usageOf(promptChars, action.text.length + JSON.stringify(action.input ?? "").length),
      });
      let index = 0;
      const signal = callOptions.abortSignal;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          if (signal?.aborted) {
            controller.error(signal.reason);
            return;
          }
          if (index >= parts.length) {
            controller.close();
            return;
          }
          if (chunkDelayMs > 0 && index > 0) await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
          controller.enqueue(parts[index++]!);
        },
      });
      return { stream };
    },
  };
}

/**
 * `createWorkspaceAgent`: an AI SDK 7 `ToolLoopAgent` over a workspace, with its memory file in
 * the system prompt, tool scopes, bounded tool rounds, checked outputs and a run cache that
 * knows about files.
 *
 * @module
 */
import {
  isStepCount,
  NoObjectGeneratedError,
  ToolChoiceViolationError,
  ToolLoopAgent,
  type LanguageModel,
  type ModelMessage,
  type OutputInterface,
  type StepResult,
  type TextStreamPart,
  type ToolSet,
} from "ai";
import {
  BUNDLE_TOOL_KEYS,
  createAiSdkFsTools,
  type AiSdkFsToolsOptions,
  type BundleToolOptions,
} from "../ai-sdk/bundle.js";
import type { adaptCoreFactory } from "../ai-sdk/single-tools.js";
import { sha256Digest, type Digest } from "../contract/digest.js";
import { systemClock } from "../contract/clock.js";
import { assertKnownOptions, OptionError, optionValueError } from "../contract/options.js";
import type { FileSystem } from "../contract/types.js";
import { createGate, type AllowRule, type Gate } from "../gate/gate.js";
import { readOnly as readOnlyMiddleware } from "../gate/middleware.js";
import { hashFiles } from "../gate/hash-files.js";
import type { createApplyPatchTool } from "../tools/apply-patch/index.js";
import type { createBashTool } from "../tools/bash/index.js";
import { CONTEXT_OPTION_KEYS, type ToolContextOptions } from "../tools/kit/context.js";
import type { createEditTool } from "../tools/edit/index.js";
import type { createGlobTool } from "../tools/glob/index.js";
import type { createGrepTool } from "../tools/grep/index.js";
import type { createListTool } from "../tools/list/index.js";
import type { createReadTool } from "../tools/read/index.js";
import { TOOL_SETTINGS_KEYS, type ToolSettingsKey } from "../tools/kit/setting-keys.js";
import { selectTools } from "../tools/kit/tool-selection.js";
import type { createWriteTool } from "../tools/write/index.js";
import type { JsonValue } from "../tools/kit/tool.js";
import type { OffloadOptions } from "../tools/kit/offload.js";
import { canonicalJson, modelName, runCacheKey } from "./cache-key.js";
import { offloadExtraTools } from "./offload-extra-tools.js";
import {
  DEFAULT_MAX_MEMORY_BYTES,
  DEFAULT_MEMORY_FILE,
  readMemoryFile,
  systemPrompt,
  type MemoryFile,
} from "./memory-file.js";
import type { CachedRun, RunCache } from "./run-cache.js";
import {
  checkRun,
  DEFAULT_MAX_VALIDATION_RETRIES,
  feedbackText,
  missingFiles,
  type Validate,
  type ValidationFailure,
} from "./validation.js";

const FACTORY = "createWorkspaceAgent";

/** Tool rounds per request when `maxToolRounds` is not given: 40. */
export const DEFAULT_MAX_TOOL_ROUNDS = 40;

/** The tools a read-only agent has. */
export const READ_ONLY_TOOLS = ["read", "list", "glob", "grep"] as const;

/** A file tool's option on the agent: `false` leaves it out, `true` or its options (with an optional `signature`) put it in. */
export type WorkspaceToolOption<F extends Parameters<typeof adaptCoreFactory>[2]> = boolean | BundleToolOptions<F>;

/** The deny rule `readOnly: true` adds: no path is written, created, removed or moved. */
const READ_ONLY_DENY_RULE: AllowRule = { tool: "writeFile", path: "/" };

/**
 * The agent's file tools, in the one shape `createFsTools`, `createAiSdkFsTools` and
 * `createMcpServer` take: every file tool is on unless its key is `false`; bash only with its
 * options. `write: false` withholds edit, apply_patch and bash; `readOnly: true` withholds write,
 * edit, apply_patch and bash. A `signature` (a preset's: `lineRangePreset().read`) renames a
 * tool and shapes its parameters; the tool's own settings (`read: { maxBytes }`) bound it.
 */
export interface WorkspaceToolOptions {
  /** Only `read`, `list`, `glob` and `grep`. @default false */
  readonly readOnly?: boolean;
  readonly read?: WorkspaceToolOption<typeof createReadTool>;
  readonly list?: WorkspaceToolOption<typeof createListTool>;
  readonly glob?: WorkspaceToolOption<typeof createGlobTool>;
  readonly grep?: WorkspaceToolOption<typeof createGrepTool>;
  /** `false` withholds `write`, and with it `edit` and `apply_patch`. */
  readonly write?: WorkspaceToolOption<typeof createWriteTool>;
  readonly edit?: WorkspaceToolOption<typeof createEditTool>;
  readonly applyPatch?: WorkspaceToolOption<typeof createApplyPatchTool>;
  /** The bash tool's options (`{ runner, env }` at least), or `false`. @default false (no bash) */
  readonly bash?: BundleToolOptions<typeof createBashTool> | false;
}

/** The value an AI SDK output specification (`Output.object({ schema })`) gives: its complete output. */
export type AgentOutputOf<Spec> = Spec extends { parseCompleteOutput(...args: never[]): Promise<infer Value> }
  ? Value
  : string;

/** Options of {@link createWorkspaceAgent}. */
export interface WorkspaceAgentOptions<
  Input extends JsonValue = JsonValue,
  Spec extends OutputInterface = OutputInterface<string, string, never>,
>
  extends Omit<ToolContextOptions, "fs">, WorkspaceToolOptions {
  /**
   * Structured output: an AI SDK 7 output specification (`Output.object({ schema })`). The final
   * answer is parsed into `result.output` (typed from the schema), given to `validate`, and
   * stored with the run in the cache; an answer that does not parse is a failed check sent
   * back to the model. The value must be JSON. @default text (`result.output` is the text)
   */
  readonly output?: Spec;
  /** The AI SDK language model (an object, or a gateway id). */
  readonly model: LanguageModel;
  /** The workspace backend (one object: the memory file, the cache key and the checks read it too). */
  readonly fs: FileSystem;
  /** The agent's own instructions: the start of the system prompt. */
  readonly instructions?: string;
  /**
   * The memory file, relative to the working directory or absolute: its current content, read
   * through the gate at the start of every run, follows the instructions in the system prompt.
   * No file, nothing added. `false` turns it off. @default DEFAULT_MEMORY_FILE ("AGENTS.md")
   */
  readonly memoryFile?: string | false;
  /** Most bytes of the memory file sent, in bytes. @default DEFAULT_MAX_MEMORY_BYTES (32 KiB) */
  readonly maxMemoryBytes?: number;
  /** More AI SDK tools, sent after the file tools. Their names must differ from the file tools'. */
  readonly extraTools?: ToolSet;
  /**
   * Large results of `extraTools`, as the file tools' own: a result over `thresholdBytes`
   * (UTF-8; a non-string result measured as JSON) is saved to `tool-outputs/<call id>.txt` and
   * the model gets `previewBytes` of it with the path, to read the rest with `read`. `false`
   * sends every result whole.
   * @default { thresholdBytes: DEFAULT_OFFLOAD_THRESHOLD_BYTES (32 KiB), previewBytes: DEFAULT_OFFLOAD_PREVIEW_BYTES (8 KiB) }
   */
  readonly extraToolsOffload?: OffloadOptions | false;
  /**
   * Most tool rounds (model responses that call tools) per request. When they are used up the
   * model is asked once more, with no tools, for its final answer: calls already made always
   * finish. @default DEFAULT_MAX_TOOL_ROUNDS (40)
   */
  readonly maxToolRounds?: number;
  /** Files the run must leave behind (relative to the working directory): checked after every attempt and on a cache hit. */
  readonly expectedOutputFiles?: (input: Input) => readonly string[] | Promise<readonly string[]>;
  /** The host's check of a finished attempt: a string is feedback, and the model tries again. */
  readonly validate?: Validate<Input, AgentOutputOf<Spec>>;
  /** Feedback rounds after failed checks, each a new user turn. @default DEFAULT_MAX_VALIDATION_RETRIES (2) */
  readonly maxValidationRetries?: number;
  /** Keep finished runs: `memoryRunCache()` or `fileRunCache(fs, dir)`. Without one, nothing is cached. */
  readonly cache?: RunCache;
  /** Globs (relative to the working directory) whose files' paths and contents are part of the cache key. */
  readonly inputGlobs?: readonly string[];
}

/** What {@link WorkspaceAgent.generate} and {@link WorkspaceAgent.stream} take: a `prompt` or `messages`. */
export type WorkspaceAgentCall<Input extends JsonValue = JsonValue> = WorkspaceAgentCallOptions<Input> &
  (
    | {
        /** The user's request. */
        readonly prompt: string;
        readonly messages?: undefined;
      }
    | {
        /**
         * A conversation to continue, ending with the user's new turn (AI SDK `ModelMessage`s).
         * With a `cache` they are part of the key, so they must be JSON (no binary parts).
         */
        readonly messages: readonly ModelMessage[];
        readonly prompt?: undefined;
      }
  );

/** The options of a call besides its `prompt` or `messages`. */
export interface WorkspaceAgentCallOptions<Input extends JsonValue = JsonValue> {
  /** Data for `expectedOutputFiles` and `validate` (part of the cache key). @default null */
  readonly input?: Input;
  /** Cancels the run. */
  readonly abortSignal?: AbortSignal;
  /** Called with each feedback turn (and the failures behind it) before it is sent to the model. */
  readonly onFeedback?: (turn: string, failures: readonly ValidationFailure[]) => void;
}

/** What {@link WorkspaceAgent.stream} takes: a call, and a hook for every stream part. */
export type WorkspaceAgentStreamCall<Input extends JsonValue = JsonValue> = WorkspaceAgentCall<Input> & {
  /**
   * Called with every part of the AI SDK stream (text deltas, tool input, calls, results,
   * errors...), attempt after attempt, as it arrives. A replay sends one text block
   * (`text-start`, `text-delta`, `text-end` with id `"replay"`).
   */
  readonly onPart?: (part: TextStreamPart<ToolSet>) => void;
};

/** The outcome of one run. */
export interface WorkspaceAgentResult<Output = string> {
  /** The final text (of the last attempt, or the replayed run). */
  readonly text: string;
  /**
   * The run's output: the final text, or with an `output` specification its parsed value
   * (`undefined` when the last attempt's answer did not parse; `failures` says why).
   */
  readonly output: Output;
  /** Whether the run was replayed from the cache (then no model call was made). */
  readonly cached: boolean;
  /** The cache key the run was found under or stored under; `undefined` without a cache. */
  readonly key: string | undefined;
  /** Model calls made by this run: 0 for a replay. */
  readonly modelCalls: number;
  /** Tool rounds used by this run (all attempts), or by the replayed run. */
  readonly rounds: number;
  /** The agent's `maxToolRounds` (per attempt). */
  readonly maxToolRounds: number;
  /** Attempts made: 1, plus one per feedback round; 0 for a replay. */
  readonly attempts: number;
  /** The memory file as this run read it; `undefined` when off or absent. */
  readonly memory: MemoryFile | undefined;
  /** The feedback turns sent to the model, in order. */
  readonly feedback: readonly string[];
  /** Whether the last attempt passed the checks (a replay passed when it was stored). */
  readonly ok: boolean;
  /** What failed in the last attempt; empty when `ok`. */
  readonly failures: readonly ValidationFailure[];
  /** The AI SDK steps of every attempt, in order; empty for a replay. */
  readonly steps: readonly StepResult<ToolSet>[];
  /**
   * The messages the run added after the caller's (every attempt's response messages, and the
   * feedback turns between them), to continue the conversation; a replay gives one assistant
   * message with its text.
   */
  readonly responseMessages: readonly ModelMessage[];
}

/** What {@link WorkspaceAgent.stream} returns. */
export interface WorkspaceAgentStream<Output = string> {
  /** The text as the model writes it, attempt after attempt (a replay sends its text in one piece). */
  readonly textStream: ReadableStream<string> & AsyncIterable<string>;
  /** The run's outcome, once the stream ends. */
  readonly result: Promise<WorkspaceAgentResult<Output>>;
}

/** The agent {@link createWorkspaceAgent} returns. */
export interface WorkspaceAgent<Input extends JsonValue = JsonValue, Output = string> {
  /** Run to the end and return the outcome. */
  generate(call: WorkspaceAgentCall<Input>): Promise<WorkspaceAgentResult<Output>>;
  /** Run, streaming the text (and every part to `onPart`); `result` resolves at the end. */
  stream(call: WorkspaceAgentStreamCall<Input>): Promise<WorkspaceAgentStream<Output>>;
  /** The tools the model is given, in the order they are sent. */
  readonly tools: ToolSet;
  /** The gate every file access of the agent passes. */
  readonly gate: Gate;
}

const AGENT_KEYS = [
  ...CONTEXT_OPTION_KEYS,
  "model",
  "instructions",
  "memoryFile",
  "maxMemoryBytes",
  "readOnly",
  ...TOOL_SETTINGS_KEYS,
  "extraTools",
  "extraToolsOffload",
  "maxToolRounds",
  "expectedOutputFiles",
  "validate",
  "maxValidationRetries",
  "cache",
  "inputGlobs",
  "output",
];
/** The file tools on when their key is absent: all but bash. */
const ON_BY_DEFAULT: readonly ToolSettingsKey[] = ["read", "list", "glob", "grep", "write", "edit", "applyPatch"];
/** The order the agent sends its file tools in. */
const AGENT_ORDER: readonly ToolSettingsKey[] = [...ON_BY_DEFAULT, "bash"];

function integerOption(name: string, value: unknown, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < minimum) {
    optionValueError(FACTORY, name, `must be an integer ≥ ${minimum}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function functionOption(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== "function") {
    optionValueError(FACTORY, name, `must be a function, got ${typeof value}`);
  }
}

/** The file tools of the agent, in the order they are sent, built from the AI SDK bundle. */
function fileTools(options: WorkspaceToolOptions, shared: ToolContextOptions): ToolSet {
  if ((options.bash as unknown) === true) {
    optionValueError(
      FACTORY,
      "bash",
      "must be false or the bash tool's options with a runner and an env ({ runner: nodeCommandRunner(), env: shellEnv(...) } in Node, { runner: justBashCommandRunner(...), env } anywhere)",
    );
  }
  const selected = selectTools(FACTORY, options, { onByDefault: ON_BY_DEFAULT });
  const on = new Set(selected.map(({ key }) => key));
  // Every key explicit for the bundle: what the agent selected, with the bundle's own checks.
  const keys = Object.fromEntries(TOOL_SETTINGS_KEYS.map((key) => [key, on.has(key) ? (options[key] ?? true) : false]));
  let bundle: { readonly tools: Record<string, ToolSet[string] | undefined> };
  try {
    bundle = createAiSdkFsTools({ ...shared, ...keys } as AiSdkFsToolsOptions) as typeof bundle;
  } catch (error) {
    // The bundle's option errors, in the agent's name (the same option paths).
    throw OptionError.isInstance(error) ? error.restate(FACTORY) : error;
  }
  const tools: Record<string, ToolSet[string]> = {};
  for (const key of AGENT_ORDER) {
    const chosen = selected.find((tool) => tool.key === key);
    if (chosen === undefined) continue;
    const name = chosen.signature?.name ?? BUNDLE_TOOL_KEYS[key];
    tools[name] = bundle.tools[name] as ToolSet[string];
  }
  return tools;
}

/** A value, or the error reading it threw (the AI SDK's `output` throws when the answer does not parse). */
function settle(read: () => unknown): { readonly value: unknown } | { readonly error: unknown } {
  try {
    return { value: read() };
  } catch (error) {
    return { error };
  }
}

/** {@link settle} for a promised value. */
async function settleAsync(
  read: () => PromiseLike<unknown>,
): Promise<{ readonly value: unknown } | { readonly error: unknown }> {
  try {
    return { value: await read() };
  } catch (error) {
    return { error };
  }
}

/** A push stream of text chunks. */
function textChannel(): {
  stream: ReadableStream<string> & AsyncIterable<string>;
  push(chunk: string): void;
  close(): void;
  fail(error: unknown): void;
} {
  let controller!: ReadableStreamDefaultController<string>;
  const stream = new ReadableStream<string>({
    start(c) {
      controller = c;
    },
  });
  return {
    stream: stream as ReadableStream<string> & AsyncIterable<string>,
    push: (chunk) => controller.enqueue(chunk),
    close: () => controller.close(),
    fail: (error) => controller.error(error),
  };
}

/** One attempt's outcome, however it ran. */
interface Attempt {
  readonly text: string;
  /** The parsed structured output, or the error parsing it threw (with an `output` specification). */
  readonly output?: { readonly value: unknown } | { readonly error: unknown };
  readonly steps: readonly StepResult<ToolSet>[];
  readonly responseMessages: readonly ModelMessage[];
}

/**
 * Create a workspace agent: an AI SDK 7 `ToolLoopAgent` given the file tools over `fs`.
 *
 * Every run (1) reads the memory file through the gate and puts it in the system prompt after
 * `instructions`; (2) with a `cache`, computes the run's key from the model, the system prompt,
 * the prompt and input, the workspace (backend name, cwd, roots), the tool names and
 * `hashFiles` of `inputGlobs`, and replays a stored run with no model call unless an expected
 * output file is missing; (3) otherwise runs the `ToolLoopAgent`: tool rounds are bounded by
 * `maxToolRounds`, after which one more step runs with no tools for the final answer; (4) checks
 * the expected output files and `validate`, and sends what failed back as a user turn, at most
 * `maxValidationRetries` times; (5) stores a run that passed under its key computed again after
 * the run (so a run that edits its own inputs is found by the next run over the edited files).
 *
 * @param options - `model` and `fs` (required), the tools' shared options (`cwd`,
 *   `allowedRoots`, `permissions`, `state`, `locks`, `digest`, `clock`), `instructions`,
 *   `memoryFile`, `maxMemoryBytes`, `readOnly` and a key per file tool (`read`, `list`, `glob`,
 *   `grep`, `write`, `edit`, `applyPatch`, `bash`: `false`, `true` or its options with an
 *   optional `signature`; see {@link WorkspaceToolOptions}), `extraTools`, `maxToolRounds`,
 *   `expectedOutputFiles`, `validate`, `maxValidationRetries`, `cache`, `inputGlobs`.
 * @returns `{ generate, stream, tools, gate }`. `generate` resolves to a
 *   {@link WorkspaceAgentResult}; failed checks after the last retry are in `ok: false` and
 *   `failures`, not thrown. It rejects with what the model or provider throws, with FsError
 *   `EACCES` when the gate refuses the memory file, and with a TypeError when `input` is not JSON.
 * @throws TypeError ({@link OptionError}) at creation for an unknown option or tool setting, a bad
 *   value (`maxToolRounds` not an integer ≥ 1, `maxValidationRetries` < 0, `memoryFile` not a
 *   non-empty string or `false`, `inputGlobs` not strings), write tools or bash beside `readOnly: true`,
 *   edit, applyPatch or bash beside `write: false`, `bash: true` (bash needs a runner and an env),
 *   an extra tool named like a file tool; and whatever the tool factories throw.
 * @example
 * ```ts
 * const agent = createWorkspaceAgent({
 *   model, fs, instructions: "You keep the changelog.", cache: memoryRunCache(),
 *   expectedOutputFiles: () => ["CHANGELOG.md"], inputGlobs: ["src/**"],
 * });
 * const result = await agent.generate({ prompt: "Add an entry for the new parser." });
 * result.cached; // false the first time; true (0 model calls) while src/ and AGENTS.md are unchanged
 * ```
 */
export function createWorkspaceAgent<
  Input extends JsonValue = JsonValue,
  Spec extends OutputInterface = OutputInterface<string, string, never>,
>(options: WorkspaceAgentOptions<Input, Spec>): WorkspaceAgent<Input, AgentOutputOf<Spec>> {
  type Out = AgentOutputOf<Spec>;
  type Result = WorkspaceAgentResult<Out>;
  if (typeof options !== "object" || options === null) throw new TypeError(`${FACTORY} needs an options object`);
  assertKnownOptions(FACTORY, options, AGENT_KEYS);
  const { model, fs, instructions, cache, extraTools } = options;
  if (model === undefined || model === null)
    optionValueError(FACTORY, "model", "is required (an AI SDK LanguageModel)");
  if (typeof fs !== "object" || fs === null || typeof fs.readFile !== "function") {
    optionValueError(
      FACTORY,
      "fs",
      "must be a FileSystem (one object: the agent reads its memory file and checks through it)",
    );
  }
  if (instructions !== undefined && typeof instructions !== "string") {
    optionValueError(FACTORY, "instructions", `must be a string, got ${typeof instructions}`);
  }
  const memoryFile = options.memoryFile ?? DEFAULT_MEMORY_FILE;
  if (memoryFile !== false && (typeof memoryFile !== "string" || memoryFile === "")) {
    optionValueError(FACTORY, "memoryFile", `must be a non-empty path or false, got ${JSON.stringify(memoryFile)}`);
  }
  const maxMemoryBytes = integerOption("maxMemoryBytes", options.maxMemoryBytes, DEFAULT_MAX_MEMORY_BYTES, 0);
  const maxToolRounds = integerOption("maxToolRounds", options.maxToolRounds, DEFAULT_MAX_TOOL_ROUNDS, 1);
  const maxRetries = integerOption(
    "maxValidationRetries",
    options.maxValidationRetries,
    DEFAULT_MAX_VALIDATION_RETRIES,
    0,
  );
  functionOption("expectedOutputFiles", options.expectedOutputFiles);
  functionOption("validate", options.validate);
  if (cache !== undefined && (typeof cache?.get !== "function" || typeof cache?.set !== "function")) {
    optionValueError(FACTORY, "cache", "must be a RunCache (memoryRunCache() or fileRunCache(fs, dir))");
  }
  const inputGlobs = options.inputGlobs ?? [];
  if (!Array.isArray(inputGlobs) || inputGlobs.some((glob) => typeof glob !== "string" || glob === "")) {
    optionValueError(FACTORY, "inputGlobs", "must be an array of non-empty glob strings");
  }
  const outputSpec = options.output;
  if (
    outputSpec !== undefined &&
    (typeof outputSpec !== "object" || outputSpec === null || typeof outputSpec.parseCompleteOutput !== "function")
  ) {
    optionValueError(FACTORY, "output", "must be an AI SDK output specification, e.g. Output.object({ schema })");
  }
  if (
    extraTools !== undefined &&
    (typeof extraTools !== "object" || extraTools === null || Array.isArray(extraTools))
  ) {
    optionValueError(FACTORY, "extraTools", "must be a record of AI SDK tools ({ name: tool({ ... }) }), not an array");
  }
  for (const [name, extraTool] of Object.entries(extraTools ?? {})) {
    const candidate = extraTool as { inputSchema?: unknown; execute?: unknown } | null;
    if (
      typeof candidate !== "object" ||
      candidate === null ||
      candidate.inputSchema === undefined ||
      typeof candidate.execute !== "function"
    ) {
      optionValueError(
        FACTORY,
        `extraTools.${name}`,
        "must be an AI SDK tool with an inputSchema and an execute function: tool({ description, inputSchema, execute })",
      );
    }
  }

  // readOnly: nothing the agent runs writes in the workspace. The backend refuses every change
  // (EROFS, as createMcpServer's readOnly) and the gate denies writeFile everywhere, so a large
  // extra-tool result stays a preview with a note instead of a file under tool-outputs/.
  const readOnly = options.readOnly === true;
  const given = options.permissions;
  // A permissions value that is not an object is left for createGate's option error.
  const permissions =
    readOnly && (given === undefined || (typeof given === "object" && given !== null))
      ? { ...given, deny: [...(given?.deny ?? []), READ_ONLY_DENY_RULE] }
      : given;
  const gatedFs = readOnly ? readOnlyMiddleware()(fs) : fs;
  const shared: ToolContextOptions = Object.fromEntries(
    CONTEXT_OPTION_KEYS.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]),
  ) as unknown as ToolContextOptions;
  if (readOnly) Object.assign(shared, { fs: gatedFs, permissions });
  const gate = createGate({ fs: gatedFs, cwd: options.cwd, allowedRoots: options.allowedRoots, permissions });
  const digest: Digest = options.digest ?? sha256Digest();
  const clock = options.clock ?? systemClock;
  const files = fileTools(options, shared);
  for (const name of Object.keys(extraTools ?? {})) {
    if (name in files)
      optionValueError(FACTORY, `extraTools.${name}`, `has the name of a file tool: give it another name`);
  }
  const extra = offloadExtraTools(FACTORY, extraTools ?? {}, { gate, clock }, options.extraToolsOffload ?? {});
  const tools: ToolSet = Object.freeze({ ...files, ...extra });
  // The file tools first, then the extra tools in their order (an object puts integer-like
  // keys first, so the order is not the merged object's).
  const toolNames = [...Object.keys(files), ...Object.keys(extra).filter((name) => !(name in files))];
  const lastStep = { activeTools: [] as string[], toolChoice: "none" as const };

  const readMemory = (): Promise<MemoryFile | undefined> =>
    memoryFile === false ? Promise.resolve(undefined) : readMemoryFile(gate, memoryFile, maxMemoryBytes);

  async function keyOf(system: string | undefined, call: WorkspaceAgentCall<Input>): Promise<string> {
    return runCacheKey(
      {
        model: modelName(model),
        system,
        prompt: call.prompt ?? "",
        ...(call.messages === undefined ? {} : { messages: JSON.parse(canonicalJson(call.messages)) as JsonValue }),
        input: call.input ?? null,
        workspace: { backend: fs.name, cwd: gate.cwd, roots: gate.allowedRoots },
        tools: toolNames,
        files: inputGlobs.length === 0 ? null : await hashFiles(gate.fs, inputGlobs, { cwd: gate.cwd, digest }),
        ...(outputSpec === undefined
          ? {}
          : { output: JSON.parse(canonicalJson((await outputSpec.responseFormat) ?? null)) as JsonValue }),
      },
      digest,
    );
  }

  async function expectedFiles(input: Input): Promise<readonly string[]> {
    const paths = (await options.expectedOutputFiles?.(input)) ?? [];
    if (!Array.isArray(paths) || paths.some((path) => typeof path !== "string")) {
      throw new TypeError(`${FACTORY} expectedOutputFiles must return an array of paths`);
    }
    return paths;
  }

  function loopAgent(system: string | undefined): ToolLoopAgent<never, ToolSet> {
    return new ToolLoopAgent({
      model,
      ...(outputSpec === undefined ? {} : { output: outputSpec as OutputInterface }),
      ...(system === undefined ? {} : { instructions: system }),
      tools,
      toolOrder: toolNames,
      // maxToolRounds steps may call tools; one more, with none, gives the final answer.
      stopWhen: isStepCount(maxToolRounds + 1),
      prepareStep: ({ stepNumber }) => (stepNumber >= maxToolRounds ? lastStep : undefined),
    });
  }

  async function run(
    call: WorkspaceAgentCall<Input>,
    attempt: (agent: ToolLoopAgent<never, ToolSet>, messages: ModelMessage[]) => Promise<Attempt>,
    replay: (text: string) => void,
  ): Promise<Result> {
    if (
      typeof call !== "object" ||
      call === null ||
      (typeof call.prompt === "string") === Array.isArray(call.messages) ||
      (call.messages !== undefined && !Array.isArray(call.messages))
    ) {
      throw new TypeError(`${FACTORY} generate/stream need { prompt: string } or { messages: ModelMessage[] }`);
    }
    const input = (call.input ?? null) as Input;
    canonicalJson(input); // refuse input that is not JSON before any work
    const memory = await readMemory();
    const system = systemPrompt(instructions, memory, maxMemoryBytes);
    const expected = await expectedFiles(input);
    let key: string | undefined;
    if (cache !== undefined) {
      key = await keyOf(system, call);
      const hit = await cache.get(key);
      if (hit !== undefined && (await missingFiles(gate, expected)).length === 0) {
        replay(hit.text);
        return {
          text: hit.text,
          output: hit.output as Out,
          cached: true,
          key,
          modelCalls: 0,
          rounds: hit.rounds,
          maxToolRounds,
          attempts: 0,
          memory,
          feedback: [],
          ok: true,
          failures: [],
          steps: [],
          responseMessages: [{ role: "assistant", content: hit.text }],
        };
      }
    }
    const agent = loopAgent(system);
    const given: ModelMessage[] =
      call.messages === undefined ? [{ role: "user", content: call.prompt }] : [...call.messages];
    const messages: ModelMessage[] = [...given];
    const steps: StepResult<ToolSet>[] = [];
    const feedback: string[] = [];
    let failures: ValidationFailure[] = [];
    let text = "";
    let output: Out = (outputSpec === undefined ? "" : undefined) as Out;
    for (let attempts = 1; ; attempts += 1) {
      let outcome: Awaited<ReturnType<typeof attempt>>;
      try {
        outcome = await attempt(agent, [...messages]);
      } catch (error) {
        // The last step has no tools; a model that calls one anyway ends the run as a failure.
        if (!ToolChoiceViolationError.isInstance(error)) throw error;
        const message = `The model called a tool after its ${maxToolRounds} tool rounds, when only a final answer was allowed.`;
        return {
          text,
          output,
          cached: false,
          key,
          modelCalls: steps.length + maxToolRounds + 1,
          rounds: steps.filter((step) => step.toolCalls.length > 0).length + maxToolRounds,
          maxToolRounds,
          attempts,
          memory,
          feedback,
          ok: false,
          failures: [{ kind: "rounds", message }],
          steps,
          responseMessages: messages.slice(given.length),
        };
      }
      steps.push(...outcome.steps);
      messages.push(...outcome.responseMessages);
      text = outcome.text;
      let parseFailure: ValidationFailure | undefined;
      if (outputSpec === undefined) output = text as Out;
      else if (outcome.output !== undefined && "value" in outcome.output) output = outcome.output.value as Out;
      else {
        output = undefined as Out;
        const error = outcome.output === undefined ? undefined : outcome.output.error;
        const why = error instanceof Error ? error.message : "no answer";
        parseFailure = {
          kind: "output",
          message: `Your final answer is not the structured output asked for (${why}). Answer again with only JSON that matches the schema.`,
        };
      }
      failures =
        parseFailure !== undefined
          ? [parseFailure]
          : await checkRun({
              gate,
              expected,
              validate: options.validate as Validate<Input, unknown> | undefined,
              context: { text, output, fs: gate.fs, input },
            });
      if (failures.length === 0 || attempts > maxRetries) {
        const rounds = steps.filter((step) => step.toolCalls.length > 0).length;
        const ok = failures.length === 0;
        if (ok && cache !== undefined) {
          // Again after the run: the memory file and the input files may have changed.
          key = await keyOf(systemPrompt(instructions, await readMemory(), maxMemoryBytes), call);
          const stored: CachedRun = {
            text,
            output: output as JsonValue,
            modelCalls: steps.length,
            rounds,
            storedAtMs: clock(),
          };
          await cache.set(key, stored);
        }
        return {
          text,
          output,
          cached: false,
          key,
          modelCalls: steps.length,
          rounds,
          maxToolRounds,
          attempts,
          memory,
          feedback,
          ok,
          failures,
          steps,
          responseMessages: messages.slice(given.length),
        };
      }
      const turn = feedbackText(failures);
      feedback.push(turn);
      call.onFeedback?.(turn, failures);
      messages.push({ role: "user", content: turn });
    }
  }

  return Object.freeze({
    tools,
    gate,
    generate(call: WorkspaceAgentCall<Input>): Promise<Result> {
      return run(
        call,
        async (agent, messages) => {
          let result: Awaited<ReturnType<typeof agent.generate>>;
          try {
            result = await agent.generate({ messages, abortSignal: call.abortSignal });
          } catch (error) {
            // An answer that does not parse as the output: a failed check, sent back as feedback.
            if (outputSpec === undefined || !NoObjectGeneratedError.isInstance(error)) throw error;
            const said = error.text ?? "";
            return {
              text: said,
              steps: [],
              responseMessages: [{ role: "assistant", content: said }],
              output: { error },
            };
          }
          return {
            text: result.text,
            steps: result.steps,
            responseMessages: result.responseMessages,
            ...(outputSpec === undefined ? {} : { output: settle(() => result.output) }),
          };
        },
        () => {},
      );
    },
    async stream(call: WorkspaceAgentStreamCall<Input>): Promise<WorkspaceAgentStream<Out>> {
      const channel = textChannel();
      const onPart = call.onPart;
      if (onPart !== undefined && typeof onPart !== "function")
        throw new TypeError(`${FACTORY} onPart must be a function`);
      const result = run(
        call,
        async (agent, messages) => {
          const streamed = await agent.stream({ messages, abortSignal: call.abortSignal });
          // A failed model call (refused key, network) arrives as an `error` part and the attempt
          // then has no response: reject with that error, not the SDK's "no output generated".
          let failure: { readonly error: unknown } | undefined;
          for await (const part of streamed.stream) {
            if (part.type === "text-delta") channel.push(part.text);
            else if (part.type === "error" && failure === undefined) failure = { error: part.error };
            onPart?.(part);
          }
          if (failure !== undefined) throw failure.error;
          return {
            text: await streamed.text,
            steps: await streamed.steps,
            responseMessages: await streamed.responseMessages,
            ...(outputSpec === undefined ? {} : { output: await settleAsync(() => streamed.output) }),
          };
        },
        (text) => {
          channel.push(text);
          onPart?.({ type: "text-start", id: "replay" });
          onPart?.({ type: "text-delta", id: "replay", text });
          onPart?.({ type: "text-end", id: "replay" });
        },
      ).then(
        (outcome) => {
          channel.close();
          return outcome;
        },
        (error: unknown) => {
          channel.fail(error);
          throw error;
        },
      );
      result.catch(() => undefined); // a caller reading only textStream sees the error there
      return { textStream: channel.stream, result };
    },
  });
}

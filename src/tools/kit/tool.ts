/**
 * The shape of a core tool and of a signature (the model-facing dialect of a tool).
 *
 * @module
 */
import { defineErrorMarker, FsError } from "../../contract/errors.js";
import { errorResult, type ToolResult } from "./result.js";

/** A JSON Schema object (draft 2020-12 / draft-07 subset), as plain data. */
export type JsonSchema = { readonly [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** What the host passes to a tool call; the AI SDK adapter fills `host` from its call options. */
export interface ToolCall {
  /** The AI SDK tool call id, or any id the host chooses. */
  readonly toolCallId?: string;
  /** Aborts the call (bash kills the command; long walks stop early). */
  readonly abortSignal?: AbortSignal;
  /** Whatever the host's framework hands the tool (AI SDK: messages, context, abortSignal). */
  readonly host?: {
    readonly messages?: readonly unknown[];
    readonly context?: unknown;
    readonly abortSignal?: AbortSignal;
  };
}

const TOOL_INPUT_ERROR_MARKER = defineErrorMarker<ToolInputError>("better-fs-tools.error.ToolInputError");

/**
 * Thrown by `validate`/`toInput` for model input that does not fit. The adapter turns it into a
 * tool error the model reads. A `TypeError` (the input has the wrong shape), named
 * `ToolInputError` so it is told apart from a factory's option errors.
 */
export class ToolInputError extends TypeError {
  override readonly name = "ToolInputError";
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    TOOL_INPUT_ERROR_MARKER.mark(this);
  }
  /** True for any `ToolInputError`, from this copy of the package or another. */
  static isInstance(value: unknown): value is ToolInputError {
    return TOOL_INPUT_ERROR_MARKER.isInstance(value);
  }
}

/**
 * A framework-free tool: a function of its input (`readFile({ path })`) that also carries its
 * name, description, schema, `validate` and `execute` (calling the tool is calling `execute`).
 * It never throws for expected failures (it returns a result with `ok: false`); it throws only
 * for programmer errors or aborts.
 */
export interface CoreTool<Input, Result extends ToolResult = ToolResult> {
  /** Run the tool: the same as {@link CoreTool.execute}. */
  (input: Input, call?: ToolCall): Promise<Result>;
  /** The core name: `read`, `write`, `edit`, `apply_patch`, `list`, `glob`, `grep`, `bash`. */
  readonly name: string;
  /** Description for the model (the default signature's). */
  readonly description: string;
  /** JSON Schema of the core input (the default signature). */
  readonly inputSchema: JsonSchema;
  /** Check an input against the core rules and return it typed; throws {@link ToolInputError}. */
  validate(input: unknown): Input;
  /** Run the tool. */
  execute(input: Input, call?: ToolCall): Promise<Result>;
}

/**
 * Any core tool, whatever its input: what a function taking "some core tool" accepts. (A
 * `CoreTool<unknown>` would not do: a tool is a function of its input, so `CoreTool<ReadInput>`
 * cannot stand where any input may be passed.)
 */
export interface AnyCoreTool<Result extends ToolResult = ToolResult> {
  (input: never, call?: ToolCall): Promise<Result>;
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  validate(input: unknown): unknown;
  execute(input: never, call?: ToolCall): Promise<Result>;
}

/** The parts of a {@link CoreTool}, as plain data and functions (what {@link coreTool} joins). */
export interface CoreToolParts<Input, Result extends ToolResult = ToolResult> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  validate(input: unknown): Input;
  execute(input: Input, call?: ToolCall): Promise<Result>;
}

/**
 * A core tool from its parts: a function that runs `execute`, with `name`, `description`,
 * `inputSchema`, `validate` and `execute` as its own enumerable, read-only properties.
 *
 * @param parts - the tool's name, description, schema, `validate` and `execute`.
 * @returns the callable {@link CoreTool}.
 * @example
 * ```ts
 * const shout = coreTool({ name: "shout", description: "Shout.", inputSchema, validate, execute });
 * await shout({ text: "hi" }); // the same as await shout.execute({ text: "hi" })
 * ```
 */
export function coreTool<Input, Result extends ToolResult>(
  parts: CoreToolParts<Input, Result>,
): CoreTool<Input, Result> {
  const { execute } = parts;
  const tool = (input: Input, call?: ToolCall): Promise<Result> => execute(input, call);
  for (const key of ["name", "description", "inputSchema", "validate", "execute"] as const) {
    Object.defineProperty(tool, key, { value: parts[key], enumerable: true, writable: false, configurable: false });
  }
  return tool as CoreTool<Input, Result>;
}

/**
 * A model-facing dialect of a core tool: its name, its parameters' JSON Schema, the mapping to
 * the core input, and optionally a different rendering of the result.
 */
export interface ToolSignature<
  CoreInput,
  ModelInput = Record<string, unknown>,
  Result extends ToolResult = ToolResult,
> {
  /** The tool name the model calls. */
  readonly name: string;
  /** The description the model reads; defaults to the core tool's. */
  readonly description?: string;
  /** JSON Schema of the model input (an object). The AI SDK adapter converts it to strict mode. */
  readonly inputSchema: JsonSchema;
  /** Model input → core input. Throws {@link ToolInputError} naming the signature's parameters. */
  toInput(input: ModelInput): CoreInput;
  /** Re-render a core result for this dialect (e.g. `cat -n` numbering, `Error: ...` strings). */
  toResult?(result: Result, input: ModelInput): Result;
}

/** True for an abort (or timeout) raised through an AbortSignal: those still propagate. */
function isAbort(error: unknown, call: ToolCall | undefined): boolean {
  for (const signal of [call?.abortSignal, call?.host?.abortSignal]) {
    if (signal?.aborted === true && error === signal.reason) return true;
  }
  return (
    typeof error === "object" &&
    error !== null &&
    ((error as { name?: unknown }).name === "AbortError" || (error as { name?: unknown }).name === "TimeoutError")
  );
}

/**
 * Wrap a tool's `execute` so it checks its input itself and never throws for a failure the
 * model or the backend caused. Shared by the core tools; any tool can adopt it.
 *
 * - the input goes through `validate` first: a {@link ToolInputError} becomes an `EINPUT` result
 *   with its message (`read input offset must be ≥ 1, got 0`);
 * - an {@link FsError} escaping `run` becomes a result with its code and message;
 * - any other thrown value (a backend's plain `Error`, an `fs`/`state` function of the call that
 *   threw or gave nothing) becomes an `EIO` result with its message;
 * - aborts (`AbortError`, `TimeoutError`, or the call's own `abortSignal.reason`) are rethrown.
 *
 * @param kind - the result kind of the tool (`read`, `mutation`, `search`, `shell`).
 * @param validate - the tool's `validate`.
 * @param run - the body, given the validated input.
 * @returns an `execute` function.
 * @example
 * ```ts
 * execute: guardExecute("read", validate, async (input, call) => { ... }),
 * // await read.execute({ path: "a.txt", offset: 0 })
 * // → { ok: false, error: { code: "EINPUT", message: "read input offset must be ≥ 1, got 0" } }
 * ```
 */
export function guardExecute<Input, Result extends ToolResult>(
  kind: Result["kind"],
  validate: (input: unknown) => Input,
  run: (input: Input, call?: ToolCall) => Promise<Result>,
): (input: Input, call?: ToolCall) => Promise<Result> {
  return async (input, call) => {
    let checked: Input;
    try {
      checked = validate(input);
    } catch (error) {
      if (ToolInputError.isInstance(error))
        return errorResult(kind, { code: "EINPUT", message: error.message }) as unknown as Result;
      throw error;
    }
    try {
      return await run(checked, call);
    } catch (error) {
      if (isAbort(error, call)) throw error;
      if (FsError.isInstance(error))
        return errorResult(kind, { code: error.code, message: error.message }) as unknown as Result;
      if (ToolInputError.isInstance(error))
        return errorResult(kind, { code: "EINPUT", message: error.message }) as unknown as Result;
      const message = error instanceof Error ? error.message : String(error);
      return errorResult(kind, {
        code: "EIO",
        message: message === "" ? "The tool failed with an unexplained error." : message,
      }) as unknown as Result;
    }
  };
}

/** The result kind of each core tool, by core name. */
const RESULT_KINDS: Readonly<Record<string, ToolResult["kind"]>> = {
  read: "read",
  write: "mutation",
  edit: "mutation",
  apply_patch: "mutation",
  list: "search",
  glob: "search",
  grep: "search",
  bash: "shell",
};

/**
 * A core tool spoken in a signature's dialect: the signature's name, description (else the
 * core's) and schema; `validate` checks the model input through `toInput` and the core rules;
 * `execute` maps the input with `toInput`, runs the core tool and renders the result with
 * `toResult`. What `createFsTools` and the MCP server make of `read: { signature }`.
 *
 * @param core - the core tool.
 * @param signature - a signature over that tool's input (`lineRangePreset().read`).
 * @returns a {@link CoreTool} taking the signature's model input. Like every core tool it never
 *   throws for a bad input: `toInput`'s {@link ToolInputError} is an `EINPUT` result.
 * @example
 * ```ts
 * const readFile = withSignature(createReadTool({ fs, cwd: "/w" }), lineRangePreset().read);
 * await readFile({ path: "a.ts", startLine: 2, endLine: 3 }); // "[a.ts lines 2-3 of 9]\n..."
 * ```
 */
export function withSignature<Input, ModelInput, Result extends ToolResult>(
  core: CoreTool<Input, Result>,
  signature: ToolSignature<Input, ModelInput, Result>,
): CoreTool<ModelInput, Result> {
  const validate = (input: unknown): ModelInput => {
    core.validate(signature.toInput(input as ModelInput));
    return input as ModelInput;
  };
  return coreTool<ModelInput, Result>({
    name: signature.name,
    description: signature.description ?? core.description,
    inputSchema: signature.inputSchema,
    validate,
    execute: async (input, call) => {
      let coreInput: Input;
      try {
        coreInput = core.validate(signature.toInput(input));
      } catch (error) {
        if (!ToolInputError.isInstance(error)) throw error;
        const failed = errorResult(RESULT_KINDS[core.name] ?? "read", { code: "EINPUT", message: error.message });
        return (signature.toResult ? signature.toResult(failed as Result, input) : failed) as Result;
      }
      const result = await core.execute(coreInput, call);
      return signature.toResult ? signature.toResult(result, input) : result;
    },
  });
}

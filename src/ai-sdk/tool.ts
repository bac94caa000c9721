/**
 * One core tool → one AI SDK 7 tool: strict schema, input validation through the signature and
 * the core check, the AI SDK call options as `call.host`, and results mapped for the model.
 *
 * @module
 */
import {
  jsonSchema,
  type FlexibleSchema,
  type JSONSchema7,
  type ModelMessage,
  type Tool,
  type ToolExecutionOptions,
} from "ai";
import type { PermissionOptions } from "../gate/gate.js";
import type { ToolResult } from "../tools/kit/result.js";
import { optionValueError } from "../contract/options.js";
import { ToolInputError, type CoreToolParts, type ToolCall, type ToolSignature } from "../tools/kit/tool.js";
import type { ToolContextOptions } from "../tools/kit/context.js";
import { approvalTargets, approvedPermissions, probeApprovals } from "./approval.js";
import { toAiSdkOutput } from "./output.js";
import { toStrictSchema } from "./strict-schema.js";

/** Tool names providers accept (OpenAI: `^[a-zA-Z0-9_-]{1,64}$`). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Tool-specific context the AI SDK validates (`toolsContext[name]`) and hands to the tool. */
export type AiSdkToolContext = Record<string, unknown>;

/**
 * The call a core tool sees when the AI SDK runs it: `host` is always there, with the step's
 * messages and the tool's `toolsContext` entry as `context` (typed by the factory's type
 * argument or its `contextSchema`). What an `fs` or `state` function of the call receives.
 */
export interface AiSdkToolCall<Context = AiSdkToolContext> extends ToolCall {
  /** The AI SDK tool call id. */
  readonly toolCallId: string;
  /** The AI SDK's `ToolExecutionOptions`, as the core tools read them. */
  readonly host: {
    /** The messages sent to the model in the step that made the call. */
    readonly messages: readonly ModelMessage[];
    /** The tool's `toolsContext[name]` entry, validated by its `contextSchema`. */
    readonly context: Context;
    /** Aborts the call. */
    readonly abortSignal?: AbortSignal;
  };
}

/** A value, or a function of the AI SDK call giving it (the `fs` and `state` options of the AI SDK factories). */
export type AiSdkPerCall<T, Context = AiSdkToolContext> = T | ((call: AiSdkToolCall<Context>) => T | Promise<T>);

/**
 * A model input as strict mode sends it: each optional parameter may also be `null` (strict mode
 * makes every parameter required and nullable; `null` means left out). What `execute` and
 * `needsApproval` accept.
 *
 * @example
 * ```ts
 * type Sent = StrictModelInput<{ path: string; offset?: number }>; // { path: string; offset?: number | null }
 * ```
 */
export type StrictModelInput<T> = T extends object ? { [K in keyof T]: {} extends Pick<T, K> ? T[K] | null : T[K] } : T;

/**
 * An AI SDK tool made from a core tool: model input in (optional parameters as `null` too, as
 * strict mode sends them: {@link StrictModelInput}), the whole core result out.
 */
export type AiSdkFsTool<
  ModelInput = Record<string, unknown>,
  Result extends ToolResult = ToolResult,
  Context = AiSdkToolContext,
> = Tool<StrictModelInput<ModelInput>, Result, Context> & {
  readonly strict: true;
  /** The tool's name (its signature's): the key to give it in `tools`, as `{ [read.name]: read }`. */
  readonly name: string;
};

/** Adapter options every AI SDK tool factory takes, besides its core factory's options. */
export interface AiSdkAdapterOptions<CoreInput, ModelInput, Result extends ToolResult, Context> {
  /** The model-facing dialect (name, parameters, mapping). Default: the core tool's own schema and name. */
  readonly signature?: ToolSignature<CoreInput, ModelInput, Result>;
  /**
   * Schema of this tool's entry in the AI SDK's `toolsContext`. The AI SDK validates the entry and
   * the core receives it as `call.host.context`, so `fs`/`state` functions can pick a workspace
   * per request.
   */
  readonly contextSchema?: FlexibleSchema<Context>;
  /**
   * Ask the user through AI SDK tool approval (`needsApproval`) instead of `permissions.approve`:
   * a call whose paths or command the gate would put to `approve` needs approval; once approved,
   * the gate admits exactly those requests for that call. Cannot be combined with `permissions.approve`.
   * @default false
   */
  readonly needsApproval?: boolean;
}

/** What {@link toAiSdkTool} needs besides the adapter options. */
export interface AiSdkToolSource<CoreInput, Result extends ToolResult> {
  /** The factory's name, for error messages (`createAiSdkReadTool`). */
  readonly factory: string;
  /** The core tool. */
  /** The core tool (a {@link CoreTool}, or any object of its parts). */
  readonly core: CoreToolParts<CoreInput, Result>;
  /**
   * The shared options the core was made with (for approval probes), and a way to make the same
   * core tool with other permissions (for approved calls). Needed only with `needsApproval`.
   */
  readonly approval?: {
    readonly contextOptions: ToolContextOptions;
    readonly withPermissions: (permissions: PermissionOptions) => CoreToolParts<CoreInput, Result>;
  };
}

/** The `ToolCall` a core tool sees for an AI SDK execution. */
function toToolCall<Context>(options: {
  toolCallId: string;
  messages: readonly ModelMessage[];
  abortSignal?: AbortSignal;
  context?: Context;
}): AiSdkToolCall<Context> {
  return {
    toolCallId: options.toolCallId,
    abortSignal: options.abortSignal,
    host: { messages: options.messages, context: options.context as Context, abortSignal: options.abortSignal },
  };
}

/**
 * Turn a core tool into an AI SDK 7 tool (`strict: true`): the adapter behind every factory of
 * this module, for core tools that have no factory here (`list`, `glob`, `grep`, your own).
 *
 * The signature's schema is converted with {@link toStrictSchema}. Model input is checked by the
 * schema's `validate` hook: `null` for an optional parameter becomes absent, keys outside the
 * signature's parameters and missing required ones are refused, then `signature.toInput` and the
 * core `validate` run, so checks strict mode dropped (minLength, ...) still apply. A refusal is a
 * {@link ToolInputError} the AI SDK hands to the model as a tool error. `execute` returns the
 * whole core result (after `signature.toResult`); `toModelOutput` maps it with {@link toAiSdkOutput}.
 *
 * @param core - the core tool (a callable `CoreTool`, or a plain object of its parts: `name`,
 *   `description`, `inputSchema`, `validate`, `execute`).
 * @param options - `signature`, `contextSchema` (`needsApproval` needs a factory: use the
 *   `createAiSdk...Tool` factories for it).
 * @returns an AI SDK tool to put in `generateText({ tools })` under `signature.name`.
 * @throws TypeError when the signature is not one (no `toInput`), its name is not 1 to 64 letters,
 *   digits, `_` or `-`, or its schema cannot be expressed in strict mode (see {@link toStrictSchema});
 *   or when `contextSchema` is not a schema (zod or another Standard Schema, `jsonSchema()`, or a
 *   function returning one).
 * @example
 * ```ts
 * const list = toAiSdkTool(createListTool({ fs }));
 * await generateText({ model, tools: { list }, prompt });
 * ```
 */
export function toAiSdkTool<CoreInput, Result extends ToolResult, ModelInput = CoreInput, Context = AiSdkToolContext>(
  core: CoreToolParts<CoreInput, Result>,
  options: Omit<AiSdkAdapterOptions<CoreInput, ModelInput, Result, Context>, "needsApproval"> = {},
): AiSdkFsTool<ModelInput, Result, Context> {
  if ((typeof core !== "object" && typeof core !== "function") || core === null || typeof core.execute !== "function") {
    throw new TypeError("toAiSdkTool needs a core tool (an object with name, inputSchema, validate and execute)");
  }
  return adaptCoreTool({ factory: "toAiSdkTool", core }, options);
}

/**
 * Throw when `value` is given and is not a schema the AI SDK takes: a `jsonSchema()` (or
 * `zodSchema()`) schema, a Standard Schema (zod, valibot, arktype ...: it has `~standard`), or a
 * lazy schema (a function returning one).
 *
 * @internal used by the factories of this module and the bundle.
 */
export function assertContextSchema(factory: string, value: unknown): void {
  if (value === undefined || typeof value === "function") return;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string | symbol, unknown>;
    const isAiSdkSchema = record[Symbol.for("vercel.ai.schema")] === true && "jsonSchema" in record;
    const standard = record["~standard"];
    if (isAiSdkSchema || (typeof standard === "object" && standard !== null)) return;
  }
  const shown = typeof value === "object" && value !== null ? "an object that is not a schema" : JSON.stringify(value);
  optionValueError(
    factory,
    "contextSchema",
    `must be a schema (zod or another Standard Schema, jsonSchema(), or a function returning one), got ${shown}`,
  );
}

/**
 * {@link toAiSdkTool} with a factory name for messages and, for `needsApproval`, a way to remake
 * the core with other permissions.
 *
 * @internal used by the factories of this module.
 */
export function adaptCoreTool<CoreInput, ModelInput, Result extends ToolResult, Context = AiSdkToolContext>(
  source: AiSdkToolSource<CoreInput, Result>,
  options: AiSdkAdapterOptions<CoreInput, ModelInput, Result, Context>,
): AiSdkFsTool<ModelInput, Result, Context> {
  const { core, factory } = source;
  assertContextSchema(factory, options.contextSchema);
  const signature: ToolSignature<CoreInput, ModelInput, Result> = options.signature ?? {
    name: core.name,
    description: core.description,
    inputSchema: core.inputSchema,
    toInput: (input) => input as unknown as CoreInput,
  };
  if (typeof signature !== "object" || signature === null || typeof signature.toInput !== "function") {
    throw new TypeError(`${factory} signature must be an object with a name, an inputSchema and a toInput function`);
  }
  const name = signature.name;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    throw new TypeError(
      `${factory} signature name must be 1 to 64 letters, digits, _ or - (what providers accept), got ${JSON.stringify(name)}`,
    );
  }
  const strict = toStrictSchema(signature.inputSchema, name);
  const parameters = strict.parameters;
  const required = strict.requiredParameters;
  const expected = `Expected ${parameters.join(", ")}`;

  const check = (value: unknown): ModelInput => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new ToolInputError(`${name} input must be an object. ${expected}`);
    }
    const input = strict.stripNulls(value) as Record<string, unknown>;
    const unknownKeys = Object.keys(input).filter((key) => !parameters.includes(key));
    if (unknownKeys.length > 0) {
      throw new ToolInputError(
        `Unknown ${name} input key${unknownKeys.length > 1 ? "s" : ""}: ${unknownKeys.join(", ")}. ${expected}`,
      );
    }
    const missing = required.filter((key) => input[key] === undefined);
    if (missing.length > 0) {
      throw new ToolInputError(
        `Missing ${name} input key${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}. ${expected}`,
      );
    }
    core.validate(signature.toInput(input as ModelInput));
    return input as ModelInput;
  };

  const inputSchema = jsonSchema<StrictModelInput<ModelInput>>(strict.schema as JSONSchema7, {
    validate: (value) => {
      try {
        // Nulls taken out: a ModelInput, which is also a StrictModelInput (null is only allowed, never required).
        return { success: true, value: check(value) as StrictModelInput<ModelInput> };
      } catch (error) {
        if (ToolInputError.isInstance(error)) return { success: false, error };
        throw error;
      }
    },
  });

  const approval = source.approval;
  if (options.needsApproval === true) {
    if (approval === undefined) throw new TypeError(`${factory} needsApproval needs the core tool's options`);
    if (approval.contextOptions.permissions?.approve !== undefined) {
      throw new TypeError(`${factory} needsApproval replaces permissions.approve: set one of them`);
    }
  }
  const approvalMode = options.needsApproval === true && approval !== undefined;

  const run = async (
    given: StrictModelInput<ModelInput>,
    executionOptions: ToolExecutionOptions<Context>,
  ): Promise<Result> => {
    const call = toToolCall(executionOptions);
    // The SDK hands over the input its schema validated (nulls already taken out); a direct call
    // may pass the model's own strict-mode input, `null` for a parameter left out.
    const input = check(given);
    const coreInput = core.validate(signature.toInput(input));
    let runner = core;
    if (approvalMode) {
      const requests = await probeApprovals(
        factory,
        approval.contextOptions,
        approvalTargets(core.name, coreInput),
        call,
      );
      if (requests.length > 0)
        runner = approval.withPermissions(approvedPermissions(approval.contextOptions.permissions?.allow, requests));
    }
    const result = await runner.execute(coreInput, call);
    return signature.toResult ? signature.toResult(result, input) : result;
  };

  const made = {
    name,
    description: signature.description ?? core.description,
    inputSchema,
    strict: true,
    ...(options.contextSchema === undefined ? {} : { contextSchema: options.contextSchema }),
    ...(approvalMode
      ? {
          needsApproval: async (
            given: StrictModelInput<ModelInput>,
            needsOptions: { toolCallId: string; messages: ModelMessage[]; context: Context },
          ) => {
            const call = toToolCall(needsOptions);
            const coreInput = core.validate(signature.toInput(check(given)));
            const requests = await probeApprovals(
              factory,
              approval.contextOptions,
              approvalTargets(core.name, coreInput),
              call,
            );
            return requests.length > 0;
          },
        }
      : {}),
    execute: run,
    toModelOutput: ({ output }: { output: Result }) => toAiSdkOutput(output),
  };
  return made as unknown as AiSdkFsTool<ModelInput, Result, Context>;
}

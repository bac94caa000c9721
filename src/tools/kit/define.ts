/**
 * `defineCoreTool`: the one prologue of every core tool factory. The option keys are checked
 * (the shared context keys plus the tool's settings), the tool's settings resolved, the shared
 * options checked and turned into a per-call context; the tool's input is checked against its
 * fields on every call, and its body runs inside {@link guardExecute}.
 *
 * @module
 */
import { assertKnownOptions } from "../../contract/options.js";
import { CONTEXT_OPTION_KEYS, createContextResolver, type ToolContext, type ToolContextOptions } from "./context.js";
import { checkInput, specSchema, type InputSpec } from "./input.js";
import { pathFormError } from "./path-form.js";
import { errorResult, RELAXED_DURABILITY_NOTE, type ToolResult } from "./result.js";
import { coreTool, guardExecute, type CoreTool, type JsonSchema, type ToolCall } from "./tool.js";

/** A tool input described by its own check and schema instead of an {@link InputSpec}. */
export interface CustomInput<Input> {
  /** JSON Schema of the input (an object). */
  readonly schema: JsonSchema;
  /** Check an input and return it typed; throws `ToolInputError` naming the parameter. */
  readonly check: (input: unknown) => Input;
}

/** What {@link defineCoreTool} needs to know about a tool. */
export interface CoreToolDefinition<Options extends ToolContextOptions, Input, Result extends ToolResult, Setup> {
  /** The factory's name, for option errors: `createReadTool`. */
  readonly factory: string;
  /** The core name: `read`, `write`, `edit`, `apply_patch`, `list`, `glob`, `grep`, `bash`. */
  readonly name: string;
  /** The kind of result, for failed results made from thrown errors (`read`, `mutation`, `search`, `shell`). */
  readonly kind: Result["kind"];
  /** The input's fields (checked by `checkInput`, shown by `specSchema`), or a {@link CustomInput}. */
  readonly spec: InputSpec | CustomInput<Input>;
  /** The tool's own option keys, accepted besides {@link CONTEXT_OPTION_KEYS}. */
  readonly settings: readonly string[];
  /**
   * Check and resolve the tool's own settings, once, after the key check and before the shared
   * options are checked. Throws `OptionError` naming the option.
   */
  readonly setup?: (options: Options) => Setup;
  /** The description the model reads, fixed or made from the resolved settings. */
  readonly description: string | ((setup: Setup, options: Options) => string);
  /** Adjust the schema made from `spec` (e.g. a maximum that depends on a setting). */
  readonly schema?: (schema: JsonSchema, setup: Setup) => JsonSchema;
  /** Rules beyond `spec`, run after it on every input; throws `ToolInputError`. */
  readonly check?: (input: Input, setup: Setup) => void;
  /**
   * The tool's body: the checked input, the call's context (gate, state, locks, digest, clock,
   * call) and the resolved settings. Returns failures as `ok: false` results; what it throws
   * becomes one through {@link guardExecute} (aborts excepted).
   */
  readonly run: (input: Input, context: ToolContext, setup: Setup) => Promise<Result>;
}

function isCustom<Input>(spec: InputSpec | CustomInput<Input>): spec is CustomInput<Input> {
  // A field of an InputSpec is an object, never a function.
  return typeof (spec as CustomInput<Input>).check === "function";
}

/**
 * Define a core tool: returns its factory. The factory checks its options once, at creation,
 * and returns a plain {@link CoreTool} object.
 *
 * At creation the factory: refuses unknown option keys (anything outside
 * {@link CONTEXT_OPTION_KEYS} and `settings`); runs `setup`; checks the shared options
 * ({@link createContextResolver}). Each `execute` checks the input (`spec`, then `check`; a
 * refusal is an `EINPUT` result), refuses an input `path` written as a `file:` URL or with a `~`
 * home prefix ({@link pathFormError}: an `EINPUT` result naming the path to give), resolves the
 * call's context and runs `run` inside {@link guardExecute}.
 *
 * @param definition - the tool's names, kind, input, settings and body ({@link CoreToolDefinition}).
 * @returns the factory `(options) => CoreTool`; the tool is a function of its input that also
 *   has `name`, `description`, `inputSchema`, `validate` and `execute` ({@link coreTool}).
 * @throws nothing itself; the factory throws `OptionError` (a TypeError) for an unknown option
 *   key (`createReadTool got an unknown option "maxbytes". Known options: fs, cwd, ...`) or a bad
 *   value (`createReadTool maxBytes must be a positive integer, got 0`), and TypeError for a
 *   missing `fs` or a non-object options argument.
 * @example
 * ```ts
 * const createShoutTool = defineCoreTool({
 *   factory: "createShoutTool",
 *   name: "shout",
 *   kind: "read",
 *   spec: { text: { type: "string", required: true, description: "What to shout." } },
 *   settings: [],
 *   description: "Shout a text back.",
 *   run: async (input: { text: string }) => ({ kind: "read", ok: true, parts: textParts(input.text.toUpperCase()) }),
 * });
 * const shout = createShoutTool({ fs: memoryFileSystem() });
 * await shout.execute({ text: "hi" }); // parts: [{ type: "text", text: "HI" }]
 * await shout({ text: "hi" }); // the same
 * ```
 */
/** A successful mutation on a backend whose durability is relaxed says so, in a field and in its text. */
function withDurability<Result extends ToolResult>(result: Result, durability: "relaxed" | undefined): Result {
  if (durability !== "relaxed" || result.kind !== "mutation" || !result.ok) return result;
  return {
    ...result,
    durability,
    parts: [...result.parts, { type: "text", text: RELAXED_DURABILITY_NOTE }],
  };
}

export function defineCoreTool<Options extends ToolContextOptions, Input, Result extends ToolResult, Setup = undefined>(
  definition: CoreToolDefinition<Options, Input, Result, Setup>,
): (options: Options) => CoreTool<Input, Result> {
  const { factory, name, kind, spec, settings } = definition;
  const known: readonly string[] = Object.freeze([...CONTEXT_OPTION_KEYS, ...settings]);
  const custom = isCustom(spec) ? spec : undefined;
  const baseSchema = custom?.schema ?? specSchema(spec as InputSpec);
  const checkSpec = custom?.check ?? ((input: unknown): Input => checkInput<Input>(name, input, spec as InputSpec));
  return (options: Options): CoreTool<Input, Result> => {
    assertKnownOptions(factory, options, known);
    const setup = definition.setup === undefined ? (undefined as Setup) : definition.setup(options);
    const resolve = createContextResolver(factory, options);
    const validate = (input: unknown): Input => {
      const checked = checkSpec(input);
      definition.check?.(checked, setup);
      return checked;
    };
    const description =
      typeof definition.description === "function" ? definition.description(setup, options) : definition.description;
    return coreTool({
      name,
      description,
      inputSchema: definition.schema === undefined ? baseSchema : definition.schema(baseSchema, setup),
      validate,
      execute: guardExecute<Input, Result>(kind, validate, async (input: Input, call?: ToolCall): Promise<Result> => {
        const given = (input as { readonly path?: unknown }).path;
        const form = typeof given === "string" ? pathFormError(given) : undefined;
        if (form !== undefined) return errorResult(kind, form) as unknown as Result;
        const context = await resolve(call);
        return withDurability(await definition.run(input, context, setup), context.gate.fs.durability);
      }),
    });
  };
}

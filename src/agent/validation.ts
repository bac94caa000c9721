/**
 * Checking what a run produced: the expected output files exist, and the host's own `validate`
 * accepts the result. What fails becomes feedback for the model.
 *
 * @module
 */
import type { FileSystem } from "../contract/types.js";
import type { Gate } from "../gate/gate.js";

/** Feedback rounds after a failed check when `maxValidationRetries` is not given: 2. */
export const DEFAULT_MAX_VALIDATION_RETRIES = 2;

/** What `validate` is given after a run. */
export interface ValidationContext<Input, Output> {
  /** The run's final text. */
  readonly text: string;
  /** The run's output (the text, unless the agent has an `output` specification). */
  readonly output: Output;
  /** The agent's backend behind its gate (paths relative to the working directory). */
  readonly fs: FileSystem;
  /** The run's input. */
  readonly input: Input;
}

/** The host's check: `undefined` (or nothing) to accept, a string of feedback for the model to refuse. */
export type Validate<Input, Output> = (
  context: ValidationContext<Input, Output>,
) => string | undefined | void | Promise<string | undefined | void>;

/** One failed check of a run. */
export type ValidationFailure =
  | { readonly kind: "missing-output"; readonly path: string; readonly message: string }
  | { readonly kind: "validate"; readonly message: string }
  /** The model called a tool in the last step, where tools are disabled (after `maxToolRounds`). */
  | { readonly kind: "rounds"; readonly message: string }
  /** The final answer did not parse as the agent's structured `output`. */
  | { readonly kind: "output"; readonly message: string };

/**
 * The expected output files that do not exist (as files), checked through the gate.
 *
 * @param gate - the agent's gate.
 * @param paths - paths relative to the gate's cwd, or absolute.
 * @returns the missing paths, in the order given (a path the gate refuses counts as missing).
 * @throws whatever the backend raises besides `ENOENT`/`ENOTDIR`.
 * @internal used by createWorkspaceAgent for cache hits and after runs.
 */
export async function missingFiles(gate: Gate, paths: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const path of paths) {
    const checked = await gate.check(path, "read");
    if (!checked.ok) {
      missing.push(path);
      continue;
    }
    try {
      const stat = await gate.backend.stat(checked.path);
      if (stat.type !== "file") missing.push(path);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      missing.push(path);
    }
  }
  return missing;
}

/**
 * Run the checks of a finished run: missing expected files first, then `validate` (which runs
 * only when every expected file exists).
 *
 * @returns the failures, empty when the run passes.
 * @throws whatever `validate` or the backend throws.
 * @internal used by createWorkspaceAgent.
 */
export async function checkRun<Input, Output>(options: {
  readonly gate: Gate;
  readonly expected: readonly string[];
  readonly validate: Validate<Input, Output> | undefined;
  readonly context: ValidationContext<Input, Output>;
}): Promise<ValidationFailure[]> {
  const missing = await missingFiles(options.gate, options.expected);
  if (missing.length > 0) {
    return missing.map((path) => ({
      kind: "missing-output" as const,
      path,
      message: `The expected output file ${path} does not exist: write it with the write tool.`,
    }));
  }
  const verdict = await options.validate?.(options.context);
  if (typeof verdict === "string" && verdict !== "") return [{ kind: "validate", message: verdict }];
  return [];
}

/**
 * The user turn that tells the model what failed.
 *
 * @param failures - the failures of the last attempt (not empty).
 * @returns the feedback text: one line per failure after a heading.
 * @example
 * ```ts
 * feedbackText([{ kind: "validate", message: "The summary is too short." }]);
 * // "Your result did not pass the checks:\n- The summary is too short.\nFix this, then give your final answer again."
 * ```
 */
export function feedbackText(failures: readonly ValidationFailure[]): string {
  const lines = failures.map((failure) => `- ${failure.message}`).join("\n");
  return `Your result did not pass the checks:\n${lines}\nFix this, then give your final answer again.`;
}

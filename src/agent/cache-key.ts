/**
 * The key of a cached agent run: everything that decides what the run does, hashed.
 *
 * @module
 */
import type { Digest } from "../contract/digest.js";
import type { JsonValue } from "../tools/kit/tool.js";

/** What a run's key is made of (see {@link runCacheKey}). */
export interface RunKeyParts {
  /** The model: `provider:modelId` of a model object, or the gateway id string. */
  readonly model: string;
  /** The system prompt the model receives: the instructions and the memory file, as sent. */
  readonly system: string | undefined;
  /** The prompt of the run (`""` for a run given `messages`). */
  readonly prompt: string;
  /** The conversation of a run given `messages` instead of a prompt (absent otherwise, so prompt keys are unchanged). */
  readonly messages?: JsonValue;
  /** The run's input (passed to `expectedOutputFiles` and `validate`), `null` when none. */
  readonly input: JsonValue;
  /** Which workspace: the backend's name, the working directory and the allowed roots. */
  readonly workspace: { readonly backend: string; readonly cwd: string; readonly roots: readonly string[] };
  /** The names of the tools the model may call, in the order they are sent. */
  readonly tools: readonly string[];
  /** `hashFiles(fs, inputGlobs)`, or `null` without `inputGlobs`. */
  readonly files: string | null;
  /** The structured output's response format (its JSON Schema), absent for text (so text keys are unchanged). */
  readonly output?: JsonValue;
}

/** Version of the key record: bump it when the record changes, so old entries stop matching. */
export const RUN_KEY_VERSION = 1;

const encoder = new TextEncoder();

/**
 * JSON with object keys sorted, so equal values always give equal text.
 *
 * @param value - a JSON value.
 * @returns its canonical JSON text.
 * @throws TypeError for a value JSON cannot hold (a function, a bigint, a cycle) or a
 *   non-finite number.
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, new Set());
}

function canonical(value: unknown, seen: Set<object>): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`run input must be JSON: ${value} is not a finite number`);
    return JSON.stringify(value);
  }
  if (typeof value !== "object") throw new TypeError(`run input must be JSON: got a ${typeof value}`);
  if (seen.has(value)) throw new TypeError("run input must be JSON: it contains a cycle");
  seen.add(value);
  try {
    if (Array.isArray(value)) return `[${value.map((item) => canonical(item, seen)).join(",")}]`;
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item, seen)}`).join(",")}}`;
  } finally {
    seen.delete(value);
  }
}

/**
 * The cache key of a run: the digest of the canonical JSON of its parts and
 * {@link RUN_KEY_VERSION}. Two runs share a key exactly when every part is equal.
 *
 * @param parts - model, system prompt, prompt, input, workspace identity, tool names and the
 *   input files' hash.
 * @param digest - the digest (SHA-256 by default in the agent).
 * @returns the digest's hex string (64 characters for SHA-256).
 * @throws TypeError when `input` is not JSON (see {@link canonicalJson}).
 * @example
 * ```ts
 * await runCacheKey({ model: "mock:m", system: undefined, prompt: "hi", input: null,
 *   workspace: { backend: "memory", cwd: "/", roots: ["/"] }, tools: ["read"], files: null }, sha256Digest());
 * // "3f1a…" (64 hex characters)
 * ```
 */
export async function runCacheKey(parts: RunKeyParts, digest: Digest): Promise<string> {
  return digest(encoder.encode(canonicalJson({ version: RUN_KEY_VERSION, ...parts })));
}

/**
 * The model's name in a key: `provider:modelId` for a model object, the id for a string.
 *
 * @param model - an AI SDK `LanguageModel`.
 * @returns the name.
 * @internal used by createWorkspaceAgent.
 */
export function modelName(model: unknown): string {
  if (typeof model === "string") return model;
  const { provider, modelId } = (model ?? {}) as { provider?: unknown; modelId?: unknown };
  return `${String(provider)}:${String(modelId)}`;
}

/**
 * `better-fs-tools/sandbox`: the AI SDK 7 `Experimental_SandboxSession` both ways.
 *
 * - {@link toSandboxSession}: our backend and runner as a session, for AI SDK tools and
 *   harnesses that take `experimental_sandbox`;
 * - {@link fromSandboxSession}: any session (a remote one included) as our backend and runner.
 *
 * @experimental the AI SDK types are experimental and may change in patch releases.
 * @module
 */
export { DEFAULT_SANDBOX_TIMEOUT_MS, toSandboxSession } from "./to-sandbox-session.js";
export type { ToSandboxSessionOptions } from "./to-sandbox-session.js";
export { fromSandboxSession, MAX_SANDBOX_SYMLINK_HOPS } from "./from-sandbox-session.js";
export type { FromSandboxSessionOptions, SandboxBackend } from "./from-sandbox-session.js";

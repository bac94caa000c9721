/**
 * `better-fs-tools/node`: the Node backend ({@link nodeFileSystem}), a real shell runner
 * ({@link nodeCommandRunner}) and a `node:crypto` digest ({@link nodeDigest}). Node only.
 *
 * @module
 */
export {
  NODE_FILE_SYSTEM_NAME,
  type NodeFileSystem,
  nodeFileSystem,
  type NodeFileSystemOptions,
} from "./file-system.js";
export { nodeDigest } from "./digest.js";
export {
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_NODE_MAX_OUTPUT_BYTES,
  nodeCommandRunner,
  type NodeCommandRunnerOptions,
} from "./command-runner.js";

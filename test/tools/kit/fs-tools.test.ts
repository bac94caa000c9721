import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { testFsToolsBundle } from "./suite.js";

testFsToolsBundle(async () => memoryFileSystem());

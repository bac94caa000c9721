import { memoryFileSystem } from "../../src/fs/memory.js";
import { testFsToolsBundle } from "./suite.js";

testFsToolsBundle(async () => memoryFileSystem());

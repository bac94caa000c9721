import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { testGlobTool } from "../kit/suite.js";

testGlobTool(async () => memoryFileSystem());

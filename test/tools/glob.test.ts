import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { testGlobTool } from "./suite.js";

testGlobTool(async () => memoryFileSystem());

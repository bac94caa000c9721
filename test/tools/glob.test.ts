import { memoryFileSystem } from "../../src/fs/memory.js";
import { testGlobTool } from "./suite.js";

testGlobTool(async () => memoryFileSystem());

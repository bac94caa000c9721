import { memoryFileSystem } from "../../src/fs/memory.js";
import { testGrepTool } from "./suite.js";

testGrepTool(async () => memoryFileSystem());

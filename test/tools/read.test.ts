import { memoryFileSystem } from "../../src/fs/memory.js";
import { testReadTool } from "./suite.js";

testReadTool(async () => memoryFileSystem());

import { memoryFileSystem } from "../../src/fs/memory.js";
import { testListTool } from "./suite.js";

testListTool(async () => memoryFileSystem());

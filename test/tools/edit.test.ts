import { memoryFileSystem } from "../../src/fs/memory.js";
import { testEditTool } from "./suite.js";

testEditTool(async () => memoryFileSystem());

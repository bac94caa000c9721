import { memoryFileSystem } from "../../src/fs/memory.js";
import { testWriteTool } from "./suite.js";

testWriteTool(async () => memoryFileSystem());

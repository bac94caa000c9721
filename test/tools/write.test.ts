import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { testWriteTool } from "./suite.js";

testWriteTool(async () => memoryFileSystem());

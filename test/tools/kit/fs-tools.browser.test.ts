// The whole tool suite in headless Chromium on the memory backend: the tools use no Node API.
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { testTools } from "./suite.js";

testTools(async () => memoryFileSystem());
